/**
 * The nightly maintenance of memories on SQLite (docs/design.md §7): which memories the core's rules archive (planned,
 * then applied in one pass that re-indexes the threads they leave) and the incremental merge of the full-text index.
 * The rules themselves (cut-offs, reasons) come from the core.
 */
import type { MaintenanceCountsByAgent, MaintenanceCutoffs, MaintenanceRule } from '../port.js';
import type { Connection } from './connection.js';

/** Which rule (if any) archives a row: one expression shared by the plan and the update, so they cannot disagree. */
const VERDICT = `CASE
  WHEN expires_at IS NOT NULL AND expires_at < @now AND durability IN ('standard', 'ephemeral') THEN 'expired'
  WHEN created_at < @youth AND durability = 'ephemeral' AND created_at < @ephemeralCutoff THEN 'archivedEphemeral'
  WHEN created_at < @youth AND durability = 'standard' AND created_at < @unusedCutoff AND retrieval_count <= 1
       AND (last_retrieved_at IS NULL OR last_retrieved_at < @unusedCutoff) THEN 'archivedUnused'
END`;

/** The reason the core gives for the rule a row falls under. */
const REASON = `CASE ${VERDICT} WHEN 'expired' THEN @expiredReason WHEN 'archivedEphemeral' THEN @archivedEphemeralReason WHEN 'archivedUnused' THEN @archivedUnusedReason END`;

/** Pages of merge work per transaction: a concurrent writer never waits for more than one step. */
export const MERGE_PAGES_PER_STEP = 1000;
const MAX_MERGE_STEPS = 100_000;
const zero = (): Record<MaintenanceRule, number> => ({ expired: 0, archivedEphemeral: 0, archivedUnused: 0 });

export class SqliteMaintenance {
  constructor(private readonly c: Connection) {}

  async plan(cutoffs: MaintenanceCutoffs): Promise<MaintenanceCountsByAgent> {
    return this.c.use(() => {
      const rows = this.c
        .statement(
          `SELECT agent_id AS agentId, verdict, count(*) AS n
           FROM (SELECT agent_id, ${VERDICT} AS verdict FROM memories WHERE archived_at IS NULL)
           WHERE verdict IS NOT NULL GROUP BY agent_id, verdict ORDER BY agent_id`,
        )
        .all({ ...cutoffs }) as { agentId: string; verdict: MaintenanceRule; n: number }[];
      const counts: MaintenanceCountsByAgent = {};
      for (const row of rows) (counts[row.agentId] ??= zero())[row.verdict] = row.n;
      return counts;
    });
  }

  async apply(cutoffs: MaintenanceCutoffs, reasons: Record<MaintenanceRule, string>): Promise<MaintenanceCountsByAgent> {
    // One pass over the table: the update reports each row's agent and rule as it archives it; the triggers re-index
    // the threads it takes memories out of, row by row.
    return this.c.transaction(async () =>
      this.c.mapped(() => {
        const archived = this.c
          .statement(
            `UPDATE memories SET archived_reason = ${REASON}, archived_at = @now, updated_at = @now
           WHERE archived_at IS NULL AND (${VERDICT}) IS NOT NULL
           RETURNING agent_id, ${VERDICT}`,
          )
          .raw();
        const params = {
          ...cutoffs,
          expiredReason: reasons.expired,
          archivedEphemeralReason: reasons.archivedEphemeral,
          archivedUnusedReason: reasons.archivedUnused,
        };
        const counts: MaintenanceCountsByAgent = {};
        for (const [agentId, verdict] of archived.iterate(params) as IterableIterator<[string, MaintenanceRule]>) (counts[agentId] ??= zero())[verdict]++;
        return counts;
      }),
    );
  }

  /**
   * Merges the full-text index into one b-tree, like FTS5's `optimize`, but incrementally: `merge` with a negative
   * page count (every segment eligible) in short transactions until a step finds nothing left to merge. A single
   * `optimize` at 1 M memories is one write transaction of several seconds, long enough to make other processes'
   * writes wait. Returns the number of steps taken (1 = the index was already merged).
   */
  async optimizeSearchIndex(): Promise<number> {
    const totalChanges = this.c.statement('SELECT total_changes()').pluck();
    const merge = this.c.statement("INSERT INTO memories_fts (memories_fts, rank) VALUES ('merge', ?)");
    for (let step = 1; step < MAX_MERGE_STEPS; step++) {
      // FTS5: a merge that changed fewer than 2 rows found nothing to merge.
      const worked = await this.c.transaction(async () => {
        const before = totalChanges.get() as number;
        merge.run(-MERGE_PAGES_PER_STEP);
        return (totalChanges.get() as number) - before >= 2;
      });
      if (!worked) return step;
    }
    return MAX_MERGE_STEPS;
  }
}
