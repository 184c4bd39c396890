/**
 * After a bulk load on PostgreSQL (`memory import`, `db copy`), hippo VACUUMs (ANALYZE) what the load filled
 * (`Store.settleLoad`, docs/postgres.md "After a bulk load"): the visibility map then covers every page, so the search's
 * BM25 memory count (`count(*)` of the agent's rows) is an index-only scan that reads no heap page. Autovacuum is turned
 * off on the partitions first, so only hippo can have set the map. Through the built CLI, on the test server.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { engineSandbox, json, sandbox, type EngineSandbox } from '../helpers/cli.js';
import { freshDatabase, withClient } from '../helpers/postgres.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const WORDS = 'deploy failed because migration lock billing cron vendor office incident customer refund staging replica queue worker'.split(' ');

/** `count` memories of `agents` (round robin), threads of 20, some dozens of words each. */
function writeJsonl(path: string, count: number, agents: readonly string[]): void {
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    const words = Array.from({ length: 30 }, (_, word) => WORDS[(index * 7 + word * 3) % WORDS.length]);
    const agentId = agents[index % agents.length]!;
    const step = Math.floor(index / agents.length);
    const createdAt = new Date(Date.parse('2025-01-01T00:00:00Z') + step * 60_000).toISOString();
    lines.push(JSON.stringify({ agentId, thread: `t${Math.floor(step / 20)}`, content: `${words.join(' ')} (#${index})`, createdAt }));
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
}

/** Turns autovacuum off on every partition of memories (and their TOAST), so nothing but hippo vacuums them. */
async function noAutovacuum(url: string): Promise<void> {
  await withClient(url, async (client) => {
    const { rows } = await client.query<{ rel: string }>("SELECT inhrelid::regclass::text AS rel FROM pg_inherits WHERE inhparent = 'memories'::regclass");
    expect(rows.length).toBeGreaterThan(1);
    for (const { rel } of rows) await client.query(`ALTER TABLE ${rel} SET (autovacuum_enabled = false, toast.autovacuum_enabled = false)`);
  });
}

interface Visibility {
  rel: string;
  pages: number;
  allVisible: number;
  tuples: number;
}

/** The partition holding an agent's memories: its pages now, and what the last VACUUM/ANALYZE recorded. */
async function visibility(url: string, agentId: string): Promise<Visibility> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ rel: string; pages: number; all_visible: number; tuples: number }>(
      `SELECT c.oid::regclass::text AS rel, (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS pages,
              c.relallvisible AS all_visible, c.reltuples::int AS tuples
       FROM pg_class c WHERE c.oid = (SELECT tableoid FROM memories WHERE agent_id = $1 LIMIT 1)`,
      [agentId],
    );
    const row = rows[0]!;
    return { rel: row.rel, pages: row.pages, allVisible: row.all_visible, tuples: row.tuples };
  });
}

/** The heap fetches of the agent's count(*) read by an index-only scan (the search's `corpus`), from EXPLAIN ANALYZE. */
async function countHeapFetches(url: string, agentId: string): Promise<{ nodes: string[]; heapFetches: number }> {
  return withClient(url, async (client) => {
    await client.query('SET enable_seqscan = off');
    await client.query('SET enable_bitmapscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': unknown }>('EXPLAIN (ANALYZE, FORMAT JSON) SELECT count(*) FROM memories WHERE agent_id = $1', [
      agentId,
    ]);
    const nodes: string[] = [];
    let heapFetches = 0;
    const walk = (node: Record<string, unknown>) => {
      nodes.push(String(node['Node Type']));
      if (typeof node['Heap Fetches'] === 'number') heapFetches += node['Heap Fetches'];
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    walk((rows[0]!['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0]!.Plan);
    return { nodes, heapFetches };
  });
}

describe('after a bulk load, PostgreSQL has vacuumed what it filled', { timeout: 300_000 }, () => {
  it('memory import: the agent’s partition is all-visible, its count reads no heap page; a small import into it does not vacuum again', async () => {
    const box: EngineSandbox = await engineSandbox('postgres');
    cleanups.push(() => box.dispose());
    expect((await box.hippo(['db', 'check', '--json'])).exitCode).toBe(0);
    await noAutovacuum(box.db);

    const file = join(box.dir, 'bulk.jsonl');
    writeJsonl(file, 3000, ['bulk']);
    const imported = await box.hippo(['memory', 'import', file, '--json']);
    expect(imported.exitCode, String(imported.stderr)).toBe(0);
    expect(json<{ imported: number }>(imported).imported).toBe(3000);

    const after = await visibility(box.db, 'bulk');
    expect(after.pages).toBeGreaterThan(50);
    expect(after.allVisible).toBe(after.pages);
    expect(after.tuples).toBe(3000);
    const count = await countHeapFetches(box.db, 'bulk');
    expect(count.nodes).toContain('Index Only Scan');
    expect(count.heapFetches).toBe(0);

    // A few memories more into the same agent: the map still covers nearly every page, so no VACUUM runs (the last
    // one's figures stay as they were).
    const few = join(box.dir, 'few.jsonl');
    writeFileSync(few, `${['one more note', 'and another'].map((content) => JSON.stringify({ agentId: 'bulk', content })).join('\n')}\n`);
    const small = await box.hippo(['memory', 'import', few, '--json']);
    expect(small.exitCode, String(small.stderr)).toBe(0);
    expect(json<{ imported: number }>(small).imported).toBe(2);
    const later = await visibility(box.db, 'bulk');
    expect(later.tuples).toBe(3000);
    expect(later.allVisible).toBe(after.allVisible);
  });

  it('db copy into PostgreSQL: every partition the copy filled is all-visible, each agent’s count reads no heap page', async () => {
    const lite = sandbox();
    cleanups.push(() => lite.cleanup());
    const file = join(lite.dir, 'two.jsonl');
    writeJsonl(file, 2000, ['north', 'south']);
    const imported = await lite.hippo(['memory', 'import', file, '--json']);
    expect(imported.exitCode, String(imported.stderr)).toBe(0);

    const target = await freshDatabase();
    cleanups.push(() => target.drop());
    expect((await lite.hippo(['db', 'check', '--db', target.url, '--json'])).exitCode).toBe(0);
    await noAutovacuum(target.url);
    const copied = await lite.hippo(['db', 'copy', lite.db, target.url, '--json']);
    expect(copied.exitCode, String(copied.stderr)).toBe(0);

    for (const agentId of ['north', 'south']) {
      const settled = await visibility(target.url, agentId);
      expect(settled.pages).toBeGreaterThan(20);
      expect(settled.allVisible).toBe(settled.pages);
      expect((await countHeapFetches(target.url, agentId)).heapFetches).toBe(0);
    }
  });
});
