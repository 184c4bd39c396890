/**
 * The memories of a PostgreSQL store (port.ts `MemoryRepo`). Every statement names the agent unless the method reads
 * all agents by contract (`existingIds`, `agentsWithNew`, `agentCounts`, maintenance, `demoCounts`). The rules the
 * core owns (eligibility for distillation, docs/design.md §4.1; the maintenance verdicts, src/core/nightly/maintenance.ts)
 * are written here in PostgreSQL's SQL clause for clause as the SQLite adapter writes them (store/sqlite/memories.ts).
 * The search is search.ts's, the nightly maintenance maintenance.ts's.
 */
import type { Memory } from '../../records.js';
import type { AgentCount, GatherQuery, ListQuery, MemoryRepo, SearchQuery } from '../port.js';
import { batchContexts, threadKey, threadsOf } from '../context.js';
import { cursorRows, insertRows } from './bulk.js';
import type { Session, TxState } from './session.js';
import { columnList, MEMORY_INSERT_TABLE, MEMORY_TABLE, MEMORY_UPDATE_COLUMNS, setList } from '../tables.js';
import { fromRow, Params, placeholders, toParams } from './codec.js';
import { applyMaintenance, optimizeSearchIndex, planMaintenance } from './maintenance.js';
import { searchMemories } from './search.js';
import { PgThreads, reindexBeforeCommit, reindexPending, txThreads, type PgPlace } from './threads.js';

const COLUMNS = columnList(MEMORY_TABLE.columns);
/** What `update` leaves as it is: the memory's identity and its place in a thread (created_at, thread). */
/** Above this many new memories joining one thread the store already holds, the whole thread is re-indexed. */
const JOIN_AROUND_MAX = 64;

/** Re-indexes around places (inside a transaction): a thread with many of them is re-indexed whole. */
async function reindexPlaces(threads: PgThreads, places: readonly PgPlace[]): Promise<void> {
  const byThread = new Map<string, PgPlace[]>();
  for (const place of places) {
    const at = byThread.get(place.thread);
    if (at) at.push(place);
    else byThread.set(place.thread, [place]);
  }
  for (const [thread, at] of byThread) {
    if (at.length > JOIN_AROUND_MAX) await threads.whole(at[0]!.agentId, thread);
    else for (const place of at) await threads.around(place);
  }
}

export function toMemory(row: Record<string, unknown>): Memory {
  return fromRow<Memory>(MEMORY_TABLE, row);
}

/**
 * The conditions that make a memory eligible for distillation (docs/design.md §4.1, as `eligibleConditions` in
 * rem/gather.ts): not archived, not expired, not permanent, not derived; in scope; never reflected on if asked.
 */
function eligible(
  p: Params,
  options: { now: string; scope: GatherQuery['scope']; since: string; tag?: string; unreflected: boolean },
  alias = 'memories',
): string[] {
  const a = `${alias}.`;
  const where = [
    `${a}archived_at IS NULL`,
    `(${a}expires_at IS NULL OR ${a}expires_at > ${p.add(options.now, 'timestamptz')})`,
    `${a}durability <> 'permanent'`,
    `cardinality(${a}derived_from) = 0`,
  ];
  if (options.scope === 'recent') where.push(`${a}created_at >= ${p.add(options.since, 'timestamptz')}`);
  if (options.scope === 'tagged') where.push(`${a}tags @> ARRAY[${p.add(options.tag ?? '', 'text')}]`);
  if (options.unreflected) where.push(`${a}last_reflected_at IS NULL`);
  return where;
}

/** `list`'s and `count`'s WHERE: the agent first, then the filters (values added to `p`). */
function listWhere(p: Params, q: Omit<ListQuery, 'limit'>): string {
  const where = [`agent_id = ${p.add(q.agentId)}`];
  if (!q.includeArchived) where.push('archived_at IS NULL');
  if (q.tag !== undefined) where.push(`tags @> ARRAY[${p.add(q.tag, 'text')}]`);
  if (q.since !== undefined) where.push(`created_at >= ${p.add(q.since, 'timestamptz')}`);
  if (q.durability !== undefined) where.push(`durability = ${p.add(q.durability, 'text')}`);
  if (q.thread !== undefined) where.push(`thread = ${p.add(q.thread, 'text')}`);
  if (q.source !== undefined) where.push(`source = ${p.add(q.source, 'text')}`);
  return where.join(' AND ');
}

/** Rows a transaction inserts before `statsOnce` looks at the planner's statistics. */
const STATS_AFTER_ROWS = 10_000;

/**
 * A bulk load into a table the server has never analyzed (a new store, inside the import's one transaction): the
 * planner, with no statistics, takes each partition for empty and reads an agent's look-ups (`agent_id = $1 AND
 * thread = ANY($2)`, the same for hashes) by the agent alone, filtering the rest — a read of the agent's rows per chunk,
 * quadratic in the file (300 k rows: 166 s). Once statistics exist the planner scales them with the table's current
 * size, so one ANALYZE of the key columns, taken when the transaction has inserted `STATS_AFTER_ROWS` rows and only if
 * some partition has never been analyzed, is enough (about 0.2 s then). Returns `inserted`.
 */
async function statsOnce(
  tx: TxState,
  q: (text: string, values?: readonly unknown[]) => Promise<{ rows: Record<string, unknown>[] }>,
  inserted: number,
): Promise<number> {
  if (tx.statsChecked) return inserted;
  tx.inserted = (tx.inserted ?? 0) + inserted;
  if (tx.inserted < STATS_AFTER_ROWS) return inserted;
  tx.statsChecked = true;
  const { rows } = await q(
    "SELECT count(*)::int AS n FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'memories'::regclass AND c.reltuples < 0",
  );
  if (Number(rows[0]?.n) > 0) await q('ANALYZE memories (agent_id, id, thread, content_hash, archived_at, created_at)');
  return inserted;
}

/**
 * Inserts memories (existing keys and repeats skipped) with their search context, inside the caller's transaction:
 * `insertMany`, and `rows.load` of a `db copy`. A thread new to the store gets its contexts computed within the batch;
 * a batch joining a stored thread at its end (the next chunk of a big file, the next batch of a copy read thread by
 * thread) gets them with the thread's last stored memories, whose own contexts are then rewritten (at most
 * CONTEXT_AFTER rows). So each row is written once, with its context, except those few at a batch's edge. Memories
 * landing inside a stored thread are re-indexed around their places, or the whole thread once before the commit.
 */
export async function insertThreaded(session: Session, tx: TxState, memories: readonly Memory[]): Promise<number> {
  const q = <R extends Record<string, unknown> = Record<string, unknown>>(text: string, values: readonly unknown[] = []) => session.query<R>(text, values, tx);
  // Not made from `q`: the re-index deferred to the commit holds it, and `q`'s scope (this one) holds the batch.
  const threads = txThreads(session, tx);
  // Only the memories that will be inserted may lend context: not an existing id, not a repeat within the batch.
  // One look-up per agent of the batch (each reads that agent's partition only).
  const agents = [...new Set(memories.map((memory) => memory.agentId))];
  const seen = new Set<string>();
  const keyOf = (agentId: string, id: string) => `${agentId}\u0000${id}`;
  for (const agentId of agents) {
    const ids = memories.filter((memory) => memory.agentId === agentId).map((memory) => memory.id);
    const { rows: found } = await q<{ id: string }>('SELECT id FROM memories WHERE agent_id = $1 AND id = ANY($2::text[])', [agentId, ids]);
    for (const row of found) seen.add(keyOf(agentId, row.id));
  }
  const fresh = memories.filter((memory) => !seen.has(keyOf(memory.agentId, memory.id)) && seen.add(keyOf(memory.agentId, memory.id)));
  const wanted = threadsOf(fresh);
  const held: { agent_id: string; thread: string }[] = [];
  for (const agentId of new Set(wanted.map((key) => key.agentId))) {
    const { rows } = await q<{ agent_id: string; thread: string }>(
      'SELECT DISTINCT agent_id, thread FROM memories WHERE agent_id = $1 AND archived_at IS NULL AND thread = ANY($2::text[])',
      [agentId, wanted.filter((key) => key.agentId === agentId).map((key) => key.thread)],
    );
    held.push(...rows);
  }
  const { contexts, joins } = batchContexts(
    fresh,
    held.map((row) => ({ agentId: row.agent_id, thread: row.thread })),
  );
  // A batch joining a stored thread at its end (the next chunk of a big file) gets its contexts here too, with the
  // thread's last stored memories, so a big import does not re-read its whole thread once per chunk.
  const position = new Map(fresh.map((memory, index) => [memory.id, index]));
  const finishes: (() => Promise<number>)[] = [];
  const later: typeof joins = [];
  for (const join of joins) {
    const at = (index: number) => fresh[index]!.createdAt;
    const ordered = join.ids.map((id) => position.get(id)!).sort((a, b) => (at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : 0));
    const appended = await threads.appended(
      join.agentId,
      join.thread,
      at(ordered[0]!),
      ordered.map((index) => fresh[index]!.content),
    );
    if (appended === undefined) later.push(join);
    else {
      ordered.forEach((index, rank) => (contexts[index] = appended.contexts[rank]));
      finishes.push(appended.finish);
    }
  }
  const rows = fresh.map((memory, index) => ({ ...memory, contextBefore: contexts[index]?.before ?? '', contextAfter: contexts[index]?.after ?? '' }));
  const inserted = await insertRows(session, tx, MEMORY_INSERT_TABLE, rows);
  for (const finish of finishes) await finish();
  for (const join of later) {
    // Many new memories inside a stored thread (the next chunk of a file whose lines are not in time order): the
    // thread is re-indexed once before the transaction commits, not after every chunk (quadratic in a big file).
    if (reindexPending(tx, join.agentId, join.thread)) continue;
    if (join.ids.length > JOIN_AROUND_MAX) reindexBeforeCommit(tx, threads, join.agentId, join.thread);
    else for (const place of await threads.places(join.agentId, join.ids)) await threads.around(place);
  }
  return statsOnce(tx, q, inserted);
}

export function memoryRepo(session: Session, bound?: TxState): MemoryRepo {
  const query = <R extends Record<string, unknown> = Record<string, unknown>>(text: string, values: readonly unknown[] = []) =>
    session.query<R>(text, values, bound);

  /** `fn` in the caller's transaction, or one of its own: statements that must land together (a write and its re-index). */
  const atomic = <T>(fn: (tx: TxState, q: typeof query, threads: PgThreads) => Promise<T>): Promise<T> => {
    const run = (tx: TxState) => {
      const q = <R extends Record<string, unknown> = Record<string, unknown>>(text: string, values: readonly unknown[] = []) =>
        session.query<R>(text, values, tx);
      return fn(tx, q, new PgThreads(q));
    };
    const tx = bound ?? session.current();
    return tx ? run(tx) : session.transaction(run);
  };

  return {
    async insert(memory) {
      const values = toParams(MEMORY_TABLE, memory);
      const sql = `INSERT INTO memories (${COLUMNS}) VALUES (${placeholders(values.length)}) ON CONFLICT (agent_id, id) DO NOTHING RETURNING seq`;
      if (memory.thread === null || memory.archivedAt !== null) return (await query(sql, values)).rowCount === 1;
      // The memory and its neighbours' new contexts land together.
      return atomic(async (_tx, q, threads) => {
        const { rows } = await q<{ seq: number }>(sql, values);
        if (rows.length === 0) return false;
        await threads.around({ agentId: memory.agentId, thread: memory.thread!, createdAt: memory.createdAt, seq: Number(rows[0]!.seq), id: memory.id });
        return true;
      });
    },

    async insertMany(memories) {
      if (memories.length === 0) return 0;
      // Every value is checked (NUL, types) before the transaction starts: a bad row refuses the whole call.
      for (const memory of memories) toParams(MEMORY_TABLE, memory);
      if (!memories.some((memory) => memory.thread !== null))
        return atomic(async (tx, q) => statsOnce(tx, q, await insertRows(session, tx, MEMORY_TABLE, memories)));
      return atomic(async (tx) => insertThreaded(session, tx, memories));
    },

    async get(agentId, id) {
      const { rows } = await query(`SELECT ${COLUMNS} FROM memories WHERE id = $1 AND agent_id = $2`, [id, agentId]);
      return rows[0] ? toMemory(rows[0]) : undefined;
    },

    async getMany(agentId, ids) {
      if (ids.length === 0) return [];
      const { rows } = await query(`SELECT ${COLUMNS} FROM memories WHERE agent_id = $1 AND id = ANY($2::text[])`, [agentId, [...ids]]);
      const byId = new Map(rows.map((row) => [row.id as string, toMemory(row)]));
      return ids.flatMap((id) => {
        const memory = byId.get(id);
        return memory ? [memory] : [];
      });
    },

    async existingIds(ids) {
      if (ids.length === 0) return new Set();
      // all agents: import skips an id any agent holds (ids are made unique store-wide).
      const { rows } = await query<{ id: string }>('SELECT id FROM memories WHERE id = ANY($1::text[])', [[...ids]]);
      return new Set(rows.map((row) => row.id));
    },

    async idsWithHash(agentId, hash, exceptId) {
      const { rows } = await query<{ id: string }>(
        'SELECT id FROM memories WHERE agent_id = $1 AND content_hash = $2 AND ($3::text IS NULL OR id <> $3) ORDER BY created_at, id COLLATE "C"',
        [agentId, hash, exceptId ?? null],
      );
      return rows.map((row) => row.id);
    },

    async existingHashes(agentId, hashes) {
      if (hashes.length === 0) return new Set();
      const { rows } = await query<{ content_hash: string }>(
        'SELECT DISTINCT content_hash FROM memories WHERE agent_id = $1 AND content_hash = ANY($2::text[])',
        [agentId, [...hashes]],
      );
      return new Set(rows.map((row) => row.content_hash));
    },

    async list(q: ListQuery) {
      const p = new Params();
      const where = listWhere(p, q);
      // A thread reads in its own order (createdAt, then insertion order); everything else newest first.
      const order = q.thread !== undefined ? 'created_at, seq' : 'created_at DESC, id COLLATE "C" DESC';
      const { rows } = await query(`SELECT ${COLUMNS} FROM memories WHERE ${where} ORDER BY ${order} LIMIT ${p.add(q.limit, 'int')}`, p.values);
      return rows.map(toMemory);
    },

    async count(q) {
      const p = new Params();
      const { rows } = await query<{ n: number }>(`SELECT count(*)::int AS n FROM memories WHERE ${listWhere(p, q)}`, p.values);
      return rows[0]!.n;
    },

    iterate(agentId) {
      const sql =
        agentId === undefined
          ? `SELECT ${COLUMNS} FROM memories ORDER BY created_at, id COLLATE "C"`
          : `SELECT ${COLUMNS} FROM memories WHERE agent_id = $1 ORDER BY created_at, id COLLATE "C"`;
      const rows = cursorRows(session, bound, sql, agentId === undefined ? [] : [agentId]);
      return (async function* () {
        for await (const row of rows) yield toMemory(row);
      })();
    },

    async archive(agentId, ids, reason, now) {
      if (ids.length === 0) return [];
      // An archived memory leaves its thread: it lends no context and keeps none; its neighbours are re-indexed.
      return atomic(async (_tx, q, threads) => {
        const { rows } = await q<{ id: string; thread: string | null; created_at: string; seq: number }>(
          `UPDATE memories SET archived_at = $1, archived_reason = $2, updated_at = $1, context_before = '', context_after = ''
           WHERE agent_id = $3 AND id = ANY($4::text[]) AND archived_at IS NULL RETURNING id, thread, created_at, seq`,
          [now, reason, agentId, [...ids]],
        );
        for (const row of rows) {
          if (row.thread !== null) await threads.around({ agentId, thread: row.thread, createdAt: row.created_at, seq: Number(row.seq), id: row.id });
        }
        const changed = new Set(rows.map((row) => row.id));
        return [...new Set(ids)].filter((id) => changed.has(id));
      });
    },

    async forget(agentId, ids) {
      if (ids.length === 0) return [];
      return atomic(async (_tx, q, threads) => {
        const { rows } = await q<{ id: string; thread: string | null; created_at: string; seq: number; live: boolean }>(
          `DELETE FROM memories WHERE agent_id = $1 AND id = ANY($2::text[]) RETURNING id, thread, created_at, seq, archived_at IS NULL AS live`,
          [agentId, [...ids]],
        );
        for (const row of rows) {
          if (row.thread !== null && row.live)
            await threads.around({ agentId, thread: row.thread, createdAt: row.created_at, seq: Number(row.seq), id: row.id });
        }
        const deleted = new Set(rows.map((row) => row.id));
        return [...new Set(ids)].filter((id) => deleted.has(id));
      });
    },

    async refreshContext(agentId, target) {
      return atomic(async (_tx, q, threads) => {
        let changed = 0;
        for (const thread of new Set(target.threads ?? [])) changed += await threads.whole(agentId, thread);
        for (const place of await threads.places(agentId, target.ids ?? [])) {
          // An archived memory keeps no context; its place still decides its neighbours'.
          if (!place.live) {
            const cleared = await q(
              `UPDATE memories SET context_before = '', context_after = '' WHERE agent_id = $1 AND id = $2 AND (context_before <> '' OR context_after <> '')`,
              [agentId, place.id],
            );
            changed += cleared.rowCount ?? 0;
          }
          changed += await threads.around(place);
        }
        return changed;
      });
    },

    async setThread(agentId, ids, thread, now) {
      if (ids.length === 0) return [];
      return atomic(async (_tx, q, threads) => {
        // The old thread is read in the same statement (the row's value before the update), locked with it.
        const { rows } = await q<{ id: string; was: string | null; created_at: string; seq: number; live: boolean }>(
          `UPDATE memories m SET thread = $3, updated_at = $4
           FROM (SELECT id, thread AS was FROM memories WHERE agent_id = $1 AND id = ANY($2::text[]) AND thread IS DISTINCT FROM $3 FOR UPDATE) o
           WHERE m.agent_id = $1 AND m.id = o.id
           RETURNING m.id, o.was, m.created_at, m.seq, m.archived_at IS NULL AS live`,
          [agentId, [...ids], thread, now],
        );
        const byId = new Map(rows.map((row) => [row.id, row]));
        const changed = [...new Set(ids)].filter((id) => byId.has(id));
        // Every row is moved first, so each re-index below reads the threads as they end up.
        const unthreaded = rows.filter((row) => thread === null || !row.live).map((row) => row.id);
        if (unthreaded.length > 0) {
          await q(
            `UPDATE memories SET context_before = '', context_after = ''
             WHERE agent_id = $1 AND id = ANY($2::text[]) AND (context_before <> '' OR context_after <> '')`,
            [agentId, unthreaded],
          );
        }
        const place = (row: (typeof rows)[number], at: string): PgPlace => ({
          agentId,
          thread: at,
          createdAt: row.created_at,
          seq: Number(row.seq),
          id: row.id,
        });
        const live = rows.filter((row) => row.live);
        await reindexPlaces(
          threads,
          live.flatMap((row) => (row.was === null ? [] : [place(row, row.was)])),
        );
        if (thread !== null)
          await reindexPlaces(
            threads,
            live.map((row) => place(row, thread)),
          );
        return changed;
      });
    },

    async unarchive(agentId, ids, now) {
      if (ids.length === 0) return [];
      // A memory back from the archive rejoins its thread: it and its neighbours are re-indexed in the same transaction.
      return atomic(async (_tx, q) => {
        const { rows } = await q<{ id: string }>(
          `UPDATE memories SET archived_at = NULL, archived_reason = NULL, updated_at = $1
           WHERE agent_id = $2 AND id = ANY($3::text[]) AND archived_at IS NOT NULL RETURNING id`,
          [now, agentId, [...ids]],
        );
        const changed = new Set(rows.map((row) => row.id));
        const unarchived = [...new Set(ids)].filter((id) => changed.has(id));
        if (unarchived.length > 0) await this.refreshContext(agentId, { ids: unarchived });
        return unarchived;
      });
    },

    async update(memory) {
      // Everything but identity, creation and thread; the generated search vector follows by itself (the caller
      // re-indexes the neighbours when the text changed: refreshContext).
      const values = toParams(MEMORY_TABLE, memory, MEMORY_UPDATE_COLUMNS);
      const sets = setList(MEMORY_UPDATE_COLUMNS, (index) => `$${index + 3}`);
      const result = await query(`UPDATE memories SET ${sets} WHERE id = $1 AND agent_id = $2`, [memory.id, memory.agentId, ...values]);
      return result.rowCount === 1;
    },

    async versions(agentId, id) {
      const { rows } = await query(`SELECT ${COLUMNS} FROM memories WHERE agent_id = $1 AND version_of = $2 ORDER BY updated_at DESC, id COLLATE "C" DESC`, [
        agentId,
        id,
      ]);
      return rows.map(toMemory);
    },

    async stampReflected(agentId, ids, now) {
      if (ids.length === 0) return;
      await query('UPDATE memories SET last_reflected_at = $1 WHERE agent_id = $2 AND id = ANY($3::text[])', [now, agentId, [...ids]]);
    },

    async recordRetrieval(agentId, ids, now) {
      if (ids.length === 0) return;
      // Rows locked in id order, so two searches bumping overlapping hits cannot deadlock. Best effort by contract: the
      // caller's tryTransaction bounds the wait for a row another transaction holds (lock_timeout) and gives up.
      await query(
        `UPDATE memories SET retrieval_count = retrieval_count + 1, last_retrieved_at = $3
         WHERE agent_id = $1 AND id IN (SELECT id FROM memories WHERE agent_id = $1 AND id = ANY($2::text[]) ORDER BY id FOR UPDATE)`,
        [agentId, [...ids], now],
      );
    },

    async gather(q) {
      const p = new Params();
      const where = [`agent_id = ${p.add(q.agentId)}`, ...eligible(p, q)].join(' AND ');
      const counted = await query<{ n: number }>(`SELECT count(*)::int AS n FROM memories WHERE ${where}`, p.values);
      const limit = p.add(q.limit, 'int');
      const { rows } = await query(`SELECT ${COLUMNS} FROM memories WHERE ${where} ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT ${limit}`, p.values);
      return { eligible: counted.rows[0]!.n, memories: rows.map(toMemory) };
    },

    async agentsWithNew(now, since) {
      const p = new Params();
      const conditions = eligible(p, { now, scope: 'recent', since, unreflected: true }, 'm');
      // A loose index scan: hop from one agent id to the next along memories_agent_created (a few lookups per agent)
      // instead of reading every index entry for DISTINCT; each agent is then checked on its own index range.
      // all agents: the nightly's scan for agents with something new.
      const { rows } = await query<{ agent_id: string }>(
        `WITH RECURSIVE agents (agent_id) AS (
           (SELECT agent_id FROM memories ORDER BY agent_id LIMIT 1)
           UNION ALL
           SELECT (SELECT m.agent_id FROM memories m WHERE m.agent_id > a.agent_id ORDER BY m.agent_id LIMIT 1) FROM agents a WHERE a.agent_id IS NOT NULL
         )
         SELECT a.agent_id FROM agents a
         WHERE a.agent_id IS NOT NULL AND EXISTS (SELECT 1 FROM memories m WHERE m.agent_id = a.agent_id AND ${conditions.join(' AND ')})
         ORDER BY a.agent_id COLLATE "C"`,
        p.values,
      );
      return rows.map((row) => row.agent_id);
    },

    async agentCounts(options: { source?: string } = {}): Promise<AgentCount[]> {
      // all agents: `agents` lists every agent.
      const { rows } = await query<{ agent_id: string; memories: number; archived: number; newest: string }>(
        `SELECT agent_id, count(*) FILTER (WHERE archived_at IS NULL)::int AS memories, count(*) FILTER (WHERE archived_at IS NOT NULL)::int AS archived,
                max(created_at) AS newest
         FROM memories ${options.source === undefined ? '' : 'WHERE source = $1'} GROUP BY agent_id ORDER BY agent_id COLLATE "C"`,
        options.source === undefined ? [] : [options.source],
      );
      return rows.map((row) => ({ agentId: row.agent_id, memories: row.memories, archived: row.archived, newest: row.newest }));
    },

    search: async (q: SearchQuery) => (await searchMemories(session, bound, q)).hits,
    searchWithTotal: (q: SearchQuery) => searchMemories(session, bound, q),
    planMaintenance: (cutoffs) => planMaintenance(query, cutoffs),
    applyMaintenance: (cutoffs, reasons) => applyMaintenance(atomic, cutoffs, reasons),
    optimizeSearchIndex: () => optimizeSearchIndex(query),

    async demoCounts(source) {
      // all agents: the demo's check of the whole store.
      const { rows } = await query<{ total: number; demo: number }>(
        'SELECT count(*)::int AS total, count(*) FILTER (WHERE source = $1)::int AS demo FROM memories',
        [source],
      );
      return rows[0]!;
    },

    async deleteBySource(source, agentIds) {
      if (agentIds.length === 0) return 0;
      return atomic(async (_tx, q, threads) => {
        // The demo's agents (a few, named): their partitions only.
        const { rows } = await q<{ agent_id: string; thread: string | null }>(
          'DELETE FROM memories WHERE source = $1 AND agent_id = ANY($2::text[]) RETURNING agent_id, thread',
          [source, [...agentIds]],
        );
        const touched = new Map(
          rows.flatMap((row) => (row.thread === null ? [] : [[threadKey(row.agent_id, row.thread), { agentId: row.agent_id, thread: row.thread }] as const])),
        );
        for (const { agentId, thread } of touched.values()) await threads.whole(agentId, thread);
        return rows.length;
      });
    },
  };
}
