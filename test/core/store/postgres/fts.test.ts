import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemo } from '../../../../src/core/demo.js';
import { UsageError } from '../../../../src/core/errors.js';
import { search } from '../../../../src/core/search.js';
import { createPool, parsePostgresUrl } from '../../../../src/core/store/postgres/connect.js';
import { finishSnippet, headlineOptions, mapRawQueryError, rawTsQuery, searchSql, type SearchSqlOptions } from '../../../../src/core/store/postgres/fts.js';
import { MAX_TERMS, queryTerms } from '../../../../src/core/search-terms.js';
import { migrate } from '../../../../src/core/store/postgres/migrate.js';
import { buildMatchExpression } from '../../../../src/core/store/sqlite/fts.js';
import { openStore, type Store } from '../../../../src/core/store/store.js';
import { columnList, MEMORY_TABLE } from '../../../../src/core/store/tables.js';
import { placeholders, toParams } from '../../../../src/core/store/postgres/codec.js';
import { cliMessage } from '../../../../src/cli/error-words.js';
import { freshDatabase, type FreshDatabase } from '../../../helpers/postgres.js';

const COLUMNS = MEMORY_TABLE.columns.map((column) => column.name);
const HOSTILE = [
  `it's "quoted"`,
  `'; DROP TABLE memories; --`,
  'a & b | !c <-> (d) :* e:A <2> f',
  "\\ \\\\ \\' back\\slash",
  'nul\u0000inside',
  '"unbalanced',
  'NEAR(',
  '*',
  '&|!():*<->',
  '!!!',
  'x'.repeat(10_000),
  Array.from({ length: 5_000 }, (_, index) => `word${index}`).join(' '),
];

/** Copies every memory of a SQLite store into the PostgreSQL table, ids and times as they are. */
async function copyMemories(store: Store, pool: Pool): Promise<number> {
  let copied = 0;
  for await (const memory of store.rows.dump('memories', null)) {
    const values = toParams(MEMORY_TABLE, memory);
    await pool.query(`INSERT INTO memories (${columnList(MEMORY_TABLE.columns)}) VALUES (${placeholders(values.length)})`, values);
    copied++;
  }
  return copied;
}

describe('queryTerms', () => {
  it.each(['when did we move the billing cron?', 'deploy failed migration lock', 'the', 'Crème BRÛLÉE ﬁle', 'café-au-lait@example.com v2.3', ...HOSTILE])(
    'picks the same terms as the SQLite search for %j',
    (query) => {
      const sqlite = buildMatchExpression(query);
      const terms = queryTerms(query);
      expect(terms.length === 0 ? undefined : terms.map((term) => `"${term}"`).join(' OR ')).toBe(sqlite);
    },
  );

  it('keeps at most MAX_TERMS distinct terms of a huge paste', () => {
    expect(queryTerms(HOSTILE[11]!)).toHaveLength(MAX_TERMS);
  });
});

describe('searching a PostgreSQL store', () => {
  let database: FreshDatabase;
  let pool: Pool;
  let store: Store;
  const now = new Date().toISOString();
  const highlight = { open: '**', close: '**' };

  async function pgSearch(options: Partial<SearchSqlOptions> & { agentId: string; query: string }) {
    const sql = searchSql({ limit: 5, now, highlight, columns: COLUMNS, ...options });
    if (!sql) return [];
    try {
      return (await pool.query(sql.text, sql.values)).rows as (Record<string, unknown> & { id: string; content: string; score: number; headline: string })[];
    } catch (error) {
      throw options.raw ? mapRawQueryError(error) : error;
    }
  }

  beforeAll(async () => {
    database = await freshDatabase();
    pool = await createPool(parsePostgresUrl(database.url, {}), {});
    await migrate(pool);
    store = await openStore({ path: ':memory:' });
    await loadDemo(store);
    expect(await copyMemories(store, pool)).toBeGreaterThan(150);
  });
  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await database?.drop();
  });

  it('takes any text as a natural-language query: quotes, operators, backslashes, NUL, a huge paste', async () => {
    for (const query of HOSTILE) {
      const rows = await pgSearch({ agentId: 'ops-agent', query });
      expect(Array.isArray(rows)).toBe(true);
    }
    // The table is still there, and a word inside hostile text is still found.
    expect((await pgSearch({ agentId: 'ops-agent', query: `'; DROP TABLE memories; -- "deploy` })).length).toBeGreaterThan(0);
  });

  it('folds diacritics and stems English on both sides, and keeps words that are stopwords', async () => {
    await pool.query(
      `INSERT INTO memories (id, agent_id, content, tags, subject, created_at, updated_at, content_hash)
       VALUES ('mem_fts1', 'fts-agent', 'Crème brûlée for Siobhán''s leaving party; the deployments were running late', '{dessert}', 'Café', $1, $1, 'h1')`,
      [now],
    );
    for (const query of ['creme brulee', 'SIOBHAN', 'deployment', 'deploy', 'run', 'cafe', 'dessert', 'the']) {
      const rows = await pgSearch({ agentId: 'fts-agent', query });
      expect(
        rows.map((row) => row.id),
        query,
      ).toEqual(['mem_fts1']);
    }
    const [row] = await pgSearch({ agentId: 'fts-agent', query: 'creme brulee' });
    expect(finishSnippet(row!.content, row!.headline, highlight)).toBe("**Crème** **brûlée** for Siobhán's leaving party; the deployments were running late");
  });

  it('puts back the punctuation ts_headline leaves off the ends, and marks only a real cut with …', async () => {
    await pool.query(
      `INSERT INTO memories (id, agent_id, content, tags, subject, created_at, updated_at, content_hash)
       VALUES ('mem_fts_end', 'fts-end', 'Deployed web-app v5.1.0. Clean, no migrations.', '{}', null, $1, $1, 'h_end'),
              ('mem_fts_open', 'fts-open', '"Quoted" start, then a long tail of words one two three four five six seven eight nine ten eleven twelve thirteen fourteen', '{}', null, $1, $1, 'h_open')`,
      [now],
    );
    const [end] = await pgSearch({ agentId: 'fts-end', query: 'deployed' });
    expect(finishSnippet(end!.content, end!.headline, highlight)).toBe('**Deployed** web-app v5.1.0. Clean, no migrations.');
    const [open] = await pgSearch({ agentId: 'fts-open', query: 'quoted' });
    const snippet = finishSnippet(open!.content, open!.headline, highlight);
    expect(snippet.startsWith('"**Quoted**"')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
  });

  it('weighs content above subject above tags', async () => {
    const rows = [
      ['mem_w_content', 'weighted zebra note', '{}', null],
      ['mem_w_subject', 'weighted note one', '{}', 'zebra'],
      ['mem_w_tags', 'weighted note two', '{zebra}', null],
    ];
    for (const [id, content, tags, subject] of rows) {
      await pool.query(
        `INSERT INTO memories (id, agent_id, content, tags, subject, created_at, updated_at, content_hash) VALUES ($1, 'weights', $2, $3, $4, $5, $5, $1)`,
        [id, content, tags, subject, now],
      );
    }
    const hits = await pgSearch({ agentId: 'weights', query: 'zebra' });
    expect(hits.map((hit) => hit.id)).toEqual(['mem_w_content', 'mem_w_subject', 'mem_w_tags']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(hits[1]!.score).toBeGreaterThan(hits[2]!.score);
  });

  it('stays within the agent and applies the filters', async () => {
    const all = await pgSearch({ agentId: 'alice', query: 'billing cron', limit: 50 });
    expect(all.length).toBeGreaterThan(3);
    expect(all.every((row) => row.agent_id === 'alice')).toBe(true);
    const tagged = await pgSearch({ agentId: 'alice', query: 'billing cron', limit: 50, tag: 'billing' });
    expect(tagged.length).toBeGreaterThan(0);
    expect(tagged.every((row) => (row.tags as string[]).includes('billing'))).toBe(true);
    const since = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const recent = await pgSearch({ agentId: 'alice', query: 'billing cron', limit: 50, since });
    expect(recent.every((row) => (row.created_at as string) >= since)).toBe(true);
    expect(recent.length).toBeLessThan(all.length);
    expect(await pgSearch({ agentId: 'nobody', query: 'billing cron' })).toEqual([]);
  });

  it('passes --raw queries to to_tsquery and maps a syntax error to fts_syntax', async () => {
    const prefix = await pgSearch({ agentId: 'ops-agent', query: 'migrat:* & lock', raw: true });
    expect(prefix.length).toBeGreaterThan(0);
    expect(prefix.every((row) => /migrat/i.test(row.content) && /lock/i.test(row.content))).toBe(true);
    const phrase = await pgSearch({ agentId: 'ops-agent', query: 'billing <-> cron', raw: true });
    expect(phrase.every((row) => /billing[\s-]+cron/i.test(row.content))).toBe(true);
    for (const bad of ['"unbalanced &', 'deploy & (fail', 'a &', '&&', 'nul\u0000']) {
      const error = await pgSearch({ agentId: 'ops-agent', query: bad, raw: true }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error, bad).toBeInstanceOf(UsageError);
      expect((error as UsageError).code).toBe('fts_syntax');
      // Core names no flag; the CLI words it (src/cli/error-words.ts) with --raw and the engine's syntax.
      expect((error as UsageError).message).not.toContain('--');
      expect((error as UsageError).details).toMatchObject({ engine: 'postgres', syntaxError: expect.any(String) });
      expect(cliMessage(error as UsageError)).toMatch(
        /^the --raw query is not valid PostgreSQL tsquery syntax \(.+\); drop --raw to search the words as plain text$/,
      );
    }
    expect(rawTsQuery('   ')).toBeUndefined();
  });

  it('marks matches with any markers, quoted for ts_headline', async () => {
    for (const marker of [
      { open: '[', close: ']' },
      { open: '<b class="hit">', close: '</b>' },
      { open: '"', close: '", ' },
      { open: '\u001b[1;33m', close: '\u001b[0m' },
    ]) {
      const [row] = await pgSearch({ agentId: 'fts-agent', query: 'brulee', highlight: marker });
      expect(finishSnippet(row!.content, row!.headline, marker)).toContain(`${marker.open}brûlée${marker.close}`);
    }
    expect(headlineOptions({ open: 'a"b', close: ',' })).toMatch(/^StartSel="a""b", StopSel=",",/);
  });

  // The README's demo questions: the top hit on PostgreSQL against SQLite's (docs/postgres.md has the table).
  it.each([
    ['ops-agent', 'when did we move the billing cron?'],
    ['ops-agent', 'deploy failed migration lock'],
    ['ops-agent', 'phone number of the Dublin office'],
    ['ops-agent', 'Dublin office'],
    ['ops-agent', 'deploy failed because of a migration lock'],
    ['ops-agent', 'billing'],
    ['ops-agent', 'vendor contacts'],
    ['alice', 'when did we move the billing cron?'],
    ['alice', 'deploy failed'],
    ['alice', 'phone number of the Dublin office'],
  ])('finds the same top hit as SQLite for %s: %j', async (agentId, query) => {
    const sqlite = await search(store, { agentId, query, limit: 5, recordRetrieval: false });
    const postgres = await pgSearch({ agentId, query });
    expect(postgres[0]?.id).toBe(sqlite[0]?.memory.id);
  });

  it('ranks "deploy failed" differently, because Snowball stems "deployment" like "deploy" and Porter does not', async () => {
    const sqlite = await search(store, { agentId: 'ops-agent', query: 'deploy failed', limit: 5, recordRetrieval: false });
    const postgres = await pgSearch({ agentId: 'ops-agent', query: 'deploy failed' });
    expect(postgres[0]!.content).toMatch(/^Deployment /);
    // SQLite matches that note on "failed" alone: its Porter stems are deploi (deploy) and deploy (deployment).
    expect(sqlite.filter((hit) => /^Deployment /.test(hit.memory.content)).every((hit) => !hit.snippet.includes('**Deployment**'))).toBe(true);
    expect(finishSnippet(postgres[0]!.content, postgres[0]!.headline, highlight)).toContain('**Deployment**');
    expect(postgres[1]!.id).toBe(sqlite[0]!.memory.id);
  });
});
