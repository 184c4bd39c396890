import type { Pool } from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode, UsageError } from '../../../../src/core/errors.js';
import { createPool, parsePostgresUrl } from '../../../../src/core/store/postgres/connect.js';
import { checkIsHippoDatabase, migrate } from '../../../../src/core/store/postgres/migrate.js';
import { POSTGRES_SCHEMA_VERSION, POSTGRES_TABLES } from '../../../../src/core/store/postgres/schema.js';
import { freshDatabase, withClient, type FreshDatabase } from '../../../helpers/postgres.js';

const opened: { pools: Pool[]; databases: FreshDatabase[] } = { pools: [], databases: [] };
afterEach(async () => {
  for (const pool of opened.pools.splice(0)) await pool.end();
  for (const database of opened.databases.splice(0)) await database.drop();
});

async function fresh(): Promise<FreshDatabase> {
  const database = await freshDatabase();
  opened.databases.push(database);
  return database;
}

async function pool(url: string): Promise<Pool> {
  const created = await createPool(parsePostgresUrl(url, {}), {});
  opened.pools.push(created);
  return created;
}

/** Every relation, function, text search object and extension in the database's public schema, as a fingerprint. */
async function objects(url: string): Promise<string[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ name: string }>(`
      SELECT c.relkind::text || ':' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
      UNION ALL SELECT 'fn:' || p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
      UNION ALL SELECT 'cfg:' || cfgname FROM pg_ts_config c JOIN pg_namespace n ON n.oid = c.cfgnamespace WHERE n.nspname = 'public'
      UNION ALL SELECT 'ext:' || extname FROM pg_extension
      ORDER BY 1`);
    return rows.map((row) => row.name);
  });
}

async function refusal(promise: Promise<unknown>): Promise<UsageError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UsageError);
  expect((error as UsageError).exitCode).toBe(ExitCode.usage);
  return error as UsageError;
}

describe('migrate', () => {
  it('creates the whole schema in a fresh database, then finds nothing to do the second time', async () => {
    const database = await fresh();
    const target = parsePostgresUrl(database.url, {});
    const first = await migrate(await pool(database.url), target);
    expect(first).toEqual({ schema: 'public', from: 0, to: POSTGRES_SCHEMA_VERSION });
    const after = await objects(database.url);
    // The agents' tables are partitioned (relkind p, issue 25); the others plain.
    for (const table of ['settings', 'store_runs', 'mcp_tokens', 'hippo_schema']) expect(after).toContain(`r:${table}`);
    for (const table of ['memories', 'candidates', 'runs', 'handoffs'])
      expect(after).toEqual(expect.arrayContaining([`p:${table}`, `r:${table}_p0`, `r:${table}_p15`]));
    expect(after).not.toContain('r:memories_p16');
    expect(POSTGRES_TABLES).toContain('memories');
    // The search indexes are GIN over (agent_id, vector) on the partitioned table (migration 7); the single-column ones are gone.
    expect(after).toEqual(
      expect.arrayContaining(['I:memories_agent_fts', 'I:memories_agent_fts_context', 'cfg:hippo', 'ext:unaccent', 'ext:btree_gin', 'fn:hippo_fts_text']),
    );
    expect(after).not.toContain('I:memories_fts');
    const second = await migrate(await pool(database.url), target);
    expect(second).toEqual({ schema: 'public', from: POSTGRES_SCHEMA_VERSION, to: POSTGRES_SCHEMA_VERSION });
    expect(await objects(database.url)).toEqual(after);
    const state = await withClient(database.url, (client) => checkIsHippoDatabase(client));
    expect(state).toEqual({ state: 'hippo', schema: 'public', version: POSTGRES_SCHEMA_VERSION });
  });

  it('is safe when several processes migrate the same fresh database at once', async () => {
    const database = await fresh();
    const pools = await Promise.all([1, 2, 3, 4].map(() => pool(database.url)));
    // Every pool connected before any migrates, so the four really race for the lock.
    await Promise.all(pools.map((each) => each.query('SELECT 1')));
    const results = await Promise.all(pools.map((each) => migrate(each)));
    expect(results.filter((result) => result.from === 0)).toHaveLength(1);
    expect(results.every((result) => result.to === POSTGRES_SCHEMA_VERSION)).toBe(true);
    const rows = await withClient(database.url, async (client) => (await client.query('SELECT application, version FROM hippo_schema')).rows);
    expect(rows).toEqual([{ application: 'hippo', version: POSTGRES_SCHEMA_VERSION }]);
  });

  it('refuses a schema written by a newer hippo, changing nothing', async () => {
    const database = await fresh();
    await migrate(await pool(database.url));
    await withClient(database.url, (client) => client.query('UPDATE hippo_schema SET version = 999'));
    const before = await objects(database.url);
    const error = await refusal(migrate(await pool(database.url), parsePostgresUrl(database.url, {})));
    expect(error.code).toBe('database_too_new');
    expect(error.message).toContain(`newer hippo (schema 999; this hippo knows up to ${POSTGRES_SCHEMA_VERSION})`);
    expect(error.message).toContain(database.name);
    expect(await objects(database.url)).toEqual(before);
  });

  it("refuses a database holding another application's tables, touching nothing", async () => {
    const database = await fresh();
    await withClient(database.url, (client) => client.query('CREATE TABLE invoices (id int); INSERT INTO invoices VALUES (1)'));
    const before = await objects(database.url);
    const error = await refusal(migrate(await pool(database.url)));
    expect(error.code).toBe('not_a_hippo_database');
    expect(await objects(database.url)).toEqual(before);
    expect(before).not.toContain('ext:unaccent');
    // A table called hippo_schema that is not ours is refused too.
    const other = await fresh();
    await withClient(other.url, (client) => client.query('CREATE TABLE hippo_schema (name text)'));
    expect((await refusal(migrate(await pool(other.url)))).code).toBe('not_a_hippo_database');
  });

  it('migrates into the schema named by search_path, leaving public alone', async () => {
    const database = await fresh();
    await withClient(database.url, (client) => client.query('CREATE SCHEMA team; CREATE TABLE public.other_app (x int)'));
    const url = `${database.url}?options=${encodeURIComponent('-c search_path=team')}`;
    expect(await migrate(await pool(url))).toMatchObject({ schema: 'team', from: 0 });
    const tables = await withClient(
      database.url,
      async (client) =>
        (
          await client.query(
            "SELECT c.relname AS tablename FROM pg_class c WHERE c.relnamespace = 'team'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1",
          )
        ).rows,
    );
    expect(tables.map((row) => row.tablename)).toEqual([
      'candidates',
      'forget_receipts',
      'handoffs',
      'hippo_schema',
      'mcp_tokens',
      'memories',
      'read_audit',
      'runs',
      'settings',
      'store_runs',
    ]);
  });

  it('refuses (exit 2, nothing created) a search_path that names no existing schema', async () => {
    const database = await fresh();
    const before = await objects(database.url);
    const url = `${database.url}?options=${encodeURIComponent('-c search_path=no_such_schema')}`;
    const error = await refusal(migrate(await pool(url), parsePostgresUrl(url, {})));
    expect(error.code).toBe('not_a_hippo_database');
    expect(error.message).toMatch(/none of the schemas on search_path exists/);
    expect(await objects(database.url)).toEqual(before);
  });

  it('explains a missing unaccent extension it may not create, and rolls back whole', async () => {
    const database = await fresh();
    // The owner gives up its CREATE privilege on the database: a trusted extension can then not be created.
    await withClient(database.url, (client) => client.query(`REVOKE CREATE ON DATABASE ${database.name} FROM CURRENT_USER, PUBLIC`));
    const before = await objects(database.url);
    const error = await refusal(migrate(await pool(database.url), parsePostgresUrl(database.url, {})));
    expect(error.code).toBe('postgres_extension_missing');
    expect(error.message).toMatch(/CREATE EXTENSION unaccent/);
    expect(await objects(database.url)).toEqual(before);
  });

  it('names the missing permission when it may not create tables in the schema', async () => {
    const database = await fresh();
    await withClient(database.url, (client) => client.query('CREATE EXTENSION unaccent; REVOKE CREATE ON SCHEMA public FROM pg_database_owner, PUBLIC'));
    const error = await refusal(migrate(await pool(database.url), parsePostgresUrl(database.url, {})));
    expect(error.code).toBe('postgres_permission_denied');
    expect(error.message).toMatch(/permission denied for schema public/);
  });

  it('gives back what hippo writes exactly: ISO times with milliseconds, list order, JSON key order', async () => {
    const database = await fresh();
    const db = await pool(database.url);
    await migrate(db);
    const at = '2026-02-28T23:59:59.999Z';
    await db.query(
      `INSERT INTO memories (id, agent_id, content, tags, created_at, updated_at, expires_at, content_hash, derived_from)
       VALUES ('mem_1', 'a', 'text', $1, $2, $2, NULL, 'h', $3)`,
      [['zeta', 'alpha', 'Mixed Case'], at, ['mem_b', 'mem_a']],
    );
    await db.query(
      `INSERT INTO store_runs (id, kind, started_at, status, counts, errors, steps) VALUES ('run_1', 'rem rapid', $1, 'interrupted', $2, $3, $4)`,
      ['1000-01-01T00:00:00.000Z', '{"staged":2,"gathered":10}', '[{"code":"x"}]', '{"snapshot":"done","distill":"skipped"}'],
    );
    const memory = (await db.query('SELECT tags, created_at, derived_from, fts IS NOT NULL AS indexed FROM memories')).rows[0];
    expect(memory).toEqual({ tags: ['zeta', 'alpha', 'Mixed Case'], created_at: at, derived_from: ['mem_b', 'mem_a'], indexed: true });
    const run = (await db.query('SELECT started_at, counts::text AS counts, steps, status FROM store_runs')).rows[0];
    expect(run).toEqual({
      started_at: '1000-01-01T00:00:00.000Z',
      counts: '{"staged":2,"gathered":10}',
      steps: { snapshot: 'done', distill: 'skipped' },
      status: 'interrupted',
    });
    expect(Object.keys(run.steps)).toEqual(['snapshot', 'distill']);
    // PostgreSQL text cannot hold NUL (SQLite's can): the adapter must refuse it before the server does.
    await expect(db.query("INSERT INTO settings (key, value) VALUES ('k', $1)", ['a\u0000b'])).rejects.toMatchObject({ code: '22021' });
  });
});
