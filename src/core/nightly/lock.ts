import { hostname } from 'node:os';
import { ConflictError } from '../errors.js';
import { failAbandonedRuns, type RunKind } from '../rem/runs.js';
import { inTransaction, prepared, type Store } from '../store/store.js';
import { iso } from '../time.js';

/**
 * The one lock of a database's maintenance work (nightly runs and restores): a row in `settings` holding the holder's
 * pid, host, start time and run id, written in an IMMEDIATE transaction so two processes cannot both take it. A
 * holder is alive while its process exists on this host (`kill(pid, 0)`); a holder on another host cannot be checked,
 * so it counts as alive — unless the lock is older than LOCK_STALE_AFTER_MS, which also covers a crashed holder whose
 * pid was reused by an unrelated long-lived process.
 */
export const LOCK_KEY = 'nightly.lock';
export const LOCK_STALE_AFTER_MS = 24 * 3_600_000;

export interface LockHolder {
  pid: number;
  hostname: string;
  startedAt: string;
  runId: string;
  kind: RunKind;
}

export interface HeldLock {
  holder: LockHolder;
  /** The dead (or stale) holder this lock was taken over from, if any. */
  takenOver: LockHolder | null;
  /** Deletes the lock row if it is still ours. */
  release(): void;
}

/** The lock row, or null when free. A row that does not parse is reported as a holder that is certainly dead. */
export function readLock(store: Store): LockHolder | null {
  const value = prepared(store, 'SELECT value FROM settings WHERE key = ?').pluck().get(LOCK_KEY) as string | undefined;
  if (value === undefined) return null;
  try {
    const holder = JSON.parse(value) as LockHolder;
    if (Number.isInteger(holder.pid) && typeof holder.hostname === 'string' && typeof holder.startedAt === 'string') return holder;
  } catch {
    // fall through: an unreadable lock is stale
  }
  return { pid: 0, hostname: '', startedAt: new Date(0).toISOString(), runId: '', kind: 'rem nightly run-once' };
}

/** Whether a process with this pid exists here (EPERM: it exists but belongs to someone else). */
export function processExists(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function isHolderAlive(holder: LockHolder, now: Date, host: string = hostname()): boolean {
  const age = now.getTime() - Date.parse(holder.startedAt);
  // A start time in the future (another host's clock running ahead) cannot be trusted to age out: treat it as stale.
  if (!(age >= 0 && age < LOCK_STALE_AFTER_MS)) return false;
  if (holder.hostname !== host) return true;
  return processExists(holder.pid);
}

export function describeHolder(holder: LockHolder): string {
  return `${holder.kind} ${holder.runId}, pid ${holder.pid} on ${holder.hostname}, since ${holder.startedAt}`;
}

function lockConflict(current: LockHolder): ConflictError {
  return new ConflictError(
    'nightly_running',
    `another nightly run or restore holds this database's lock (${describeHolder(current)}); nothing was done — try again when it has finished`,
    { details: { holder: current } },
  );
}

/**
 * Takes the lock for `runId` or throws ConflictError (exit 4) at once when a live holder has it. A dead holder's lock
 * is taken over in the same transaction, and the rows its run left `running` are closed as failed (`interrupted`).
 */
export function acquireLock(store: Store, owner: { runId: string; kind: RunKind }): HeldLock {
  const holder: LockHolder = { pid: process.pid, hostname: hostname(), startedAt: iso(store.clock()), runId: owner.runId, kind: owner.kind };
  const value = JSON.stringify(holder);
  // A plain read first (WAL readers never wait): a live holder in the middle of a long write transaction (a big
  // maintenance pass) still gets us out at once with exit 4, instead of after the busy timeout.
  const seen = readLock(store);
  if (seen && isHolderAlive(seen, store.clock(), holder.hostname)) throw lockConflict(seen);
  const takenOver = inTransaction(store, () => {
    const current = readLock(store);
    if (current && isHolderAlive(current, store.clock(), holder.hostname)) throw lockConflict(current);
    prepared(store, 'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(LOCK_KEY, value);
    if (current?.runId) failAbandonedRuns(store, current.runId);
    return current;
  });
  return {
    holder,
    takenOver,
    release: () => {
      try {
        prepared(store, 'DELETE FROM settings WHERE key = ? AND value = ?').run(LOCK_KEY, value);
      } catch {
        // Best effort (the store may be closed or busy after an interruption): a lock left behind names a process
        // that no longer exists, so the next run takes it over.
      }
    },
  };
}
