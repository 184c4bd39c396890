/**
 * The bulk load `db copy` drives (port.ts `RowsRepo.load`), on both engines: what it keeps in memory while the copy's
 * one transaction goes on (issue 25: a 1 M copy grew to 2.1 GB), and the search context of the rows it loads.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyStore } from '../../../src/core/db-copy.js';
import { buildMemory } from '../../../src/core/memory/memory.js';
import { CONTEXT_AFTER } from '../../../src/core/store/context.js';
import type { Memory } from '../../../src/core/records.js';
import type { StoreOps } from '../../../src/core/store/port.js';
import { all, ENGINES, fixedClock, openTestStore, type TestStore } from '../../helpers/store.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const NOW = '2026-11-02T12:00:00.000Z';
const T0 = Date.parse('2026-10-01T08:00:00.000Z');

/** `count` turns of `threads` threads of agent `a`, thread after thread, each thread in time order; new objects each call. */
function turns(threads: number, count: number, first = 0): Memory[] {
  const out: Memory[] = [];
  for (let thread = 0; thread < threads; thread++) {
    for (let index = first; index < first + count; index++) {
      const createdAt = new Date(T0 + thread * 86_400_000 + index * 60_000).toISOString();
      out.push(buildMemory({ agentId: 'a', content: `turn w${thread}x${index} of thread t${thread}`, thread: `t${thread}`, createdAt }, new Date(createdAt)));
    }
  }
  return out;
}

/**
 * A store's memories as they come, not in thread order: two agents; threads of 25, 12 (turns sharing their time in
 * pairs), 3 and 1 turns; unthreaded notes; each memory with a word of its own (`q<n>`), inserted in a shuffled order.
 */
function corpus(): { rows: Memory[]; archive: Memory[] } {
  const rows: Memory[] = [];
  const add = (agentId: string, thread: string | null, minute: number) => {
    const createdAt = new Date(T0 + minute * 60_000).toISOString();
    const word = `q${rows.length}`;
    rows.push(buildMemory({ agentId, content: `${word} note ${thread ?? 'loose'}`, thread, createdAt }, new Date(createdAt)));
  };
  for (let index = 0; index < 25; index++) add('a', 'long', index * 3);
  for (let index = 0; index < 12; index++) add('b', 'long', Math.floor(index / 2));
  for (let index = 0; index < 3; index++) add('a', 'short', 100 + index);
  add('a', 'single', 7);
  for (let index = 0; index < 5; index++) add('a', null, index);
  // A fixed shuffle (a stride prime to the length), so threads are inserted out of time order and interleaved.
  const shuffled = rows.map((_, index) => rows[(index * 17) % rows.length]!);
  return { rows: shuffled, archive: [rows[4]!, rows[30]!] };
}

/** What each memory's own word finds in a store: the hits in rank order, and which parts matched. */
async function findings(store: StoreOps, rows: readonly Memory[]): Promise<string[][]> {
  const out: string[][] = [];
  for (const row of rows) {
    const word = row.content.split(' ')[0]!;
    const hits = await store.memories.search({ agentId: row.agentId, text: word, raw: false, limit: 20, now: NOW, highlight: { open: '', close: '' } });
    out.push(hits.map((hit) => `${hit.memory.id}:${hit.matched.join('+')}:${hit.nearby?.memoryId ?? ''}`));
  }
  return out;
}

/** Loads batches inside the transaction and returns weak references to them and their rows (nothing else holds them). */
async function loadBatches(tx: StoreOps, batches: number): Promise<WeakRef<object>[]> {
  const refs: WeakRef<object>[] = [];
  // Latest first: each batch lands before the stored turns of its threads (70 a thread: each thread re-indexed whole
  // before the commit), the one kind of batch whose work waits for the commit.
  for (let batch = batches - 1; batch >= 0; batch--) {
    const rows = turns(3, 70, batch * 70);
    refs.push(new WeakRef(rows), ...rows.map((row) => new WeakRef(row)));
    expect(await tx.rows.load('memories', rows)).toBe(rows.length);
  }
  return refs;
}

describe.each(ENGINES)('bulk load (%s)', (engine) => {
  let store: TestStore;
  const clock = fixedClock(NOW);

  beforeEach(async () => {
    store = await openTestStore(engine, clock);
  });

  afterEach(async () => {
    await store.done();
  });

  it('keeps none of the rows it loaded while the transaction goes on (memory bounded by the batch, not the store)', async () => {
    await store.transaction(async (tx) => {
      const refs = await loadBatches(tx, 3);
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
      expect(refs.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
    });
    expect(await store.memories.count({ agentId: 'a' })).toBe(630);
  });

  it('loads memories in dumpByThread order with the contexts a store built row by row holds (copy and small batches)', async () => {
    const { rows, archive } = corpus();
    for (const row of rows) expect(await store.memories.insert(row)).toBe(true);
    for (const row of archive) expect(await store.memories.archive(row.agentId, [row.id], 'superseded', NOW)).toEqual([row.id]);
    const dumped = await all(store.rows.dumpByThread());
    // Every memory once: the live threaded ones thread after thread in thread order, then the others in id order.
    expect(dumped.map((row) => row.id).sort()).toEqual(rows.map((row) => row.id).sort());
    const live = dumped.filter((row) => row.thread !== null && row.archivedAt === null);
    expect(dumped.slice(0, live.length)).toEqual(live);
    const key = (row: Memory) => `${row.agentId}\u0000${row.thread}`;
    for (let index = 1; index < live.length; index++) {
      const [prev, next] = [live[index - 1]!, live[index]!];
      expect(key(prev) < key(next) || (key(prev) === key(next) && prev.createdAt <= next.createdAt)).toBe(true);
    }
    const rest = dumped.slice(live.length).map((row) => row.id);
    expect(rest).toEqual([...rest].sort());
    const expected = await findings(store, rows);
    // Sanity: the words find neighbours through their context.
    expect(expected.flat().some((hit) => hit.includes(':context:'))).toBe(true);

    const copied = await openTestStore(engine, clock);
    const batched = await openTestStore(engine, clock);
    try {
      const result = await copyStore(store, copied);
      expect(result.tables.find((table) => table.table === 'memories')!.rows).toBe(rows.length);
      expect(await findings(copied, rows)).toEqual(expected);
      // Batches of 7 in one transaction, as a copy loads them: threads cross batch edges.
      await batched.transaction(async (tx) => {
        for (let start = 0; start < dumped.length; start += 7) await tx.rows.load('memories', dumped.slice(start, start + 7));
      });
      expect(await findings(batched, rows)).toEqual(expected);
      // Nothing left for a re-index of every thread to change.
      for (const agentId of ['a', 'b']) expect(await batched.memories.refreshContext(agentId, { threads: ['long', 'short', 'single'] })).toBe(0);
      expect(await findings(batched, rows)).toEqual(expected);
    } finally {
      await copied.done();
      await batched.done();
    }
  });
});

describe('bulk load (postgres): each row written once', () => {
  let store: TestStore;
  const clock = fixedClock(NOW);

  beforeEach(async () => {
    store = await openTestStore('postgres', clock);
  });

  afterEach(async () => {
    await store.done();
  });

  it('rewrites the context of no row but the few at a batch edge of a thread', async () => {
    const { rows } = corpus();
    const source = await openTestStore('postgres', clock);
    let rewritten = 0;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- restored below, called with each client as `this`
    const original = pg.Client.prototype.query;
    try {
      expect(await source.memories.insertMany(rows)).toBe(rows.length);
      const dumped = await all(source.rows.dumpByThread());
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const result = (original as (...a: unknown[]) => unknown).apply(this, args);
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: unknown } | undefined)?.text;
        if (typeof text === 'string' && /^\s*UPDATE memories m SET context_before/.test(text) && result instanceof Promise) {
          void result.then((done: pg.QueryResult) => (rewritten += done.rowCount ?? 0)).catch(() => undefined);
        }
        return result;
      } as typeof original;
      const batches = Math.ceil(dumped.length / 7);
      await store.transaction(async (tx) => {
        for (let start = 0; start < dumped.length; start += 7) await tx.rows.load('memories', dumped.slice(start, start + 7));
      });
      pg.Client.prototype.query = original;
      expect(await findings(store, rows)).toEqual(await findings(source, rows));
      // The threaded rows are 41; a batch edge inside a thread rewrites at most CONTEXT_AFTER stored rows.
      expect(rewritten).toBeLessThanOrEqual(batches * CONTEXT_AFTER);
      expect(rewritten).toBeLessThan(41 / 2);
    } finally {
      pg.Client.prototype.query = original;
      await source.done();
    }
  });
});
