/**
 * What every engine's nightly lock shares (docs/design.md §7): who a holder is, whether it is still alive, and the
 * one refusal a second taker gets. The lock itself is the adapter's (SQLite: a settings row; PostgreSQL: an advisory
 * lock); `src/core/nightly/lock.ts` is the core's door to it.
 */
import { hostname } from 'node:os';
import { ConflictError } from '../errors.js';
import type { LockHolder } from './port.js';

/** A holder on another host cannot be checked: it counts as alive until its lock is this old. */
export const LOCK_STALE_AFTER_MS = 24 * 3_600_000;

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

/**
 * A holder is alive while its process exists on this host (`kill(pid, 0)`); a holder on another host counts as alive
 * unless the lock is older than LOCK_STALE_AFTER_MS, which also covers a crashed holder whose pid was reused by an
 * unrelated long-lived process.
 */
export function isHolderAlive(holder: LockHolder, now: Date, host: string = hostname()): boolean {
  if (holder.startedAt === null || holder.pid === null) return false;
  const age = now.getTime() - Date.parse(holder.startedAt);
  // A start time in the future (another host's clock running ahead) cannot be trusted to age out: treat it as stale.
  if (!(age >= 0 && age < LOCK_STALE_AFTER_MS)) return false;
  if (holder.hostname !== host) return true;
  return processExists(holder.pid);
}

/**
 * `rem nightly run-once run_…, pid 4242 on build-1, since 2026-…`: what is known of a holder, the unknown parts said
 * to be unknown (never `pid 0`, never a 1970 start).
 */
export function describeHolder(holder: LockHolder): string {
  const known = holder.pid !== null || holder.hostname !== '' || holder.startedAt !== null || holder.runId !== '';
  if (!known) return 'holder unknown';
  return [
    `${holder.kind}${holder.runId ? ` ${holder.runId}` : ''}`,
    `${holder.pid === null ? 'pid unknown' : `pid ${holder.pid}`}${holder.hostname ? ` on ${holder.hostname}` : ''}`,
    holder.startedAt === null ? 'since an unknown time' : `since ${holder.startedAt}`,
  ].join(', ');
}

/** Exit 4 at once: a live holder has the lock. */
export function lockConflict(current: LockHolder): ConflictError {
  return new ConflictError(
    'nightly_running',
    `another nightly run or restore holds this database's lock (${describeHolder(current)}); nothing was done — try again when it has finished`,
    { details: { holder: current } },
  );
}
