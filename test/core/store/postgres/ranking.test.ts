/**
 * The PostgreSQL search reads each row's two tsvectors once (detoasted into `v`) and builds each term's tsquery once,
 * instead of once per rank, length and term (docs/postgres.md, "Search"). Its results must be exactly those of the
 * statement it replaced (test/core/store/postgres/former-search.ts): same rows, same order (ties included), same
 * scores, snippets and matched parts — compared row for row, every column, on a corpus full of ties.
 */
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveMemories } from '../../../../src/core/memory/lifecycle.js';
import { addMemory } from '../../../../src/core/memory/memory.js';
import { createPool, parsePostgresUrl } from '../../../../src/core/store/postgres/connect.js';
import { searchSql, type SearchSqlOptions } from '../../../../src/core/store/postgres/fts.js';
import { MEMORY_TABLE } from '../../../../src/core/store/tables.js';
import { openStore, type Store } from '../../../../src/core/store/store.js';
import { freshDatabase, type FreshDatabase } from '../../../helpers/postgres.js';
import { fixedClock } from '../../../helpers/store.js';
import { formerSearchSql } from './former-search.js';

const COLUMNS = MEMORY_TABLE.columns.map((column) => column.name).filter((name) => name !== 'fts' && name !== 'fts_context');
const highlight = { open: '**', close: '**' };

let database: FreshDatabase;
let store: Store;
let pool: Pool;
let now: string;

/** The same small-vocabulary corpus as the SQLite ranking test: identical notes, shared instants, archived ones, threads. */
async function corpusWithTies(clock: ReturnType<typeof fixedClock>): Promise<void> {
  let seed = 14;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const words = ['deploy', 'failed', 'migration', 'lock', 'billing', 'cron', 'backup', 'window', 'payments', 'table'];
  const archive: string[] = [];
  for (let index = 0; index < 400; index++) {
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

async function rows(statement: { text: string; values: unknown[] } | undefined): Promise<Record<string, unknown>[]> {
  if (!statement) return [];
  return (await pool.query(statement.text, statement.values)).rows as Record<string, unknown>[];
}

beforeAll(async () => {
  database = await freshDatabase();
  const clock = fixedClock('2026-03-01T08:00:00.000Z');
  store = await openStore({ path: database.url, clock });
  await corpusWithTies(clock);
  now = clock().toISOString();
  pool = await createPool(parsePostgresUrl(database.url, {}), {});
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await store?.close();
  await database?.drop();
});

describe('the search reads each row once, with the results of the former statement and its total', () => {
  it('same rows, order, scores, snippets and parts on a corpus with ties, for limits, filters, weights and raw', async () => {
    const queries: Omit<SearchSqlOptions, 'highlight' | 'columns'>[] = [];
    for (const query of [
      'deploy failed',
      'migration lock',
      'payments table',
      'cron',
      'backup window billing lock',
      'rare',
      'March Sunday lock',
      'nothing matches zebra',
    ]) {
      for (const limit of [1, 3, 10, 25, 200]) queries.push({ agentId: 'ops', query, limit, now });
      queries.push({ agentId: 'ops', query, limit: 10, now, includeArchived: true });
      queries.push({ agentId: 'ops', query, limit: 5, now, tag: 'rare' });
      queries.push({ agentId: 'ops', query, limit: 10, now, since: '2026-03-01T12:00:00.000Z' });
      queries.push({ agentId: 'ops', query, limit: 10, now, weights: { content: 0.9, tags: 0.25, contextBefore: 0 } });
      queries.push({ agentId: 'ops', query, limit: 10, now, weights: { contextBefore: 0, contextAfter: 0, date: 0 } });
      queries.push({ agentId: 'ops-2', query, limit: 5, now });
    }
    for (const query of ['deploy & failed', 'migration | lock', 'payment:*', 'cron <-> backup'])
      queries.push({ agentId: 'ops', query, raw: true, limit: 10, now });
    let ties = 0;
    let compared = 0;
    const totals = new Set<number>();
    const partsSeen = new Set<string>();
    for (const query of queries) {
      const options = { ...query, highlight, columns: COLUMNS };
      const expected = await rows(formerSearchSql(options));
      const found = await rows(searchSql(options));
      // Every row also carries the total the same pass counted: every match through the filters, as the former
      // statement lists them with no limit.
      const all = (await rows(formerSearchSql({ ...options, limit: 1_000_000 }))).length;
      for (const row of found) expect(row.total, JSON.stringify(query)).toBe(all);
      expect(
        found.map(({ total: _total, ...row }) => row),
        JSON.stringify(query),
      ).toEqual(expected);
      totals.add(all);
      compared += expected.length;
      for (const row of expected) for (const part of ['content', 'subject', 'tags', 'context', 'date']) if (row[`in_${part}`] === true) partsSeen.add(part);
      ties += expected.filter((row, index) => index > 0 && row.score === expected[index - 1]!.score).length;
    }
    // The corpus does tie, and hits match in different parts, so tie order and parts are checked, not assumed.
    expect(compared).toBeGreaterThan(1000);
    expect(ties).toBeGreaterThan(100);
    // Totals past the limits and under filters, not one number for every query.
    expect(totals.size).toBeGreaterThan(5);
    expect(Math.max(...totals)).toBeGreaterThan(200);
    expect(partsSeen).toEqual(new Set(['content', 'tags', 'context', 'date']));
  });

  it('the statement reads the vectors through the per-row copy and the terms through q', () => {
    const statement = searchSql({ agentId: 'ops', query: 'deploy failed', limit: 10, now, highlight, columns: COLUMNS })!;
    const matches = statement.text.slice(statement.text.indexOf('matches AS'), statement.text.indexOf('stats AS'));
    // Outside the WHERE (the GIN index's condition), no function gets the stored columns in the matches pass.
    const select = matches.slice(0, matches.indexOf('WHERE'));
    expect(select).toContain("(m.fts_context || ''::tsvector) AS fts_context");
    expect(select.replace(/\(m\.fts(_context)? \|\| ''::tsvector\)/g, '')).not.toMatch(/m\.fts/);
    expect(select).not.toContain('plainto_tsquery');
  });
});
