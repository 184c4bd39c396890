/**
 * The one lock of a store's maintenance work (nightly runs and restores), docs/design.md §7: taken at once or refused
 * with exit 4 (`nightly_running`). Each engine keeps it its own way (SQLite: a settings row naming the holder's pid
 * and host, taken over from a dead holder; PostgreSQL: a session advisory lock that goes with its connection); the
 * liveness rules they share live in store/lock.ts.
 */
import type { RunKind } from '../records.js';
import type { HeldLock, LockHolder, Store } from '../store/port.js';

export { describeHolder, isHolderAlive, LOCK_STALE_AFTER_MS, processExists } from '../store/lock.js';
export type { HeldLock, LockHolder } from '../store/port.js';

/**
 * Takes the lock for `runId` or throws ConflictError (exit 4) at once when a live holder has it. A dead holder's lock
 * is taken over, and the rows its run left `running` are closed as `interrupted`.
 */
export function acquireLock(store: Store, owner: { runId: string; kind: RunKind }): Promise<HeldLock> {
  return store.lock.acquire(owner);
}

/** The live holder of the lock, or null when it is free (or held by a dead process a real run would take it from). */
export function lockHolder(store: Store): Promise<LockHolder | null> {
  return store.lock.holder();
}
