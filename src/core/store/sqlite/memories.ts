/**
 * Memories on SQLite: rows, the FTS5 search, REM's gather, the nightly maintenance statements and the incremental
 * merge of the full-text index. The rules themselves (cut-offs, reasons, eligibility) come from the core.
 */
import { UsageError } from '../../errors.js';
import type { Durability, Memory } from '../../records.js';
import type {
  AgentCount,
  GatherQuery,
  ListQuery,
  MaintenanceCountsByAgent,
  MaintenanceCutoffs,
  MaintenanceRule,
  MemoryRepo,
  SearchHit,
  SearchQuery,
} from '../port.js';
import { mapSqliteError, type Connection } from './connection.js';
import { agentExpression, buildMatchExpression } from './fts.js';

export interface MemoryRow {
  id: string;
  agent_id: string;
  content: string;
  durability: Durability;
  tags: string;
  subject: string | null;
  source: string;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
  archived_at: string | null;
  archived_reason: string | null;
  derived_from: string;
  promoted_from: string | null;
  content_hash: string;
  last_reflected_at: string | null;
  retrieval_count: number;
  last_retrieved_at: string | null;
  version_of: string | null;
}

export const MEMORY_COLUMNS =
  'id, agent_id, content, durability, tags, subject, source, created_at, updated_at, expires_at, archived_at, archived_reason, derived_from, promoted_from, content_hash, last_reflected_at, retrieval_count, last_retrieved_at, version_of';

const PLACEHOLDERS = `(${Array(19).fill('?').join(', ')})`;

export function memoryFromRow(row: MemoryRow): Memory {
  return {
    id: row.id,
    agentId: row.agent_id,
    content: row.content,
    durability: row.durability,
    tags: JSON.parse(row.tags) as string[],
    subject: row.subject,
    source: row.source,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    archivedAt: row.archived_at,
    archivedReason: row.archived_reason,
    derivedFrom: JSON.parse(row.derived_from) as string[],
    promotedFrom: row.promoted_from,
    contentHash: row.content_hash,
    lastReflectedAt: row.last_reflected_at,
    retrievalCount: row.retrieval_count,
    lastRetrievedAt: row.last_retrieved_at,
    versionOf: row.version_of,
  };
}

export function memoryParams(memory: Memory): unknown[] {
  return [
    memory.id,
    memory.agentId,
    memory.content,
    memory.durability,
    JSON.stringify(memory.tags),
    memory.subject,
    memory.source,
    memory.createdAt,
    memory.updatedAt,
    memory.expiresAt,
    memory.archivedAt,
    memory.archivedReason,
    JSON.stringify(memory.derivedFrom),
    memory.promotedFrom,
    memory.contentHash,
    memory.lastReflectedAt,
    memory.retrievalCount,
    memory.lastRetrievedAt,
    memory.versionOf,
  ];
}

/** Rows per multi-row INSERT: 19 parameters each, well under SQLite's 32 766 parameter limit. */
const INSERT_BATCH = 500;

/**
 * Inserts memories with multi-row INSERTs and returns how many were new (existing ids are skipped). Batching matters
 * for the FTS index: SQLite opens a statement savepoint per statement, and FTS5 flushes its pending index data at each
 * one, so row-at-a-time inserts index several times slower.
 */
export function insertMemoryRows(connection: Connection, memories: readonly Memory[]): number {
  let inserted = 0;
  for (let start = 0; start < memories.length; start += INSERT_BATCH) {
    const batch = memories.slice(start, start + INSERT_BATCH);
    const placeholders = Array(batch.length).fill(PLACEHOLDERS).join(', ');
    const statement = connection.statement(`INSERT INTO memories (${MEMORY_COLUMNS}) VALUES ${placeholders} ON CONFLICT (id) DO NOTHING`);
    inserted += statement.run(...batch.flatMap(memoryParams)).changes;
  }
  return inserted;
}

/**
 * Runs `work` (inside the caller's transaction) with FTS5's secure-delete on: what leaves the full-text index is
 * removed from its segments at once, instead of being masked by a delete marker until a later merge (SQLite's own
 * secure_delete, on for every connection, then zeroes the freed space). Off again after, for the bulk deletes of a
 * restore, where it would cost 10–30× (bench/RESULTS.md).
 */
export function withFtsSecureDelete<T>(c: Connection, work: () => T): T {
  // The value must be a literal: FTS5 refuses a bound parameter for its configuration ("SQL logic error").
  c.statement("INSERT INTO memories_fts (memories_fts, rank) VALUES ('secure-delete', 1)").run();
  try {
    return work();
  } finally {
    c.statement("INSERT INTO memories_fts (memories_fts, rank) VALUES ('secure-delete', 0)").run();
  }
}

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

/**
 * The SQL conditions (over `memories`, with `@now`, `@since`, `@tag`) that make a memory eligible for distillation
 * (docs/design.md §4.1): not archived, expired, permanent or derived, and in scope.
 */
function eligibleConditions(scope: GatherQuery['scope'], unreflected: boolean): string[] {
  const where = ['archived_at IS NULL', '(expires_at IS NULL OR expires_at > @now)', "durability <> 'permanent'", "derived_from = '[]'"];
  if (scope === 'recent') where.push('created_at >= @since');
  if (scope === 'tagged') where.push('EXISTS (SELECT 1 FROM json_each(memories.tags) WHERE value = @tag)');
  if (unreflected) where.push('last_reflected_at IS NULL');
  return where;
}

const zero = (): Record<MaintenanceRule, number> => ({ expired: 0, archivedEphemeral: 0, archivedUnused: 0 });

export class SqliteMemories implements MemoryRepo {
  constructor(private readonly c: Connection) {}

  async insert(memory: Memory): Promise<boolean> {
    return this.c.use(
      () =>
        this.c.statement(`INSERT INTO memories (${MEMORY_COLUMNS}) VALUES ${PLACEHOLDERS} ON CONFLICT (id) DO NOTHING`).run(...memoryParams(memory)).changes ===
        1,
    );
  }

  async insertMany(memories: readonly Memory[]): Promise<number> {
    if (memories.length <= INSERT_BATCH) return this.c.use(() => insertMemoryRows(this.c, memories));
    // Several statements land together.
    return this.c.transaction(async () => this.c.mapped(() => insertMemoryRows(this.c, memories)));
  }

  async get(agentId: string, id: string): Promise<Memory | undefined> {
    return this.c.use(() => {
      const row = this.c.statement(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE id = ? AND agent_id = ?`).get(id, agentId) as MemoryRow | undefined;
      return row ? memoryFromRow(row) : undefined;
    });
  }

  async getMany(agentId: string, ids: readonly string[]): Promise<Memory[]> {
    return this.c.use(() => {
      const statement = this.c.statement(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE id = ? AND agent_id = ?`);
      return ids.flatMap((id) => {
        const row = statement.get(id, agentId) as MemoryRow | undefined;
        return row ? [memoryFromRow(row)] : [];
      });
    });
  }

  async existingIds(ids: readonly string[]): Promise<Set<string>> {
    return this.c.use(() => {
      const exists = this.c.statement('SELECT 1 FROM memories WHERE id = ?').pluck();
      return new Set(ids.filter((id) => exists.get(id) !== undefined));
    });
  }

  async idsWithHash(agentId: string, contentHash: string, exceptId?: string): Promise<string[]> {
    // `+created_at`: without it SQLite walks the (agent_id, created_at) index to avoid a sort — every memory of the
    // agent, ~25 s per `memory add` at 1 M memories — instead of the (agent_id, content_hash) index (2 ms).
    return this.c.use(
      () =>
        this.c
          .statement('SELECT id FROM memories WHERE agent_id = ? AND content_hash = ? AND id IS NOT ? ORDER BY +created_at')
          .pluck()
          .all(agentId, contentHash, exceptId ?? null) as string[],
    );
  }

  async existingHashes(agentId: string, contentHashes: readonly string[]): Promise<Set<string>> {
    return this.c.use(() => {
      const exists = this.c.statement('SELECT 1 FROM memories WHERE agent_id = ? AND content_hash = ? LIMIT 1').pluck();
      return new Set(contentHashes.filter((hash) => exists.get(agentId, hash) !== undefined));
    });
  }

  async list(query: ListQuery): Promise<Memory[]> {
    const where = ['agent_id = @agentId'];
    if (!query.includeArchived) where.push('archived_at IS NULL');
    if (query.tag !== undefined) where.push('EXISTS (SELECT 1 FROM json_each(memories.tags) WHERE value = @tag)');
    return this.c.use(() =>
      (
        this.c
          .statement(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @limit`)
          .all({ agentId: query.agentId, tag: query.tag ?? null, limit: query.limit }) as MemoryRow[]
      ).map(memoryFromRow),
    );
  }

  async *iterate(agentId?: string): AsyncIterable<Memory> {
    await this.c.ready();
    // Not a cached statement: an iterating statement cannot run again until its iteration ends.
    const rows = this.c.mapped(() =>
      this.c.db
        .prepare(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE @agentId IS NULL OR agent_id = @agentId ORDER BY created_at, id`)
        .iterate({ agentId: agentId ?? null }),
    ) as IterableIterator<MemoryRow>;
    try {
      for (;;) {
        const next = this.c.mapped(() => rows.next());
        if (next.done) return;
        yield memoryFromRow(next.value);
      }
    } finally {
      rows.return?.();
    }
  }

  async archive(agentId: string, ids: readonly string[], reason: string, now: string): Promise<string[]> {
    return this.c.use(() => {
      const update = this.c.statement(
        'UPDATE memories SET archived_at = ?, archived_reason = ?, updated_at = ? WHERE id = ? AND agent_id = ? AND archived_at IS NULL',
      );
      return ids.filter((id) => update.run(now, reason, now, id, agentId).changes === 1);
    });
  }

  async unarchive(agentId: string, ids: readonly string[], now: string): Promise<string[]> {
    return this.c.use(() => {
      const update = this.c.statement(
        'UPDATE memories SET archived_at = NULL, archived_reason = NULL, updated_at = ? WHERE id = ? AND agent_id = ? AND archived_at IS NOT NULL',
      );
      return [...new Set(ids)].filter((id) => update.run(now, id, agentId).changes === 1);
    });
  }

  async update(memory: Memory): Promise<boolean> {
    // Several statements (the FTS5 switch around the update) land together.
    const params = memoryParams(memory);
    return this.c.transaction(async () =>
      this.c.mapped(() =>
        withFtsSecureDelete(
          this.c,
          () =>
            this.c
              .statement(
                `UPDATE memories SET content = ?, durability = ?, tags = ?, subject = ?, source = ?, updated_at = ?, expires_at = ?, archived_at = ?,
                   archived_reason = ?, derived_from = ?, promoted_from = ?, content_hash = ?, last_reflected_at = ?, retrieval_count = ?,
                   last_retrieved_at = ?, version_of = ?
                 WHERE id = ? AND agent_id = ?`,
              )
              .run(...params.slice(2, 7), ...params.slice(8), memory.id, memory.agentId).changes === 1,
        ),
      ),
    );
  }

  async versions(agentId: string, id: string): Promise<Memory[]> {
    return this.c.use(() =>
      (
        this.c
          .statement(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE agent_id = ? AND version_of = ? ORDER BY updated_at DESC, id DESC`)
          .all(agentId, id) as MemoryRow[]
      ).map(memoryFromRow),
    );
  }

  async stampReflected(agentId: string, ids: readonly string[], now: string): Promise<void> {
    await this.c.use(() => {
      const stamp = this.c.statement('UPDATE memories SET last_reflected_at = ? WHERE id = ? AND agent_id = ?');
      for (const id of ids) stamp.run(now, id, agentId);
    });
  }

  async recordRetrieval(agentId: string, ids: readonly string[], now: string): Promise<void> {
    await this.c.use(() => {
      const bump = this.c.statement('UPDATE memories SET retrieval_count = retrieval_count + 1, last_retrieved_at = ? WHERE id = ? AND agent_id = ?');
      for (const id of ids) bump.run(now, id, agentId);
    });
  }

  async gather(query: GatherQuery): Promise<{ eligible: number; memories: Memory[] }> {
    const clause = ['agent_id = @agentId', ...eligibleConditions(query.scope, query.unreflected)].join(' AND ');
    const params = { agentId: query.agentId, now: query.now, since: query.since, tag: query.tag ?? null, limit: query.limit };
    return this.c.use(() => {
      // INDEXED BY: the planner would otherwise pick the (agent_id, content_hash) index and read every row of the agent.
      const eligible = this.c.statement(`SELECT count(*) FROM memories INDEXED BY memories_gather WHERE ${clause}`).pluck().get(params) as number;
      const rows = this.c
        .statement(`SELECT ${MEMORY_COLUMNS} FROM memories INDEXED BY memories_gather WHERE ${clause} ORDER BY created_at DESC, id DESC LIMIT @limit`)
        .all(params) as MemoryRow[];
      return { eligible, memories: rows.map(memoryFromRow) };
    });
  }

  async agentsWithNew(now: string, since: string): Promise<string[]> {
    const conditions = eligibleConditions('recent', true).join(' AND ');
    // The agents are found by hopping from one agent id to the next along an index (a few lookups per agent), not by
    // reading a million index entries for DISTINCT; each is then checked on its (agent_id, created_at) index.
    return this.c.use(
      () =>
        this.c
          .statement(
            `WITH RECURSIVE agents (agent_id) AS (
               SELECT min(agent_id) FROM memories
               UNION ALL
               SELECT (SELECT min(agent_id) FROM memories WHERE agent_id > agents.agent_id) FROM agents WHERE agents.agent_id IS NOT NULL
             )
             SELECT agent_id FROM agents WHERE agent_id IS NOT NULL
               AND EXISTS (SELECT 1 FROM memories WHERE memories.agent_id = agents.agent_id AND ${conditions})
             ORDER BY agent_id`,
          )
          .pluck()
          .all({ now, since, tag: null }) as string[],
    );
  }

  async agentCounts(options: { source?: string } = {}): Promise<AgentCount[]> {
    return this.c.use(
      () =>
        this.c
          .statement(
            `SELECT agent_id AS agentId, sum(archived_at IS NULL) AS memories, sum(archived_at IS NOT NULL) AS archived, max(created_at) AS newest
             FROM memories ${options.source === undefined ? '' : 'WHERE source = @source'} GROUP BY agent_id ORDER BY agent_id`,
          )
          .all(options.source === undefined ? {} : { source: options.source }) as AgentCount[],
    );
  }

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const text = query.raw ? (query.text.trim() === '' ? undefined : `(${query.text})`) : buildMatchExpression(query.text);
    if (text === undefined) return [];
    const agent = agentExpression(query.agentId);
    const match = agent ? `${agent} AND (${text})` : text;
    // CROSS JOIN keeps FTS5 as the outer loop: the match drives, the agent and filters are checked per hit (an index on
    // agent_id would otherwise lead and run MATCH per row of that agent, and never parse a bad --raw query at all).
    const where = ['memories_fts MATCH @match', 'm.agent_id = @agentId'];
    if (!query.includeArchived) where.push('m.archived_at IS NULL', '(m.expires_at IS NULL OR m.expires_at > @now)');
    if (query.tag !== undefined) where.push('EXISTS (SELECT 1 FROM json_each(m.tags) WHERE value = @tag)');
    if (query.since !== undefined) where.push('m.created_at >= @since');
    if (query.durability !== undefined) where.push('m.durability = @durability');
    const sql = `
      SELECT ${MEMORY_COLUMNS.split(', ')
        .map((column) => `m.${column}`)
        .join(', ')},
             -bm25(memories_fts, 1.0, 0.5, 0.75, 0.0) AS score,
             snippet(memories_fts, 0, @open, @close, '…', 16) AS snippet
      FROM memories_fts CROSS JOIN memories m ON m.rowid = memories_fts.rowid
      WHERE ${where.join(' AND ')}
      ORDER BY score DESC, m.created_at DESC
      LIMIT @limit`;
    await this.c.ready();
    let rows: (MemoryRow & { score: number; snippet: string })[];
    try {
      rows = this.c.statement(sql).all({
        match,
        agentId: query.agentId,
        now: query.now,
        tag: query.tag ?? null,
        since: query.since ?? null,
        durability: query.durability ?? null,
        open: query.highlight.open,
        close: query.highlight.close,
        limit: query.limit,
      }) as typeof rows;
    } catch (error) {
      if (query.raw && (error as { code?: string }).code === 'SQLITE_ERROR') {
        const syntaxError = (error as Error).message;
        throw new UsageError('fts_syntax', `the raw query is not valid FTS5 syntax (${syntaxError}); search without raw to match the words as plain text`, {
          details: { option: 'raw', syntaxError },
        });
      }
      throw mapSqliteError(error, this.c.path);
    }
    return rows.map((row) => ({ memory: memoryFromRow(row), score: row.score, snippet: row.snippet }));
  }

  async planMaintenance(cutoffs: MaintenanceCutoffs): Promise<MaintenanceCountsByAgent> {
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

  async applyMaintenance(cutoffs: MaintenanceCutoffs, reasons: Record<MaintenanceRule, string>): Promise<MaintenanceCountsByAgent> {
    // One pass over the table: the update reports each row's agent and rule as it archives it.
    return this.c.use(() => {
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
    });
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

  async demoCounts(source: string): Promise<{ total: number; demo: number }> {
    return this.c.use(() => {
      const counts = this.c.statement('SELECT count(*) AS total, sum(source = ?) AS demo FROM memories').get(source) as { total: number; demo: number | null };
      return { total: counts.total, demo: counts.demo ?? 0 };
    });
  }

  async deleteBySource(source: string, agentIds: readonly string[]): Promise<number> {
    if (agentIds.length === 0) return 0;
    return this.c.use(
      () => this.c.statement(`DELETE FROM memories WHERE source = ? AND agent_id IN (${agentIds.map(() => '?').join(', ')})`).run(source, ...agentIds).changes,
    );
  }
}
