/**
 * Bulk import through COPY on a real server: 100 k generated memories in one call, every one of them there and
 * searchable afterwards, and a second import of overlapping rows adding only the new ones. (Throughput is measured by
 * the benchmarks, not here.)
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../../src/core/ids.js';
import { contentHash, type Memory } from '../../../../src/core/memory/memory.js';
import { at, collect, memory, openAdapterStore, type AdapterStore } from '../../../helpers/postgres-store.js';

const WORDS = 'deploy failed migration lock billing cron invoice kubernetes dublin office phone rollback hotfix staging backup pager vendor'.split(' ');
const COUNT = 100_000;

/** Deterministic memories: agent, words, tags and times all derived from the index. */
function generated(index: number): Memory {
  const words = Array.from({ length: 8 + (index % 13) }, (_, word) => WORDS[(index * 7 + word * 3) % WORDS.length]).join(' ');
  const content = `${words} — note #${index}${index % 1000 === 0 ? '\twith a tab\nand a newline, a back\\slash' : ''}`;
  const createdAt = at(index / 60);
  return {
    ...memory(`agent-${index % 4}`, content, { createdAt, tags: index % 5 === 0 ? ['ops', `batch-${index % 3}`] : [] }),
    id: newId('mem', Date.parse(createdAt)),
    contentHash: contentHash(content),
  };
}

let t: AdapterStore;
beforeAll(async () => {
  t = await openAdapterStore();
});
afterAll(async () => {
  await t.dispose();
});

describe('COPY import', () => {
  it('inserts 100 k memories in one call, all of them intact, and a rerun adds only the new ones', async () => {
    const memories = Array.from({ length: COUNT }, (_, index) => generated(index));
    expect(await t.store.memories.insertMany(memories)).toBe(COUNT);
    expect((await t.store.describe()).counts.memories).toBe(COUNT);
    for (const index of [0, 1, 999, 1_000, 54_321, COUNT - 1]) {
      expect(await t.store.memories.get(memories[index]!.agentId, memories[index]!.id)).toEqual(memories[index]);
    }
    const hits = await t.store.memories.search({
      agentId: 'agent-0',
      text: 'note 54320',
      raw: false,
      limit: 3,
      highlight: { open: '[', close: ']' },
      now: at(10_000),
    });
    expect(hits[0]!.memory.id).toBe(memories[54_320]!.id);

    const more = Array.from({ length: 500 }, (_, index) => generated(COUNT + index));
    expect(await t.store.memories.insertMany([...memories.slice(0, 20_000), ...more])).toBe(500);
    const agent = await collect(t.store.memories.iterate('agent-3'));
    expect(agent).toHaveLength((COUNT + 500) / 4);
  }, 300_000);

  it('leaves a new store with planner statistics after a bulk load in one transaction, so each chunk’s look-ups stay on their index', async () => {
    const fresh = await openAdapterStore();
    const client = new pg.Client({ connectionString: fresh.database.url });
    await client.connect();
    try {
      const unanalyzed = async () =>
        (
          await client.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'memories'::regclass AND c.reltuples < 0",
          )
        ).rows[0]!.n;
      expect(await unanalyzed()).toBeGreaterThan(0);
      const memories = Array.from({ length: 12_000 }, (_, index) => ({ ...generated(index), thread: `t${index % 300}` }));
      await fresh.store.transaction(async (tx) => {
        for (let start = 0; start < memories.length; start += 2_000) await tx.memories.insertMany(memories.slice(start, start + 2_000));
      });
      expect(await unanalyzed()).toBe(0);
      // The look-up a chunk makes for the threads it joins reads the agent's threads by (agent_id, thread), not the agent's rows.
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        "EXPLAIN SELECT DISTINCT agent_id, thread FROM memories WHERE agent_id = 'agent-1' AND archived_at IS NULL AND thread = ANY(ARRAY['t1','t5'])",
      );
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/Index Cond: \(\(agent_id = 'agent-1'::text\) AND \(thread = ANY/);
    } finally {
      await client.end();
      await fresh.dispose();
    }
  }, 300_000);
});
