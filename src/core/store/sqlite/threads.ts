/**
 * Re-indexing the search context of threaded memories on SQLite (docs/store.md "Threads and the search context"): the
 * adapter writes `context_before`/`context_after` (store/context.ts computes them) and the FTS5 triggers re-index
 * each row whose context changed. Synchronous: call inside a transaction, after the change is written.
 *
 * A thread's order is (created_at, rowid): rowid is SQLite's insertion order. `memories_thread` (agent_id, thread,
 * created_at) over live threaded rows serves every look-up; rowid is its implicit last column.
 */
import { CONTEXT_AFTER, threadContexts, WINDOW, windowContexts, type Context } from '../context.js';
import type { Connection } from './connection.js';

interface ThreadRow {
  ord: number;
  content: string;
  context_before: string;
  context_after: string;
}

/** A place in a thread: where a memory is, or was before it was archived or deleted. */
export interface Place {
  agentId: string;
  thread: string;
  createdAt: string;
  /** The memory's rowid. */
  ord: number;
}

const ROW = 'rowid AS ord, content, context_before, context_after';
const LIVE = 'agent_id = @agentId AND thread = @thread AND archived_at IS NULL';

export class SqliteThreads {
  constructor(private readonly c: Connection) {}

  /** Writes the contexts that differ from the stored ones; returns how many rows changed. */
  private write(rows: readonly { row: ThreadRow; context: Context }[]): number {
    const update = this.c.statement('UPDATE memories SET context_before = ?, context_after = ? WHERE rowid = ?');
    let changed = 0;
    for (const { row, context } of rows) {
      if (row.context_before === context.before && row.context_after === context.after) continue;
      update.run(context.before, context.after, row.ord);
      changed++;
    }
    return changed;
  }

  /** Re-indexes the memories whose context depends on one place of a thread (the place's own memory included). */
  around(place: Place): number {
    const params = { agentId: place.agentId, thread: place.thread, createdAt: place.createdAt, ord: place.ord };
    const before = (
      this.c
        .statement(
          `SELECT ${ROW} FROM memories WHERE ${LIVE} AND (created_at, rowid) < (@createdAt, @ord) ORDER BY created_at DESC, rowid DESC LIMIT ${WINDOW}`,
        )
        .all(params) as ThreadRow[]
    ).reverse();
    const self = this.c.statement(`SELECT ${ROW} FROM memories WHERE rowid = @ord AND ${LIVE}`).get(params) as ThreadRow | undefined;
    const after = this.c
      .statement(`SELECT ${ROW} FROM memories WHERE ${LIVE} AND (created_at, rowid) > (@createdAt, @ord) ORDER BY created_at, rowid LIMIT ${WINDOW}`)
      .all(params) as ThreadRow[];
    return this.write(windowContexts(before, self, after));
  }

  /**
   * The contexts of new memories (contents in thread order, `first` the earliest createdAt) joining a stored thread at
   * its end — no live memory of it is later than `first`, as when a big file is imported chunk by chunk: computed with
   * the thread's last stored memories, without re-reading the thread. Undefined when they would land inside it.
   * `finish`, once they are inserted, rewrites the context of the stored memories they follow.
   */
  appended(agentId: string, thread: string, first: string, contents: readonly string[]): { contexts: Context[]; finish: () => number } | undefined {
    const later = this.c.statement(`SELECT 1 FROM memories WHERE ${LIVE} AND created_at > @first LIMIT 1`).pluck().get({ agentId, thread, first });
    if (later !== undefined) return undefined;
    const tail = (
      this.c.statement(`SELECT ${ROW} FROM memories WHERE ${LIVE} ORDER BY created_at DESC, rowid DESC LIMIT ${WINDOW}`).all({ agentId, thread }) as ThreadRow[]
    ).reverse();
    const computed = threadContexts([...tail.map((row) => row.content), ...contents]);
    // Only the last CONTEXT_AFTER stored memories gain neighbours after them; with WINDOW read, their context before
    // is whole too.
    const from = Math.max(0, tail.length - CONTEXT_AFTER);
    return {
      contexts: computed.slice(tail.length),
      finish: () => this.write(tail.slice(from).map((row, index) => ({ row, context: computed[from + index]! }))),
    };
  }

  /** Re-indexes a whole thread of an agent. */
  whole(agentId: string, thread: string): number {
    const rows = this.c.statement(`SELECT ${ROW} FROM memories WHERE ${LIVE} ORDER BY created_at, rowid`).all({ agentId, thread }) as ThreadRow[];
    const contexts = threadContexts(rows.map((row) => row.content));
    return this.write(rows.map((row, index) => ({ row, context: contexts[index]! })));
  }

  /**
   * Re-indexes every thread of an agent (or of all agents), and clears the context of archived memories: after rows
   * were copied in wholesale (a restore, a load).
   */
  all(agentId: string | null): number {
    const scope = agentId === null ? '' : 'AND agent_id = @agentId';
    const threads = this.c
      .statement(`SELECT DISTINCT agent_id AS agentId, thread FROM memories WHERE thread IS NOT NULL AND archived_at IS NULL ${scope}`)
      .all({ agentId }) as { agentId: string; thread: string }[];
    let changed = threads.reduce((sum, { agentId: agent, thread }) => sum + this.whole(agent, thread), 0);
    changed += this.c
      .statement(
        `UPDATE memories SET context_before = '', context_after = ''
         WHERE (thread IS NULL OR archived_at IS NOT NULL) AND (context_before <> '' OR context_after <> '') ${scope}`,
      )
      .run({ agentId }).changes;
    return changed;
  }

  /** The places of these memories (ids of the agent; missing ones and unthreaded ones left out). */
  places(agentId: string, ids: readonly string[]): (Place & { id: string; live: boolean })[] {
    const statement = this.c.statement(
      'SELECT id, rowid AS ord, thread, created_at AS createdAt, archived_at IS NULL AS live FROM memories WHERE id = ? AND agent_id = ?',
    );
    return ids.flatMap((id) => {
      const row = statement.get(id, agentId) as { id: string; ord: number; thread: string | null; createdAt: string; live: number } | undefined;
      return row && row.thread !== null ? [{ id: row.id, agentId, thread: row.thread, createdAt: row.createdAt, ord: row.ord, live: row.live === 1 }] : [];
    });
  }
}
