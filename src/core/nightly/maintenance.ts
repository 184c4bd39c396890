import { faultPoint } from '../faults.js';
import { inTransaction, prepared, type Store } from '../store/store.js';
import { iso } from '../time.js';

/**
 * Nightly maintenance (docs/design.md §7 step 4), a soft archive only (rows stay, `archivedAt` + reason are set):
 * - `expired`: `expiresAt` has passed. Only standard and ephemeral memories can expire; a persistent or permanent
 *   memory is never touched, even with an `expires_at` written straight into the table.
 * - `archivedEphemeral`: an ephemeral memory older than 7 days (one given a long `--expires`).
 * - `archivedUnused`: a standard memory older than 180 days, retrieved at most once and not in the last 180 days.
 * The archive policy never takes a memory younger than 7 days. Expiry is not subject to that rule: an ephemeral
 * memory's 24 h lifetime is the point of it.
 */
export const YOUTH_MS = 7 * 86_400_000;
export const EPHEMERAL_MAX_AGE_MS = 7 * 86_400_000;
export const UNUSED_AFTER_MS = 180 * 86_400_000;

export const MAINTENANCE_RULES = ['expired', 'archivedEphemeral', 'archivedUnused'] as const;
export type MaintenanceRule = (typeof MAINTENANCE_RULES)[number];

/** The `archivedReason` each rule writes. */
export const ARCHIVE_REASONS: Record<MaintenanceRule, string> = {
  expired: 'expired',
  archivedEphemeral: 'nightly: ephemeral, older than 7 days',
  archivedUnused: 'nightly: standard, unused for 180 days',
};

export type MaintenanceCounts = Record<MaintenanceRule, number>;

export interface MaintenancePlan {
  total: MaintenanceCounts;
  byAgent: Record<string, MaintenanceCounts>;
}

/** Which rule (if any) archives a row: one expression shared by the plan and the update, so they cannot disagree. */
const VERDICT = `CASE
  WHEN expires_at IS NOT NULL AND expires_at < @now AND durability IN ('standard', 'ephemeral') THEN 'expired'
  WHEN created_at < @youth AND durability = 'ephemeral' AND created_at < @ephemeralCutoff THEN 'archivedEphemeral'
  WHEN created_at < @youth AND durability = 'standard' AND created_at < @unusedCutoff AND retrieval_count <= 1
       AND (last_retrieved_at IS NULL OR last_retrieved_at < @unusedCutoff) THEN 'archivedUnused'
END`;

/** The reason text for the rule a row falls under. */
const REASON = `CASE ${VERDICT} ${MAINTENANCE_RULES.map((rule) => `WHEN '${rule}' THEN '${ARCHIVE_REASONS[rule].replaceAll("'", "''")}'`).join(' ')} END`;

function timeParams(now: Date): Record<string, string> {
  return {
    now: iso(now),
    youth: iso(new Date(now.getTime() - YOUTH_MS)),
    ephemeralCutoff: iso(new Date(now.getTime() - EPHEMERAL_MAX_AGE_MS)),
    unusedCutoff: iso(new Date(now.getTime() - UNUSED_AFTER_MS)),
  };
}

const zero = (): MaintenanceCounts => ({ expired: 0, archivedEphemeral: 0, archivedUnused: 0 });

/** What maintenance would archive now, per agent and rule (read-only: `--dry-run` shows it). */
export function planMaintenance(store: Store, now: Date = store.clock()): MaintenancePlan {
  const rows = prepared(
    store,
    `SELECT agent_id AS agentId, verdict, count(*) AS n
     FROM (SELECT agent_id, ${VERDICT} AS verdict FROM memories WHERE archived_at IS NULL)
     WHERE verdict IS NOT NULL GROUP BY agent_id, verdict ORDER BY agent_id`,
  ).all(timeParams(now)) as { agentId: string; verdict: MaintenanceRule; n: number }[];
  const plan: MaintenancePlan = { total: zero(), byAgent: {} };
  for (const row of rows) {
    plan.byAgent[row.agentId] ??= zero();
    plan.byAgent[row.agentId]![row.verdict] = row.n;
    plan.total[row.verdict] += row.n;
  }
  return plan;
}

/**
 * Archives what the rules name, in one transaction (a crash leaves nothing half-archived), and returns what it did
 * in the plan's shape. One pass over the table: the update reports each row's agent and rule as it archives it.
 */
export function applyMaintenance(store: Store): MaintenancePlan {
  return inTransaction(store, () => {
    const now = store.clock();
    const archived = prepared(
      store,
      `UPDATE memories SET archived_reason = ${REASON}, archived_at = @now, updated_at = @now
       WHERE archived_at IS NULL AND (${VERDICT}) IS NOT NULL
       RETURNING agent_id, ${VERDICT}`,
    ).raw();
    const plan: MaintenancePlan = { total: zero(), byAgent: {} };
    for (const [agentId, verdict] of archived.iterate(timeParams(now)) as IterableIterator<[string, MaintenanceRule]>) {
      plan.byAgent[agentId] ??= zero();
      plan.byAgent[agentId]![verdict]++;
      plan.total[verdict]++;
    }
    faultPoint('maintenance:archived');
    return plan;
  });
}

/** Pages of merge work per transaction: a concurrent writer never waits for more than one step. */
export const MERGE_PAGES_PER_STEP = 1000;
const MAX_MERGE_STEPS = 100_000;

/**
 * Merges the full-text index into one b-tree, like FTS5's `optimize`, but incrementally: `merge` with a negative page
 * count (every segment eligible) in short transactions until a step finds nothing left to merge. A single `optimize`
 * at 1 M memories is one write transaction of several seconds, long enough to make other processes' writes wait.
 * Returns the number of steps taken (1 = the index was already merged).
 */
export function optimizeFullText(store: Store): number {
  const totalChanges = prepared(store, 'SELECT total_changes()').pluck();
  const merge = prepared(store, "INSERT INTO memories_fts (memories_fts, rank) VALUES ('merge', ?)");
  for (let step = 1; step < MAX_MERGE_STEPS; step++) {
    // FTS5: a merge that changed fewer than 2 rows found nothing to merge.
    const worked = inTransaction(store, () => {
      const before = totalChanges.get() as number;
      merge.run(-MERGE_PAGES_PER_STEP);
      return (totalChanges.get() as number) - before >= 2;
    });
    if (!worked) return step;
  }
  return MAX_MERGE_STEPS;
}
