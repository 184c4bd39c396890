import { faultPoint } from '../faults.js';
import type { MaintenanceCountsByAgent, MaintenanceCutoffs, MaintenanceRule, Store, StoreOps } from '../store/port.js';
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

export const MAINTENANCE_RULES = ['expired', 'archivedEphemeral', 'archivedUnused'] as const satisfies readonly MaintenanceRule[];
export type { MaintenanceRule } from '../store/port.js';

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

/** The cut-offs of the rules at `now`. */
export function maintenanceCutoffs(now: Date): MaintenanceCutoffs {
  return {
    now: iso(now),
    youth: iso(new Date(now.getTime() - YOUTH_MS)),
    ephemeralCutoff: iso(new Date(now.getTime() - EPHEMERAL_MAX_AGE_MS)),
    unusedCutoff: iso(new Date(now.getTime() - UNUSED_AFTER_MS)),
  };
}

const zero = (): MaintenanceCounts => ({ expired: 0, archivedEphemeral: 0, archivedUnused: 0 });

function planOf(byAgent: MaintenanceCountsByAgent): MaintenancePlan {
  const plan: MaintenancePlan = { total: zero(), byAgent: {} };
  for (const agentId of Object.keys(byAgent).sort()) {
    const counts = { ...zero(), ...byAgent[agentId] };
    plan.byAgent[agentId] = counts;
    for (const rule of MAINTENANCE_RULES) plan.total[rule] += counts[rule];
  }
  return plan;
}

/** What maintenance would archive now, per agent and rule (read-only: `--dry-run` shows it). */
export async function planMaintenance(store: StoreOps, now: Date = store.clock()): Promise<MaintenancePlan> {
  return planOf(await store.memories.planMaintenance(maintenanceCutoffs(now)));
}

/**
 * Archives what the rules name, in one transaction (a crash leaves nothing half-archived), and returns what it did
 * in the plan's shape.
 */
export async function applyMaintenance(store: Store): Promise<MaintenancePlan> {
  return store.transaction(async (tx) => {
    const archived = await tx.memories.applyMaintenance(maintenanceCutoffs(tx.clock()), ARCHIVE_REASONS);
    faultPoint('maintenance:archived');
    return planOf(archived);
  });
}

/**
 * Housekeeping of the full-text index (SQLite: FTS5's segments merged into one b-tree, incrementally, in short
 * transactions so other writers barely wait). Returns the number of steps taken (1 = nothing to do).
 */
export function optimizeFullText(store: Store): Promise<number> {
  return store.memories.optimizeSearchIndex();
}
