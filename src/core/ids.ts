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

/**
 * The id as hippo writes it, when `id` differs from it only by letter case (`mem_01jd…` for `mem_01JD…`): ids are
 * case-sensitive, so a not-found error can say which one exists. Undefined when the case is already right.
 */
export function canonicalCase(id: string): string | undefined {
  const match = /^([a-z]+)_([0-9a-z]{26})$/i.exec(id);
  if (!match) return undefined;
  const canonical = `${match[1]!.toLowerCase()}_${match[2]!.toUpperCase()}`;
  return canonical === id ? undefined : canonical;
}

/** The end of a not-found message when only the letter case is wrong and the right one exists. */
export async function caseSensitiveHint(id: string, exists: (canonical: string) => Promise<boolean>): Promise<string> {
  const canonical = canonicalCase(id);
  return canonical !== undefined && (await exists(canonical)) ? `; ids are case-sensitive: ${canonical} exists` : '';
}
