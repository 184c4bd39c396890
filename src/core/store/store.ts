import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { BusyError, HippoError, UsageError } from '../errors.js';
import { systemClock, type Clock } from '../time.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './migrations.js';

export interface StoreOptions {
  /** A file path, or `:memory:` for a throwaway store (library use and unit tests). */
  path: string;
  clock?: Clock;
  /** Milliseconds to wait for another process's lock before failing with "database is busy". */
  busyTimeoutMs?: number;
}

export interface Store {
  readonly db: Database.Database;
  readonly path: string;
  readonly clock: Clock;
  close(): void;
}

const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

/** `HIPPO_BUSY_TIMEOUT_MS` overrides the default wait for another process's lock. */
function busyTimeoutFromEnv(): number | undefined {
  const raw = process.env.HIPPO_BUSY_TIMEOUT_MS?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  return Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * Opens (creating if needed) a hippo database: the file 0600 in a 0700 directory, WAL, a busy timeout, foreign keys,
 * and every pending migration applied in one transaction. A newer or foreign database is refused, never altered.
 */
export function openStore(options: StoreOptions): Store {
  const { path } = options;
  if (path !== ':memory:') prepareFile(path);
  let db: Database.Database;
  try {
    db = new Database(path);
  } catch (error) {
    throw mapSqliteError(error, path);
  }
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? busyTimeoutFromEnv() ?? DEFAULT_BUSY_TIMEOUT_MS}`);
    checkIsHippoDatabase(db, path);
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, path);
  } catch (error) {
    db.close();
    throw mapSqliteError(error, path);
  }
  return { db, path, clock: options.clock ?? systemClock, close: () => db.close() };
}

function prepareFile(path: string): void {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    stats = undefined;
  }
  if (stats?.isDirectory()) {
    throw new UsageError('not_a_database', `${path} is a directory, not a hippo database file; give the path of a file`, {
      details: { path, directory: true },
    });
  }
  if (stats) return;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // Create the file ourselves so it is 0600 from the first byte; SQLite gives its -wal/-shm files the same mode.
    closeSync(openSync(path, 'a', 0o600));
  } catch (error) {
    throw new UsageError('cannot_create_database', `cannot create the database at ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

function checkIsHippoDatabase(db: Database.Database, path: string): void {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  if (applicationId === APPLICATION_ID) {
    if (version > SCHEMA_VERSION) {
      throw new UsageError(
        'database_too_new',
        `${path} was written by a newer hippo (schema ${version}; this hippo knows up to ${SCHEMA_VERSION}). Upgrade hippo; the file was not changed.`,
      );
    }
    return;
  }
  const objects = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'").get() as { n: number };
  if (applicationId !== 0 || version !== 0 || objects.n > 0) {
    throw new UsageError('not_a_hippo_database', `${path} is a SQLite database, but not a hippo one; it was not changed. Give another path.`, {
      details: { path },
    });
  }
}

function migrate(db: Database.Database, path: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current === SCHEMA_VERSION) return;
  // IMMEDIATE takes the write lock first, so two processes opening a fresh file do not both migrate it.
  const apply = db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new UsageError('database_too_new', `${path} was written by a newer hippo (schema ${version}); the file was not changed.`);
    }
    for (let index = version; index < SCHEMA_VERSION; index++) db.exec(MIGRATIONS[index]!);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  });
  apply.immediate();
}

/** Turns SQLite's errors into HippoErrors with clear messages; anything else passes through unchanged. */
export function mapSqliteError(error: unknown, path?: string): unknown {
  if (error instanceof HippoError) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return error;
  const where = path ? ` (${path})` : '';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return new BusyError();
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new UsageError('not_a_database', `the file${where} is not a SQLite database (or is damaged); it was not changed`);
  }
  if (code.startsWith('SQLITE_CANTOPEN')) return new UsageError('cannot_open_database', `cannot open the database${where}`);
  if (code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_WRITE' || code === 'SQLITE_IOERR_SHMSIZE')
    return new HippoError('disk_full', `the disk is full${where}; the transaction was rolled back`, 1);
  if (code.startsWith('SQLITE_READONLY')) return new UsageError('database_read_only', `the database${where} is read-only`);
  return error;
}

/** Runs `fn` in one IMMEDIATE transaction (write lock up front, so no upgrade deadlock between processes). */
export function inTransaction<T>(store: Store, fn: () => T): T {
  try {
    return store.db.transaction(fn).immediate();
  } catch (error) {
    throw mapSqliteError(error, store.path);
  }
}

/**
 * Runs a best-effort write with a short busy timeout: returns undefined instead of waiting out the full timeout when
 * another process holds the write lock. For writes that are signals (retrieval counters, a dry run's audit row),
 * never the answer itself.
 */
export function tryWrite<T>(store: Store, fn: () => T, busyTimeoutMs = 250): T | undefined {
  const timeout = store.db.pragma('busy_timeout', { simple: true }) as number;
  store.db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  try {
    return inTransaction(store, fn);
  } catch (error) {
    if (error instanceof BusyError) return undefined;
    throw error;
  } finally {
    store.db.pragma(`busy_timeout = ${timeout}`);
  }
}

const statementCache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** A prepared statement cached per connection: hot paths (import, stage) must not re-prepare per row. */
export function prepared(store: Store, sql: string): Database.Statement {
  let cache = statementCache.get(store.db);
  if (!cache) {
    cache = new Map();
    statementCache.set(store.db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = store.db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}
