import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ExitCode, HippoError, InterruptedError, NotFoundError, UsageError, type ErrorCode } from '../errors.js';
import { faultPoint } from '../faults.js';
import { newId } from '../ids.js';
import type { Run, RunCounts } from '../records.js';
import { withRun, type RunScope } from '../runs.js';
import type { HeldLock, RestoredTable, SnapshotSource, Store, TableChangeCounts } from '../store/port.js';
import { acquireLock } from './lock.js';
import { snapshotNamePattern } from '../store/snapshot-files.js';
import { snapshotFiles, takeSnapshot } from './snapshot.js';

/**
 * `hippo rem restore` (docs/design.md §7). What a restore puts back: memories (the full-text index follows),
 * candidates and handoffs — of one agent (`--agent`) or of every agent. What it never touches: the audit log (`runs`:
 * the nights and the restore itself stay on record) and `settings` (the lock, the pause flag). Row ids and contents
 * come back exactly. The engine reads and writes the snapshot (store.snapshots.open); the steps are here.
 */
export const RESTORED_TABLES: readonly RestoredTable[] = ['memories', 'candidates', 'handoffs'];
export type { RestoredTable } from '../store/port.js';

export interface TableChanges extends TableChangeCounts {
  table: RestoredTable;
  /** Rows in the snapshot that the database lacks (restored). */
  added: number;
  /** Rows in the database that the snapshot lacks (deleted by the restore). */
  removed: number;
  /** Rows in both that differ (put back as they were). */
  changed: number;
  unchanged: number;
}

export interface RestorePlan {
  snapshot: string;
  /** Only this agent's rows; null = every agent's. */
  agentId: string | null;
  tables: TableChanges[];
}

export interface RestoreResult extends RestorePlan {
  run: Run;
  /** The database as it was just before the restore: restore it to undo this one. */
  preRestoreSnapshot: string;
}

/** A snapshot by file name, by the id of the run that took it, or by path. Exit 3 when there is none. */
export function resolveSnapshot(store: Store, ref: string): string {
  const { dir, suffix } = store.snapshots;
  const byName = snapshotNamePattern(suffix).test(ref) ? join(dir, ref) : undefined;
  if (byName && existsSync(byName)) return byName;
  if (/^run_[0-9A-HJKMNP-TV-Z]{26}$/.test(ref)) {
    const byRun = snapshotFiles(dir, suffix).find((snapshot) => snapshot.runId === ref);
    if (byRun) return byRun.path;
  } else if (!byName && existsSync(ref) && statSync(ref).isFile()) {
    return resolve(ref);
  }
  throw new NotFoundError('snapshot_not_found', `no snapshot "${ref}"`, { details: { snapshot: ref } });
}

/** Runs `fn` with the snapshot opened, closing it after whatever happens. */
async function withSource<T>(store: Store, file: string, fn: (source: SnapshotSource) => Promise<T>): Promise<T> {
  const source = await store.snapshots.open(file);
  try {
    return await fn(source);
  } finally {
    await source.close();
  }
}

async function compareAll(
  store: Store,
  source: SnapshotSource,
  agentId: string | null,
  ops: Parameters<SnapshotSource['compare']>[0] = store,
): Promise<TableChanges[]> {
  const tables: TableChanges[] = [];
  for (const table of RESTORED_TABLES) tables.push(await source.compare(ops, table, agentId));
  return tables;
}

/** Without `--apply`: per table, what a restore would add, remove and change. Reads only. */
export async function planRestore(store: Store, file: string, agentId: string | null): Promise<RestorePlan> {
  return withSource(store, file, async (source) => ({ snapshot: file, agentId, tables: await compareAll(store, source, agentId) }));
}

function changeCounts(tables: TableChanges[]): RunCounts {
  return Object.fromEntries(
    tables.flatMap((change) => [
      [`${change.table}Added`, change.added],
      [`${change.table}Removed`, change.removed],
      [`${change.table}Changed`, change.changed],
    ]),
  );
}

/**
 * `--apply`: under the nightly lock (exit 4 while a night or another restore runs), with a `rem restore` run row:
 * a full check of the snapshot, a pre-restore snapshot of the database, then — in one transaction — the rows in
 * scope replaced, verified equal to the snapshot's, and the run row finished. A mismatch rolls everything back and
 * fails the run.
 */
export async function applyRestore(store: Store, file: string, options: { agentId: string | null; signal?: AbortSignal }): Promise<RestoreResult> {
  return withSource(store, file, async (source) => {
    const lock = await acquireLock(store, { runId: newId('run', store.clock().getTime()), kind: 'rem restore' });
    try {
      return await withRun(store, 'rem restore', options.agentId, (scope) => restoreSteps(store, file, source, lock, scope, options), {
        id: lock.holder.runId,
        signal: options.signal,
      });
    } finally {
      await lock.release();
    }
  });
}

/**
 * A failure once the restore has begun is exit 1 under its own code; an interruption stays an interruption (exit 130)
 * and bad input stays bad input (exit 2: a snapshot found damaged only while its rows are read, say).
 */
function restoreFailure(error: unknown, code: ErrorCode, message: (original: string | undefined) => string): unknown {
  if (error instanceof InterruptedError) return error;
  if (error instanceof HippoError && error.exitCode === ExitCode.usage) return error;
  const hippo = error instanceof HippoError ? error : undefined;
  return new HippoError(hippo?.code ?? code, message(hippo?.message), ExitCode.unexpected);
}

async function restoreSteps(
  store: Store,
  file: string,
  source: SnapshotSource,
  lock: HeldLock,
  scope: RunScope,
  options: { agentId: string | null; signal?: AbortSignal },
): Promise<RestoreResult> {
  const { agentId } = options;
  const steps: Record<string, string> = { lock: lock.takenOver ? 'took over a stale lock' : 'acquired' };
  scope.record.steps = steps;
  if (!(await source.verify())) {
    steps.integrity = 'failed';
    throw new UsageError('snapshot_damaged', `${file} is damaged (it fails its integrity checks); nothing was changed — pick another snapshot`, {
      details: { snapshot: file },
    });
  }
  steps.integrity = 'ok';
  let preRestore: string;
  try {
    preRestore = (await takeSnapshot(store, scope.run.id, { signal: options.signal })).path;
  } catch (error) {
    steps.preRestoreSnapshot = error instanceof InterruptedError ? 'interrupted' : 'failed';
    throw restoreFailure(error, 'snapshot_failed', (original) => `${original ?? 'the pre-restore snapshot could not be written'}; nothing was restored`);
  }
  steps.preRestoreSnapshot = 'written and verified';
  scope.record.snapshotPath = preRestore;
  let restored: RestoreResult;
  try {
    restored = await store.transaction(async (tx) => {
      const tables = await compareAll(store, source, agentId, tx);
      for (const table of RESTORED_TABLES) await source.replace(tx, table, agentId);
      faultPoint('restore:replaced');
      for (const table of RESTORED_TABLES) {
        if (!(await source.matches(tx, table, agentId))) {
          throw new HippoError(
            'restore_verify_failed',
            "after the restore the rows did not equal the snapshot's; everything was rolled back and nothing changed",
            ExitCode.unexpected,
          );
        }
      }
      steps.verify = 'rows equal the snapshot';
      const finished = await scope.finish({ status: 'completed', counts: changeCounts(tables), snapshotPath: preRestore, steps }, tx);
      return { snapshot: file, agentId, tables, run: finished, preRestoreSnapshot: preRestore };
    });
  } catch (error) {
    steps.replace = 'rolled back';
    throw restoreFailure(error, 'restore_failed', (original) => original ?? 'the restore failed and was rolled back; nothing changed');
  }
  // Whole tables were replaced: the search index's housekeeping and (PostgreSQL) ANALYZE, so the planner sees the new
  // row counts at once. Best effort: the restore is committed and verified already.
  await store.memories.optimizeSearchIndex().catch(() => undefined);
  return restored;
}
