import { ExitCode, HippoError, InterruptedError, NotFoundError } from './errors.js';
import { newId } from './ids.js';
import { requireCount, shownOf, type Shown } from './limits.js';
import { answerProblemOf } from './model/answer-problem.js';
import type { Store, StoreOps } from './store/port.js';
import type { Run, RunCounts, RunKind, RunStatus } from './records.js';
import { iso } from './time.js';

export { RUN_KINDS, RUN_STATUSES, type Run, type RunCounts, type RunKind, type RunStatus } from './records.js';

export interface StartRunOptions {
  /** A run id made beforehand (nightly takes its lock under the id before the row exists). */
  id?: string;
  /** The night's run id, for the per-agent distillation rows of a nightly run. */
  parentRunId?: string;
}

/** Writes a `running` row and returns it; finish it with `finishRun` whatever the outcome (`withRun` does both). */
export async function startRun(store: StoreOps, kind: RunKind, agentId: string | null, options: StartRunOptions = {}): Promise<Run> {
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
    memoryIds: [],
  };
  await store.runs.insert(run);
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
  memoryIds?: string[];
}

/**
 * Finalises a run row while it is still `running` (call inside the staging transaction when there is one, so both
 * land or neither). Returns the row as finished (what it would be, when the row was already final).
 */
export async function finishRun(store: StoreOps, run: Run, outcome: RunOutcome): Promise<Run> {
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
    memoryIds: outcome.memoryIds ?? run.memoryIds,
    durationMs: Math.max(0, now.getTime() - Date.parse(run.startedAt)),
  };
  await store.runs.finish(finished);
  return finished;
}

export interface PruneRunsResult {
  /** Runs started before this time (ISO) were pruned (finished ones only). */
  before: string;
  pruned: number;
  dryRun: boolean;
  /** The prune's own audit row (`rem runs prune`, counts.pruned); null for a dry run. */
  run: Run | null;
}

/**
 * `rem runs prune`: deletes the audit rows of every agent started before `before` — finished ones only, never a
 * `running` row — and records that it did in a row of its own. `dryRun` counts and writes nothing.
 */
export async function pruneRuns(store: Store, options: { before: Date; dryRun?: boolean }): Promise<PruneRunsResult> {
  const before = iso(options.before);
  if (options.dryRun) return { before, pruned: await store.runs.prune(before, { dryRun: true }), dryRun: true, run: null };
  return withRun(store, 'rem runs prune', null, async (scope) =>
    store.transaction(async (tx) => {
      const pruned = await tx.runs.prune(before);
      const run = await scope.finish({ status: 'completed', counts: { pruned }, steps: { prune: `runs started before ${before}` } }, tx);
      return { before, pruned, dryRun: false, run };
    }),
  );
}

export async function listRuns(store: StoreOps, options: { limit?: number; agentId?: string } = {}): Promise<Run[]> {
  return store.runs.list({ limit: requireCount(options.limit ?? 50, 'limit'), agentId: options.agentId });
}

/** `rem runs`: the page, with how many runs there are in all (`shownOf`). */
export async function listRunPage(store: StoreOps, options: { limit?: number; agentId?: string } = {}): Promise<{ runs: Run[] } & Shown> {
  const runs = await listRuns(store, options);
  return { runs, ...(await shownOf(runs.length, options.limit ?? 50, () => store.runs.count({ agentId: options.agentId }))) };
}

/** A run of this agent or of all agents (nightly); another agent's run is "not found" unless `agentId` is omitted. */
export async function getRun(store: StoreOps, id: string, agentId?: string): Promise<Run> {
  const run = await store.runs.get(id, agentId);
  if (!run) throw new NotFoundError('run_not_found', `no run ${id}${agentId ? ` for agent "${agentId}"` : ''}`);
  return run;
}

/** What a run's row records when it ends in an error; the work fills it in as it goes. */
export interface RunRecord {
  counts?: RunCounts;
  steps?: Record<string, string>;
  model?: string | null;
  snapshotPath?: string | null;
  memoryIds?: string[];
}

export interface RunScope {
  /** The row as started (status `running`). */
  readonly run: Run;
  /** Recorded on the row however it ends (what `finish` is given wins): update it as the work goes. */
  readonly record: RunRecord;
  /**
   * Writes the run's final row now — through `tx`, inside the transaction that stages its results when there is one,
   * so both land or neither does — and returns it. Work that returns without calling it is finished `completed` with
   * `record`.
   */
  finish(outcome: RunOutcome, tx?: StoreOps): Promise<Run>;
}

export interface WithRunOptions extends StartRunOptions {
  /** The caller's cancellation: an error thrown after it fired finishes the row `interrupted`. */
  signal?: AbortSignal;
}

interface OpenScope {
  store: Store;
  run: Run;
  record: RunRecord;
}

/** Run rows started by `withRun` and not finished yet, for `interruptOpenRuns` on a forced exit. */
const openScopes = new Set<OpenScope>();

/**
 * A run as a scope: writes the `running` row, runs `fn`, and whatever happens finishes the row — `completed` (or what
 * `fn` passed to `scope.finish`) on success; `interrupted` on an interruption (InterruptedError, or any error after
 * `signal` fired); `failed` otherwise, with the error's fixed code in `errors` (for a rejected answer, its
 * `AnswerProblem`). The thrown error keeps its class and gains `details.runId` and `details.run` (the finished row);
 * anything that is not a HippoError becomes one (`unexpected`, exit 1).
 */
export async function withRun<T>(
  store: Store,
  kind: RunKind,
  agentId: string | null,
  fn: (scope: RunScope) => T | Promise<T>,
  options: WithRunOptions = {},
): Promise<T> {
  const open: OpenScope = { store, run: await startRun(store, kind, agentId, options), record: {} };
  openScopes.add(open);
  let finished = false;
  const scope: RunScope = {
    run: open.run,
    record: open.record,
    async finish(outcome, tx) {
      const done = await finishRun(tx ?? store, open.run, { ...open.record, ...outcome });
      finished = true;
      return done;
    },
  };
  let value: T;
  try {
    value = await fn(scope);
  } catch (error) {
    openScopes.delete(open);
    throw await closeFailedRun(store, open.run, open.record, error, options.signal);
  }
  openScopes.delete(open);
  // Guarded: a row `finish` already wrote (committed) stays as it is; one whose transaction rolled back is finished here.
  if (!finished) await finishRun(store, open.run, { status: 'completed', ...open.record });
  return value;
}

/** The fixed string a failed run records for an error: a rejected answer's reason, else the error's code. */
export function runErrorCode(error: unknown): string {
  return answerProblemOf(error) ?? (error instanceof HippoError ? error.code : 'unexpected');
}

async function closeFailedRun(store: Store, run: Run, record: RunRecord, error: unknown, signal: AbortSignal | undefined): Promise<HippoError> {
  const interrupted = error instanceof InterruptedError || signal?.aborted === true;
  const outcome: RunOutcome = { status: interrupted ? 'interrupted' : 'failed', errors: [interrupted ? 'interrupted' : runErrorCode(error)], ...record };
  let finished: Run = { ...run, ...outcome };
  try {
    // Guarded: a row already final (committed by `finish` before the error) is left as it is.
    await finishRun(store, run, outcome);
    finished = await getRun(store, run.id);
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

/**
 * Finishes every run row this process has open as `interrupted` (with what each recorded so far) and returns the rows
 * it finished, innermost first. For a forced exit after an interruption, when the work could not unwind in time: no
 * row is left `running` by a live decision to quit.
 */
export async function interruptOpenRuns(): Promise<Run[]> {
  const closed: Run[] = [];
  for (const open of [...openScopes].reverse()) {
    openScopes.delete(open);
    try {
      await finishRun(open.store, open.run, { status: 'interrupted', errors: ['interrupted'], ...open.record });
      closed.push(await getRun(open.store, open.run.id));
    } catch {
      // A closed or failing store: nothing more can be recorded.
    }
  }
  return closed;
}
