/**
 * Where the PostgreSQL adapter's statements run: on the pool, or on the one client of the transaction in progress.
 *
 * - `transaction(fn)` checks a client out of the pool and runs BEGIN … COMMIT on it (ROLLBACK when `fn` throws; a client
 *   whose connection broke is destroyed with `release(error)`, never reused). Transactions of one store are serialised
 *   in-process, as SQLite's are. While `fn` runs, every statement of the store made in its async context — through
 *   `tx`, or through the store itself (core code handed the store) — runs on the transaction's client, so it sees the
 *   transaction's own writes and never waits on its row locks from a second connection. A nested `transaction()` joins
 *   through a SAVEPOINT (its failure rolls back its own part only, as better-sqlite3's nested transactions do).
 * - Every error leaving here is mapped (`storeError`): nothing of `pg` escapes. Every text parameter is checked for
 *   NUL before the server sees it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import { BusyError, ConflictError, ExitCode, HippoError, UsageError } from '../../errors.js';
import { mapPgError, redact, type PostgresTarget } from './connect.js';
import { nulError } from './tables.js';

/** A transaction in progress: its client, and whether it is over (statements bound to it then fail). */
export interface TxState {
  readonly client: PoolClient;
  readonly session: Session;
  closed: boolean;
  /** Savepoints taken so far (names must be unique within the transaction). */
  savepoints: number;
}

export interface QueryOptions {
  /** Client-side limit for this statement (ms); the pool's default otherwise. */
  timeoutMs?: number;
  /** Sees the driver's error first (e.g. a `--raw` query's syntax error → `fts_syntax`); what it returns is mapped. */
  mapError?: (error: unknown) => unknown;
}

interface PgErrorShape {
  code?: unknown;
  message?: unknown;
  table?: unknown;
  constraint?: unknown;
  column?: unknown;
}

/** A short in-process queue: one transaction of a store at a time. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private held = false;

  /** Resolves to a release function once the mutex is ours; with `waitMs`, undefined when it was not free in time. */
  async acquire(waitMs?: number): Promise<(() => void) | undefined> {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => mine);
    let timedOut = false;
    if (waitMs !== undefined) {
      let timer: NodeJS.Timeout | undefined;
      const won = await Promise.race([
        previous.then(() => true),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), waitMs);
        }),
      ]);
      clearTimeout(timer);
      if (!won) {
        timedOut = true;
        // Give our place up as soon as we would have had it: the queue behind us moves on.
        void previous.then(() => release());
        return undefined;
      }
    } else {
      await previous;
    }
    if (timedOut) return undefined;
    this.held = true;
    return () => {
      this.held = false;
      release();
    };
  }

  get busy(): boolean {
    return this.held;
  }
}

export class Session {
  private readonly als = new AsyncLocalStorage<TxState>();
  private readonly mutex = new Mutex();

  constructor(
    readonly pool: Pool,
    readonly target: PostgresTarget,
  ) {}

  /** The transaction this async context runs in, if any and still open. */
  current(): TxState | undefined {
    const tx = this.als.getStore();
    return tx && !tx.closed ? tx : undefined;
  }

  /**
   * Runs one statement: on `bound` (a transaction's ops), else on the transaction of this async context, else on the
   * pool. Parameters are checked for NUL; errors are mapped.
   */
  async query<R extends QueryResultRow = QueryResultRow>(
    text: string,
    values: readonly unknown[] = [],
    bound?: TxState,
    options: QueryOptions = {},
  ): Promise<QueryResult<R>> {
    checkParams(values);
    const tx = this.executorFor(bound);
    const config = { text, values: values as unknown[], ...(options.timeoutMs !== undefined ? { query_timeout: options.timeoutMs } : {}) };
    try {
      return tx ? await tx.client.query<R>(config) : await this.pool.query<R>(config);
    } catch (error) {
      throw storeError(options.mapError ? options.mapError(error) : error, this.target);
    }
  }

  private executorFor(bound: TxState | undefined): TxState | undefined {
    if (bound) {
      if (bound.closed) throw new HippoError('transaction_closed', 'a store transaction was used after it ended (a bug in hippo)', ExitCode.unexpected);
      return bound;
    }
    return this.current();
  }

  /**
   * Runs `fn` with one client: the transaction's (bound or current), else a pooled client checked out for `fn` alone
   * and released after (destroyed if it failed). For COPY and cursors, which need one connection throughout.
   */
  async withClient<T>(bound: TxState | undefined, fn: (client: PoolClient, inTransaction: boolean) => Promise<T>): Promise<T> {
    const tx = this.executorFor(bound);
    if (tx) {
      try {
        return await fn(tx.client, true);
      } catch (error) {
        throw storeError(error, this.target);
      }
    }
    const client = await this.connect();
    let broken: Error | undefined;
    try {
      return await fn(client, false);
    } catch (error) {
      broken = error instanceof Error ? error : new Error('failed');
      throw storeError(error, this.target);
    } finally {
      client.release(broken && !(broken instanceof HippoError) ? broken : undefined);
    }
  }

  async connect(): Promise<PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw storeError(error, this.target);
    }
  }

  /**
   * BEGIN … COMMIT around `fn` on one pooled client; ROLLBACK when it throws (the error passes through unchanged).
   * Nested in another transaction of this store: a SAVEPOINT instead. `setup` statements run right after BEGIN.
   */
  async transaction<T>(fn: (tx: TxState) => Promise<T>, options: { setup?: readonly string[]; waitMs?: number; isolation?: string } = {}): Promise<T> {
    const outer = this.current();
    if (outer) return this.savepoint(outer, fn, options.setup ?? []);
    const release = await this.mutex.acquire(options.waitMs);
    if (!release) throw new BusyError();
    try {
      const client = await this.connect();
      const tx: TxState = { client, session: this, closed: false, savepoints: 0 };
      let broken: Error | undefined;
      try {
        await client.query(options.isolation ? `BEGIN ISOLATION LEVEL ${options.isolation}` : 'BEGIN');
        for (const statement of options.setup ?? []) await client.query(statement);
      } catch (error) {
        tx.closed = true;
        client.release(error instanceof Error ? error : true);
        throw storeError(error, this.target);
      }
      try {
        const result = await this.als.run(tx, () => fn(tx));
        tx.closed = true;
        try {
          await client.query('COMMIT');
        } catch (error) {
          broken = error instanceof Error ? error : new Error('commit failed');
          throw storeError(error, this.target);
        }
        return result;
      } catch (error) {
        tx.closed = true;
        if (!broken) {
          await client.query('ROLLBACK').catch((rollbackError: unknown) => {
            // The connection is gone: the server rolls the transaction back itself; drop the client.
            broken = rollbackError instanceof Error ? rollbackError : new Error('rollback failed');
          });
        }
        throw error instanceof HippoError ? error : storeError(error, this.target);
      } finally {
        client.release(broken ?? undefined);
      }
    } finally {
      release();
    }
  }

  private async savepoint<T>(tx: TxState, fn: (tx: TxState) => Promise<T>, setup: readonly string[]): Promise<T> {
    const name = `hippo_sp_${++tx.savepoints}`;
    await this.query(`SAVEPOINT ${name}`, [], tx);
    try {
      for (const statement of setup) await this.query(statement, [], tx);
      const result = await fn(tx);
      await this.query(`RELEASE SAVEPOINT ${name}`, [], tx);
      return result;
    } catch (error) {
      await this.query(`ROLLBACK TO SAVEPOINT ${name}`, [], tx).catch(() => undefined);
      throw error;
    }
  }

  /**
   * A best-effort transaction: waits at most `waitMs` for this store's other transaction and for row locks
   * (`lock_timeout`), then gives up and returns undefined. A deadlock or serialisation failure gives up too.
   */
  async tryTransaction<T>(fn: (tx: TxState) => Promise<T>, waitMs: number): Promise<T | undefined> {
    const ms = Math.max(1, Math.round(waitMs));
    const outer = this.current();
    try {
      if (outer) {
        const before = await this.query<{ value: string }>("SELECT current_setting('lock_timeout') AS value", [], outer);
        try {
          return await this.savepoint(outer, fn, [`SET LOCAL lock_timeout = ${ms}`]);
        } finally {
          await this.query(`SELECT set_config('lock_timeout', $1, true)`, [before.rows[0]!.value], outer).catch(() => undefined);
        }
      }
      return await this.transaction(fn, { setup: [`SET LOCAL lock_timeout = ${ms}`], waitMs: ms });
    } catch (error) {
      if (error instanceof BusyError) return undefined;
      throw error;
    }
  }

  /**
   * Runs `fn` in one REPEATABLE READ, READ ONLY transaction on a client of its own (one consistent view of every table
   * for a snapshot), outside the write-transaction queue. Inside a transaction of this store: in that one.
   */
  async readOnly<T>(fn: (tx: TxState) => Promise<T>): Promise<T> {
    const outer = this.current();
    if (outer) return fn(outer);
    const client = await this.connect();
    const tx: TxState = { client, session: this, closed: false, savepoints: 0 };
    let broken: Error | boolean = false;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await client.query("SET LOCAL idle_in_transaction_session_timeout = '10min'");
      const result = await this.als.run(tx, () => fn(tx));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error instanceof HippoError ? error : storeError(error, this.target);
    } finally {
      tx.closed = true;
      client.release(broken);
    }
  }

  get transactionInProgress(): boolean {
    return this.mutex.busy;
  }
}

/** Throws `nul_in_text` for a NUL in any text parameter (PostgreSQL refuses it in text: 22021). */
export function checkParams(values: readonly unknown[]): void {
  for (const value of values) {
    if (
      typeof value === 'string' ? value.includes('\u0000') : Array.isArray(value) && value.some((item) => typeof item === 'string' && item.includes('\u0000'))
    ) {
      throw nulError('a value');
    }
  }
}

/** SQLSTATE classes that mean "try again later": lock not available, deadlock, serialisation failure. */
const BUSY_CODES = new Set(['55P03', '40P01', '40001']);

/**
 * Every error the adapter lets out: HippoErrors as they are; "the server is not there for us" → StoreUnavailableError
 * (exit 8, connect.ts); busy → BusyError; the rest → a HippoError with a fixed message and the SQLSTATE (never the
 * server's wording for data errors: it may quote a value).
 */
export function storeError(error: unknown, target: PostgresTarget): HippoError | Error {
  const mapped = mapPgError(error, target);
  if (mapped instanceof HippoError) return mapped;
  const shape = (typeof error === 'object' && error !== null ? error : {}) as PgErrorShape;
  const code = typeof shape.code === 'string' ? shape.code : undefined;
  if (code === undefined || !/^[0-9A-Z]{5}$/.test(code)) {
    // Not from the server: a bug of ours (TypeError…), kept as it is so its stack says where.
    return error instanceof Error ? error : new Error(String(error));
  }
  const table = typeof shape.table === 'string' ? shape.table : undefined;
  const constraint = typeof shape.constraint === 'string' ? shape.constraint : undefined;
  const details = { sqlstate: code, ...(table ? { table } : {}), ...(constraint ? { constraint } : {}) };
  if (BUSY_CODES.has(code)) return new BusyError();
  if (code === '22021') return nulError('a value');
  if (code === '23505') {
    return new ConflictError('row_exists', `${table ? `the ${table} table` : 'the store'} already holds a row with that id; nothing was written`, {
      details,
    });
  }
  if (code.startsWith('23')) {
    return new UsageError('bad_row', `a row breaks ${constraint ? `the rule ${constraint}` : 'a rule'} of ${table ?? 'the store'}; nothing was written`, {
      details,
    });
  }
  if (code.startsWith('22'))
    return new UsageError('bad_value', `a value is not valid for the PostgreSQL store (SQLSTATE ${code}); nothing was written`, { details });
  if (code === '53100')
    return new HippoError('disk_full', "the PostgreSQL server's disk is full; the transaction was rolled back", ExitCode.unexpected, { details });
  if (code === '25006')
    return new UsageError('database_read_only', 'the PostgreSQL store is read-only (a standby, or default_transaction_read_only)', { details });
  if (code === '42501') {
    const message = typeof shape.message === 'string' ? redact(shape.message, target) : 'permission denied';
    return new UsageError('postgres_permission_denied', `the PostgreSQL user may not do this: ${message}`, { details });
  }
  const message = typeof shape.message === 'string' ? redact(shape.message, target) : 'error';
  return new HippoError('store_error', `the PostgreSQL store failed (SQLSTATE ${code}): ${message}`, ExitCode.unexpected, { details });
}
