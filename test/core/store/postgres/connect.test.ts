import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import type { Pool } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode, StoreUnavailableError, UsageError } from '../../../../src/core/errors.js';
import {
  connectPool,
  isPostgresUrl,
  mapPgError,
  parsePostgresUrl,
  poolConfig,
  timestamptzToIso,
  type PostgresTarget,
} from '../../../../src/core/store/postgres/connect.js';
import { freePort, freshDatabase, serverUrl, startCluster, withClient, type Cluster, type FreshDatabase } from '../../../helpers/postgres.js';

const SECRET = 'Sup3r-s3cret_pässw0rd';

function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('expected a UsageError');
}

/** Every place a password could leak from an error: message, stack, JSON and util.inspect (which shows causes). */
function expectNoSecret(error: unknown, secret: string): void {
  const texts = [
    (error as Error).message,
    (error as Error).stack,
    JSON.stringify(error),
    JSON.stringify((error as { details?: unknown }).details),
    inspect(error, { depth: 10 }),
  ].map(String);
  for (const text of texts) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(encodeURIComponent(secret));
  }
}

async function failure(promise: Promise<unknown>, target: PostgresTarget): Promise<StoreUnavailableError> {
  try {
    await promise;
  } catch (error) {
    const mapped = mapPgError(error, target);
    expect(mapped).toBeInstanceOf(StoreUnavailableError);
    return mapped as StoreUnavailableError;
  }
  throw new Error('expected the call to fail');
}

describe('parsePostgresUrl', () => {
  const env = {};

  it('tells PostgreSQL URLs from SQLite paths', () => {
    expect(isPostgresUrl('postgres://h/db')).toBe(true);
    expect(isPostgresUrl(' PostgreSQL://h/db')).toBe(true);
    expect(isPostgresUrl('/home/ana/postgres://x.db')).toBe(false);
    expect(isPostgresUrl('postgres.db')).toBe(false);
    expect(isPostgresUrl('pg://h/db')).toBe(false);
  });

  it('reads user, password, host, port, database and parameters, and masks the password in the display form', () => {
    const target = parsePostgresUrl(
      `postgresql://ana:${encodeURIComponent(SECRET)}@db.example.com:6543/team%20store?sslmode=require&application_name=night`,
      env,
    );
    expect(target).toMatchObject({ host: 'db.example.com', port: 6543, user: 'ana', database: 'team store', sslmode: 'require', applicationName: 'night' });
    expect(target.display).toBe('postgres://ana:***@db.example.com:6543/team%20store?sslmode=require');
    expectNoSecret(target, SECRET);
    expect(poolConfig(target, env).password).toBe(SECRET);
  });

  it('fills what the URL leaves out the libpq way (PG* variables, then defaults)', () => {
    expect(parsePostgresUrl('postgres://', { PGHOST: 'pg.internal', PGPORT: '5433', PGUSER: 'bob', PGDATABASE: 'notes' })).toMatchObject({
      host: 'pg.internal',
      port: 5433,
      user: 'bob',
      database: 'notes',
      urlHasPassword: false,
    });
    expect(parsePostgresUrl('postgres://carol:pw@:5433/notes', env)).toMatchObject({ host: 'localhost', port: 5433, user: 'carol', database: 'notes' });
    const defaults = parsePostgresUrl('postgres://carol@', env);
    expect(defaults).toMatchObject({ host: 'localhost', port: 5432, user: 'carol', database: 'carol', sslmode: 'disable' });
    expect(defaults.display).toBe('postgres://carol@localhost:5432/carol');
  });

  it('takes IPv6 hosts and unix socket directories', () => {
    expect(parsePostgresUrl('postgres://u@[::1]:5000/d', env)).toMatchObject({ host: '::1', port: 5000, display: 'postgres://u@[::1]:5000/d' });
    expect(parsePostgresUrl('postgres://u@%2Fvar%2Frun%2Fpostgresql/d', env).host).toBe('/var/run/postgresql');
    expect(parsePostgresUrl('postgres:///d?host=/tmp/pg&user=u', env)).toMatchObject({ host: '/tmp/pg', user: 'u', database: 'd' });
  });

  it.each([
    ['mysql://u@h/d', /must start with postgres:\/\//],
    [`postgres://u:${SECRET}@h:99999/d`, /not a valid URL/],
    [`postgres://u:${SECRET}@h:0/d`, /port that is not a number from 1 to 65535/],
    [`postgres://u:${SECRET}@h:5432/d?port=abc`, /port that is not a number/],
    [`postgres://u:pa#${SECRET}@h/d`, /not a valid URL|# fragment/],
    [`postgres://u:${SECRET}@h1:5432,h2:5432/d`, /several hosts/],
    [`postgres://u:${SECRET}@h/d/extra`, /more than a database name/],
    [`postgres://u:${SECRET}@h/d?sslmode=sometimes`, /sslmode=sometimes; use one of disable/],
    [`postgres://u:${SECRET}@h/d?sslmode=verify-ca`, /verify-ca without sslrootcert/],
    [`postgres://u:${SECRET}@h/d?pool_size=3`, /unknown parameter "pool_size"/],
    [`postgres://u:${SECRET}@h/d?connect_timeout=soon`, /connect_timeout/],
    [`postgres://u:%zz${SECRET}@h/d`, /broken %-escape in the password/],
    [`postgres://u:${SECRET} @h/d`, /white space/],
  ])('refuses %s with exit 2 naming the problem, never the password', (url, problem) => {
    const error = usageError(() => parsePostgresUrl(url, env));
    expect(error.code).toBe('bad_postgres_url');
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toMatch(problem);
    expectNoSecret(error, SECRET);
  });

  it('refuses unreadable TLS files and bad timeout variables as usage errors', () => {
    const target = parsePostgresUrl('postgres://u@h/d?sslmode=verify-full&sslrootcert=/nonexistent/root.crt', env);
    expect(usageError(() => poolConfig(target, env)).message).toMatch(/cannot read the sslrootcert file \/nonexistent\/root.crt/);
    const plain = parsePostgresUrl('postgres://u@h/d', env);
    expect(usageError(() => poolConfig(plain, { HIPPO_PG_STATEMENT_TIMEOUT_MS: '5s' })).message).toMatch(/HIPPO_PG_STATEMENT_TIMEOUT_MS/);
  });

  it('sets application_name hippo, the timeouts and libpq TLS modes in the pool config', () => {
    const config = poolConfig(parsePostgresUrl('postgres://u:p@h/d', env), { HIPPO_PG_STATEMENT_TIMEOUT_MS: '1500', HIPPO_PG_CONNECT_TIMEOUT_MS: '700' });
    expect(config).toMatchObject({
      fallback_application_name: 'hippo',
      max: 4,
      statement_timeout: 1500,
      query_timeout: 11_500,
      connectionTimeoutMillis: 700,
      ssl: false,
    });
    expect(config.application_name).toBeUndefined();
    expect(poolConfig(parsePostgresUrl('postgres://u@h/d?connect_timeout=3', env), { HIPPO_PG_CONNECT_TIMEOUT_MS: '700' }).connectionTimeoutMillis).toBe(3000);
    expect(poolConfig(parsePostgresUrl('postgres://u@h/d?sslmode=require', env), env).ssl).toEqual({ rejectUnauthorized: false });
    expect(poolConfig(parsePostgresUrl('postgres://u@h/d?sslmode=verify-full', env), env).ssl).toEqual({ rejectUnauthorized: true });
    expect(poolConfig(parsePostgresUrl('postgres://u@h/d?sslmode=prefer', env), env).ssl).toBe(false);
    expect(poolConfig(parsePostgresUrl('postgres://u@h/d', { PGSSLMODE: 'require' }), env).ssl).toEqual({ rejectUnauthorized: false });
  });
});

describe('timestamptzToIso', () => {
  it('gives back ISO-8601 UTC with milliseconds from any ISO offset', () => {
    expect(timestamptzToIso('2026-02-28 23:59:59.999+00')).toBe('2026-02-28T23:59:59.999Z');
    expect(timestamptzToIso('2026-02-28 23:59:59+00')).toBe('2026-02-28T23:59:59.000Z');
    expect(timestamptzToIso('2026-02-28 23:59:59.5+00')).toBe('2026-02-28T23:59:59.500Z');
    expect(timestamptzToIso('2026-03-01 01:29:59.123456+05:30')).toBe('2026-02-28T19:59:59.123Z');
    expect(() => timestamptzToIso('infinity')).toThrow(/unexpected timestamptz/);
  });
});

describe('connecting to a real server', () => {
  let database: FreshDatabase;
  let good: PostgresTarget;
  let url: URL;
  const pools: Pool[] = [];
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    database = await freshDatabase();
    url = new URL(database.url);
    good = parsePostgresUrl(database.url, {});
  });
  afterEach(() => {
    for (const key of ['PGPASSWORD', 'PGPASSFILE', 'PGAPPNAME']) {
      if (savedEnv[key] === undefined) delete process.env[key];
      else process.env[key] = savedEnv[key];
    }
  });
  afterAll(async () => {
    for (const pool of pools) await pool.end().catch(() => undefined);
    await database.drop();
  });

  async function open(target: PostgresTarget, env: NodeJS.ProcessEnv = {}): Promise<Pool> {
    const { pool } = await connectPool(target, env);
    pools.push(pool);
    return pool;
  }

  /** The URL without its password, for the PGPASSWORD and ~/.pgpass paths. */
  function withoutPassword(): string {
    const copy = new URL(database.url);
    copy.password = '';
    return copy.toString();
  }

  it('connects as application_name hippo, in UTC, and gives timestamps back exactly as stored', async () => {
    const pool = await open(good);
    const { rows } = await pool.query<{ app: string; tz: string; at: string; n: number }>(
      "SELECT application_name AS app, current_setting('TimeZone') AS tz, $1::timestamptz AS at, count(*) AS n FROM pg_stat_activity WHERE pid = pg_backend_pid() GROUP BY 1",
      ['2026-02-28T23:59:59.999Z'],
    );
    expect(rows[0]).toEqual({ app: 'hippo', tz: 'UTC', at: '2026-02-28T23:59:59.999Z', n: 1 });
    const named = await open(parsePostgresUrl(`${database.url}?application_name=night-runner`, {}));
    expect((await named.query('SELECT current_setting($1) AS app', ['application_name'])).rows[0].app).toBe('night-runner');
  });

  it('takes the password from PGPASSWORD when the URL has none', async () => {
    const pool = await open(parsePostgresUrl(withoutPassword(), {}), { PGPASSWORD: decodeURIComponent(url.password) });
    expect((await pool.query('SELECT current_user AS u')).rows[0].u).toBe(decodeURIComponent(url.username));
  });

  it('takes the password from ~/.pgpass (PGPASSFILE) when neither URL nor PGPASSWORD has one, and says when none is found', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hippo-pgpass-'));
    try {
      const file = join(dir, 'pgpass');
      writeFileSync(
        file,
        `# hippo test\n${url.hostname}:${url.port}:${database.name}:${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}\n`,
      );
      chmodSync(file, 0o600);
      delete process.env.PGPASSWORD;
      process.env.PGPASSFILE = file;
      const target = parsePostgresUrl(withoutPassword(), {});
      const pool = await open(target);
      expect((await pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);

      process.env.PGPASSFILE = join(dir, 'missing');
      const error = await failure(connectPool(target, {}), target);
      expect(error.details).toMatchObject({ reason: 'password_missing' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('maps a wrong port to exit 8 naming host, port and database', async () => {
    const port = await freePort();
    const target = parsePostgresUrl(`postgres://someone:${SECRET}@127.0.0.1:${port}/hippo_nowhere`, {});
    const error = await failure(connectPool(target, {}), target);
    expect(error.code).toBe('store_unavailable');
    expect(error.exitCode).toBe(ExitCode.storeUnavailable);
    expect(error.exitCode).toBe(8);
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).toContain('hippo_nowhere');
    expect(error.details).toMatchObject({ reason: 'connection_refused', host: '127.0.0.1', port, database: 'hippo_nowhere' });
    expectNoSecret(error, SECRET);
  });

  it('maps a wrong password to exit 8, and the password appears nowhere in the error', async () => {
    const bad = new URL(database.url);
    bad.password = encodeURIComponent(SECRET);
    const target = parsePostgresUrl(bad.toString(), {});
    const error = await failure(connectPool(target, {}), target);
    expect(error.details).toMatchObject({ reason: 'bad_password', serverCode: '28P01' });
    expect(error.message).toMatch(/password authentication failed/);
    expectNoSecret(error, SECRET);
    expectNoSecret(error, decodeURIComponent(url.password));
  });

  it('maps a missing database and an unresolvable host', async () => {
    const missing = parsePostgresUrl(`${database.url.replace(/\/[^/]*$/, '')}/hippo_no_such_db`, {});
    expect((await failure(connectPool(missing, {}), missing)).details).toMatchObject({
      reason: 'database_missing',
      serverCode: '3D000',
      database: 'hippo_no_such_db',
    });
    const nowhere = parsePostgresUrl('postgres://u:p@no-such-host.invalid:5432/d', {});
    expect((await failure(connectPool(nowhere, {}), nowhere)).details).toMatchObject({ reason: 'host_not_found' });
  });

  it('maps sslmode=require against a server without TLS', async () => {
    const target = parsePostgresUrl(`${database.url}?sslmode=require`, {});
    expect((await failure(connectPool(target, {}), target)).details).toMatchObject({ reason: 'tls_unavailable' });
  });

  it('times out a server that accepts and never answers, and a statement past the statement timeout', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      const target = parsePostgresUrl(`postgres://u:p@127.0.0.1:${port}/d`, {});
      const error = await failure(connectPool(target, { HIPPO_PG_CONNECT_TIMEOUT_MS: '300' }), target);
      expect(error.details).toMatchObject({ reason: 'connect_timeout' });
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
    const pool = await open(good, { HIPPO_PG_STATEMENT_TIMEOUT_MS: '200' });
    expect((await failure(pool.query('SELECT pg_sleep(5)'), good)).details).toMatchObject({ reason: 'statement_timeout', serverCode: '57014' });
  });

  it('maps a backend terminated by an administrator mid-query (57P01), and the pool recovers', async () => {
    const pool = await open(good);
    const client = await pool.connect();
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    // Settled at once, so its rejection is handled while the administrator's connection does its work.
    const sleeping = client.query('SELECT pg_sleep(30)').then(
      () => Promise.reject(new Error('the query was not terminated')),
      (error: unknown) => {
        throw error;
      },
    );
    sleeping.catch(() => undefined);
    await withClient(serverUrl(), async (admin) => {
      for (let tries = 0; tries < 100; tries++) {
        const { rows } = await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND query LIKE 'SELECT pg_sleep%'", [pid]);
        if (rows.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    });
    const error = await failure(sleeping, good);
    client.release(true);
    expect(error.details).toMatchObject({ reason: 'server_shutdown', serverCode: '57P01' });
    expect((await pool.query('SELECT 2 AS two')).rows[0].two).toBe(2);
  });
});

describe('a private server: stopped mid-transaction, and TLS required', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ role: 'hippo_private' });
  });
  afterAll(async () => {
    await cluster?.destroy();
  });

  it('rolls back a transaction whose server stops mid-command, maps it, and maps the server being gone', async () => {
    const target = parsePostgresUrl(cluster.url, {});
    const { pool } = await connectPool(target, {});
    try {
      await pool.query('CREATE TABLE notes (body text)');
      const client = await pool.connect();
      await client.query('BEGIN');
      await client.query("INSERT INTO notes VALUES ('half-written')");
      const sleeping = client.query('SELECT pg_sleep(30)');
      const stopping = cluster.stop();
      const error = await failure(sleeping, target);
      client.release(true);
      await stopping;
      expect(['server_shutdown', 'connection_lost']).toContain((error.details as { reason: string }).reason);
      expect(error.message).toContain(`127.0.0.1:${cluster.port}`);
      expectNoSecret(error, cluster.password);

      const gone = await failure(pool.query('SELECT 1'), target);
      expect(gone.details).toMatchObject({ reason: 'connection_refused' });
    } finally {
      await pool.end().catch(() => undefined);
      await cluster.start();
    }
    const count = await withClient(cluster.url, async (client) => (await client.query('SELECT count(*)::int AS n FROM notes')).rows[0].n);
    expect(count).toBe(0);
  });

  it('says TLS is required when the server only accepts TLS connections (28000, no encryption)', async () => {
    const target = parsePostgresUrl(cluster.url, {});
    await withClient(cluster.superuserConfig(), async (admin) => {
      const file = (await admin.query('SHOW hba_file')).rows[0].hba_file as string;
      writeFileSync(file, 'local all all trust\nhostssl all all 127.0.0.1/32 scram-sha-256\n');
      await admin.query('SELECT pg_reload_conf()');
    });
    const error = await failure(connectPool(target, {}), target);
    expect(error.details).toMatchObject({ reason: 'tls_required', serverCode: '28000' });
    expect(error.message).toMatch(/sslmode=require/);
    expectNoSecret(error, cluster.password);
  });
});
