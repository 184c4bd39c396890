/**
 * `hippo db copy FROM TO` and `hippo db check` (issue 11, docs/postgres.md "Moving a store"): a whole store copied
 * between engines — SQLite → PostgreSQL and back, or between two stores of one engine — through the port's `rows`
 * facet alone, so neither adapter has copy code of its own.
 *
 * The copy is one write transaction of the target: every table (memories, candidates, runs, handoffs, settings) read
 * from the source in id order (memories thread by thread: `dumpByThread`) and loaded into the target, ids and every
 * field exact; then the target's rows are read
 * back inside the same transaction and their count and content hash per table compared with the source's. Any
 * difference, an interruption or a crash leaves the target as it was (empty). The nightly lock's record is never
 * copied: it names a process on the source's side.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { ConflictError, HippoError, InterruptedError, NotFoundError, UsageError } from './errors.js';
import { PAUSE_KEY } from './nightly/pause.js';
import { isPostgresLocation } from './paths.js';
import { STORE_TABLES, type StoreDescription, type StoreOps, type StoreTable, type TableRow } from './store/port.js';
import { openStore, type Store } from './store/store.js';
import type { Clock } from './time.js';

/** The settings key of the nightly lock's record (both adapters): never copied, never counted as content. */
export const NIGHTLY_LOCK_SETTING = 'nightly.lock';

/** Rows per `rows.load` call (PostgreSQL COPYs each batch; SQLite inserts them in multi-row statements). */
const BATCH = 1_000;

/**
 * A copy stopped by an interruption: the one message that says so (the CLI only says "stopping…" when the signal
 * arrives) and what it left behind.
 */
export function copyInterrupted(): InterruptedError {
  return new InterruptedError(
    'interrupted: the copy was stopped before it finished: nothing was copied, the target is as it was (its transaction was rolled back)',
  );
}

export interface TableCopy {
  table: StoreTable;
  rows: number;
  /** sha256 of the table's rows as canonical JSON lines (keys sorted), in id order: equal on both sides. */
  sha256: string;
}

/**
 * The MCP bearer tokens of the source, which a copy leaves behind (docs/decisions.md, issue 30): they are credentials
 * of the store that issued them, not data, as for snapshots and restores. The live ones are listed so they can be
 * created anew on the target.
 */
export interface TokensNotCopied {
  /** Live (unrevoked) tokens in the source. */
  live: number;
  /** Per agent, the labels of its live tokens (null: a token without a label), oldest first. */
  agents: { agentId: string; labels: (string | null)[] }[];
}

export interface CopyResult {
  from: { engine: string; location: string };
  to: { engine: string; location: string };
  tables: TableCopy[];
  rows: number;
  verified: true;
  tokensNotCopied: TokensNotCopied;
}

/**
 * The phases of a copy, in order: rows loaded into the target (`copying`; memories thread by thread, each written with
 * its search context), read back and compared (`verifying`), and the commit (`committing`: on PostgreSQL it first
 * finishes any re-index a load queued — none when the memories came thread by thread into an empty store).
 */
export type CopyPhase = 'copying' | 'verifying' | 'committing';

export interface CopyOptions {
  clock?: Clock;
  signal?: AbortSignal;
  /** Called once with the number of rows to copy, then as rows are loaded (a running total). */
  onStart?: (total: number) => void;
  onRows?: (done: number) => void;
  /**
   * Called as each phase begins, with the rows it goes through (0 for `committing`); `onRows` then counts that phase's
   * rows from 0. `copying` comes right after `onStart`.
   */
  onPhase?: (phase: CopyPhase, total: number) => void;
}

/**
 * One turn of the event loop. A SQLite store answers synchronously, so a read of it never leaves the microtask queue:
 * held for a whole store, it left a PostgreSQL target's answer unread until the query's timer fired (a 1 M copy on a
 * busy machine failed with a statement timeout the server had not hit). Taken every BATCH rows read.
 */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** JSON with object keys sorted at every level: the same text for the same row, whichever adapter built the object. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

function isLockRecord(table: StoreTable, row: TableRow): boolean {
  return table === 'settings' && (row as { key: string }).key === NIGHTLY_LOCK_SETTING;
}

/** Rows of a store's tables, the lock's record left out. */
async function contentCounts(store: StoreOps): Promise<Record<StoreTable, number>> {
  const counts = {} as Record<StoreTable, number>;
  for (const table of STORE_TABLES) counts[table] = await store.rows.count(table, null);
  if ((await store.settings.get(NIGHTLY_LOCK_SETTING)) !== undefined) counts.settings -= 1;
  return counts;
}

/** Count and content hash of one table as `ops` sees it. */
async function digest(
  ops: StoreOps,
  table: StoreTable,
  signal?: AbortSignal,
  stopped: () => InterruptedError = () => new InterruptedError(),
): Promise<{ rows: number; sha256: string }> {
  const hash = createHash('sha256');
  let rows = 0;
  for await (const row of ops.rows.dump(table, null)) {
    if (isLockRecord(table, row)) continue;
    hash.update(`${canonical(row)}\n`);
    rows += 1;
    if (rows % BATCH === 0) {
      if (signal?.aborted) throw stopped();
      await turn();
    }
  }
  return { rows, sha256: hash.digest('hex') };
}

/** Refuses a target that holds any row (the lock's record aside): exit 4, nothing written. */
async function refuseNonEmpty(target: StoreOps, location: string): Promise<void> {
  const counts = await contentCounts(target);
  const held = Object.entries(counts).filter(([, count]) => count > 0);
  if (held.length > 0) {
    throw new ConflictError(
      'copy_target_not_empty',
      `the target store is not empty (${held.map(([table, count]) => `${count} ${table}`).join(', ')}); nothing was copied — copy into a new, empty store`,
      { details: { to: location, counts } },
    );
  }
}

/**
 * Copies every row of `source` into the empty `target` in one transaction of the target, verified by counts and
 * content hashes per table before it commits. Either the whole store is there, or nothing.
 */
export async function copyStore(source: Store, target: Store, options: CopyOptions = {}): Promise<CopyResult> {
  await refuseNonEmpty(target, target.location);
  const sourceCounts = await contentCounts(source);
  const total = Object.values(sourceCounts).reduce((sum, count) => sum + count, 0);
  options.onStart?.(total);
  options.onPhase?.('copying', total);
  const tokensNotCopied = await liveTokens(source);
  let done = 0;
  const tables = await target.transaction(async (tx) => {
    // Checked again inside the transaction: another process may have written to the target meanwhile.
    await refuseNonEmpty(tx, target.location);
    const copied: TableCopy[] = [];
    for (const table of STORE_TABLES) {
      const hash = createHash('sha256');
      let rows = 0;
      // Memories are read thread by thread (`dumpByThread`), the order in which the target writes each row with its
      // search context; their count and hash in id order (the ones `db check` prints) come from a second read of the
      // source, made meanwhile (the copy mostly waits on the target).
      const inIdOrder = table === 'memories' ? digest(source, table, options.signal, copyInterrupted) : undefined;
      inIdOrder?.catch(() => undefined);
      let batch: TableRow[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        if (options.signal?.aborted) throw copyInterrupted();
        await turn();
        const loaded = await tx.rows.load(table, batch);
        if (loaded !== batch.length) {
          throw new HippoError('copy_verification_failed', `the copy of ${table} loaded ${loaded} of ${batch.length} rows; nothing was copied`, 1, {
            details: { table },
          });
        }
        done += batch.length;
        options.onRows?.(done);
        batch = [];
      };
      const read: AsyncIterable<TableRow> = table === 'memories' ? source.rows.dumpByThread() : source.rows.dump(table, null);
      for await (const row of read) {
        if (isLockRecord(table, row)) continue;
        if (!inIdOrder) hash.update(`${canonical(row)}\n`);
        rows += 1;
        batch.push(row);
        if (batch.length >= BATCH) await flush();
      }
      await flush();
      if (inIdOrder) {
        const expected = await inIdOrder;
        if (expected.rows !== rows) {
          throw new HippoError('copy_verification_failed', `the copy of ${table} read ${rows} rows, the source holds ${expected.rows}; nothing was copied`, 1, {
            details: { table },
          });
        }
        copied.push({ table, ...expected });
      } else copied.push({ table, rows, sha256: hash.digest('hex') });
    }
    // Read back what the target now holds, in the same transaction: a difference rolls everything back.
    options.onPhase?.('verifying', done);
    let verified = 0;
    for (const expected of copied) {
      const actual = await digest(tx, expected.table, options.signal, copyInterrupted);
      verified += actual.rows;
      options.onRows?.(verified);
      if (actual.rows !== expected.rows || actual.sha256 !== expected.sha256) {
        throw new HippoError(
          'copy_verification_failed',
          `the copy of ${expected.table} does not match the source (${actual.rows} rows copied, ${expected.rows} read); nothing was copied`,
          1,
          { details: { table: expected.table, expected, actual } },
        );
      }
    }
    options.onPhase?.('committing', 0);
    return copied;
  });
  // Committed: the target's housekeeping of every table the copy filled (PostgreSQL: VACUUM (ANALYZE), so index-only
  // scans read no heap page and the planner has statistics; docs/postgres.md). Best effort.
  await target.settleLoad(null);
  return {
    from: { engine: source.engine, location: source.location },
    to: { engine: target.engine, location: target.location },
    tables,
    rows: tables.reduce((sum, table) => sum + table.rows, 0),
    verified: true,
    tokensNotCopied,
  };
}

/** The source's live MCP tokens by agent (what a copy leaves behind). */
async function liveTokens(source: Store): Promise<TokensNotCopied> {
  const live = (await source.tokens.list()).filter((token) => token.revokedAt === null).reverse();
  const agents = new Map<string, (string | null)[]>();
  for (const token of live) agents.set(token.agentId, [...(agents.get(token.agentId) ?? []), token.label]);
  return { live: live.length, agents: [...agents].map(([agentId, labels]) => ({ agentId, labels })).sort((a, b) => (a.agentId < b.agentId ? -1 : 1)) };
}

/**
 * Opens FROM (which must exist: a SQLite file that is not there is exit 3, not created) and TO (created or migrated as
 * any store is), copies, and closes both. The same store on both sides is a usage error.
 */
export async function copyBetween(from: string, to: string, options: CopyOptions = {}): Promise<CopyResult> {
  if (from === to) throw new UsageError('copy_same_store', 'the source and the target are the same store; nothing was copied', { details: { from } });
  if (!isPostgresLocation(from) && !existsSync(from)) {
    throw new NotFoundError('store_not_found', `there is no store at ${from}; nothing was copied`, { details: { path: from, copySource: true } });
  }
  const source = await openStore({ path: from, clock: options.clock });
  try {
    const target = await openStore({ path: to, clock: options.clock });
    try {
      if (source.engine === target.engine && source.location === target.location) {
        throw new UsageError('copy_same_store', 'the source and the target are the same store; nothing was copied', { details: { from: source.location } });
      }
      return await copyStore(source, target, options);
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

export interface CheckResult extends StoreDescription {
  /** Rows whose count and content hash were read whole (every table walked once). */
  tables: { table: StoreTable; rows: number; sha256: string }[];
  /** The nightly lock's holder, when one is running. */
  lockHolder: Awaited<ReturnType<Store['lock']['holder']>> | null;
  paused: boolean;
}

/**
 * `hippo db check`: the engine, where the data lives (never a password), the engine's and the schema's versions, the
 * counts, and every table read whole (a row the store cannot read back fails the check) with its content hash — the
 * same hashes `db copy` prints, so two stores can be compared.
 */
export async function checkStore(store: Store, signal?: AbortSignal): Promise<CheckResult> {
  const description = await store.describe();
  const tables: CheckResult['tables'] = [];
  for (const table of STORE_TABLES) tables.push({ table, ...(await digest(store, table, signal)) });
  const lockHolder = (await store.lock.holder()) ?? null;
  const paused = (await store.settings.get(PAUSE_KEY)) !== undefined;
  return { ...description, tables, lockHolder, paused };
}
