/**
 * Issue 26, found by `npm run bench -- search import` (2026-12-07): a thread whose memories share one time — an import
 * of lines without `createdAt` (each gets the import's time), or dates without a time of day — is indexed in time
 * quadratic in the thread's length: 10 000 such lines imported in 28.5 s, 40 000 in 310 s (with distinct times 1.3 s
 * and 4.2 s). The search entry's view (migration 13/14, `memories_search`) finds each neighbour with
 * `(created_at, rowid) < (m.created_at, m.rowid) ORDER BY created_at DESC, rowid DESC`, and SQLite seeks the thread's
 * index on `created_at` alone: every row of the same time is stepped over for each of the four neighbours of each
 * entry. Fixed by migration 15 (searchEntryV15): each neighbour is two seeks, one within the time by rowid (an
 * equality on created_at, then a range on the index's implicit rowid), one over the other times. Checked on the query
 * plan, not on time; bench/results/1b-import.md has the times.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../../src/core/store/sqlite/adapter.js';
import { at, memory } from '../../../helpers/postgres-store.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hippo-same-time-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a thread whose memories share one time (issue 26)', () => {
  it('finds each neighbour of a search entry by seeking on rowid within the time, not by stepping over the time', async () => {
    const path = join(dir, 'hippo.db');
    const store = await openSqliteStore({ path });
    try {
      await store.memories.insertMany(Array.from({ length: 50 }, (_, n) => memory('a', `note ${n}`, { thread: 't', createdAt: at(0) })));
    } finally {
      await store.close();
    }
    const db = new Database(path, { readonly: true });
    try {
      const rowid = db.prepare('SELECT rowid FROM memories ORDER BY rowid LIMIT 1 OFFSET 25').pluck().get() as number;
      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT context_before, context_after FROM memories_search WHERE rowid = ?').all(rowid) as {
        detail: string;
      }[];
      const seeks = plan.map((step) => step.detail).filter((detail) => detail.includes('memories_thread'));
      // Each of the four neighbours: one seek within the time, bounded by rowid in the index search itself, and one
      // over the earlier (or later) times, which the first rows past the time satisfy.
      expect(seeks.filter((detail) => /created_at=\? AND rowid[<>]\?/.test(detail))).toHaveLength(4);
      expect(seeks.filter((detail) => /created_at[<>]\?\)$/.test(detail))).toHaveLength(4);
    } finally {
      db.close();
    }
  });
});
