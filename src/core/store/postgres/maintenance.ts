/**
 * The nightly maintenance of memories on PostgreSQL (docs/design.md §7): the core's archiving rules as one verdict
 * expression (clause for clause as sqlite/maintenance.ts writes them), planned and applied with the threads they
 * leave re-indexed, and the search index's housekeeping.
 */
import type { QueryResult, QueryResultRow } from 'pg';
import { threadKey } from '../context.js';
import type { MaintenanceCountsByAgent, MaintenanceCutoffs, MaintenanceRule } from '../port.js';
import { Params } from './codec.js';
import type { TxState } from './session.js';
import type { PgThreads } from './threads.js';

/** A statement on the repo's session or transaction. */
export type Query = <R extends QueryResultRow = QueryResultRow>(text: string, values?: readonly unknown[]) => Promise<QueryResult<R>>;
/** Work that must land together: in the caller's transaction, or one of its own. */
export type Atomic = <T>(fn: (tx: TxState, q: Query, threads: PgThreads) => Promise<T>) => Promise<T>;

const MAINTENANCE_RULES: readonly MaintenanceRule[] = ['expired', 'archivedEphemeral', 'archivedUnused'];

/** The maintenance verdict of a row (nightly/maintenance.ts's VERDICT): which rule archives it, or NULL. */
function verdict(p: Params, cutoffs: MaintenanceCutoffs): string {
  const now = p.add(cutoffs.now, 'timestamptz');
  const youth = p.add(cutoffs.youth, 'timestamptz');
  const ephemeral = p.add(cutoffs.ephemeralCutoff, 'timestamptz');
  const unused = p.add(cutoffs.unusedCutoff, 'timestamptz');
  return `CASE
    WHEN expires_at IS NOT NULL AND expires_at < ${now} AND durability IN ('standard', 'ephemeral') THEN 'expired'
    WHEN created_at < ${youth} AND durability = 'ephemeral' AND created_at < ${ephemeral} THEN 'archivedEphemeral'
    WHEN created_at < ${youth} AND durability = 'standard' AND created_at < ${unused} AND retrieval_count <= 1
         AND (last_retrieved_at IS NULL OR last_retrieved_at < ${unused}) THEN 'archivedUnused'
  END`;
}

function countsByAgent(rows: { agent_id: string; verdict: MaintenanceRule; n: number }[]): MaintenanceCountsByAgent {
  const result: MaintenanceCountsByAgent = {};
  for (const row of rows) {
    result[row.agent_id] ??= { expired: 0, archivedEphemeral: 0, archivedUnused: 0 };
    result[row.agent_id]![row.verdict] = row.n;
  }
  return result;
}

export async function planMaintenance(query: Query, cutoffs: MaintenanceCutoffs): Promise<MaintenanceCountsByAgent> {
  const p = new Params();
  // all agents: the nightly's maintenance plan.
  const { rows } = await query<{ agent_id: string; verdict: MaintenanceRule; n: number }>(
    `SELECT agent_id, verdict, count(*)::int AS n
     FROM (SELECT agent_id, ${verdict(p, cutoffs)} AS verdict FROM memories WHERE archived_at IS NULL) v
     WHERE verdict IS NOT NULL GROUP BY agent_id, verdict ORDER BY agent_id COLLATE "C", verdict`,
    p.values,
  );
  return countsByAgent(rows);
}

export async function applyMaintenance(
  atomic: Atomic,
  cutoffs: MaintenanceCutoffs,
  reasons: Record<MaintenanceRule, string>,
): Promise<MaintenanceCountsByAgent> {
  const p = new Params();
  const rule = verdict(p, cutoffs);
  const reason = `CASE ${rule} ${MAINTENANCE_RULES.map((name) => `WHEN '${name}' THEN ${p.add(reasons[name], 'text')}`).join(' ')} END`;
  const now = p.add(cutoffs.now, 'timestamptz');
  // One statement: the rows are archived and reported together. The verdict reads columns the update leaves as
  // they were, so RETURNING computes the same rule the update applied. Then the threads it took memories out of
  // are re-indexed, in the same transaction.
  return atomic(async (_tx, q, threads) => {
    // all agents: the nightly's maintenance.
    const { rows } = await q<{ agent_id: string; verdict: MaintenanceRule | null; n: number; threads: string[] | null }>(
      `WITH archived AS (
         UPDATE memories SET archived_reason = ${reason}, archived_at = ${now}, updated_at = ${now}, context_before = '', context_after = ''
         WHERE archived_at IS NULL AND (${rule}) IS NOT NULL
         RETURNING agent_id, ${rule} AS verdict, thread
       )
       SELECT agent_id, verdict, count(*)::int AS n, array_agg(DISTINCT thread) FILTER (WHERE thread IS NOT NULL) AS threads
       FROM archived GROUP BY agent_id, verdict ORDER BY agent_id COLLATE "C", verdict`,
      p.values,
    );
    const touched = new Map<string, { agentId: string; thread: string }>();
    for (const row of rows) for (const thread of row.threads ?? []) touched.set(threadKey(row.agent_id, thread), { agentId: row.agent_id, thread });
    for (const { agentId, thread } of touched.values()) await threads.whole(agentId, thread);
    return countsByAgent(rows as { agent_id: string; verdict: MaintenanceRule; n: number }[]);
  });
}

export async function optimizeSearchIndex(query: Query): Promise<number> {
  // The GIN indexes take new entries into a pending list (fastupdate) that searches scan linearly; merging it into
  // the index proper is what FTS5's merge is on SQLite. ANALYZE refreshes the planner's statistics after a night's
  // archiving. One step: neither holds a lock that blocks readers or writers for long.
  // all agents: maintenance. The index is partitioned (one GIN index over (agent_id, vector) per partition of memories): each one's list.
  await query(
    `SELECT gin_clean_pending_list(i.inhrelid::regclass) FROM pg_inherits i WHERE i.inhparent IN (to_regclass('memories_agent_fts'), to_regclass('memories_agent_fts_context'))`,
  );
  await query('ANALYZE memories');
  return 1;
}

/**
 * A relation needs its VACUUM after a bulk load when the visibility map covers less than this share of its pages
 * (autovacuum's own default for inserts, `autovacuum_vacuum_insert_scale_factor`, is a fifth of the table).
 */
const SETTLED_SHARE = 0.8;

/**
 * `Store.settleLoad` on PostgreSQL (docs/postgres.md, "After a bulk load"): after a load has committed, outside any
 * transaction, `VACUUM (ANALYZE)` of the relations it left mostly unvacuumed — the `memories` partitions of `agentIds`,
 * or, for a whole store (`null`: `db copy`), every partition of every agent table and every store-wide table. Until a
 * VACUUM sets a page's bit in the visibility map, an index-only scan reads the heap page too, so the search's BM25
 * memory count (`count(*)` of the agent's rows) becomes a scan of the whole partition: at 1 M memories of one agent,
 * 1.9 GB instead of a 56 MB index (bench/results/25-count.md). Autovacuum does the same some minutes later, if it is
 * on. A relation whose visibility map already covers SETTLED_SHARE of its pages is left alone (a small import into a
 * big agent). Best effort: the load has committed; a failure here leaves the work to autovacuum and is returned as a
 * step, not thrown. Returns the steps taken, in fixed words.
 */
export async function settleLoad(
  query: (text: string, values?: readonly unknown[], options?: { timeoutMs?: number }) => Promise<QueryResult<QueryResultRow>>,
  agentIds: readonly string[] | null,
  allTables: { agent: readonly string[]; storeWide: readonly string[] },
): Promise<string[]> {
  try {
    return await vacuumStale(query, agentIds, allTables);
  } catch (error) {
    // The load has committed: what is left undone here is autovacuum's (a lost connection, a statement timeout).
    return [`not vacuumed (${(error as { code?: string }).code ?? 'error'}): left to autovacuum`];
  }
}

async function vacuumStale(
  query: Parameters<typeof settleLoad>[0],
  agentIds: readonly string[] | null,
  allTables: { agent: readonly string[]; storeWide: readonly string[] },
): Promise<string[]> {
  const relations = new Set<string>();
  if (agentIds === null) {
    // all agents: a whole store was copied in. Every partition of the agent tables, and the store-wide tables.
    const { rows } = await query(
      `SELECT i.inhrelid::regclass::text AS rel FROM pg_inherits i WHERE i.inhparent = ANY (ARRAY(SELECT to_regclass(t) FROM unnest($1::text[]) t))
       UNION ALL SELECT to_regclass(t)::text FROM unnest($2::text[]) t WHERE to_regclass(t) IS NOT NULL`,
      [allTables.agent, allTables.storeWide],
    );
    for (const row of rows) relations.add(String(row.rel));
  } else {
    // The partition holding each agent's memories (the row's own tableoid: one partition read per agent).
    for (const agentId of agentIds) {
      const { rows } = await query('SELECT tableoid::regclass::text AS rel FROM memories WHERE agent_id = $1 LIMIT 1', [agentId]);
      if (rows[0]) relations.add(String(rows[0].rel));
    }
  }
  if (relations.size === 0) return [];
  const { rows } = await query(
    `SELECT c.oid::regclass::text AS rel FROM pg_class c
     WHERE c.oid = ANY ($1::regclass[]) AND pg_relation_size(c.oid) > 0
       AND c.relallvisible < $2::float8 * (pg_relation_size(c.oid) / current_setting('block_size')::int)
     ORDER BY 1`,
    [[...relations], SETTLED_SHARE],
  );
  const stale = rows.map((row) => String(row.rel));
  if (stale.length === 0) return [];
  // VACUUM cannot run in a transaction: the pool's own connection. It takes no lock that blocks readers or writers.
  // Under the session's own bounds (the statement timeout; one bound per command): a VACUUM cut short by them, or by
  // a server that stopped answering, is left to autovacuum, and the committed load stands.
  await query(`VACUUM (ANALYZE) ${stale.join(', ')}`);
  return [`vacuumed and analyzed ${stale.length} ${stale.length === 1 ? 'table' : 'tables'}`];
}
