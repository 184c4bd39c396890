/**
 * The search context of threaded memories on SQLite (docs/store.md "Threads and the search context"; migration 13):
 * no row stores its neighbours' text. The view `memories_search` computes every memory's search entry from the thread
 * (the rule of store/context.ts, in SQL), the FTS5 table reads it, and the triggers of migration 13 re-index every entry
 * a change of one row alters (the row and the live neighbours within two places of where it was and where it is),
 * deleting each with its values from before the change. A single write needs nothing more from the adapter.
 *
 * A bulk write (import, load, restore) would make the triggers re-index a thread's last memories once per new row; it
 * runs instead with the triggers stood aside ('search_deferred' in settings, inside the caller's transaction) and
 * re-indexes once: the entries its rows will alter are deleted before (their old values still computable), the new
 * rows and those entries indexed after. Synchronous: call inside a transaction.
 *
 * A thread's order is (created_at, rowid): rowid is SQLite's insertion order. `memories_thread` (agent_id, thread,
 * created_at) over live threaded rows serves every look-up; rowid is its implicit last column.
 */
import { CONTEXT_AFTER, CONTEXT_BEFORE } from '../context.js';
import type { Connection } from './connection.js';

/** The full-text table's columns, in order: what the view gives for each memory. */
const ENTRY = 'content, tags, subject, agent_id, context_before, context_after, date_words';
const LIVE = 'agent_id = @agentId AND thread = @thread AND archived_at IS NULL';

/** Where a new memory lands in a thread. */
export interface Landing {
  agentId: string;
  thread: string;
  createdAt: string;
}

export class SqliteThreads {
  constructor(private readonly c: Connection) {}

  /** Deletes the search entries of these rows, with their values as the view gives them now. */
  private dropEntries(where: string, params: unknown): void {
    this.c
      .statement(`INSERT INTO memories_fts (memories_fts, rowid, ${ENTRY}) SELECT 'delete', rowid, ${ENTRY} FROM memories_search WHERE ${where}`)
      .run(params);
  }

  /** Indexes these rows as the view gives them now. */
  private addEntries(where: string, params: unknown): void {
    this.c.statement(`INSERT INTO memories_fts (rowid, ${ENTRY}) SELECT rowid, ${ENTRY} FROM memories_search WHERE ${where}`).run(params);
  }

  /** Runs `work` with the search triggers stood aside (inside the caller's transaction). */
  private deferred<T>(work: () => T): T {
    this.c.statement("INSERT INTO settings (key, value) VALUES ('search_deferred', '1')").run();
    try {
      return work();
    } finally {
      this.c.statement("DELETE FROM settings WHERE key = 'search_deferred'").run();
    }
  }

  /**
   * The stored live memories whose search entry changes when new memories land at these places: within
   * CONTEXT_AFTER places before each landing and CONTEXT_BEFORE after it (a new row comes after every stored row of
   * its time: its rowid is the next one).
   */
  private around(landings: readonly Landing[]): number[] {
    const before = this.c.statement(
      `SELECT rowid FROM memories WHERE ${LIVE} AND created_at <= @createdAt ORDER BY created_at DESC, rowid DESC LIMIT ${CONTEXT_AFTER}`,
    );
    const after = this.c.statement(`SELECT rowid FROM memories WHERE ${LIVE} AND created_at > @createdAt ORDER BY created_at, rowid LIMIT ${CONTEXT_BEFORE}`);
    const rowids = new Set<number>();
    const seen = new Set<string>();
    for (const landing of landings) {
      const key = `${landing.agentId}\u0000${landing.thread}\u0000${landing.createdAt}`;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const statement of [before, after]) for (const rowid of statement.pluck().all(landing) as number[]) rowids.add(rowid);
    }
    return [...rowids];
  }

  /**
   * Inserts new memories in bulk (`insert`, plain INSERTs without rowids; rows it skips are harmless) and indexes
   * them once: `landings`, the places of the live threaded memories among them.
   */
  insert<T>(landings: readonly Landing[], insert: () => T): T {
    const stored = JSON.stringify(this.around(landings));
    this.dropEntries('rowid IN (SELECT value FROM json_each(@stored))', { stored });
    const last = this.c.statement('SELECT coalesce(max(rowid), 0) FROM memories').pluck().get() as number;
    const result = this.deferred(insert);
    this.addEntries('rowid > @last OR rowid IN (SELECT value FROM json_each(@stored))', { last, stored });
    return result;
  }

  /**
   * Replaces the memories of a scope (an agent's, or all) in bulk (`replace`: deletes and inserts, rowids kept or
   * not) and indexes the scope once. Threads are one agent's, so no entry outside the scope changes.
   */
  replace(agentId: string | null, replace: () => void): void {
    if (agentId === null) this.c.statement("INSERT INTO memories_fts (memories_fts) VALUES ('delete-all')").run();
    else this.dropEntries('agent_id = @agentId', { agentId });
    this.deferred(replace);
    this.addEntries(agentId === null ? '1' : 'agent_id = @agentId', agentId === null ? {} : { agentId });
  }
}
