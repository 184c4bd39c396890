/**
 * The search context without copies of the text (SQLite migration 13, docs/decisions.md "Issue 26: context without
 * copies, second attempt"): the view memories_search computes each entry from the thread by store/context.ts's rule,
 * the triggers keep FTS5's index equal to what a fresh index of the view would be through every kind of change, and an
 * existing store is converted once, with progress, searching as before.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { search } from '../../../../src/core/search.js';
import { NEIGHBOUR_CHARS, threadContexts } from '../../../../src/core/store/context.js';
import { openSqliteStore, type SqliteStore } from '../../../../src/core/store/sqlite/adapter.js';
import { APPLICATION_ID, MIGRATIONS, migrationSql, SCHEMA_VERSION } from '../../../../src/core/store/sqlite/migrations.js';
import { FILL_CHUNK } from '../../../../src/core/store/sqlite/open.js';
import { at, memory } from '../../../helpers/postgres-store.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hippo-context-view-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The search's ranking over the whole index, as the sqlite3 CLI would run it: every match, its score, in order. */
const RANKING = `SELECT m.id, -bm25(memories_fts, 1.0, 0.5, 0.75, 0.0, 0.4, 0.15, 0.3) AS score, snippet(memories_fts, 0, '[', ']', '…', 8) AS snippet
  FROM memories_fts CROSS JOIN memories m ON m.rowid = memories_fts.rowid
  WHERE memories_fts MATCH ? ORDER BY score DESC, m.created_at DESC, m.rowid`;

/** Every token occurrence of the index (term, row, column, offset): equal for two indexes only if they hold the same. */
function instances(db: Database.Database): unknown[] {
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_instances USING fts5vocab(main, 'memories_fts', 'instance')");
  return db.prepare('SELECT term, doc, col, offset FROM temp.fts_instances ORDER BY term, doc, col, offset').raw().all();
}

/** The index as the writes left it, then as FTS5 rebuilds it from the view: they must be the same. */
function expectIndexAsRebuilt(db: Database.Database): void {
  db.prepare("INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)").run();
  const kept = instances(db);
  const scores = db.prepare(RANKING).all('alpha OR w3 OR turn');
  db.prepare("INSERT INTO memories_fts (memories_fts) VALUES ('rebuild')").run();
  expect(instances(db)).toEqual(kept);
  expect(db.prepare(RANKING).all('alpha OR w3 OR turn')).toEqual(scores);
}

describe('the search context computed, not stored (SQLite)', () => {
  it('computes in SQL what store/context.ts computes: the neighbours, their order, the cut at a space, in characters', async () => {
    const store = await openSqliteStore({ path: join(dir, 'hippo.db') });
    try {
      const long = (word: string) => `${`${word} `.repeat(300)}end`;
      const contents = [
        '  spaced at both ends \t\n',
        long('émoji😀'),
        `${'x'.repeat(NEIGHBOUR_CHARS + 40)}`,
        `${'y'.repeat(300)} ${'z'.repeat(900)}`,
        `tab\tseparated\nlines\r\nand more ${'w '.repeat(600)}`,
        'short',
        `\u00a0non-breaking at the ends\u00a0`,
        // A NUL: the text before it is lent (SQLite's length() and substr() stop there), not the whole text uncut.
        `nul\u0000${'after '.repeat(300)}`,
        `  ${'v '.repeat(300)}\u0000 tail`,
      ];
      await store.memories.insertMany(contents.map((content, index) => memory('a', content, { thread: 't', createdAt: at(index) })));
      const rows = store.db
        .prepare(
          "SELECT e.context_before AS before, e.context_after AS after FROM memories m JOIN memories_search e ON e.rowid = m.rowid WHERE m.thread = 't' ORDER BY m.created_at, m.rowid",
        )
        .all();
      expect(rows).toEqual(threadContexts(contents));
      // No row stores its neighbours' text.
      expect(store.db.prepare("SELECT name FROM pragma_table_info('memories') WHERE name LIKE 'context%'").all()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('keeps the index equal to a fresh index of the view through every kind of change, single and in bulk', async () => {
    const store = await openSqliteStore({ path: join(dir, 'hippo.db') });
    try {
      // Seed 1: on the layout before migration 13 (stored columns, secure-delete switched on and off around each
      // forget and move), this sequence corrupted the index at step 59 — FTS5's integrity check failed.
      let seed = 1;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
      const words = ['alpha', 'beta', 'w3', 'turn', 'gamma'];
      const text = () => Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick(words)).join(' ');
      const threads = ['t0', 't1', 't2', null];
      const ids = (): string[] => store.db.prepare("SELECT id FROM memories WHERE agent_id = 'a'").pluck().all() as string[];
      await store.memories.insertMany(Array.from({ length: 60 }, (_, index) => memory('a', text(), { thread: pick(threads), createdAt: at(index % 20) })));
      for (let step = 0; step < 120; step++) {
        const some = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(ids()));
        switch (step % 9) {
          case 0:
            // Some expire, for the maintenance below to archive.
            await store.memories.insert(
              memory('a', text(), {
                thread: pick(threads),
                createdAt: at(Math.floor(random() * 20)),
                ...(random() < 0.5 ? { durability: 'ephemeral', expiresAt: at(35) } : {}),
              }),
            );
            break;
          case 1:
            // A batch landing inside and after stored threads, one id already stored.
            await store.memories.insertMany([
              ...Array.from({ length: 5 }, () => memory('a', text(), { thread: pick(threads), createdAt: at(Math.floor(random() * 25)) })),
              { ...memory('a', 'again'), id: some[0]! },
            ]);
            break;
          case 2:
            await store.memories.archive('a', some, 'x', at(30));
            break;
          case 3:
            await store.memories.unarchive('a', some, at(31));
            break;
          case 4: {
            const edited = (await store.memories.get('a', some[0]!))!;
            await store.memories.update({ ...edited, content: text(), updatedAt: at(32) });
            break;
          }
          case 5:
            await store.memories.setThread('a', some, pick(threads), at(33));
            break;
          case 6:
            await store.memories.forget('a', some);
            break;
          case 7:
            await store.memories.insert(memory('a', text(), { thread: pick(threads), createdAt: at(Math.floor(random() * 20)), source: 'demo' }));
            await store.memories.deleteBySource('demo', ['a']);
            break;
          default:
            await store.memories.applyMaintenance(
              { now: at(40), youth: at(0), ephemeralCutoff: at(0), unusedCutoff: at(0) },
              { expired: 'e', archivedEphemeral: 'x', archivedUnused: 'u' },
            );
        }
        expect(() => store.db.prepare("INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)").run(), `step ${step}`).not.toThrow();
      }
      expect(store.db.prepare("SELECT count(*) FROM memories_search WHERE context_before <> ''").pluck().get()).toBeGreaterThan(10);
      expectIndexAsRebuilt(store.db);
    } finally {
      await store.close();
    }
  });

  it('upgrades a store of schema 12 once (migration 13), with progress, the columns gone and the same search results', async () => {
    const path = join(dir, 'hippo.db');
    const count = FILL_CHUNK + 11;
    // The store as hippo 12 wrote it: each threaded memory's row holding its neighbours' text.
    const raw = new Database(path);
    raw.exec(MIGRATIONS.slice(0, 12).map(migrationSql).join('\n'));
    raw.pragma(`application_id = ${APPLICATION_ID}`);
    raw.pragma('user_version = 12');
    const notes = Array.from({ length: count }, (_, index) =>
      memory(index % 7 === 0 ? 'b' : 'a', index % 3 === 0 ? `turn ${index} alpha w3` : `turn ${index} beta`, {
        thread: index % 5 === 0 ? null : `t${index % 4}`,
        createdAt: at(Math.floor(index / 2)),
        archivedAt: index % 11 === 0 ? at(9999) : null,
      }),
    );
    const contexts = new Map<number, { before: string; after: string }>();
    const byThread = new Map<string, number[]>();
    notes.forEach((note, index) => {
      if (note.thread === null || note.archivedAt !== null) return;
      const key = `${note.agentId} ${note.thread}`;
      byThread.set(key, [...(byThread.get(key) ?? []), index]);
    });
    for (const members of byThread.values())
      threadContexts(members.map((index) => notes[index]!.content)).forEach((context, rank) => contexts.set(members[rank]!, context));
    const insert = raw.prepare(
      `INSERT INTO memories (id, agent_id, content, created_at, updated_at, content_hash, thread, archived_at, context_before, context_after)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    raw.transaction(() =>
      notes.forEach((note, index) =>
        insert.run(
          note.id,
          note.agentId,
          note.content,
          note.createdAt,
          note.updatedAt,
          note.contentHash,
          note.thread,
          note.archivedAt,
          contexts.get(index)?.before ?? '',
          contexts.get(index)?.after ?? '',
        ),
      ),
    )();
    const before = raw.prepare(RANKING).all('alpha OR w3 OR turn');
    const sizeBefore = raw.prepare('SELECT sum(length(context_before) + length(context_after)) FROM memories').pluck().get() as number;
    raw.close();
    expect(sizeBefore).toBeGreaterThan(0);

    const progress: [number, number][] = [];
    const store: SqliteStore = await openSqliteStore({ path, onProgress: (step, done, total) => step === 'search-index' && progress.push([done, total]) });
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(progress).toEqual([
        [0, count],
        [FILL_CHUNK, count],
        [count, count],
      ]);
      expect(store.db.prepare("SELECT name FROM pragma_table_info('memories') WHERE name LIKE 'context%'").all()).toEqual([]);
      expect(store.db.prepare(RANKING).all('alpha OR w3 OR turn')).toEqual(before);
      const hits = await search(store, { agentId: 'a', query: 'alpha', limit: 5, recordRetrieval: false });
      expect(hits).toHaveLength(5);
      expectIndexAsRebuilt(store.db);
    } finally {
      await store.close();
    }
    // Opened again: nothing left to convert.
    const again: [number, number][] = [];
    await (await openSqliteStore({ path, onProgress: (step, done, total) => again.push([done, total]) })).close();
    expect(again).toEqual([]);
  });

  it('upgrades a store of schema 13 whose threads hold a NUL (migration 14): those entries re-indexed, cut, the index whole', async () => {
    const path = join(dir, 'hippo.db');
    const raw = new Database(path);
    raw.exec(MIGRATIONS.slice(0, 13).map(migrationSql).join('\n'));
    raw.pragma(`application_id = ${APPLICATION_ID}`);
    raw.pragma('user_version = 13');
    const contents = [`opening\u0000${'filler '.repeat(200)}closing`, 'alpha said something', 'beta said something', `w3\u0000 ${'x'.repeat(5)}`, 'gamma'];
    const notes = [
      ...contents.map((content, index) => memory('a', content, { thread: 'nul', createdAt: at(index) })),
      ...['alpha one', 'closing two', 'w3 three'].map((content, index) => memory('a', content, { thread: 'plain', createdAt: at(index) })),
    ];
    const insert = raw.prepare('INSERT INTO memories (id, agent_id, content, created_at, updated_at, content_hash, thread) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const note of notes) insert.run(note.id, note.agentId, note.content, note.createdAt, note.updatedAt, note.contentHash, note.thread);
    const entries = (db: Database.Database, thread: string) =>
      db
        .prepare(
          'SELECT e.context_before AS before, e.context_after AS after FROM memories m JOIN memories_search e ON e.rowid = m.rowid WHERE m.thread = ? ORDER BY m.created_at, m.rowid',
        )
        .all(thread);
    // Migration 13's view lent the NUL's neighbour whole.
    expect((entries(raw, 'nul')[1] as { before: string }).before).toContain('closing');
    const plain = entries(raw, 'plain');
    raw.close();

    const store = await openSqliteStore({ path });
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(entries(store.db, 'nul')).toEqual(threadContexts(contents));
      expect(entries(store.db, 'plain')).toEqual(plain);
      // 'closing' past the NUL: found in its own memory, lent to no neighbour of the NUL's thread (the plain thread's are).
      const found = store.db
        .prepare(RANKING)
        .all('closing')
        .map((row) => (row as { id: string }).id);
      expect(found.filter((id) => notes.slice(0, contents.length).some((note) => note.id === id))).toEqual([notes[0]!.id]);
      expect(found).toHaveLength(4);
      expectIndexAsRebuilt(store.db);
    } finally {
      await store.close();
    }
  });
});
