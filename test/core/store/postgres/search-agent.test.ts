/**
 * Issue 25: one agent's search reads that agent's rows only. The search indexes are GIN over (agent_id, vector), so a
 * common word's postings of other agents are skipped inside the index scan instead of being read and filtered out
 * (docs/postgres.md, "Search"). Checked on the server's own account of the statement (EXPLAIN ANALYZE): no step that
 * reads memories returns or discards more rows than the agent holds, in a store where another agent holds far more
 * memories with the same words.
 */
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../../src/core/ids.js';
import { buildMemory } from '../../../../src/core/memory/memory.js';
import { createPool, parsePostgresUrl } from '../../../../src/core/store/postgres/connect.js';
import { searchSql } from '../../../../src/core/store/postgres/fts.js';
import { queryTerms } from '../../../../src/core/search-terms.js';
import { MEMORY_TABLE } from '../../../../src/core/store/tables.js';
import { openStore, type Store } from '../../../../src/core/store/store.js';
import { freshDatabase, type FreshDatabase } from '../../../helpers/postgres.js';

const COLUMNS = MEMORY_TABLE.columns.map((column) => column.name).filter((name) => name !== 'fts' && name !== 'fts_context');
const OTHERS = 9000;
const MINE = 1000;

let database: FreshDatabase;
let store: Store;
let pool: Pool;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

function walk(node: PlanNode, visit: (node: PlanNode) => void): void {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

beforeAll(async () => {
  database = await freshDatabase();
  store = await openStore({ path: database.url });
  const now = new Date('2026-05-01T00:00:00Z');
  const memories = [];
  for (let index = 0; index < OTHERS + MINE; index++) {
    const agentId = index % ((OTHERS + MINE) / MINE) === 0 ? 'mine' : 'others';
    const thread = index % 3 === 0 ? `t${index % 50}` : null;
    // The other agent's memories all hold the query's words; one in ten of the agent's does.
    const content = agentId === 'others' || index % 100 === 0 ? `deploy failed because of the migration lock, note ${index}` : `quiet week, note ${index}`;
    memories.push({ ...buildMemory({ agentId, content, thread }, now), id: newId('mem') });
  }
  await store.memories.insertMany(memories);
  pool = await createPool(parsePostgresUrl(database.url, {}), {});
  await pool.query('ANALYZE memories');
}, 180_000);
afterAll(async () => {
  await pool?.end();
  await store?.close();
  await database?.drop();
});

describe('one agent’s search on PostgreSQL', () => {
  it('reads only the agent’s postings and rows, however many other agents’ memories hold the same words', async () => {
    const { rows: counts } = await pool.query<{ agent_id: string; n: number }>('SELECT agent_id, count(*)::int AS n FROM memories GROUP BY 1 ORDER BY 1');
    expect(counts).toEqual([
      { agent_id: 'mine', n: MINE },
      { agent_id: 'others', n: OTHERS },
    ]);
    const matching = (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM memories WHERE agent_id = 'mine' AND content LIKE 'deploy%'")).rows[0]!.n;
    expect(matching).toBe(MINE / 10);
    for (const query of ['deploy', 'deploy failed because of a migration lock', 'migration lock']) {
      const statement = searchSql({
        agentId: 'mine',
        query,
        limit: 10,
        now: '2026-06-01T00:00:00.000Z',
        highlight: { open: '[', close: ']' },
        columns: COLUMNS,
      })!;
      const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, statement.values);
      // The agent's matches: the most rows any step may read (the statement's own matching, counted without it).
      const terms = queryTerms(query);
      const { rows: found } = await pool.query<{ n: number }>(
        `WITH q AS (SELECT ${terms.map((_, index) => `plainto_tsquery('hippo', $${index + 1})`).join(' || ')} AS query)
         SELECT count(*)::int AS n FROM memories, q WHERE agent_id = 'mine' AND (fts @@ q.query OR fts_context @@ q.query)`,
        terms,
      );
      const read: string[] = [];
      walk(rows[0]!['QUERY PLAN'][0].Plan, (node) => {
        if (node['Relation Name'] !== 'memories' && !node['Index Name']?.startsWith('memories')) return;
        const returned = node['Actual Rows'] * node['Actual Loops'];
        const discarded = (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0);
        read.push(`${node['Node Type']} ${node['Index Name'] ?? node['Relation Name']}: ${returned} returned, ${discarded} discarded`);
        // A step of the match (through a search index) reads the agent's matches; any other step at most the agent's rows.
        const bound = /fts/.test(node['Index Name'] ?? '') ? found[0]!.n : MINE;
        expect(returned + discarded, read.join('\n')).toBeLessThanOrEqual(bound);
      });
      const hits = await store.memories.search({
        agentId: 'mine',
        text: query,
        limit: MINE,
        now: '2026-06-01T00:00:00.000Z',
        raw: false,
        highlight: { open: '[', close: ']' },
      });
      expect(hits.length).toBeGreaterThanOrEqual(matching);
    }
  });
});
