import { monotonicFactory } from 'ulidx';

/** Id prefixes of docs/design.md §2: ids are prefixed and sortable by creation (ULID body). */
export type IdPrefix = 'mem' | 'cand' | 'run' | 'hof' | 'tok' | 'read' | 'rcpt';

const nextUlid = monotonicFactory();

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${nextUlid(now)}`;
}
