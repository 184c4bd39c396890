/**
 * Re-indexing the search context of threaded memories on PostgreSQL (docs/store.md "Threads and the search context"):
 * the adapter writes `context_before`/`context_after` (store/context.ts computes them) and the generated
 * `fts_context` follows. Runs on the caller's transaction (or the pool, inside the caller's own transaction).
 *
 * A thread's order is (created_at, seq): `seq` is the insertion order. `memories_thread` (agent_id, thread,
 * created_at, seq) over live threaded rows serves every look-up.
 */
import { CONTEXT_AFTER, CONTEXT_BEFORE, threadContexts, threadKey, WINDOW, windowContexts, type Context } from '../context.js';
import type { Session, TxState } from './session.js';

/** Rows per UPDATE when a whole thread is re-indexed: each statement's parameters stay a few megabytes. */
const REINDEX_BATCH = 5_000;

interface ThreadRow {
  id: string;
  content: string;
  context_before: string;
  context_after: string;
}

/** A place in a thread: where a memory is, or was before it was archived or deleted. */
export interface PgPlace {
  agentId: string;
  thread: string;
  createdAt: string;
  seq: number;
  /** The memory at the place (absent once deleted). */
  id: string;
}

type Query = <R extends Record<string, unknown>>(text: string, values?: readonly unknown[]) => Promise<{ rows: R[]; rowCount?: number | null }>;

/**
 * Re-indexes a whole thread once, just before the transaction commits, however many batches of a bulk load joined it
 * (an import of a file chunk by chunk, `db copy` batch by batch): re-reading the thread after every batch made a big
 * import quadratic. Until then the new memories' context may be stale; a search in the same transaction settles it
 * first (memories.ts). Nothing else reads a context.
 */
export function reindexBeforeCommit(tx: TxState, threads: PgThreads, agentId: string, thread: string): void {
  tx.beforeCommit ??= new Map();
  const key = `thread:${threadKey(agentId, thread)}`;
  if (!tx.beforeCommit.has(key)) tx.beforeCommit.set(key, () => threads.whole(agentId, thread));
}

/** Whether the thread's re-index is already due before the commit (nothing finer is needed before then). */
export function reindexPending(tx: TxState, agentId: string, thread: string): boolean {
  return tx.beforeCommit?.has(`thread:${threadKey(agentId, thread)}`) ?? false;
}

const ROW = 'id, content, context_before, context_after';
const LIVE = 'agent_id = $1 AND thread = $2 AND archived_at IS NULL';

/**
 * The thread re-indexer of a transaction, made outside any caller's scope: the work a bulk load defers to the commit
 * (`reindexBeforeCommit`) holds it, and one made inside the load would hold that call's rows too (its scope) until the
 * commit — every row of a `db copy`, 2.1 GB at 1 M memories (issue 25).
 */
export function txThreads(session: Session, tx: TxState): PgThreads {
  return new PgThreads((text, values = []) => session.query(text, values, tx));
}

export class PgThreads {
  constructor(private readonly query: Query) {}

  /** Writes the contexts that differ from the stored ones (one statement); returns how many rows changed. */
  private async write(agentId: string, rows: readonly { row: ThreadRow; context: Context }[]): Promise<number> {
    const changed = rows.filter(({ row, context }) => row.context_before !== context.before || row.context_after !== context.after);
    if (changed.length === 0) return 0;
    await this.query(
      `UPDATE memories m SET context_before = u.before, context_after = u.after
       FROM unnest($2::text[], $3::text[], $4::text[]) AS u (id, before, after) WHERE m.agent_id = $1 AND m.id = u.id`,
      [agentId, changed.map(({ row }) => row.id), changed.map(({ context }) => context.before), changed.map(({ context }) => context.after)],
    );
    return changed.length;
  }

  /** Re-indexes the memories whose context depends on one place of a thread (the place's own memory included). */
  async around(place: PgPlace): Promise<number> {
    const key = [place.agentId, place.thread, place.createdAt, place.seq];
    const before = (
      await this.query<ThreadRow & Record<string, unknown>>(
        `SELECT ${ROW} FROM memories WHERE ${LIVE} AND (created_at, seq) < ($3::timestamptz, $4::bigint) ORDER BY created_at DESC, seq DESC LIMIT ${WINDOW}`,
        key,
      )
    ).rows.reverse();
    const self = (
      await this.query<ThreadRow & Record<string, unknown>>(`SELECT ${ROW} FROM memories WHERE id = $3 AND ${LIVE}`, [place.agentId, place.thread, place.id])
    ).rows[0];
    const after = (
      await this.query<ThreadRow & Record<string, unknown>>(
        `SELECT ${ROW} FROM memories WHERE ${LIVE} AND (created_at, seq) > ($3::timestamptz, $4::bigint) ORDER BY created_at, seq LIMIT ${WINDOW}`,
        key,
      )
    ).rows;
    return this.write(place.agentId, windowContexts(before, self, after));
  }

  /**
   * The contexts of new memories (contents in thread order, `first` the earliest createdAt) joining a stored thread at
   * its end — no live memory of it is later than `first`, as when a big file is imported chunk by chunk: computed with
   * the thread's last stored memories, without re-reading the thread. Undefined when they would land inside it.
   * `finish`, once they are inserted, rewrites the context of the stored memories they follow.
   */
  async appended(
    agentId: string,
    thread: string,
    first: string,
    contents: readonly string[],
  ): Promise<{ contexts: Context[]; finish: () => Promise<number> } | undefined> {
    const { rows: later } = await this.query(`SELECT 1 FROM memories WHERE ${LIVE} AND created_at > $3::timestamptz LIMIT 1`, [agentId, thread, first]);
    if (later.length > 0) return undefined;
    const tail = (
      await this.query<ThreadRow & Record<string, unknown>>(`SELECT ${ROW} FROM memories WHERE ${LIVE} ORDER BY created_at DESC, seq DESC LIMIT ${WINDOW}`, [
        agentId,
        thread,
      ])
    ).rows.reverse();
    const computed = threadContexts([...tail.map((row) => row.content), ...contents]);
    // Only the last CONTEXT_AFTER stored memories gain neighbours after them; with WINDOW read, their context before
    // is whole too.
    const from = Math.max(0, tail.length - CONTEXT_AFTER);
    return {
      contexts: computed.slice(tail.length),
      finish: () =>
        this.write(
          agentId,
          tail.slice(from).map((row, index) => ({ row, context: computed[from + index]! })),
        ),
    };
  }

  /**
   * Re-indexes a whole thread of an agent: its contents read once in thread order, the contexts computed here
   * (context.ts, the same code as SQLite's) and written in batches, each row only where its context changed (the
   * server compares, so the stored contexts are not read back). Returns how many rows changed.
   */
  async whole(agentId: string, thread: string): Promise<number> {
    const { rows } = await this.query<{ id: string; content: string }>(`SELECT id, content FROM memories WHERE ${LIVE} ORDER BY created_at, seq`, [
      agentId,
      thread,
    ]);
    let changed = 0;
    for (let start = 0; start < rows.length; start += REINDEX_BATCH) {
      const end = Math.min(rows.length, start + REINDEX_BATCH);
      // The batch's rows with the neighbours their contexts reach.
      const from = Math.max(0, start - CONTEXT_BEFORE);
      const contexts = threadContexts(rows.slice(from, Math.min(rows.length, end + CONTEXT_AFTER)).map((row) => row.content)).slice(start - from, end - from);
      const result = await this.query(
        `UPDATE memories m SET context_before = u.before, context_after = u.after
         FROM unnest($2::text[], $3::text[], $4::text[]) AS u (id, before, after)
         WHERE m.agent_id = $1 AND m.id = u.id AND (m.context_before <> u.before OR m.context_after <> u.after)`,
        [agentId, rows.slice(start, end).map((row) => row.id), contexts.map((context) => context.before), contexts.map((context) => context.after)],
      );
      changed += result.rowCount ?? 0;
    }
    return changed;
  }

  /**
   * Re-indexes every thread of an agent (or of all agents), and clears the context of archived and unthreaded
   * memories: after rows were copied in wholesale (a restore, a load).
   */
  async all(agentId: string | null): Promise<number> {
    // Without an agent: all agents (a restore or load of every agent's rows).
    const scope = agentId === null ? '' : 'AND agent_id = $1';
    const values = agentId === null ? [] : [agentId];
    const { rows: threads } = await this.query<{ agent_id: string; thread: string }>(
      `SELECT DISTINCT agent_id, thread FROM memories WHERE thread IS NOT NULL AND archived_at IS NULL ${scope}`,
      values,
    );
    let changed = 0;
    for (const { agent_id: agent, thread } of threads) changed += await this.whole(agent, thread);
    const { rows } = await this.query<{ n: number }>(
      `WITH cleared AS (
         UPDATE memories SET context_before = '', context_after = ''
         WHERE (thread IS NULL OR archived_at IS NOT NULL) AND (context_before <> '' OR context_after <> '') ${scope} RETURNING 1
       ) SELECT count(*)::int AS n FROM cleared`,
      values,
    );
    return changed + rows[0]!.n;
  }

  /** The places of these memories (ids of the agent; missing and unthreaded ones left out). */
  async places(agentId: string, ids: readonly string[]): Promise<(PgPlace & { live: boolean })[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.query<{ id: string; thread: string | null; created_at: string; seq: number; live: boolean }>(
      `SELECT id, thread, created_at, seq, archived_at IS NULL AS live FROM memories WHERE agent_id = $1 AND id = ANY($2::text[])`,
      [agentId, [...ids]],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return [...new Set(ids)].flatMap((id) => {
      const row = byId.get(id);
      return row && row.thread !== null ? [{ id, agentId, thread: row.thread, createdAt: row.created_at, seq: Number(row.seq), live: row.live }] : [];
    });
  }
}
