import { NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { prepared, type Store } from '../store/store.js';
import { iso } from '../time.js';

export const RUN_KINDS = ['rem rapid', 'rem ingest', 'rem nightly run-once', 'rem restore'] as const;
export type RunKind = (typeof RUN_KINDS)[number];
export type RunStatus = 'running' | 'completed' | 'partial' | 'failed' | 'paused' | 'dry-run';

export interface RunCounts {
  gathered?: number;
  staged?: number;
  skippedDuplicates?: number;
  skippedRejected?: number;
  expired?: number;
  archived?: number;
  [key: string]: number | undefined;
}

/**
 * SPEC §2.3: one audit row per run. `errors` holds short fixed strings only — never model output or memory text.
 * A nightly run is one row for the night plus one child row per agent it distilled (`parentRunId` = the night's id);
 * `steps` says what each step of a run did, in fixed words (e.g. `{"distill": "skipped: no model configured"}`).
 */
export interface Run {
  id: string;
  kind: RunKind;
  agentId: string | null;
  startedAt: string;
  finishedAt: string | null;
  status: RunStatus;
  snapshotPath: string | null;
  counts: RunCounts;
  candidateIds: string[];
  model: string | null;
  errors: string[];
  durationMs: number | null;
  parentRunId: string | null;
  steps: Record<string, string>;
}

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

/** Writes a `running` row and returns it; finish it with `finishRun` whatever the outcome. */
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
 * Closes the rows a crashed run left `running` (the run itself and its child rows) as `failed` with `interrupted`.
 * Called by whoever takes over that run's stale lock, so `rem runs` never shows a dead run as still going.
 */
export function failAbandonedRuns(store: Store, runId: string): number {
  const now = iso(store.clock());
  return prepared(
    store,
    `UPDATE runs SET status = 'failed', finished_at = @now, errors = '["interrupted"]',
       duration_ms = max(0, CAST(round((julianday(@now) - julianday(started_at)) * 86400000) AS INTEGER))
     WHERE status = 'running' AND (id = @runId OR parent_run_id = @runId)`,
  ).run({ now, runId }).changes;
}
