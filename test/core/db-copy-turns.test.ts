/**
 * `db copy` hashes the source's memories in id order while it loads them thread by thread (db-copy.ts). A SQLite
 * source answers synchronously, so that read must hand the event loop back now and then: held for the whole store,
 * it kept the PostgreSQL target's answer unread until its query timer fired — a 1 M copy on a busy machine failed
 * with "the server did not answer within the statement timeout" (exit 8) although the server had answered at once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyStore } from '../../src/core/db-copy.js';
import { buildMemory } from '../../src/core/memory/memory.js';
import type { Memory } from '../../src/core/records.js';
import type { Store } from '../../src/core/store/store.js';
import { ENGINES, fixedClock, openTestStore, type TestStore } from '../helpers/store.js';

const NOW = '2026-11-02T12:00:00.000Z';
const T0 = Date.parse('2026-10-01T08:00:00.000Z');
const MEMORIES = 2_500;

function memories(): Memory[] {
  return Array.from({ length: MEMORIES }, (_, index) => {
    const createdAt = new Date(T0 + index * 60_000).toISOString();
    return buildMemory({ agentId: 'a', content: `turn ${index} of a long thread`, thread: `t${Math.floor(index / 20)}`, createdAt }, new Date(createdAt));
  });
}

/**
 * The source, its read of every memory in id order (the copy's hash) watched: for each row, how many turns the event
 * loop had taken (a setImmediate chain counts them) when the row came.
 */
function watched(source: Store, turns: () => number, seen: number[]): Store {
  const rows = new Proxy(source.rows, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (property !== 'dump' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return (table: string, agentId: string | null) => {
        const inner = (value as (table: string, agentId: string | null) => AsyncIterable<unknown>).call(target, table, agentId);
        if (table !== 'memories' || agentId !== null) return inner;
        return (async function* () {
          for await (const row of inner) {
            seen.push(turns());
            yield row;
          }
        })();
      };
    },
  });
  return new Proxy(source, {
    get(target, property) {
      if (property === 'rows') return rows;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe.each(ENGINES)('db copy from SQLite into %s: the source is read without holding the event loop', (engine) => {
  const clock = fixedClock(NOW);
  let source: TestStore;
  let target: TestStore;

  beforeEach(async () => {
    source = await openTestStore('sqlite', clock);
    target = await openTestStore(engine, clock);
    await source.transaction(async (tx) => {
      const rows = memories();
      for (let start = 0; start < rows.length; start += 500) await tx.rows.load('memories', rows.slice(start, start + 500));
    });
  });

  afterEach(async () => {
    await source.done();
    await target.done();
  });

  it('gives the event loop turns while it hashes every memory in id order', async () => {
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const seen: number[] = [];
    try {
      const result = await copyStore(
        watched(source, () => turns, seen),
        target,
      );
      expect(result.tables.find((table) => table.table === 'memories')!.rows).toBe(MEMORIES);
    } finally {
      ticking = false;
    }
    expect(seen).toHaveLength(MEMORIES);
    // A turn at least every 1 000 rows: two or more across 2 500 rows read back to back.
    expect(seen.at(-1)! - seen[0]!).toBeGreaterThanOrEqual(2);
    expect(await target.memories.count({ agentId: 'a' })).toBe(MEMORIES);
  });
});
