/**
 * The nightly/restore lock on SQLite: a row in `settings` holding the holder's pid, host, start time and run id,
 * written in an IMMEDIATE transaction so two processes cannot both take it. A dead (or stale) holder's lock is taken
 * over in the same transaction, and the rows its run left `running` are closed as `interrupted`.
 */
import { hostname } from 'node:os';
import type { RunKind } from '../../records.js';
import { iso, type Clock } from '../../time.js';
import { isHolderAlive, lockConflict } from '../lock.js';
import type { HeldLock, LockHolder, LockPort } from '../port.js';
import type { Connection } from './connection.js';
import type { SqliteRuns, SqliteSettings } from './repos.js';

export const LOCK_KEY = 'nightly.lock';

/** The holder a row names; a row that does not parse is a holder that is certainly dead, and nothing is known of it. */
function parseHolder(value: string): LockHolder {
  try {
    const holder = JSON.parse(value) as LockHolder;
    if (Number.isInteger(holder.pid) && typeof holder.hostname === 'string' && typeof holder.startedAt === 'string') return holder;
  } catch {
    // fall through: an unreadable lock is stale
  }
  return { pid: null, hostname: '', startedAt: null, runId: '', kind: 'rem nightly run-once' };
}

export class SqliteLock implements LockPort {
  constructor(
    private readonly c: Connection,
    private readonly settings: SqliteSettings,
    private readonly runs: SqliteRuns,
    private readonly clock: Clock,
  ) {}

  /** The lock row (live or not), or null when free. */
  async read(): Promise<LockHolder | null> {
    const value = await this.settings.get(LOCK_KEY);
    return value === undefined ? null : parseHolder(value);
  }

  async holder(): Promise<LockHolder | null> {
    const holder = await this.read();
    return holder && isHolderAlive(holder, this.clock()) ? holder : null;
  }

  async acquire(owner: { runId: string; kind: RunKind }): Promise<HeldLock> {
    const holder: LockHolder = { pid: process.pid, hostname: hostname(), startedAt: iso(this.clock()), runId: owner.runId, kind: owner.kind };
    const value = JSON.stringify(holder);
    // A plain read first (WAL readers never wait): a live holder in the middle of a long write transaction (a big
    // maintenance pass) still gets us out at once with exit 4, instead of after the busy timeout.
    const seen = await this.read();
    if (seen && isHolderAlive(seen, this.clock(), holder.hostname)) throw lockConflict(seen);
    const takenOver = await this.c.transaction(async () => {
      const current = await this.read();
      if (current && isHolderAlive(current, this.clock(), holder.hostname)) throw lockConflict(current);
      await this.settings.set(LOCK_KEY, value);
      if (current?.runId) await this.runs.interruptAbandoned(current.runId, iso(this.clock()));
      return current;
    });
    return {
      holder,
      takenOver,
      release: async () => {
        try {
          await this.settings.delete(LOCK_KEY, value);
        } catch {
          // Best effort (the store may be closed or busy after an interruption): a lock left behind names a process
          // that no longer exists, so the next run takes it over.
        }
      },
    };
  }
}
