import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulidx';

/** Id prefixes of docs/design.md §2: ids are prefixed and sortable by creation (ULID body). */
export type IdPrefix = 'mem' | 'cand' | 'run' | 'hof' | 'tok' | 'read' | 'rcpt';

/**
 * Random bytes for the ULIDs' random part, drawn from the system's CSPRNG a pool at a time. ulidx's own generator asks
 * the system for one byte per character (sixteen calls per id): half of a big import's client CPU went there.
 */
const pool = new Uint8Array(4096);
let next = pool.length;
function pooledRandom(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  // ulidx's own mapping of a byte to [0, 1].
  return pool[next++]! / 0xff;
}

const nextUlid = monotonicFactory(pooledRandom);

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${nextUlid(now)}`;
}
