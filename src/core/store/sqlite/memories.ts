/**
 * Memories on SQLite: rows in and out, threads' search context kept, REM's gather. The search is search.ts's, the
 * nightly maintenance maintenance.ts's. The rules themselves (cut-offs, reasons, eligibility) come from the core.
 */
import type { Memory } from '../../records.js';
import { batchContexts, NO_CONTEXT, threadKey, threadsOf, type Context } from '../context.js';
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
import { columnList, MEMORY_INSERT_TABLE, MEMORY_UPDATE_COLUMNS, setList } from '../tables.js';
import { MEMORY_COLUMNS, memoryFromRow, rowMarks, toParams, type MemoryRow } from './codec.js';
import type { Connection } from './connection.js';
import { SqliteMaintenance } from './maintenance.js';
import { SqliteSearch } from './search.js';
import { SqliteThreads, type Place } from './threads.js';

/** The memory's columns plus its search context (the bulk path writes both at once). */
const INSERT_COLUMNS = columnList(MEMORY_INSERT_TABLE.columns);
const PLACEHOLDERS = rowMarks(MEMORY_INSERT_TABLE.columns);

/** The row's parameters in INSERT_COLUMNS order: the memory, then its search context. */
export function memoryParams(memory: Memory, context: Context = NO_CONTEXT): unknown[] {
  return toParams({ ...memory, contextBefore: context.before, contextAfter: context.after }, MEMORY_INSERT_TABLE.columns);
}

/** Rows per multi-row INSERT: well under SQLite's 32 766 parameter limit. */
const INSERT_BATCH = Math.min(500, Math.floor(32_766 / MEMORY_INSERT_TABLE.columns.length));

/**
 * Inserts memories with multi-row INSERTs and returns how many were new (existing ids are skipped). Batching matters
 * for the FTS index: SQLite opens a statement savepoint per statement, and FTS5 flushes its pending index data at each
 * one, so row-at-a-time inserts index several times slower. `contexts[i]` is the search context of `memories[i]`
 * (none when absent); the caller re-indexes threads whose contexts it did not compute.
 */
export function insertMemoryRows(connection: Connection, memories: readonly Memory[], contexts?: readonly (Context | undefined)[]): number {
  let inserted = 0;
  for (let start = 0; start < memories.length; start += INSERT_BATCH) {
    const batch = memories.slice(start, start + INSERT_BATCH);
    const placeholders = Array(batch.length).fill(PLACEHOLDERS).join(', ');
    const statement = connection.statement(`INSERT INTO memories (${INSERT_COLUMNS}) VALUES ${placeholders} ON CONFLICT (agent_id, id) DO NOTHING`);
    inserted += statement.run(...batch.flatMap((memory, index) => memoryParams(memory, contexts?.[start + index]))).changes;
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
  // Nested uses (an erase deleting memories, which re-indexes their neighbours) switch it on and off once.
  const depth = secureDeleteDepth.get(c) ?? 0;
  // The value must be a literal: FTS5 refuses a bound parameter for its configuration ("SQL logic error").
  if (depth === 0) c.statement("INSERT INTO memories_fts (memories_fts, rank) VALUES ('secure-delete', 1)").run();
  secureDeleteDepth.set(c, depth + 1);
  try {
    return work();
  } finally {
    secureDeleteDepth.set(c, depth);
    if (depth === 0) c.statement("INSERT INTO memories_fts (memories_fts, rank) VALUES ('secure-delete', 0)").run();
  }
}

const secureDeleteDepth = new WeakMap<Connection, number>();

/**
 * Deletes memories of the agent for good and re-indexes their thread neighbours (inside the caller's transaction),
 * with FTS5's secure-delete on: neither the memories' text nor a neighbour's old context holding it stays in the
 * full-text index. `MemoryRepo.forget`, and the erase of `memory forget` on the store and in a snapshot (erasure.ts).
 */
export function forgetRows(c: Connection, threads: SqliteThreads, agentId: string, ids: readonly string[]): string[] {
  return withFtsSecureDelete(c, () => {
    const remove = c.statement(
      'DELETE FROM memories WHERE id = ? AND agent_id = ? RETURNING rowid AS ord, thread, created_at AS createdAt, archived_at IS NULL AS live',
    );
    const deleted: string[] = [];
    const places: Place[] = [];
    for (const id of new Set(ids)) {
      const row = remove.get(id, agentId) as { ord: number; thread: string | null; createdAt: string; live: number } | undefined;
      if (!row) continue;
      deleted.push(id);
      if (row.thread !== null && row.live === 1) places.push({ agentId, thread: row.thread, createdAt: row.createdAt, ord: row.ord });
    }
    for (const place of places) threads.around(place);
    return deleted;
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

/** Which of these memories the store holds, by the agent's key (agent, id): `agent NUL id` for each one held. */
function storedKeys(c: Connection, memories: readonly { agentId: string; id: string }[]): Set<string> {
  if (memories.length === 0) return new Set();
  const rows = c
    .statement(
      `SELECT value ->> '$[0]' AS agentId, value ->> '$[1]' AS id FROM json_each(?) AS k
       WHERE EXISTS (SELECT 1 FROM memories WHERE agent_id = k.value ->> '$[0]' AND id = k.value ->> '$[1]')`,
    )
    .all(JSON.stringify(memories.map((memory) => [memory.agentId, memory.id]))) as { agentId: string; id: string }[];
  return new Set(rows.map((row) => `${row.agentId}\u0000${row.id}`));
}

/** What `update` sets: everything but identity, creation and thread (the memory's place). */
const UPDATE_MEMORY = `UPDATE memories SET ${setList(MEMORY_UPDATE_COLUMNS, () => '?')} WHERE id = ? AND agent_id = ?`;

/** Above this many new memories joining one thread the store already holds, the whole thread is re-indexed. */
const JOIN_AROUND_MAX = 64;

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
  readonly threads: SqliteThreads;

  private readonly searcher: SqliteSearch;
  private readonly maintenance: SqliteMaintenance;

  constructor(private readonly c: Connection) {
    this.threads = new SqliteThreads(c);
    this.searcher = new SqliteSearch(c);
    this.maintenance = new SqliteMaintenance(c, this.threads);
  }

  async insert(memory: Memory): Promise<boolean> {
    const insert = () => {
      const result = this.c
        .statement(`INSERT INTO memories (${INSERT_COLUMNS}) VALUES ${PLACEHOLDERS} ON CONFLICT (agent_id, id) DO NOTHING`)
        .run(...memoryParams(memory));
      if (result.changes !== 1) return false;
      if (memory.thread !== null && memory.archivedAt === null) {
        this.threads.around({ agentId: memory.agentId, thread: memory.thread, createdAt: memory.createdAt, ord: Number(result.lastInsertRowid) });
      }
      return true;
    };
    if (memory.thread === null) return this.c.use(insert);
    // The memory and its neighbours' new contexts land together.
    return this.c.transaction(async () => this.c.mapped(insert));
  }

  async insertMany(memories: readonly Memory[]): Promise<number> {
    const threaded = memories.some((memory) => memory.thread !== null);
    if (!threaded && memories.length <= INSERT_BATCH) return this.c.use(() => insertMemoryRows(this.c, memories));
    // Several statements land together.
    return this.c.transaction(async () => this.c.mapped(() => (threaded ? this.insertThreaded(memories) : insertMemoryRows(this.c, memories))));
  }

  /** The bulk path with threads: contexts computed in the batch, joins to threads already stored re-indexed after. */
  private insertThreaded(all: readonly Memory[]): number {
    // Only the memories that will be inserted may lend context: not an existing id, not a repeat within the batch.
    const stored = storedKeys(this.c, all);
    const seen = new Set<string>();
    const memories = all.filter((memory) => {
      const key = `${memory.agentId}\u0000${memory.id}`;
      if (seen.has(key) || stored.has(key)) return false;
      seen.add(key);
      return true;
    });
    const holds = this.c.statement(`SELECT 1 FROM memories WHERE agent_id = ? AND thread = ? AND archived_at IS NULL LIMIT 1`).pluck();
    const held = threadsOf(memories).filter(({ agentId, thread }) => holds.get(agentId, thread) !== undefined);
    const { contexts, joins } = batchContexts(memories, held);
    // A batch joining a stored thread at its end (the next chunk of a big file) gets its contexts here too, with the
    // thread's last stored memories, so a big import does not re-read its whole thread once per chunk.
    const index = new Map(memories.map((memory, position) => [memory.id, position]));
    const finishes: (() => number)[] = [];
    const later = joins.filter((join) => {
      const members = join.ids.map((id) => index.get(id)!);
      const at = (position: number) => memories[position]!.createdAt;
      const ordered = [...members].sort((a, b) => (at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : 0));
      const appended = this.threads.appended(
        join.agentId,
        join.thread,
        at(ordered[0]!),
        ordered.map((position) => memories[position]!.content),
      );
      if (appended === undefined) return true;
      ordered.forEach((position, rank) => (contexts[position] = appended.contexts[rank]));
      finishes.push(appended.finish);
      return false;
    });
    const inserted = insertMemoryRows(this.c, memories, contexts);
    for (const finish of finishes) finish();
    for (const join of later) {
      if (join.ids.length > JOIN_AROUND_MAX) this.threads.whole(join.agentId, join.thread);
      else for (const place of this.threads.places(join.agentId, join.ids)) this.threads.around(place);
    }
    return inserted;
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
    // An archived memory leaves its thread: it lends no context and keeps none; its neighbours are re-indexed.
    return this.c.transaction(async () =>
      this.c.mapped(() => {
        const update = this.c.statement(
          `UPDATE memories SET archived_at = ?, archived_reason = ?, updated_at = ?, context_before = '', context_after = ''
           WHERE id = ? AND agent_id = ? AND archived_at IS NULL RETURNING rowid AS ord, thread, created_at AS createdAt`,
        );
        const archived: string[] = [];
        const places: Place[] = [];
        for (const id of ids) {
          const row = update.get(now, reason, now, id, agentId) as { ord: number; thread: string | null; createdAt: string } | undefined;
          if (!row) continue;
          archived.push(id);
          if (row.thread !== null) places.push({ agentId, thread: row.thread, createdAt: row.createdAt, ord: row.ord });
        }
        for (const place of places) this.threads.around(place);
        return archived;
      }),
    );
  }

  async forget(agentId: string, ids: readonly string[]): Promise<string[]> {
    return this.c.transaction(async () => this.c.mapped(() => forgetRows(this.c, this.threads, agentId, ids)));
  }

  async refreshContext(agentId: string, target: { ids?: readonly string[]; threads?: readonly string[] }): Promise<number> {
    // With FTS5's secure-delete: a neighbour's old context (an edited memory's old text) leaves the index at once.
    return this.c.transaction(async () =>
      this.c.mapped(() =>
        withFtsSecureDelete(this.c, () => {
          let changed = 0;
          for (const thread of new Set(target.threads ?? [])) changed += this.threads.whole(agentId, thread);
          for (const place of this.threads.places(agentId, target.ids ?? [])) {
            // An archived memory keeps no context; its place still decides its neighbours'.
            if (!place.live) {
              changed += this.c
                .statement(`UPDATE memories SET context_before = '', context_after = '' WHERE rowid = ? AND (context_before <> '' OR context_after <> '')`)
                .run(place.ord).changes;
            }
            changed += this.threads.around(place);
          }
          return changed;
        }),
      ),
    );
  }

  async setThread(agentId: string, ids: readonly string[], thread: string | null, now: string): Promise<string[]> {
    // With FTS5's secure-delete: a context that loses a neighbour's text loses it from the index at once.
    return this.c.transaction(async () =>
      this.c.mapped(() =>
        withFtsSecureDelete(this.c, () => {
          const move = this.c.statement(
            `UPDATE memories SET thread = @thread, updated_at = @now WHERE id = @id AND agent_id = @agentId AND thread IS NOT @thread
             RETURNING rowid AS ord, created_at AS createdAt, archived_at IS NULL AS live`,
          );
          const oldThread = this.c.statement('SELECT thread FROM memories WHERE id = ? AND agent_id = ?').pluck();
          const left: Place[] = [];
          const joined: Place[] = [];
          const changed: string[] = [];
          for (const id of new Set(ids)) {
            const was = oldThread.get(id, agentId) as string | null | undefined;
            const row = move.get({ thread, now, id, agentId }) as { ord: number; createdAt: string; live: number } | undefined;
            if (!row) continue;
            changed.push(id);
            if (row.live !== 1) continue;
            if (was !== null && was !== undefined) left.push({ agentId, thread: was, createdAt: row.createdAt, ord: row.ord });
            if (thread !== null) joined.push({ agentId, thread, createdAt: row.createdAt, ord: row.ord });
          }
          // Every row is moved first, so each re-index below reads the threads as they end up.
          if (thread === null || changed.length > joined.length) {
            const clear = this.c.statement(
              `UPDATE memories SET context_before = '', context_after = ''
               WHERE id = ? AND agent_id = ? AND (thread IS NULL OR archived_at IS NOT NULL) AND (context_before <> '' OR context_after <> '')`,
            );
            for (const id of changed) clear.run(id, agentId);
          }
          this.reindexPlaces(left);
          this.reindexPlaces(joined);
          return changed;
        }),
      ),
    );
  }

  /** Re-indexes around places (inside a transaction): a thread with many of them is re-indexed whole. */
  private reindexPlaces(places: readonly Place[]): void {
    const byThread = new Map<string, Place[]>();
    for (const place of places) {
      const at = byThread.get(place.thread);
      if (at) at.push(place);
      else byThread.set(place.thread, [place]);
    }
    for (const [thread, at] of byThread) {
      if (at.length > JOIN_AROUND_MAX) this.threads.whole(at[0]!.agentId, thread);
      else for (const place of at) this.threads.around(place);
    }
  }

  async unarchive(agentId: string, ids: readonly string[], now: string): Promise<string[]> {
    // A memory back from the archive rejoins its thread: it and its neighbours are re-indexed in the same transaction.
    return this.c.transaction(async () => {
      const changed = this.c.mapped(() => {
        const update = this.c.statement(
          'UPDATE memories SET archived_at = NULL, archived_reason = NULL, updated_at = ? WHERE id = ? AND agent_id = ? AND archived_at IS NOT NULL',
        );
        return [...new Set(ids)].filter((id) => update.run(now, id, agentId).changes === 1);
      });
      if (changed.length > 0) await this.refreshContext(agentId, { ids: changed });
      return changed;
    });
  }

  async update(memory: Memory): Promise<boolean> {
    // Several statements (the FTS5 switch around the update) land together. The thread and createdAt (the memory's
    // place) stay; the caller re-indexes the neighbours when the text changed (refreshContext).
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
    return this.c.transaction(async () =>
      this.c.mapped(() => {
        const deleted = this.c
          .statement(`DELETE FROM memories WHERE source = ? AND agent_id IN (${agentIds.map(() => '?').join(', ')}) RETURNING agent_id AS agentId, thread`)
          .all(source, ...agentIds) as { agentId: string; thread: string | null }[];
        const threads = new Map(
          deleted.flatMap(({ agentId, thread }) => (thread === null ? [] : [[threadKey(agentId, thread), { agentId, thread }] as const])),
        );
        for (const { agentId, thread } of threads.values()) this.threads.whole(agentId, thread);
        return deleted.length;
      }),
    );
  }
}
