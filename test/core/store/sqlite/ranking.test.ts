/**
 * The SQLite search ranks inside FTS5 (migration 8's rank, `ORDER BY rank LIMIT`, then rows and snippets for the best
 * few: docs/decisions.md, "Search ranks inside FTS5"). Its results must be exactly those of the query it replaced, which
 * ranked every match with bm25() in SQL and sorted them all: same memories, same order (ties included), same scores.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { archiveMemories } from '../../../../src/core/memory/lifecycle.js';
import { addMemory } from '../../../../src/core/memory/memory.js';
import { SEARCH_PARTS, type SearchPart, type SearchQuery, type SearchWeights } from '../../../../src/core/store/port.js';
import { openSqliteStore, type SqliteStore } from '../../../../src/core/store/sqlite/adapter.js';
import {
  agentExpression,
  bm25Sql,
  buildMatchExpression,
  partColumns,
  rankFunction,
  searchedColumns,
  STORED_RANK,
} from '../../../../src/core/store/sqlite/fts.js';
import { RANK_WEIGHTS, rankWeights } from '../../../../src/core/search-terms.js';
import { SEARCH_MMAP_BYTES } from '../../../../src/core/store/sqlite/search.js';
import { APPLICATION_ID, MIGRATIONS, migrationSql, SCHEMA_VERSION } from '../../../../src/core/store/sqlite/migrations.js';
import { fixedClock } from '../../../helpers/store.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hippo-ranking-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The search as it was before issue 14 (every match ranked and sorted in SQL), written out as the reference. */
function formerSearch(db: Database.Database, query: Omit<SearchQuery, 'highlight' | 'raw'>): Hit[] {
  const weights = rankWeights(query.weights);
  const match = `${agentExpression(query.agentId)} AND (${searchedColumns(weights)} : (${buildMatchExpression(query.text)}))`;
  const where = ['memories_fts MATCH @match', 'm.agent_id = @agentId'];
  if (!query.includeArchived) where.push('m.archived_at IS NULL', '(m.expires_at IS NULL OR m.expires_at > @now)');
  if (query.tag !== undefined) where.push('EXISTS (SELECT 1 FROM json_each(m.tags) WHERE value = @tag)');
  if (query.since !== undefined) where.push('m.created_at >= @since');
  const rows = db
    .prepare(
      `SELECT m.id, m.rowid AS ord, -${bm25Sql(weights)} AS score, snippet(memories_fts, 0, '**', '**', '…', 16) AS snippet
       FROM memories_fts CROSS JOIN memories m ON m.rowid = memories_fts.rowid
       WHERE ${where.join(' AND ')}
       ORDER BY score DESC, m.created_at DESC
       LIMIT @limit`,
    )
    .all({ match, agentId: query.agentId, now: query.now, tag: query.tag ?? null, since: query.since ?? null, limit: query.limit }) as (Hit & {
    ord: number;
  })[];
  // The parts matched, one query per part as the search did.
  const terms = buildMatchExpression(query.text)!;
  const inPart = (part: SearchPart, ord: number) =>
    db
      .prepare('SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ? AND rowid = ?')
      .pluck()
      .get(`${partColumns(part)} : (${terms})`, BigInt(ord)) === 1;
  return rows.map(({ ord, ...hit }) => ({ ...hit, matched: SEARCH_PARTS.filter((part) => inPart(part, ord)) }));
}

interface Hit {
  id: string;
  score: number;
  snippet: string;
  matched: SearchPart[];
}

async function current(store: SqliteStore, query: Omit<SearchQuery, 'highlight' | 'raw'>) {
  const hits = await store.memories.search({ ...query, raw: false, highlight: { open: '**', close: '**' } });
  return hits.map((hit): Hit => ({ id: hit.memory.id, score: hit.score, snippet: hit.snippet, matched: hit.matched }));
}

/** A small-vocabulary corpus full of ties: identical notes, notes created at the same instant, archived ones, another agent. */
async function corpusWithTies(store: SqliteStore, clock: ReturnType<typeof fixedClock>): Promise<void> {
  let seed = 14;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const words = ['deploy', 'failed', 'migration', 'lock', 'billing', 'cron', 'backup', 'window', 'payments', 'table'];
  const archive: string[] = [];
  for (let index = 0; index < 400; index++) {
    // Every third note shares its creation instant with the one before; a quarter are one identical note.
    if (index % 3 !== 2) clock.advance(60_000);
    const content =
      index % 4 === 0
        ? 'deploy failed on the payments table'
        : Array.from({ length: 3 + Math.floor(random() * 6) }, () => words[Math.floor(random() * words.length)]).join(' ');
    const tags = index % 7 === 0 ? ['rare'] : [];
    const agentId = index % 10 === 9 ? 'ops-2' : 'ops';
    const { memory } = await addMemory(store, { agentId, content, tags, thread: index % 5 === 0 ? `t${index % 3}` : undefined });
    if (agentId === 'ops' && index % 6 === 1) archive.push(memory.id);
  }
  await archiveMemories(store, 'ops', archive);
}

describe('search ranks inside FTS5 with the results of the former query', () => {
  it('same memories, order and scores on a corpus with ties, for limits, filters and weights', async () => {
    const clock = fixedClock('2026-03-01T08:00:00.000Z');
    const store = await openSqliteStore({ path: join(dir, 'hippo.db'), clock });
    try {
      await corpusWithTies(store, clock);
      const now = clock().toISOString();
      const queries: Omit<SearchQuery, 'highlight' | 'raw'>[] = [];
      for (const text of [
        'deploy failed',
        'migration lock',
        'payments table',
        'cron',
        'backup window billing lock',
        'rare',
        'March Sunday lock',
        'nothing matches zebra',
      ]) {
        for (const limit of [1, 3, 10, 25, 200]) queries.push({ agentId: 'ops', text, limit, now });
        queries.push({ agentId: 'ops', text, limit: 10, now, includeArchived: true });
        queries.push({ agentId: 'ops', text, limit: 5, now, tag: 'rare' });
        queries.push({ agentId: 'ops', text, limit: 10, now, since: '2026-03-01T12:00:00.000Z' });
        queries.push({ agentId: 'ops', text, limit: 10, now, weights: { content: 2, tags: 0.25, contextBefore: 0 } });
        queries.push({ agentId: 'ops-2', text, limit: 5, now });
      }
      let ties = 0;
      const partsSeen = new Set<string>();
      for (const query of queries) {
        const expected = formerSearch(store.db, query);
        expect(await current(store, query), JSON.stringify(query)).toEqual(expected);
        for (const hit of expected) for (const part of hit.matched) partsSeen.add(part);
        ties += expected.filter((hit, index) => index > 0 && hit.score === expected[index - 1]!.score).length;
      }
      // The corpus does tie: many equal scores, so the tie order is checked, not assumed.
      expect(ties).toBeGreaterThan(100);
      // And hits match in different parts (own words, tags, thread neighbours, dates), so the parts are checked too.
      expect(partsSeen).toEqual(new Set(['content', 'tags', 'context', 'date']));
    } finally {
      await store.close();
    }
  });

  it('keeps the newer first among equal scores, then the one stored first', async () => {
    const clock = fixedClock('2026-03-01T08:00:00.000Z');
    const store = await openSqliteStore({ path: join(dir, 'hippo.db'), clock });
    try {
      const ids: string[] = [];
      for (let index = 0; index < 60; index++) {
        if (index % 3 === 0) clock.advance(1000);
        ids.push((await addMemory(store, { agentId: 'ops', content: `deploy failed, note ${index % 2 ? 'one' : 'two'}` })).memory.id);
      }
      const now = clock().toISOString();
      const hits = await current(store, { agentId: 'ops', text: 'deploy failed', limit: 7, now });
      // Same score for all; groups of three share an instant: newest group first, each group in the order stored.
      expect(new Set(hits.map((hit) => hit.score)).size).toBe(1);
      expect(hits.map((hit) => ids.indexOf(hit.id))).toEqual([57, 58, 59, 54, 55, 56, 51]);
    } finally {
      await store.close();
    }
  });

  it('a connection reads through a memory map once it searches (docs/decisions.md "Issue 26: where a cold search\'s time goes"), not before', async () => {
    const store = await openSqliteStore({ path: join(dir, 'hippo.db'), clock: fixedClock('2026-03-01T08:00:00.000Z') });
    try {
      await addMemory(store, { agentId: 'ops', content: 'deploy failed on the lock' });
      expect(store.db.pragma('mmap_size', { simple: true })).toBe(0);
      const before = await current(store, { agentId: 'ops', text: 'deploy lock', limit: 5, now: '2026-03-01T08:00:00.000Z' });
      expect(store.db.pragma('mmap_size', { simple: true })).toBe(SEARCH_MMAP_BYTES);
      // The same results through the map, and a later search keeps it.
      expect(await current(store, { agentId: 'ops', text: 'deploy lock', limit: 5, now: '2026-03-01T08:00:00.000Z' })).toEqual(before);
      expect(store.db.pragma('mmap_size', { simple: true })).toBe(SEARCH_MMAP_BYTES);
    } finally {
      await store.close();
    }
  });

  it('the stored rank is the search weights: STORED_RANK is rankFunction(RANK_WEIGHTS) and a new store holds it', async () => {
    expect(rankFunction(RANK_WEIGHTS)).toBe(STORED_RANK);
    const store = await openSqliteStore({ path: join(dir, 'hippo.db') });
    try {
      expect(store.db.prepare("SELECT v FROM memories_fts_config WHERE k = 'rank'").pluck().get()).toBe(STORED_RANK);
    } finally {
      await store.close();
    }
  });

  it('an existing store (schema 7) gets the rank on open, and its search stays the same', async () => {
    const path = join(dir, 'hippo.db');
    const raw = new Database(path);
    raw.exec(MIGRATIONS.slice(0, 7).map(migrationSql).join('\n'));
    raw.pragma(`application_id = ${APPLICATION_ID}`);
    raw.pragma('user_version = 7');
    const insert = raw.prepare('INSERT INTO memories (id, agent_id, content, created_at, updated_at, content_hash) VALUES (?, ?, ?, ?, ?, ?)');
    raw.transaction(() => {
      for (let index = 0; index < 120; index++) {
        const at = new Date(Date.UTC(2025, 0, 1) + Math.floor(index / 2) * 60_000).toISOString();
        const content = index % 3 === 0 ? 'the billing cron moved' : `billing note ${index % 4 === 0 ? 'cron' : 'other'} ${index}`;
        insert.run(`mem_${String(index).padStart(26, '0')}`, 'ops', content, at, at, String(index));
      }
    })();
    const before = formerSearch(raw, { agentId: 'ops', text: 'billing cron', limit: 10, now: '2026-01-01T00:00:00.000Z' });
    expect(raw.prepare("SELECT count(*) FROM memories_fts_config WHERE k = 'rank'").pluck().get()).toBe(0);
    raw.close();

    const store = await openSqliteStore({ path });
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(store.db.prepare("SELECT v FROM memories_fts_config WHERE k = 'rank'").pluck().get()).toBe(STORED_RANK);
      expect(await current(store, { agentId: 'ops', text: 'billing cron', limit: 10, now: '2026-01-01T00:00:00.000Z' })).toEqual(before);
    } finally {
      await store.close();
    }
  });

  it('a search with other weights ranks by those, not by the stored rank', async () => {
    const clock = fixedClock('2026-03-01T08:00:00.000Z');
    const store = await openSqliteStore({ path: join(dir, 'hippo.db'), clock });
    try {
      const tagged = (await addMemory(store, { agentId: 'ops', content: 'a note about the weekly sync', tags: ['billing'] })).memory.id;
      const said = (await addMemory(store, { agentId: 'ops', content: 'billing moved to Tuesday, billing is late' })).memory.id;
      const now = clock().toISOString();
      const weights: Partial<SearchWeights> = { content: 0.01, tags: 10 };
      expect((await current(store, { agentId: 'ops', text: 'billing', limit: 2, now })).map((hit) => hit.id)).toEqual([said, tagged]);
      expect((await current(store, { agentId: 'ops', text: 'billing', limit: 2, now, weights })).map((hit) => hit.id)).toEqual([tagged, said]);
    } finally {
      await store.close();
    }
  });
});
