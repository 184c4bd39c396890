import { monotonicFactory } from 'ulidx';

/** Id prefixes of docs/design.md §2: ids are prefixed and sortable by creation (ULID body). */
export type IdPrefix = 'mem' | 'cand' | 'run' | 'hof' | 'tok';

// Made at the first id, not when the module loads: ulidx looks for a random source through `globalThis.crypto`, which
// makes Node load its Web Crypto module, and most commands (a search, --help) never make an id.
let nextUlid: ReturnType<typeof monotonicFactory> | undefined;

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  nextUlid ??= monotonicFactory();
  return `${prefix}_${nextUlid(now)}`;
}
