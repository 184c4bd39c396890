/**
 * Upgrading an existing SQLite store to search in context (migration 4): the full-text index is recreated with the
 * context and date columns and filled from every memory in the migration's one transaction, with progress.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMemory } from '../../../../src/core/memory/memory.js';
import { search } from '../../../../src/core/search.js';
import { dateWords } from '../../../../src/core/store/context.js';
import { openSqliteStore } from '../../../../src/core/store/sqlite/adapter.js';
import { APPLICATION_ID, MIGRATIONS, migrationSql, SCHEMA_VERSION } from '../../../../src/core/store/sqlite/migrations.js';
import { FILL_CHUNK } from '../../../../src/core/store/sqlite/open.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hippo-upgrade-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A store as hippo wrote it before threads (schema 3), with `count` memories of agent `ops`. */
function schemaThreeStore(path: string, count: number): void {
  const raw = new Database(path);
  raw.exec(MIGRATIONS.slice(0, 3).map(migrationSql).join('\n'));
  raw.pragma(`application_id = ${APPLICATION_ID}`);
  raw.pragma('user_version = 3');
  const insert = raw.prepare('INSERT INTO memories (id, agent_id, content, created_at, updated_at, content_hash) VALUES (?, ?, ?, ?, ?, ?)');
  raw.transaction(() => {
    for (let index = 0; index < count; index++) {
      const at = new Date(Date.UTC(2023, 4, 8) + index * 60_000).toISOString();
      const id = `mem_${String(index).padStart(26, '0')}`;
      insert.run(id, 'ops', index === 0 ? 'Moved the billing cron to 02:30 UTC.' : `Routine note number ${index}.`, at, at, String(index));
    }
  })();
  raw.close();
}

describe('upgrading a store to search in context', () => {
  it('rebuilds the index from every memory in one transaction, reporting progress chunk by chunk', async () => {
    const path = join(dir, 'hippo.db');
    const count = FILL_CHUNK + 7;
    schemaThreeStore(path, count);
    const progress: [number, number][] = [];
    const store = await openSqliteStore({ path, onProgress: (step, done, total) => step === 'search-index' && progress.push([done, total]) });
    try {
      expect(progress).toEqual([
        [0, count],
        [FILL_CHUNK, count],
        [count, count],
      ]);
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      // FTS5's own check of the index against the memories throws if they disagree.
      expect(() => store.db.prepare("INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
      const hits = await search(store, { agentId: 'ops', query: 'billing cron', recordRetrieval: false });
      expect(hits.map((hit) => [hit.memory.content, hit.memory.thread, hit.matched])).toEqual([['Moved the billing cron to 02:30 UTC.', null, ['content']]]);
      // Every memory has its date in the index.
      expect(await search(store, { agentId: 'ops', query: 'May 2023', limit: 3, recordRetrieval: false })).toHaveLength(3);
      // New memories join threads as usual.
      await addMemory(store, { agentId: 'ops', content: 'first in a thread', thread: 't' });
      await addMemory(store, { agentId: 'ops', content: 'second in a thread', thread: 't' });
      expect((await search(store, { agentId: 'ops', query: 'first', recordRetrieval: false })).map((hit) => hit.matched)).toEqual([['content'], ['context']]);
    } finally {
      await store.close();
    }
  });

  it('does not report progress for a new store, nor for one already upgraded', async () => {
    const path = join(dir, 'hippo.db');
    const progress: number[] = [];
    await (await openSqliteStore({ path, onProgress: (_step, done) => progress.push(done) })).close();
    await (await openSqliteStore({ path, onProgress: (_step, done) => progress.push(done) })).close();
    expect(progress).toEqual([]);
  });

  it('leaves the store as it was when the upgrade fails part way', async () => {
    const path = join(dir, 'hippo.db');
    schemaThreeStore(path, 3);
    await expect(
      openSqliteStore({
        path,
        onProgress: (_step, done) => {
          if (done > 0) throw new Error('interrupted');
        },
      }),
    ).rejects.toThrow('interrupted');
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(3);
    expect(raw.prepare("SELECT count(*) FROM pragma_table_info('memories') WHERE name = 'thread'").pluck().get()).toBe(0);
    expect(raw.prepare("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'billing'").pluck().get()).toBe(1);
    raw.close();
  });

  it('computes the date words in SQL exactly as dateWords does, in UTC, across years, months and weekdays', async () => {
    const store = await openSqliteStore({ path: ':memory:' });
    try {
      const times: string[] = [];
      for (let day = 0; day < 800; day += 3) times.push(new Date(Date.UTC(2023, 0, 1, day % 24, 59, 59, 999) + day * 86_400_000).toISOString());
      times.push('2024-02-29T23:59:59.999Z', '1999-12-31T00:00:00.000Z', '2100-03-01T12:00:00.000Z');
      const insert = store.db.prepare("INSERT INTO memories (id, agent_id, content, created_at, updated_at, content_hash) VALUES (?, 'a', 'x', ?, ?, 'h')");
      times.forEach((time, index) => insert.run(`mem_${String(index).padStart(26, '0')}`, time, time));
      const stored = store.db.prepare('SELECT created_at AS createdAt, date_words AS words FROM memories ORDER BY rowid').all() as {
        createdAt: string;
        words: string;
      }[];
      expect(stored.map((row) => row.words)).toEqual(stored.map((row) => dateWords(row.createdAt)));
    } finally {
      await store.close();
    }
  });

  it('keeps the index in step with the rows through every re-index of threads (FTS5 integrity-check)', async () => {
    const store = await openSqliteStore({ path: join(dir, 'hippo.db') });
    try {
      const integrityCheck = () => store.db.prepare("INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)").run();
      const ids: string[] = [];
      for (let index = 0; index < 12; index++)
        ids.push((await addMemory(store, { agentId: 'a', content: `turn ${index} word${index}`, thread: 't' })).memory.id);
      await store.memories.archive('a', [ids[3]!, ids[4]!], 'x', '2026-01-01T00:00:00.000Z');
      await store.memories.forget('a', [ids[7]!]);
      await store.memories.refreshContext('a', { ids, threads: ['t'] });
      expect(integrityCheck).not.toThrow();
      const contexts = store.db
        .prepare(
          "SELECT m.content, e.context_before AS b FROM memories m JOIN memories_search e ON e.rowid = m.rowid WHERE m.thread = 't' AND m.archived_at IS NULL ORDER BY m.rowid",
        )
        .all();
      expect(contexts.slice(3, 6)).toEqual([
        { content: 'turn 5 word5', b: 'turn 1 word1\nturn 2 word2' },
        { content: 'turn 6 word6', b: 'turn 2 word2\nturn 5 word5' },
        { content: 'turn 8 word8', b: 'turn 5 word5\nturn 6 word6' },
      ]);
    } finally {
      await store.close();
    }
  });
});
