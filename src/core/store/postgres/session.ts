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
import { BusyError, ExitCode, HippoError, StoreUnavailableError, UsageError } from '../../errors.js';
import { mapPgError, redact, type PostgresTarget } from './connect.js';
import { nulError } from './codec.js';

/** A transaction in progress: its client, and whether it is over (statements bound to it then fail). */
export interface TxState {
  readonly client: PoolClient;
  closed: boolean;
  /** Savepoints taken so far (names must be unique within the transaction). */
  savepoints: number;
  /** Statements the server refused in it: after one, PostgreSQL refuses everything until a rollback (to a savepoint). */
  failures: number;
  /**
   * Work that must land before COMMIT, once per key, in the order added: the re-index of a thread a bulk load joined
   * (threads.ts `reindexBeforeCommit`), done once for the whole transaction instead of once per batch. `settle` runs it
   * early when something in the transaction is about to read what it writes (a search).
   */
  beforeCommit?: Map<string, () => Promise<unknown>>;
  /** Memories inserted in it so far, until `statsChecked` (memories.ts `statsOnce`). */
  inserted?: number;
  /** Whether the planner's statistics were looked at (and taken if missing) in this transaction. */
  statsChecked?: boolean;
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
}

/** One transaction of a store at a time, in this process: a queue, with an optional limit on the wait. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves to the release function once it is ours; with `waitMs`, to undefined if it was not free in time. */
  async acquire(waitMs?: number): Promise<(() => void) | undefined> {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => mine);
    if (waitMs === undefined) {
      await previous;
      return release;
    }
    let timer: NodeJS.Timeout | undefined;
    const won = await Promise.race([
      previous.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), waitMs);
      }),
    ]);
    clearTimeout(timer);
    if (won) return release;
    // Gave up: our place in the queue passes on as soon as it comes.
    void previous.then(release);
    return undefined;
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
      if (tx) tx.failures++;
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
   * and released after (dropped if `fn` failed: it may have left the connection mid-statement). For COPY.
   */
  async withClient<T>(bound: TxState | undefined, fn: (client: PoolClient) => Promise<T>): Promise<T> {
    const tx = this.executorFor(bound);
    if (tx) {
      try {
        return await fn(tx.client);
      } catch (error) {
        if (!(error instanceof HippoError)) tx.failures++;
        throw storeError(error, this.target);
      }
    }
    const client = await this.connect();
    let failed = false;
    try {
      return await fn(client);
    } catch (error) {
      failed = true;
      throw storeError(error, this.target);
    } finally {
      client.release(failed);
    }
  }

  /** Runs the transaction's deferred work now (see `TxState.beforeCommit`); work it adds runs too. */
  async settle(tx: TxState): Promise<void> {
    const pending = tx.beforeCommit;
    if (!pending) return;
    for (const [key, work] of pending) {
      pending.delete(key);
      await work();
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
   * Inside another transaction of this store (its async context) `fn` joins it. `setup` statements run first.
   */
  async transaction<T>(fn: (tx: TxState) => Promise<T>, options: { setup?: readonly string[]; waitMs?: number } = {}): Promise<T> {
    const outer = this.current();
    if (outer) return this.join(outer, fn, options.setup ?? []);
    const release = await this.mutex.acquire(options.waitMs);
    if (!release) throw new BusyError();
    try {
      const client = await this.connect();
      const tx: TxState = { client, closed: false, savepoints: 0, failures: 0 };
      let broken: Error | boolean = false;
      try {
        await client.query('BEGIN');
        for (const statement of options.setup ?? []) await client.query(statement);
        const result = await this.als.run(tx, () => fn(tx));
        await this.als.run(tx, () => this.settle(tx));
        tx.closed = true;
        let commit: QueryResult;
        try {
          commit = await client.query('COMMIT');
        } catch (error) {
          // Lost during COMMIT: committed or not, the server alone knows; the connection is not reused.
          broken = error instanceof Error ? error : true;
          throw storeError(error, this.target);
        }
        // A statement refused earlier (its error caught and ignored by `fn`) aborted the transaction: COMMIT then
        // quietly rolls back. That must not pass for success.
        if (commit.command === 'ROLLBACK') {
          throw new HippoError(
            'transaction_aborted',
            'a statement of the transaction failed, so PostgreSQL rolled it all back; nothing of it was written',
            ExitCode.unexpected,
          );
        }
        return result;
      } catch (error) {
        tx.closed = true;
        const mapped = error instanceof HippoError ? error : storeError(error, this.target);
        // The server stopped answering or the connection broke (exit 8): a ROLLBACK would queue behind the statement
        // that never came back and wait a whole timeout again (issue 27: two waits back to back). The connection is
        // dropped instead; the server rolls back a transaction whose connection is gone.
        if (broken === false && mapped instanceof StoreUnavailableError) broken = mapped;
        if (broken === false) {
          await client.query('ROLLBACK').catch((rollbackError: unknown) => {
            // The connection is gone: the server rolls the transaction back itself; the client is dropped.
            broken = rollbackError instanceof Error ? rollbackError : true;
          });
        }
        throw mapped;
      } finally {
        client.release(broken);
      }
    } finally {
      release();
    }
  }

  /**
   * A transaction started inside another joins it, as on SQLite: what it wrote stays part of the outer transaction
   * even when it throws (the outer one decides). Only when the server refused a statement inside it — which in
   * PostgreSQL aborts the whole transaction — is its part rolled back to a savepoint, so the outer transaction can
   * still go on if it catches the error (on SQLite a refused statement undoes itself alone).
   */
  private async join<T>(tx: TxState, fn: (tx: TxState) => Promise<T>, setup: readonly string[]): Promise<T> {
    const name = `hippo_sp_${++tx.savepoints}`;
    const failuresBefore = tx.failures;
    await this.query(`SAVEPOINT ${name}`, [], tx);
    try {
      for (const statement of setup) await this.query(statement, [], tx);
      const result = await fn(tx);
      await this.query(`RELEASE SAVEPOINT ${name}`, [], tx);
      return result;
    } catch (error) {
      if (!tx.closed) {
        if (tx.failures > failuresBefore) await this.query(`ROLLBACK TO SAVEPOINT ${name}`, [], tx).catch(() => undefined);
        await this.query(`RELEASE SAVEPOINT ${name}`, [], tx).catch(() => undefined);
      }
      throw error;
    }
  }

  /**
   * A best-effort transaction: waits at most `waitMs` for this store's other transaction and for row locks
   * (`lock_timeout`), then gives up and returns undefined. A deadlock or serialisation failure gives up too. Inside
   * a transaction it joins it (for the same time limit on locks).
   */
  async tryTransaction<T>(fn: (tx: TxState) => Promise<T>, waitMs: number): Promise<T | undefined> {
    const ms = Math.max(1, Math.round(waitMs));
    const outer = this.current();
    try {
      if (outer) {
        const before = await this.query<{ value: string }>("SELECT current_setting('lock_timeout') AS value", [], outer);
        try {
          return await this.join(outer, fn, [`SET LOCAL lock_timeout = ${ms}`]);
        } finally {
          await this.query("SELECT set_config('lock_timeout', $1, true)", [before.rows[0]!.value], outer).catch(() => undefined);
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
    const tx: TxState = { client, closed: false, savepoints: 0, failures: 0 };
    let broken = false;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await client.query("SET LOCAL idle_in_transaction_session_timeout = '10min'");
      const result = await this.als.run(tx, () => fn(tx));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      const mapped = error instanceof HippoError ? error : storeError(error, this.target);
      // As in `transaction`: no ROLLBACK on a connection that stopped answering; it is dropped.
      if (mapped instanceof StoreUnavailableError) broken = true;
      else {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
      }
      throw mapped;
    } finally {
      tx.closed = true;
      client.release(broken);
    }
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

/** SQLSTATEs that mean "try again later": lock not available, deadlock, serialisation failure. */
const BUSY_CODES = new Set(['55P03', '40P01', '40001']);

/**
 * Every error the adapter lets out: HippoErrors as they are; "the server is not there for us" → StoreUnavailableError
 * (exit 8, connect.ts); busy → BusyError; a value the server refuses → UsageError `bad_value` (without the server's
 * wording: it may quote the value); disk full, read-only, permission; anything else — a constraint the core should
 * have kept, a bug — HippoError `unexpected` (exit 1), as the SQLite adapter words it, with the SQLSTATE.
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
  // A partition's name (memories_p3) is reported as its table's: the partitions are the engine's, not hippo's tables.
  const table = typeof shape.table === 'string' ? shape.table.replace(/^(memories|candidates|runs|handoffs)_p\d+$/, '$1') : undefined;
  const constraint = typeof shape.constraint === 'string' ? shape.constraint : undefined;
  const details = { sqlstate: code, ...(table ? { table } : {}), ...(constraint ? { constraint } : {}) };
  if (BUSY_CODES.has(code)) return new BusyError();
  if (code === '22021') return nulError('a value');
  if (code.startsWith('22'))
    return new UsageError('bad_value', `a value is not valid for the PostgreSQL store (SQLSTATE ${code}); nothing was written`, { details });
  if (code === '53100')
    return new HippoError('disk_full', "the PostgreSQL server's disk is full; the transaction was rolled back", ExitCode.unexpected, { details });
  if (code === '25006')
    return new UsageError('database_read_only', 'the PostgreSQL store is read-only (a standby, or default_transaction_read_only)', { details });
  const message = typeof shape.message === 'string' ? redact(shape.message, target) : 'error';
  if (code === '42501') return new UsageError('postgres_permission_denied', `the PostgreSQL user may not do this: ${message}`, { details });
  return new HippoError('unexpected', `unexpected error: ${message} (SQLSTATE ${code})`, ExitCode.unexpected, { details });
}
