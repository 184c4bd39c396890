/**
 * The SQLite adapter of the storage port (docs/store.md): one better-sqlite3 connection per store, the embedded
 * default. Loaded by `openStore` (store/store.ts) only; nothing else imports it.
 */
import type Database from 'better-sqlite3';
import { systemClock, type Clock } from '../../time.js';
import { existsSync } from 'node:fs';
import type { AuditRepo, Engine, ReceiptRepo, ReclaimResult, Store, StoreDescription, StoreOps, StoreTable, TokenRepo } from '../port.js';
import { STORE_TABLES } from '../port.js';
import { Connection } from './connection.js';
import { SqliteErasure } from './erasure.js';
import { SqliteLock } from './lock.js';
import { SqliteMemories } from './memories.js';
import { openDatabase, type OpenProgress } from './open.js';
import { SqliteRows } from './rows.js';
import { SqliteSnapshots } from './snapshots.js';
import { SqliteCandidates, SqliteHandoffs, SqliteRuns, SqliteSettings } from './repos.js';
import { tokenRepo } from '../tokens.js';
import { auditRepo, receiptRepo, type GovernanceSql } from '../governance.js';

/** The governance statements on SQLite: lists and documents as JSON text. */
function governanceSql(connection: Connection): GovernanceSql {
  return {
    all: (sql, params) => connection.use(() => connection.statement(sql).all(...params) as Record<string, unknown>[]),
    run: (sql, params) => connection.use(() => connection.statement(sql).run(...params).changes),
    byteOrder: (column) => column,
    list: (values) => JSON.stringify(values),
    json: (value) => JSON.stringify(value),
    read: (value, column) => (column.type === 'list' || column.type === 'json' ? (JSON.parse(value as string) as unknown) : value),
    overlaps: (column) => `EXISTS (SELECT 1 FROM json_each(${column}) WHERE value IN (SELECT value FROM json_each(?)))`,
    holds: (column) => `EXISTS (SELECT 1 FROM json_each(${column}) WHERE value = ?)`,
    without: (column) =>
      `(SELECT json_group_array(value) FROM (SELECT value FROM json_each(${column}) WHERE value NOT IN (SELECT value FROM json_each(?)) ORDER BY key))`,
  };
}

export interface SqliteStoreOptions {
  /** A file path, or `:memory:` for a throwaway store (library use and unit tests). */
  path: string;
  clock?: Clock;
  /** Milliseconds to wait for another process's lock before failing with "database is busy". */
  busyTimeoutMs?: number;
  /** Progress of a long upgrade on open (a migration rebuilding the search index). */
  onProgress?: OpenProgress;
  /** Refuse (exit 3, nothing created) where there is no hippo store yet. */
  mustExist?: boolean;
}

/** Best-effort writes wait this long for another writer by default. */
const TRY_WAIT_MS = 250;

export class SqliteStore implements Store {
  readonly engine: Engine = 'sqlite';
  readonly location: string;
  readonly clock: Clock;
  readonly memories: SqliteMemories;
  readonly candidates: SqliteCandidates;
  readonly runs: SqliteRuns;
  readonly handoffs: SqliteHandoffs;
  readonly settings: SqliteSettings;
  readonly tokens: TokenRepo;
  readonly rows: SqliteRows;
  readonly erasure: SqliteErasure;
  readonly audit: AuditRepo;
  readonly receipts: ReceiptRepo;
  readonly lock: SqliteLock;
  readonly snapshots: SqliteSnapshots;
  private readonly connection: Connection;

  constructor(connection: Connection, clock: Clock) {
    this.connection = connection;
    this.location = connection.path;
    this.clock = clock;
    this.memories = new SqliteMemories(connection);
    this.candidates = new SqliteCandidates(connection);
    this.runs = new SqliteRuns(connection);
    this.handoffs = new SqliteHandoffs(connection);
    this.settings = new SqliteSettings(connection);
    this.tokens = tokenRepo({
      all: (sql, params) => connection.use(() => connection.statement(sql).all(...params) as Record<string, unknown>[]),
      run: (sql, params) => connection.use(() => connection.statement(sql).run(...params).changes),
      byteOrder: (column) => column,
    });
    this.rows = new SqliteRows(connection);
    this.erasure = new SqliteErasure(connection);
    this.audit = auditRepo(governanceSql(connection));
    this.receipts = receiptRepo(governanceSql(connection));
    this.lock = new SqliteLock(connection, this.settings, this.runs, clock);
    this.snapshots = new SqliteSnapshots(connection);
  }

  /** The better-sqlite3 connection, for SQLite-specific tests and tools (never used above the adapter). */
  get db(): Database.Database {
    return this.connection.db;
  }

  /** A single connection: inside a transaction the store itself is the transaction's handle. */
  transaction<T>(fn: (tx: StoreOps) => Promise<T>): Promise<T> {
    return this.connection.transaction(() => fn(this));
  }

  tryTransaction<T>(fn: (tx: StoreOps) => Promise<T>, waitMs = TRY_WAIT_MS): Promise<T | undefined> {
    return this.connection.tryTransaction(() => fn(this), waitMs);
  }

  async describe(): Promise<StoreDescription> {
    return this.connection.use(() => {
      const db = this.connection.db;
      // The audit log is both run tables (an agent's runs and the runs over every agent).
      const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
      const counts = Object.fromEntries(STORE_TABLES.map((table) => [table, count(table) + (table === 'runs' ? count('store_runs') : 0)])) as Record<
        StoreTable,
        number
      >;
      return {
        engine: this.engine,
        location: this.location,
        engineVersion: db.prepare('SELECT sqlite_version()').pluck().get() as string,
        schemaVersion: db.pragma('user_version', { simple: true }) as number,
        counts,
      };
    });
  }

  async reclaim(): Promise<ReclaimResult> {
    return reclaimSpace(this.connection);
  }

  /** Nothing to settle on SQLite: no visibility map, and FTS5 keeps the search's row count in its own index. */
  async settleLoad(): Promise<string[]> {
    return [];
  }

  rawFiles(): string[] {
    if (this.location === ':memory:') return [];
    return [this.location, `${this.location}-wal`].filter((path) => existsSync(path));
  }

  async close(): Promise<void> {
    this.connection.close();
  }
}

/** The settings key the migration to secure deletes leaves on a store that already held memories (migrations.ts, 5). */
export const VACUUM_PENDING = 'erase_vacuum_pending';

/**
 * `Store.reclaim` on SQLite: the one-time VACUUM of a store from before secure deletes (its free pages may hold text
 * deleted back then), then a TRUNCATE checkpoint, so the WAL's copies of the erased pages are gone and the file holds
 * the zeroed pages. A reader of another connection can keep the checkpoint from finishing: `complete` says so.
 */
async function reclaimSpace(connection: Connection): Promise<ReclaimResult> {
  await connection.ready();
  return connection.mapped(() => {
    const db = connection.db;
    const steps: string[] = [];
    if (connection.path === ':memory:') return { complete: true, steps: ['in memory'] };
    if (db.prepare('SELECT 1 FROM settings WHERE key = ?').pluck().get(VACUUM_PENDING) !== undefined) {
      db.exec('VACUUM');
      db.prepare('DELETE FROM settings WHERE key = ?').run(VACUUM_PENDING);
      steps.push('vacuumed once (free pages from before secure deletes)');
    }
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
    const complete = result !== undefined && result.busy === 0;
    steps.push(complete ? 'write-ahead log checkpointed and truncated' : 'write-ahead log still in use by another reader');
    return { complete, steps };
  });
}

export async function openSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  const db = openDatabase(options.path, {
    busyTimeoutMs: options.busyTimeoutMs,
    mustExist: options.mustExist,
    onProgress: options.onProgress,
  });
  return new SqliteStore(new Connection(db, options.path), options.clock ?? systemClock);
}
