import { HippoError, InterruptedError, ModelUnavailableError } from '../errors.js';
import { newId } from '../ids.js';
import type { ModelClient } from '../model/client.js';
import { distill, distillDryRun } from '../rem/distill.js';
import { DEFAULT_SINCE_MS } from '../rem/gather.js';
import { finishRun, runErrorCode, startRun, withRun, type Run, type RunCounts, type RunKind, type RunScope } from '../runs.js';
import type { Store, UnattributedSnapshots } from '../store/port.js';
import { configFilePath } from '../paths.js';
import { iso } from '../time.js';
import { acquireLock, describeHolder, lockHolder, type HeldLock, type LockHolder } from './lock.js';
import { applyMaintenance, optimizeFullText, planMaintenance, type MaintenanceCounts, type MaintenancePlan } from './maintenance.js';
import { pauseState, type PauseState } from './pause.js';
import {
  checkRetention,
  DEFAULT_RETENTION,
  pruneSnapshots,
  takeSnapshot,
  unattributedSnapshots,
  type RetentionPolicy,
  type TakenSnapshot,
} from './snapshot.js';

/**
 * `hippo rem nightly run-once` (docs/design.md §7): lock → pause → snapshot (+ retention) → maintenance → distillation
 * → audit.
 *
 * The night is one run row (kind `rem nightly run-once`, agentId = the agent asked for, or null). Each agent it
 * distills gets its own child row from `distill` (same kind, `parentRunId` = the night), holding that agent's counts,
 * model, candidate ids and error; the night's row sums them and lists every candidate id, and `steps` says what each
 * step did. Both are run scopes (`withRun`): a failure finishes them `failed`, an interruption `interrupted`.
 */
export const NIGHTLY_KIND: RunKind = 'rem nightly run-once';

/** The night's `steps.warning` when agents with new memories were skipped for want of a model (`rem runs` shows it). */
export const NO_MODEL_STEP = 'distillation skipped: no model configured';

export interface NightlyOptions {
  /** Distill only this agent (else every agent with new unreflected memories). Maintenance is store-wide either way. */
  agentId?: string;
  dryRun?: boolean;
  /** The snapshot retention policy (default DEFAULT_RETENTION; the newest 3 are always kept). */
  retention?: Partial<RetentionPolicy>;
  /** Creates the model client, called only when some agent has something to distill; undefined = no model configured. */
  modelClient?: () => Promise<ModelClient | undefined>;
  /** The configured `provider:model`, for the dry-run report (no call is made). */
  modelLabel?: string | null;
  /** Read for `HIPPO_REM_PAUSE` (default: process.env). */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

export interface AgentDistillation {
  agentId: string;
  /** The agent's child run row (null when it was skipped before one was written). */
  runId: string | null;
  status: 'completed' | 'failed' | 'skipped';
  gathered: number;
  staged: number;
  skippedDuplicates: number;
  skippedRejected: number;
  candidateIds: string[];
  model: string | null;
  /** A fixed error code (`model_unreachable`, `source_out_of_set`, …) or the reason it was skipped. */
  error: string | null;
}

export interface NightlyResult {
  dryRun: false;
  run: Run;
  pause: PauseState;
  snapshot: (TakenSnapshot & { pruned: string[] }) | null;
  /** Snapshots an older hippo left in the shared folder that this night neither lists nor thins (null: none). */
  unattributedSnapshots: UnattributedSnapshots | null;
  maintenance: MaintenancePlan | null;
  agents: AgentDistillation[];
  /**
   * What the night did not do that it would have with its settings right: agents with new memories were not distilled
   * because no model is configured (a schedule that lost the config file). Plain sentences; `[]` when there is nothing
   * to say. The run row's `steps.warning` says the same in fixed words.
   */
  warnings: string[];
}

export interface NightlyDryRunAgent {
  agentId: string;
  /** What maintenance would archive of this agent's memories, by rule. */
  maintenance: MaintenanceCounts;
  /** What distillation would send for this agent (null: it would not be distilled). */
  distill: { gathered: number; eligible: number; leftOut: number; promptChars: number } | null;
}

export interface NightlyDryRunResult {
  dryRun: true;
  /** Its audit row; null when another process held the write lock, so none could be written. */
  run: Run | null;
  /** What each step would do, in fixed words (also stored on the audit row). */
  steps: Record<string, string>;
  pause: PauseState;
  /** A live holder of the lock: a real run now would exit 4. */
  lockHeldBy: LockHolder | null;
  model: string | null;
  maintenance: MaintenancePlan;
  agents: NightlyDryRunAgent[];
}

/** Agents with memories a nightly distillation would read: recent (24 h), unreflected, eligible (§4.1). */
export function agentsWithNewMemories(store: Store, now: Date = store.clock()): Promise<string[]> {
  return store.memories.agentsWithNew(iso(now), iso(new Date(now.getTime() - DEFAULT_SINCE_MS)));
}

export async function runNightly(store: Store, options: NightlyOptions & { dryRun: true }): Promise<NightlyDryRunResult>;
export async function runNightly(store: Store, options?: NightlyOptions & { dryRun?: false }): Promise<NightlyResult>;
export async function runNightly(store: Store, options?: NightlyOptions): Promise<NightlyResult | NightlyDryRunResult>;
export async function runNightly(store: Store, options: NightlyOptions = {}): Promise<NightlyResult | NightlyDryRunResult> {
  if (options.dryRun) return nightlyDryRun(store, options);
  const retention = checkRetention({ ...DEFAULT_RETENTION, ...options.retention });
  const runId = newId('run', store.clock().getTime());
  const lock = await acquireLock(store, { runId, kind: NIGHTLY_KIND });
  try {
    return await runLocked(store, options, retention, lock);
  } finally {
    await lock.release();
  }
}

/** Everything after the lock, in the night's run scope: a failure or an interruption finishes its row with the steps so far. */
async function runLocked(store: Store, options: NightlyOptions, retention: RetentionPolicy, lock: HeldLock): Promise<NightlyResult> {
  return withRun(store, NIGHTLY_KIND, options.agentId ?? null, (scope) => runSteps(store, scope, options, retention, lock), {
    id: lock.holder.runId,
    signal: options.signal,
  });
}

/** The retention policy in fixed words, for the run's steps. */
export function describeRetention(policy: RetentionPolicy): string {
  const age = policy.maxAgeDays === undefined ? '' : `; nothing older than ${policy.maxAgeDays} days`;
  return `kept the newest 3, the last ${policy.keepLast}, ${policy.keepHourly} hourly, ${policy.keepDaily} daily, ${policy.keepWeekly} weekly${age}`;
}

async function runSteps(store: Store, scope: RunScope, options: NightlyOptions, retention: RetentionPolicy, lock: HeldLock): Promise<NightlyResult> {
  const { run } = scope;
  const steps: Record<string, string> = {
    lock: lock.takenOver ? `took over a stale lock (${describeHolder(lock.takenOver)})` : 'acquired',
  };
  const counts: RunCounts = {};
  Object.assign(scope.record, { steps, counts });

  const pause = await pauseState(store, options.env ?? process.env);
  if (pause.paused) {
    steps.pause = pause.by === 'HIPPO_REM_PAUSE' ? 'paused by HIPPO_REM_PAUSE' : `paused by hippo rem pause since ${pause.since}`;
    const paused = await scope.finish({ status: 'paused', steps });
    return { dryRun: false, run: paused, pause, snapshot: null, unattributedSnapshots: null, maintenance: null, agents: [], warnings: [] };
  }
  steps.pause = 'not paused';

  let snapshot: TakenSnapshot;
  try {
    snapshot = await takeSnapshot(store, run.id, { signal: options.signal, skipUnchanged: true });
  } catch (error) {
    if (error instanceof HippoError && error.code === 'snapshot_verify_failed')
      steps.integrity = liveCheckStep(error.details?.live, store.snapshots.verifiedBy);
    steps.snapshot = error instanceof InterruptedError ? 'interrupted' : 'failed';
    throw error;
  }
  if (snapshot.unchanged) {
    // Nothing a restore puts back changed since the newest snapshot: it stands for this night too, and no copy is made.
    steps.snapshot = 'unchanged since the newest snapshot: none taken';
    steps.integrity = 'skipped (no new snapshot)';
    counts.snapshotUnchanged = 1;
  } else {
    steps.snapshot = 'written and verified';
    // What "verified" means is the engine's (port.ts SnapshotPort.verifiedBy).
    const check = store.snapshots.verifiedBy;
    steps.integrity = snapshot.violations.length === 0 ? `${check} ok` : `${check}: structure ok; constraint violations: ${snapshot.violations.join('; ')}`;
  }
  steps.retention = describeRetention(retention);
  let pruned: string[] = [];
  try {
    pruned = await pruneSnapshots(store, retention);
    counts.snapshotsPruned = pruned.length;
  } catch (error) {
    // Retention is housekeeping: a snapshot that cannot be removed must not stop the night.
    steps.retention = `failed (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  await recordSnapshotPath(store, scope, snapshot.path);
  if (options.signal?.aborted) throw new InterruptedError();

  let maintenance: MaintenancePlan;
  try {
    maintenance = await applyMaintenance(store);
  } catch (error) {
    steps.maintenance = 'failed';
    throw error;
  }
  Object.assign(counts, maintenance.total, { archived: maintenance.total.archivedEphemeral + maintenance.total.archivedUnused });
  steps.maintenance = 'done';
  try {
    const mergeSteps = await optimizeFullText(store);
    steps.fullText = mergeSteps === 1 ? 'already optimized' : `optimized in ${mergeSteps - 1} merge step(s)`;
  } catch (error) {
    steps.fullText = 'failed';
    throw error;
  }

  let agents: AgentDistillation[];
  try {
    agents = await distillAgents(store, run, options);
  } catch (error) {
    // Only an interruption gets here: maintenance is kept, and the scope finishes the night `interrupted` (exit 130).
    steps.distill = 'interrupted';
    throw error;
  }
  steps.distill = describeDistillation(agents);
  const warnings: string[] = [];
  if (agents.length > 0 && agents.every((agent) => agent.error === 'model_not_configured')) {
    // Not a failure (exit 0: a store without a model is a choice), but not silent either: a schedule whose environment
    // lost the config file would otherwise skip every night unseen.
    steps.warning = NO_MODEL_STEP;
    const configFile = configFilePath(options.env ?? process.env);
    warnings.push(`${agents.length} agent(s) with new memories were not distilled: no model configured (HIPPO_MODEL is not set, and ${configFile} names none)`);
  }
  const failed = agents.filter((agent) => agent.status === 'failed' || (agent.status === 'skipped' && agent.error !== 'model_not_configured'));
  const completed = agents.filter((agent) => agent.status === 'completed');
  const sum = (field: 'gathered' | 'staged' | 'skippedDuplicates' | 'skippedRejected') => completed.reduce((total, agent) => total + agent[field], 0);
  Object.assign(counts, {
    agents: agents.length,
    agentsFailed: failed.length,
    gathered: sum('gathered'),
    staged: sum('staged'),
    skippedDuplicates: sum('skippedDuplicates'),
    skippedRejected: sum('skippedRejected'),
  });
  const finished = await scope.finish({
    status: failed.length > 0 ? 'partial' : 'completed',
    counts,
    candidateIds: completed.flatMap((agent) => agent.candidateIds),
    model: completed.find((agent) => agent.model)?.model ?? null,
    errors: [...new Set(failed.map((agent) => agent.error ?? 'unexpected'))],
    steps,
  });
  return {
    dryRun: false,
    run: finished,
    pause,
    snapshot: { ...snapshot, pruned },
    unattributedSnapshots: unattributedSnapshots(store),
    maintenance,
    agents,
    warnings,
  };
}

/** Records the snapshot on the run row as soon as it exists, so even a night that dies later points at it. */
async function recordSnapshotPath(store: Store, scope: RunScope, path: string): Promise<void> {
  await store.runs.setSnapshotPath(scope.run.id, path, scope.run.agentId);
  scope.record.snapshotPath = path;
}

/**
 * After a snapshot failed its check: was it the live database (the copy is page for page the same) or the copy? The
 * same check (`verifiedBy`, the engine's) run on the live store, when the engine can.
 */
function liveCheckStep(live: unknown, check: string): string {
  if (live === 'ok') return `database ${check} ok`;
  if (live === 'failed') return `database ${check} FAILED`;
  return `database ${check} could not run`;
}

const emptyDistillation = (agentId: string): AgentDistillation => ({
  agentId,
  runId: null,
  status: 'skipped',
  gathered: 0,
  staged: 0,
  skippedDuplicates: 0,
  skippedRejected: 0,
  candidateIds: [],
  model: null,
  error: null,
});

/**
 * §7 step 5: `distill` (§4, scope recent, unreflected) for each agent, one child run each (its id is on the error of a
 * distillation that failed). No model configured → every
 * agent skipped (not a failure). A model that cannot be reached fails this agent and skips the rest (each would wait
 * for the same dead server); a rejected answer fails only its agent. An interruption propagates.
 */
async function distillAgents(store: Store, night: Run, options: NightlyOptions): Promise<AgentDistillation[]> {
  const agentIds = options.agentId ? [options.agentId] : await agentsWithNewMemories(store);
  if (agentIds.length === 0) return [];
  let client: ModelClient | undefined;
  try {
    client = await options.modelClient?.();
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    const code = runErrorCode(error);
    return agentIds.map((agentId) => ({ ...emptyDistillation(agentId), status: 'failed', error: code }));
  }
  if (!client) return agentIds.map((agentId) => ({ ...emptyDistillation(agentId), error: 'model_not_configured' }));
  const results: AgentDistillation[] = [];
  let unavailable: string | null = null;
  for (const agentId of agentIds) {
    if (unavailable) {
      results.push({ ...emptyDistillation(agentId), error: unavailable });
      continue;
    }
    try {
      const result = await distill(store, client, {
        agentId,
        scope: 'recent',
        unreflected: true,
        kind: NIGHTLY_KIND,
        parentRunId: night.id,
        signal: options.signal,
      });
      results.push({
        agentId,
        runId: result.run.id,
        status: 'completed',
        gathered: result.counts.gathered,
        staged: result.counts.staged,
        skippedDuplicates: result.counts.skippedDuplicates,
        skippedRejected: result.counts.skippedRejected,
        candidateIds: result.candidates.map((candidate) => candidate.id),
        model: result.model,
        error: null,
      });
    } catch (error) {
      if (error instanceof InterruptedError) throw error;
      const childRunId = error instanceof HippoError ? error.details?.runId : undefined;
      results.push({ ...emptyDistillation(agentId), runId: typeof childRunId === 'string' ? childRunId : null, status: 'failed', error: runErrorCode(error) });
      if (error instanceof ModelUnavailableError) unavailable = error.code;
    }
  }
  return results;
}

function describeDistillation(agents: AgentDistillation[]): string {
  if (agents.length === 0) return 'nothing new to distill';
  if (agents.every((agent) => agent.error === 'model_not_configured')) return 'skipped: no model configured';
  const failed = agents.filter((agent) => agent.status !== 'completed').length;
  return failed === 0 ? `done for ${agents.length} agent(s)` : `failed for ${failed} of ${agents.length} agent(s)`;
}

/**
 * `--dry-run`: what a run would do now, per agent — maintenance counts by rule and the prompt size of each agent's
 * distillation — without the lock, a snapshot, a model call or any change. Its only write is its own audit row
 * (status `dry-run`), so `rem runs` shows that it happened.
 */
export async function nightlyDryRun(store: Store, options: NightlyOptions = {}): Promise<NightlyDryRunResult> {
  const now = store.clock();
  const lockHeldBy = await lockHolder(store);
  const pause = await pauseState(store, options.env ?? process.env);
  const maintenance = await planMaintenance(store, now);
  const distilled = new Set(options.agentId ? [options.agentId] : await agentsWithNewMemories(store, now));
  const agentIds = [...new Set([...Object.keys(maintenance.byAgent), ...distilled])].sort();
  const agents: NightlyDryRunAgent[] = [];
  for (const agentId of agentIds) {
    const plan = maintenance.byAgent[agentId] ?? { expired: 0, archivedEphemeral: 0, archivedUnused: 0 };
    if (!distilled.has(agentId)) {
      agents.push({ agentId, maintenance: plan, distill: null });
      continue;
    }
    const dry = await distillDryRun(store, { agentId, scope: 'recent', unreflected: true });
    agents.push({
      agentId,
      maintenance: plan,
      distill: {
        gathered: dry.counts.gathered,
        eligible: dry.counts.eligible,
        leftOut: dry.counts.leftOutByCount + dry.counts.leftOutByBudget,
        promptChars: dry.promptChars,
      },
    });
  }
  const model = options.modelLabel ?? null;
  const steps = {
    lock: lockHeldBy ? `held by ${describeHolder(lockHeldBy)}: a real run would exit 4` : 'free',
    pause: pause.paused ? `paused (${pause.by}): a real run would do nothing` : 'not paused',
    snapshot: 'skipped (dry run)',
    maintenance: 'planned, not applied (dry run)',
    distill: distilled.size === 0 ? 'nothing new to distill' : model ? 'prompt built, model not called (dry run)' : 'would be skipped: no model configured',
  };
  // The audit row is best effort: while a night holds the write lock, the dry run still reports (it says the lock is
  // held) instead of waiting out the busy timeout and failing.
  const finished = await store.tryTransaction(async (tx) =>
    finishRun(tx, await startRun(tx, NIGHTLY_KIND, options.agentId ?? null), {
      status: 'dry-run',
      model,
      counts: {
        ...maintenance.total,
        archived: maintenance.total.archivedEphemeral + maintenance.total.archivedUnused,
        agents: distilled.size,
        gathered: agents.reduce((total, agent) => total + (agent.distill?.gathered ?? 0), 0),
        promptChars: agents.reduce((total, agent) => total + (agent.distill?.promptChars ?? 0), 0),
      },
      steps,
    }),
  );
  return { dryRun: true, run: finished ?? null, steps, pause, lockHeldBy, model, maintenance, agents };
}
