import { ExitCode, HippoError, InterruptedError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { answerProblemOf } from '../model/answer-problem.js';
import { prepared, type Store } from '../store/store.js';
import type { Run, RunCounts, RunKind, RunStatus } from '../records.js';
import { iso } from '../time.js';

export { RUN_KINDS, RUN_STATUSES, type Run, type RunCounts, type RunKind, type RunStatus } from '../records.js';

interface RunRow {
  id: string;
  kind: RunKind;
  agent_id: string | null;
  started_at: string;
  finished_at: string | null;
  status: RunStatus;
  snapshot_path: string | null;
  counts: string;
  candidate_ids: string;
  model: string | null;
  errors: string;
  duration_ms: number | null;
  parent_run_id: string | null;
  steps: string;
}

function runFromRow(row: RunRow): Run {
  return {
    id: row.id,
    kind: row.kind,
    agentId: row.agent_id,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    status: row.status,
    snapshotPath: row.snapshot_path,
    counts: JSON.parse(row.counts) as RunCounts,
    candidateIds: JSON.parse(row.candidate_ids) as string[],
    model: row.model,
    errors: JSON.parse(row.errors) as string[],
    durationMs: row.duration_ms,
    parentRunId: row.parent_run_id,
    steps: JSON.parse(row.steps) as Record<string, string>,
  };
}

export interface StartRunOptions {
  /** A run id made beforehand (nightly takes its lock under the id before the row exists). */
  id?: string;
  /** The night's run id, for the per-agent distillation rows of a nightly run. */
  parentRunId?: string;
}

/** Writes a `running` row and returns it; finish it with `finishRun` whatever the outcome (`withRun` does both). */
export function startRun(store: Store, kind: RunKind, agentId: string | null, options: StartRunOptions = {}): Run {
  const now = store.clock();
  const run: Run = {
    id: options.id ?? newId('run', now.getTime()),
    kind,
    agentId,
    startedAt: iso(now),
    finishedAt: null,
    status: 'running',
    snapshotPath: null,
    counts: {},
    candidateIds: [],
    model: null,
    errors: [],
    durationMs: null,
    parentRunId: options.parentRunId ?? null,
    steps: {},
  };
  prepared(store, 'INSERT INTO runs (id, kind, agent_id, started_at, status, parent_run_id) VALUES (?, ?, ?, ?, ?, ?)').run(
    run.id,
    kind,
    agentId,
    run.startedAt,
    'running',
    run.parentRunId,
  );
  return run;
}

export interface RunOutcome {
  status: Exclude<RunStatus, 'running'>;
  counts?: RunCounts;
  candidateIds?: string[];
  model?: string | null;
  errors?: string[];
  snapshotPath?: string | null;
  steps?: Record<string, string>;
}

/** Finalises a run row (call inside the staging transaction when there is one, so both land or neither). */
export function finishRun(store: Store, run: Run, outcome: RunOutcome): Run {
  const now = store.clock();
  const finished: Run = {
    ...run,
    finishedAt: iso(now),
    status: outcome.status,
    counts: outcome.counts ?? run.counts,
    candidateIds: outcome.candidateIds ?? run.candidateIds,
    model: outcome.model === undefined ? run.model : outcome.model,
    errors: outcome.errors ?? run.errors,
    snapshotPath: outcome.snapshotPath === undefined ? run.snapshotPath : outcome.snapshotPath,
    steps: outcome.steps ?? run.steps,
    durationMs: Math.max(0, now.getTime() - Date.parse(run.startedAt)),
  };
  prepared(
    store,
    'UPDATE runs SET finished_at = ?, status = ?, counts = ?, candidate_ids = ?, model = ?, errors = ?, snapshot_path = ?, steps = ?, duration_ms = ? WHERE id = ?',
  ).run(
    finished.finishedAt,
    finished.status,
    JSON.stringify(finished.counts),
    JSON.stringify(finished.candidateIds),
    finished.model,
    JSON.stringify(finished.errors),
    finished.snapshotPath,
    JSON.stringify(finished.steps),
    finished.durationMs,
    finished.id,
  );
  return finished;
}

export function listRuns(store: Store, options: { limit?: number; agentId?: string } = {}): Run[] {
  const rows = store.db
    .prepare(`SELECT * FROM runs ${options.agentId ? 'WHERE agent_id = @agentId OR agent_id IS NULL' : ''} ORDER BY started_at DESC, id DESC LIMIT @limit`)
    .all({ agentId: options.agentId ?? null, limit: options.limit ?? 50 }) as RunRow[];
  return rows.map(runFromRow);
}

/** A run of this agent or of all agents (nightly); another agent's run is "not found" unless `agentId` is omitted. */
export function getRun(store: Store, id: string, agentId?: string): Run {
  const row = store.db
    .prepare('SELECT * FROM runs WHERE id = @id AND (@agentId IS NULL OR agent_id = @agentId OR agent_id IS NULL)')
    .get({ id, agentId: agentId ?? null }) as RunRow | undefined;
  if (!row) throw new NotFoundError('run_not_found', `no run ${id}${agentId ? ` for agent "${agentId}"` : ''}`);
  return runFromRow(row);
}

/**
 * Closes the rows a crashed run left `running` (the run itself and its child rows) as `interrupted`. Called by whoever
 * takes over that run's stale lock, so `rem runs` never shows a dead run as still going.
 */
export function failAbandonedRuns(store: Store, runId: string): number {
  const now = iso(store.clock());
  return prepared(
    store,
    `UPDATE runs SET status = 'interrupted', finished_at = @now, errors = '["interrupted"]',
       duration_ms = max(0, CAST(round((julianday(@now) - julianday(started_at)) * 86400000) AS INTEGER))
     WHERE status = 'running' AND (id = @runId OR parent_run_id = @runId)`,
  ).run({ now, runId }).changes;
}

/** What a run's row records when it ends in an error; the work fills it in as it goes. */
export interface RunRecord {
  counts?: RunCounts;
  steps?: Record<string, string>;
  model?: string | null;
  snapshotPath?: string | null;
}

export interface RunScope {
  /** The row as started (status `running`). */
  readonly run: Run;
  /** Recorded on the row however it ends (what `finish` is given wins): update it as the work goes. */
  readonly record: RunRecord;
  /**
   * Writes the run's final row now — inside the transaction that stages its results, when there is one, so both land
   * or neither does — and returns it. Work that returns without calling it is finished `completed` with `record`.
   */
  finish(outcome: RunOutcome): Run;
}

export interface WithRunOptions extends StartRunOptions {
  /** The caller's cancellation: an error thrown after it fired finishes the row `interrupted`. */
  signal?: AbortSignal;
}

/** Run rows started by `withRun` and not finished yet, for `interruptOpenRuns` on a forced exit. */
const openScopes = new Set<{ store: Store; run: Run; record: RunRecord }>();

/**
 * A run as a scope: writes the `running` row, runs `fn`, and whatever happens finishes the row — `completed` (or what
 * `fn` passed to `scope.finish`) on success; `interrupted` on an interruption (InterruptedError, or any error after
 * `signal` fired); `failed` otherwise, with the error's fixed code in `errors` (for a rejected answer, its
 * `AnswerProblem`). The thrown error keeps its class and gains `details.runId` and `details.run` (the finished row);
 * anything that is not a HippoError becomes one (`unexpected`, exit 1). `fn` may be synchronous or async.
 */
export function withRun<T>(store: Store, kind: RunKind, agentId: string | null, fn: (scope: RunScope) => Promise<T>, options?: WithRunOptions): Promise<T>;
export function withRun<T>(store: Store, kind: RunKind, agentId: string | null, fn: (scope: RunScope) => T, options?: WithRunOptions): T;
export function withRun<T>(
  store: Store,
  kind: RunKind,
  agentId: string | null,
  fn: (scope: RunScope) => T | Promise<T>,
  options: WithRunOptions = {},
): T | Promise<T> {
  const open = { store, run: startRun(store, kind, agentId, options), record: {} as RunRecord };
  openScopes.add(open);
  let finished = false;
  const scope: RunScope = {
    run: open.run,
    record: open.record,
    finish(outcome) {
      const done = finishRun(store, open.run, { ...open.record, ...outcome });
      finished = true;
      return done;
    },
  };
  const succeed = (value: T): T => {
    openScopes.delete(open);
    if (!finished) finishRunIfRunning(store, open.run, { status: 'completed', ...open.record });
    return value;
  };
  const fail = (error: unknown): never => {
    openScopes.delete(open);
    throw closeFailedRun(store, open.run, open.record, error, options.signal);
  };
  let result: T | Promise<T>;
  try {
    result = fn(scope);
  } catch (error) {
    return fail(error);
  }
  if (result instanceof Promise) return result.then(succeed, fail);
  return succeed(result);
}

/** The fixed string a failed run records for an error: a rejected answer's reason, else the error's code. */
export function runErrorCode(error: unknown): string {
  return answerProblemOf(error) ?? (error instanceof HippoError ? error.code : 'unexpected');
}

function closeFailedRun(store: Store, run: Run, record: RunRecord, error: unknown, signal: AbortSignal | undefined): HippoError {
  const interrupted = error instanceof InterruptedError || signal?.aborted === true;
  const outcome: RunOutcome = { status: interrupted ? 'interrupted' : 'failed', errors: [interrupted ? 'interrupted' : runErrorCode(error)], ...record };
  let finished: Run = { ...run, ...outcome };
  try {
    // Guarded: a row already final (committed by `finish` before the error) is left as it is.
    finishRunIfRunning(store, run, outcome);
    finished = getRun(store, run.id);
  } catch {
    // The database itself is failing (busy, full, closed): the original error says more than this one would.
  }
  return withRunDetails(error, finished);
}

/** The error, as a HippoError of its own class, carrying the run it ended. */
function withRunDetails(error: unknown, run: Run): HippoError {
  const hippo =
    error instanceof HippoError
      ? error
      : new HippoError('unexpected', `unexpected error: ${error instanceof Error ? error.message : String(error)}`, ExitCode.unexpected, { cause: error });
  Object.defineProperty(hippo, 'details', { value: { ...hippo.details, runId: run.id, run }, enumerable: true, configurable: true, writable: false });
  return hippo;
}

function finishRunIfRunning(store: Store, run: Run, outcome: RunOutcome): void {
  const still = prepared(store, 'SELECT status FROM runs WHERE id = ?').pluck().get(run.id);
  if (still === 'running') finishRun(store, run, outcome);
}

/**
 * Finishes every run row this process has open as `interrupted` (with what each recorded so far). For a forced exit
 * after an interruption, when the work could not unwind in time: no row is left `running` by a live decision to quit.
 */
export function interruptOpenRuns(): number {
  let closed = 0;
  for (const open of [...openScopes].reverse()) {
    openScopes.delete(open);
    try {
      finishRunIfRunning(open.store, open.run, { status: 'interrupted', errors: ['interrupted'], ...open.record });
      closed++;
    } catch {
      // A closed or failing store: nothing more can be recorded.
    }
  }
  return closed;
}
