/**
 * The one better-sqlite3 connection of a SQLite store, shared by its repositories: cached prepared statements, the
 * mapping of SQLite's errors, and async transactions over a synchronous driver (docs/store.md "SQLite").
 *
 * better-sqlite3 runs every statement synchronously, so a single statement never interleaves with anything. A
 * transaction, though, now spans awaits (`transaction(async (tx) => …)`), and a connection holds one transaction at a
 * time, which every statement on it joins. So: transactions are serialised by an in-process queue; a transaction
 * started from inside another (in its async context, tracked with AsyncLocalStorage) joins it; and any other call
 * waits until a running transaction of another async flow has ended, so it neither joins nor sees its uncommitted rows.
 */
import type Database from 'better-sqlite3';
import { AsyncLocalStorage } from 'node:async_hooks';
import { BusyError, HippoError, UsageError } from '../../errors.js';

/** Turns SQLite's errors into HippoErrors with clear messages; anything that is not SQLite's passes through unchanged. */
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
  // Anything else is a bug (a constraint the core should have kept, say): exit 1, worded as the CLI words any bug.
  const message = error instanceof Error ? error.message : String(error);
  return new HippoError('unexpected', `unexpected error: ${message}`, 1, { cause: error });
}

interface Transaction {
  readonly ended: Promise<void>;
  end(): void;
}

function newTransaction(): Transaction {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  return { ended, end };
}

export class Connection {
  private readonly statements = new Map<string, Database.Statement>();
  private active: Transaction | null = null;
  private readonly context = new AsyncLocalStorage<Transaction>();

  constructor(
    readonly db: Database.Database,
    /** The file, for messages (`:memory:` for a throwaway store). */
    readonly path: string,
  ) {}

  /** A prepared statement cached per connection: hot paths (import, stage) must not re-prepare per row. */
  statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Whether the caller runs inside this connection's current transaction. */
  private joined(): boolean {
    return this.active !== null && this.context.getStore() === this.active;
  }

  /** Resolves once no transaction of another async flow is running (at once when none is, or when it is ours). */
  async ready(): Promise<void> {
    while (this.active && !this.joined()) await this.active.ended;
  }

  /** Runs synchronous work on the connection once it is ready, with SQLite's errors mapped. */
  async use<T>(work: () => T): Promise<T> {
    if (this.active && !this.joined()) await this.ready();
    return this.mapped(work);
  }

  /** `work` with SQLite's errors mapped (for code that is already ready, e.g. inside an iteration). */
  mapped<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw mapSqliteError(error, this.path);
    }
  }

  /**
   * `fn` in one BEGIN IMMEDIATE transaction: committed when it resolves, rolled back when it throws (its error passes
   * through, SQLite's mapped). Inside a transaction of this connection, `fn` joins it.
   */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.joined()) return fn();
    while (this.active) await this.active.ended;
    return this.run(fn);
  }

  /**
   * `fn` in one read transaction (BEGIN DEFERRED: SQLite takes its snapshot at the first read): every read in it sees
   * the database at one instant, other processes may go on writing (to the WAL), and no other async flow of this
   * process uses the connection meanwhile. `fn` must only read.
   */
  async readTransaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.joined()) return fn();
    while (this.active) await this.active.ended;
    return this.run(fn, undefined, 'BEGIN DEFERRED');
  }

  /**
   * A best-effort transaction: waits at most `waitMs` for another transaction (of this process, or of another one
   * through SQLite's busy timeout) and returns undefined instead of failing when the store stays busy.
   */
  async tryTransaction<T>(fn: () => Promise<T>, waitMs: number): Promise<T | undefined> {
    if (this.joined()) return fn();
    const deadline = Date.now() + waitMs;
    while (this.active) {
      const left = deadline - Date.now();
      if (left <= 0 || !(await endsWithin(this.active, left))) return undefined;
    }
    const timeout = this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.round(waitMs))}`);
    try {
      return await this.run(fn, () => this.db.pragma(`busy_timeout = ${timeout}`));
    } catch (error) {
      if (error instanceof BusyError) return undefined;
      throw error;
    }
  }

  /** Claims the connection (the caller made sure it is free), runs `fn` in a transaction, and frees it. */
  private async run<T>(fn: () => Promise<T>, afterBegin?: () => void, begin = 'BEGIN IMMEDIATE'): Promise<T> {
    const transaction = newTransaction();
    this.active = transaction;
    try {
      try {
        this.db.exec(begin);
      } finally {
        afterBegin?.();
      }
      const result = await this.context.run(transaction, fn);
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) {
        try {
          this.db.exec('ROLLBACK');
        } catch {
          // The connection is failing (closed, disk gone): SQLite rolls back on its own; the first error says more.
        }
      }
      throw mapSqliteError(error, this.path);
    } finally {
      this.active = null;
      transaction.end();
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** Whether `transaction` ends within `ms` milliseconds. */
async function endsWithin(transaction: Transaction, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([transaction.ended.then(() => true as const), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
