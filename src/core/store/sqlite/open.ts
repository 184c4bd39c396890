/**
 * Opening a SQLite store (docs/design.md §2): the file 0600 in a 0700 directory, WAL, a busy timeout, foreign keys,
 * and every pending migration applied in one IMMEDIATE transaction. A newer or foreign database is refused, never
 * altered (no -wal, -shm or journal is created beside it).
 */
import Database from 'better-sqlite3';
import { closeSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DirectoryError, ensureDirectory } from '../../dirs.js';
import { NotFoundError, UsageError } from '../../errors.js';
import { mapSqliteError } from './connection.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, type RebuildMigration } from './migrations.js';

/** Memories per chunk when a migration fills the full-text index afresh (progress is reported between chunks). */
export const FILL_CHUNK = 10_000;

/**
 * Progress of a long step of opening a store (today: the search index rebuilt by a migration): `done` of `total`
 * memories. Called synchronously between chunks; the first call has `done` 0.
 */
export type OpenProgress = (step: 'search-index' | 'keys', done: number, total: number) => void;

export const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

/** `HIPPO_BUSY_TIMEOUT_MS` overrides the default wait for another process's lock. */
function busyTimeoutFromEnv(): number | undefined {
  const raw = process.env.HIPPO_BUSY_TIMEOUT_MS?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  return Number.isInteger(value) && value >= 0 ? value : undefined;
}

export interface OpenDatabaseOptions {
  busyTimeoutMs?: number;
  /** Progress of a long upgrade on open (a migration rebuilding the search index). */
  onProgress?: OpenProgress;
  /**
   * Open only a hippo store that exists (the commands that only read, and those acting on existing rows): a missing
   * file, or one that is empty or a SQLite file without hippo's tables, is NotFoundError `store_not_found` (exit 3),
   * and nothing is created — no file, no directory, no -wal.
   */
  mustExist?: boolean;
}

/** The refusal of a read on a path that holds no store. */
export function noStore(path: string): NotFoundError {
  return new NotFoundError('store_not_found', `no hippo store at ${path}`, { details: { path } });
}

/** Opens (creating if needed) and migrates a hippo database file, or `:memory:`; SQLite's errors mapped. */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Database.Database {
  if (path !== ':memory:') prepareFile(path, options.mustExist === true);
  let db: Database.Database;
  try {
    db = new Database(path, { fileMustExist: options.mustExist === true && path !== ':memory:' });
  } catch (error) {
    if (options.mustExist && (error as { code?: string }).code === 'SQLITE_CANTOPEN') throw noStore(path);
    throw mapSqliteError(error, path);
  }
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? busyTimeoutFromEnv() ?? DEFAULT_BUSY_TIMEOUT_MS}`);
    if (!checkIsHippoDatabase(db, path) && options.mustExist) throw noStore(path);
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // Deleted content is overwritten with zeros, not only unlinked: what `memory forget` erases (and an edit replaces)
    // leaves no copy in free pages or free space inside pages (docs/decisions.md, "Forget").
    db.pragma('secure_delete = ON');
    migrate(db, path, options.onProgress);
  } catch (error) {
    db.close();
    throw mapSqliteError(error, path);
  }
  return db;
}

function prepareFile(path: string, mustExist: boolean): void {
  let stats;
  try {
    stats = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: a parent is a file; ENOENT: it does not exist (yet).
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new UsageError('cannot_open_database', `cannot open the database at ${path}: ${code ?? 'error'}`);
    stats = undefined;
  }
  if (stats?.isDirectory()) {
    throw new UsageError('not_a_database', `${path} is a directory, not a hippo database file; give the path of a file`, {
      details: { path, directory: true },
    });
  }
  // A device (/dev/null), a FIFO or a socket: SQLite would fail on it with "disk I/O error" (or hang on a FIFO).
  if (stats && !stats.isFile()) {
    throw new UsageError('not_a_database', `${path} is not a regular file, so it cannot hold a hippo database; give the path of a file`, {
      details: { path, regularFile: false },
    });
  }
  if (stats) return;
  if (mustExist) throw noStore(path);
  try {
    ensureDirectory(dirname(path));
    // Create the file ourselves so it is 0600 from the first byte; SQLite gives its -wal/-shm files the same mode.
    closeSync(openSync(path, 'a', 0o600));
  } catch (error) {
    const code = error instanceof DirectoryError ? error.code : ((error as NodeJS.ErrnoException).code ?? 'error');
    throw new UsageError('cannot_create_database', `cannot create the database at ${path}: ${code}`, { details: { path, reason: code } });
  }
}

/** True for a hippo database, false for an empty one (new, or a SQLite file with nothing in it); throws otherwise. */
function checkIsHippoDatabase(db: Database.Database, path: string): boolean {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  if (applicationId === APPLICATION_ID) {
    if (version > SCHEMA_VERSION) {
      throw new UsageError(
        'database_too_new',
        `${path} was written by a newer hippo (schema ${version}; this hippo knows up to ${SCHEMA_VERSION}). Upgrade hippo; the file was not changed.`,
      );
    }
    return true;
  }
  const objects = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'").get() as { n: number };
  if (applicationId !== 0 || version !== 0 || objects.n > 0) {
    throw new UsageError('not_a_hippo_database', `${path} is a SQLite database, but not a hippo one; it was not changed. Give another path.`, {
      details: { path },
    });
  }
  return false;
}

function migrate(db: Database.Database, path: string, onProgress?: OpenProgress): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current === SCHEMA_VERSION) return;
  // IMMEDIATE takes the write lock first, so two processes opening a fresh file do not both migrate it.
  const apply = db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new UsageError('database_too_new', `${path} was written by a newer hippo (schema ${version}); the file was not changed.`);
    }
    // A migration that recreates the full-text table leaves it empty; it is filled (from the view of the current
    // schema) after every pending migration's SQL, once — or earlier, right before a migration that edits the index's
    // entries (`editsSearchIndex`): migration 14 deletes and re-adds entries, which FTS5 reports as corrupt on the
    // index migration 13 left empty (review rev26f: a store of schema 12 with a NUL in a thread could not be upgraded).
    // A new database (version 0) has no memories to index.
    let fill = false;
    for (let index = version; index < SCHEMA_VERSION; index++) {
      const migration = MIGRATIONS[index]!;
      if (fill && typeof migration === 'object' && 'editsSearchIndex' in migration) {
        fillSearchIndex(db, onProgress);
        fill = false;
      }
      if (typeof migration === 'string') db.exec(migration);
      else if ('copies' in migration) rebuild(db, migration, version > 0 ? onProgress : undefined);
      else {
        db.exec(migration.sql);
        if ('fillSearchIndex' in migration) fill = version > 0;
      }
    }
    if (fill) fillSearchIndex(db, onProgress);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  });
  apply.immediate();
}

/**
 * A migration that rebuilds tables: the new tables, each old table's rows copied across in chunks of FILL_CHUNK
 * rowids (progress `keys` between chunks: rows copied of all), then the old tables dropped and the new ones renamed.
 * Inside the upgrade's one transaction.
 */
function rebuild(db: Database.Database, migration: RebuildMigration, onProgress?: OpenProgress): void {
  db.exec(migration.sql);
  const where = (copy: RebuildMigration['copies'][number]) => (copy.where ? ` AND ${copy.where}` : '');
  const total = onProgress
    ? migration.copies.reduce(
        (sum, copy) =>
          sum +
          (db
            .prepare(`SELECT count(*) FROM ${copy.from} WHERE 1${where(copy)}`)
            .pluck()
            .get() as number),
        0,
      )
    : 0;
  onProgress?.('keys', 0, total);
  let done = 0;
  for (const copy of migration.copies) {
    const chunk = db.prepare(
      `INSERT INTO ${copy.to} (${copy.columns}) SELECT ${copy.columns} FROM ${copy.from} WHERE rowid > ? AND rowid <= ?${where(copy)} ORDER BY rowid`,
    );
    const last = db.prepare(`SELECT max(rowid) FROM (SELECT rowid FROM ${copy.from} WHERE rowid > ?${where(copy)} ORDER BY rowid LIMIT ${FILL_CHUNK})`).pluck();
    let after = Number.MIN_SAFE_INTEGER;
    for (;;) {
      const end = last.get(after) as number | null;
      if (end === null) break;
      done += chunk.run(after, end).changes;
      after = end;
      onProgress?.('keys', done, total);
    }
  }
  db.exec(migration.after);
}

/**
 * Fills a freshly created (empty) full-text table from the memories' search entries (the view memories_search,
 * migration 13), as FTS5's `rebuild` would, but in chunks of
 * FILL_CHUNK rows in rowid order, so the caller can show progress. Runs inside the migration's transaction: an
 * interrupted upgrade leaves the store as it was.
 */
function fillSearchIndex(db: Database.Database, onProgress?: OpenProgress): void {
  const total = db.prepare('SELECT count(*) FROM memories').pluck().get() as number;
  onProgress?.('search-index', 0, total);
  const chunk = db.prepare(
    `INSERT INTO memories_fts (rowid, content, tags, subject, agent_id, context_before, context_after, date_words)
     SELECT rowid, content, tags, subject, agent_id, context_before, context_after, date_words FROM memories_search
     WHERE rowid > ? ORDER BY rowid LIMIT ${FILL_CHUNK}`,
  );
  const last = db.prepare(`SELECT max(rowid) FROM (SELECT rowid FROM memories WHERE rowid > ? ORDER BY rowid LIMIT ${FILL_CHUNK})`).pluck();
  let after = 0;
  let done = 0;
  for (;;) {
    const end = last.get(after) as number | null;
    if (end === null) break;
    done += chunk.run(after).changes;
    after = end;
    onProgress?.('search-index', done, total);
  }
}
