/**
 * Memories on SQLite: rows in and out, threads' search context kept, REM's gather. The search is search.ts's, the
 * nightly maintenance maintenance.ts's. The rules themselves (cut-offs, reasons, eligibility) come from the core.
 */
import type { Memory } from '../../records.js';
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
import { columnList, MEMORY_TABLE, MEMORY_UPDATE_COLUMNS, setList } from '../tables.js';
import { MEMORY_COLUMNS, memoryFromRow, rowMarks, toParams, type MemoryRow } from './codec.js';
import type { Connection } from './connection.js';
import { SqliteMaintenance } from './maintenance.js';
import { SqliteSearch } from './search.js';
import { SqliteThreads, type Landing } from './threads.js';

/** The memory's columns (its search context is no column: the view memories_search computes it, threads.ts). */
const INSERT_COLUMNS = columnList(MEMORY_TABLE.columns);
const PLACEHOLDERS = rowMarks(MEMORY_TABLE.columns);

/** The row's parameters in INSERT_COLUMNS order. */
export function memoryParams(memory: Memory): unknown[] {
  return toParams(memory, MEMORY_TABLE.columns);
}

/** Rows per multi-row INSERT: well under SQLite's 32 766 parameter limit. */
const INSERT_BATCH = Math.min(500, Math.floor(32_766 / MEMORY_TABLE.columns.length));

/**
 * Inserts memories with multi-row INSERTs and returns how many were new (existing ids are skipped), indexing them for
 * the search once, after the rows (threads.ts `insert`: each thread's new memories and the stored ones they join are
 * indexed with their final context, not once per row as the triggers would). Batching matters for the FTS index too:
 * SQLite opens a statement savepoint per statement, and FTS5 flushes its pending index data at each one. Call inside
 * a transaction.
 */
export function insertMemoryRows(connection: Connection, memories: readonly Memory[]): number {
  const landings: Landing[] = [];
  for (const memory of memories) {
    if (memory.thread !== null && memory.archivedAt === null) landings.push({ agentId: memory.agentId, thread: memory.thread, createdAt: memory.createdAt });
  }
  return new SqliteThreads(connection).insert(landings, () => {
    let inserted = 0;
    for (let start = 0; start < memories.length; start += INSERT_BATCH) {
      const batch = memories.slice(start, start + INSERT_BATCH);
      const placeholders = Array(batch.length).fill(PLACEHOLDERS).join(', ');
      const statement = connection.statement(`INSERT INTO memories (${INSERT_COLUMNS}) VALUES ${placeholders} ON CONFLICT (agent_id, id) DO NOTHING`);
      inserted += statement.run(...batch.flatMap((memory) => memoryParams(memory))).changes;
    }
    return inserted;
  });
}

/**
 * Runs `work` (inside the caller's transaction) with FTS5's secure-delete on: what leaves the full-text index is
 * removed from its segments at once, instead of being masked by a delete marker until a later merge (SQLite's own
 * secure_delete, on for every connection, then zeroes the freed space).
 *
 * Once on, it stays on. Switched on over an index that already holds delete markers (every re-index of a thread
 * neighbour without it writes some) and off again after, FTS5's secure delete corrupts the index: measured with
 * SQLite 3.51.2, a doclist entry of another row took the deleted row's place and FTS5's integrity-check failed after a
 * `memory forget` or a move to another thread (docs/decisions.md "Issue 26: context without copies, second attempt").
 * So the first use merges the index whole (FTS5 `optimize`, which drops every marker) and turns it on for good.
 */
export function withFtsSecureDelete<T>(c: Connection, work: () => T): T {
  const on = c.statement("SELECT v FROM memories_fts_config WHERE k = 'secure-delete'").pluck().get();
  if (on !== 1) {
    c.statement("INSERT INTO memories_fts (memories_fts) VALUES ('optimize')").run();
    // The value must be a literal: FTS5 refuses a bound parameter for its configuration ("SQL logic error").
    c.statement("INSERT INTO memories_fts (memories_fts, rank) VALUES ('secure-delete', 1)").run();
  }
  return work();
}

/**
 * Deletes memories of the agent for good (inside the caller's transaction), with FTS5's secure-delete on: the
 * triggers re-index their thread neighbours, so neither the memories' text nor a neighbour's old context holding it
 * stays in the full-text index. `MemoryRepo.forget`, and the erase of `memory forget` on the store and in a snapshot
 * (erasure.ts).
 */
export function forgetRows(c: Connection, agentId: string, ids: readonly string[]): string[] {
  return withFtsSecureDelete(c, () => {
    const remove = c.statement('DELETE FROM memories WHERE id = ? AND agent_id = ?');
    return [...new Set(ids)].filter((id) => remove.run(id, agentId).changes === 1);
  });
}

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

/** Which of these memories' ids the store holds: one statement for the whole list, each id looked up on its index. */
function storedIds(c: Connection, memories: readonly { id: string }[]): Set<string> {
  if (memories.length === 0) return new Set();
  const ids = c
    // all agents: import skips an id any agent holds (ids are made unique store-wide).
    .statement('SELECT value FROM json_each(?) AS ids WHERE EXISTS (SELECT 1 FROM memories WHERE id = ids.value)')
    .pluck()
    .all(JSON.stringify(memories.map((memory) => memory.id))) as string[];
  return new Set(ids);
}

/** What `update` sets: everything but identity, creation and thread (the memory's place). */
const UPDATE_MEMORY = `UPDATE memories SET ${setList(MEMORY_UPDATE_COLUMNS, () => '?')} WHERE id = ? AND agent_id = ?`;

/** `list`'s and `count`'s WHERE (always the agent first) and its bound values. */
function listFilters(query: Omit<ListQuery, 'limit'>): { where: string; params: Record<string, string | null> } {
  const where = ['agent_id = @agentId'];
  if (!query.includeArchived) where.push('archived_at IS NULL');
  if (query.tag !== undefined) where.push('EXISTS (SELECT 1 FROM json_each(memories.tags) WHERE value = @tag)');
  if (query.since !== undefined) where.push('created_at >= @since');
  if (query.durability !== undefined) where.push('durability = @durability');
  if (query.thread !== undefined) where.push('thread = @thread');
  if (query.source !== undefined) where.push('source = @source');
  return {
    where: where.join(' AND '),
    params: {
      agentId: query.agentId,
      tag: query.tag ?? null,
      since: query.since ?? null,
      durability: query.durability ?? null,
      thread: query.thread ?? null,
      source: query.source ?? null,
    },
  };
}

export class SqliteMemories implements MemoryRepo {
  private readonly searcher: SqliteSearch;
  private readonly maintenance: SqliteMaintenance;

  constructor(private readonly c: Connection) {
    this.searcher = new SqliteSearch(c);
    this.maintenance = new SqliteMaintenance(c);
  }

  async insert(memory: Memory): Promise<boolean> {
    // One statement: the triggers index the memory and re-index its thread neighbours with it.
    return this.c.use(
      () =>
        this.c.statement(`INSERT INTO memories (${INSERT_COLUMNS}) VALUES ${PLACEHOLDERS} ON CONFLICT (agent_id, id) DO NOTHING`).run(...memoryParams(memory))
          .changes === 1,
    );
  }

  async insertMany(memories: readonly Memory[]): Promise<number> {
    // Several statements (the rows, then their search entries) land together.
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
    return this.c.use(() =>
      storedIds(
        this.c,
        ids.map((id) => ({ id })),
      ),
    );
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
    // One statement for the whole list (an import asks for thousands at a time), each hash looked up on the index.
    return this.c.use(
      () =>
        new Set(
          this.c
            .statement(
              `SELECT value FROM json_each(?) AS hashes
               WHERE EXISTS (SELECT 1 FROM memories INDEXED BY memories_agent_hash WHERE agent_id = ? AND content_hash = hashes.value)`,
            )
            .pluck()
            .all(JSON.stringify(contentHashes), agentId) as string[],
        ),
    );
  }

  async list(query: ListQuery): Promise<Memory[]> {
    const { where, params } = listFilters(query);
    // A thread reads in its own order (createdAt, then insertion order); everything else newest first.
    const order = query.thread !== undefined ? 'created_at, rowid' : 'created_at DESC, id DESC';
    return this.c.use(() =>
      (
        this.c.statement(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE ${where} ORDER BY ${order} LIMIT @limit`).all({
          ...params,
          limit: query.limit,
        }) as MemoryRow[]
      ).map(memoryFromRow),
    );
  }

  async count(query: Omit<ListQuery, 'limit'>): Promise<number> {
    const { where, params } = listFilters(query);
    return this.c.use(() => this.c.statement(`SELECT count(*) FROM memories WHERE ${where}`).pluck().get(params) as number);
  }

  async *iterate(agentId?: string): AsyncIterable<Memory> {
    await this.c.ready();
    // Not a cached statement: an iterating statement cannot run again until its iteration ends.
    const rows = this.c.mapped(() =>
      this.c.db
        // One agent's export reads that agent's rows on its (agent_id, created_at) index, not the store.
        .prepare(`SELECT ${MEMORY_COLUMNS} FROM memories${agentId === undefined ? '' : ' WHERE agent_id = @agentId'} ORDER BY created_at, id`)
        .iterate(agentId === undefined ? {} : { agentId }),
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
    // An archived memory leaves its thread: it lends no context and keeps none; the triggers re-index its neighbours.
    return this.c.transaction(async () =>
      this.c.mapped(() => {
        const update = this.c.statement(
          'UPDATE memories SET archived_at = ?, archived_reason = ?, updated_at = ? WHERE id = ? AND agent_id = ? AND archived_at IS NULL',
        );
        return ids.filter((id) => update.run(now, reason, now, id, agentId).changes === 1);
      }),
    );
  }

  async forget(agentId: string, ids: readonly string[]): Promise<string[]> {
    return this.c.transaction(async () => this.c.mapped(() => forgetRows(this.c, agentId, ids)));
  }

  async refreshContext(agentId: string, target: { ids?: readonly string[]; threads?: readonly string[] }): Promise<number> {
    // Nothing is ever stale here: every change re-indexes the entries it alters as it is written (the triggers of
    // migration 13), so no context is left to change.
    void agentId;
    void target;
    return 0;
  }

  async setThread(agentId: string, ids: readonly string[], thread: string | null, now: string): Promise<string[]> {
    // With FTS5's secure-delete: a context that loses a neighbour's text loses it from the index at once. The triggers
    // re-index the neighbours each memory leaves and joins, row by row.
    return this.c.transaction(async () =>
      this.c.mapped(() =>
        withFtsSecureDelete(this.c, () => {
          const move = this.c.statement(
            'UPDATE memories SET thread = @thread, updated_at = @now WHERE id = @id AND agent_id = @agentId AND thread IS NOT @thread',
          );
          return [...new Set(ids)].filter((id) => move.run({ thread, now, id, agentId }).changes === 1);
        }),
      ),
    );
  }

  async unarchive(agentId: string, ids: readonly string[], now: string): Promise<string[]> {
    // A memory back from the archive rejoins its thread: the triggers re-index it and its neighbours.
    return this.c.transaction(async () => {
      const changed = this.c.mapped(() => {
        const update = this.c.statement(
          'UPDATE memories SET archived_at = NULL, archived_reason = NULL, updated_at = ? WHERE id = ? AND agent_id = ? AND archived_at IS NOT NULL',
        );
        return [...new Set(ids)].filter((id) => update.run(now, id, agentId).changes === 1);
      });
      return changed;
    });
  }

  async update(memory: Memory): Promise<boolean> {
    // Several statements (the FTS5 switch around the update) land together. The thread and createdAt (the memory's
    // place) stay; the triggers re-index the neighbours when the text changed.
    return this.c.transaction(async () =>
      this.c.mapped(() =>
        withFtsSecureDelete(
          this.c,
          () => this.c.statement(UPDATE_MEMORY).run(...toParams(memory, MEMORY_UPDATE_COLUMNS), memory.id, memory.agentId).changes === 1,
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
    return this.searcher.search(query);
  }

  async searchWithTotal(query: SearchQuery): Promise<{ hits: SearchHit[]; total: number }> {
    return this.searcher.searchWithTotal(query);
  }

  async planMaintenance(cutoffs: MaintenanceCutoffs): Promise<MaintenanceCountsByAgent> {
    return this.maintenance.plan(cutoffs);
  }

  async applyMaintenance(cutoffs: MaintenanceCutoffs, reasons: Record<MaintenanceRule, string>): Promise<MaintenanceCountsByAgent> {
    return this.maintenance.apply(cutoffs, reasons);
  }

  async optimizeSearchIndex(): Promise<number> {
    return this.maintenance.optimizeSearchIndex();
  }

  async demoCounts(source: string): Promise<{ total: number; demo: number }> {
    return this.c.use(() => {
      const counts = this.c.statement('SELECT count(*) AS total, sum(source = ?) AS demo FROM memories').get(source) as { total: number; demo: number | null };
      return { total: counts.total, demo: counts.demo ?? 0 };
    });
  }

  async deleteBySource(source: string, agentIds: readonly string[]): Promise<number> {
    if (agentIds.length === 0) return 0;
    // The triggers re-index the threads the deleted memories leave, row by row.
    return this.c.use(
      () => this.c.statement(`DELETE FROM memories WHERE source = ? AND agent_id IN (${agentIds.map(() => '?').join(', ')})`).run(source, ...agentIds).changes,
    );
  }
}
