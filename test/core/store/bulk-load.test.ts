/**
 * The bulk load `db copy` drives (port.ts `RowsRepo.load`), on both engines: what it keeps in memory while the copy's
 * one transaction goes on (issue 25: a 1 M copy grew to 2.1 GB), and the search context of the rows it loads.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildMemory } from '../../../src/core/memory/memory.js';
import type { Memory } from '../../../src/core/records.js';
import type { Store } from '../../../src/core/store/port.js';
import { ENGINES, fixedClock, openTestStore, type TestStore } from '../../helpers/store.js';

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

/** Loads batches inside the transaction and returns weak references to them and their rows (nothing else holds them). */
async function loadBatches(tx: Store, batches: number): Promise<WeakRef<object>[]> {
  const refs: WeakRef<object>[] = [];
  for (let batch = 0; batch < batches; batch++) {
    const rows = turns(3, 10, batch * 10);
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
      const refs = await loadBatches(tx, 4);
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
      expect(refs.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
    });
    expect(await store.memories.count({ agentId: 'a' })).toBe(120);
  });
});
