/**
 * The nightly lock on PostgreSQL: a session-level advisory lock (`pg_try_advisory_lock`) held on a dedicated
 * connection for the whole run. A second run is refused at once (never waits); the lock goes with its connection, so
 * a crashed or killed holder frees it as soon as the server sees the connection close — no stale lock row to clean.
 *
 * The key is per schema (two hippo stores in one database do not block each other) and computed by the server from
 * documented functions only: the first 64 bits of md5('hippo nightly <schema>').
 */
import { hostname } from 'node:os';
import type { Client } from 'pg';
import { ConflictError } from '../../errors.js';
import { RUN_KINDS, type RunKind } from '../../records.js';
import type { Clock } from '../../time.js';
import type { HeldLock as PortHeld, LockHolder, LockPort, RunRepo, SettingsRepo } from '../port.js';
import { describeHolder } from '../lock.js';
import { createClient, mapPgError, type PostgresTarget } from './connect.js';

/** The lock key as SQL: per schema, stable across server versions. */
export const NIGHTLY_LOCK_KEY_SQL = "('x' || left(md5('hippo nightly ' || current_schema()), 16))::bit(64)::bigint";

export interface HeldLock {
  /** Aborted if the lock's connection is lost (server restarted, connection killed): the lock is gone with it. */
  readonly lost: AbortSignal;
  /** The server process holding it (shown in pg_stat_activity / pg_locks). */
  readonly pid: number;
  /** Releases the lock and closes its connection. Safe to call twice, and after the connection was lost. */
  release(): Promise<void>;
}

/**
 * Tries to take the nightly lock without waiting. Returns the held lock, or undefined when another session holds it
 * (the caller refuses with exit 4). Connection failures are StoreUnavailableError (exit 8).
 */
export async function tryNightlyLock(
  target: PostgresTarget,
  env: NodeJS.ProcessEnv = process.env,
  options: { applicationName?: string } = {},
): Promise<HeldLock | undefined> {
  const client = await createClient(target, env);
  try {
    await client.connect();
    const { rows } = await client.query<{ locked: boolean; pid: number }>(
      `SELECT pg_try_advisory_lock(${NIGHTLY_LOCK_KEY_SQL}) AS locked, pg_backend_pid() AS pid`,
    );
    const row = rows[0]!;
    if (!row.locked) {
      await client.end().catch(() => undefined);
      return undefined;
    }
    // Names the holding session for operators (pg_stat_activity); at most 63 bytes are kept by the server.
    if (options.applicationName) await client.query("SELECT set_config('application_name', $1, false)", [options.applicationName.slice(0, 63)]);
    return holding(client, row.pid);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw mapPgError(error, target);
  }
}

function holding(client: Client, pid: number): HeldLock {
  const lost = new AbortController();
  let released = false;
  const onLost = () => {
    if (!released) lost.abort(new Error('the nightly lock was lost with its connection'));
  };
  client.on('error', onLost);
  client.on('end', onLost);
  return {
    lost: lost.signal,
    pid,
    release: async () => {
      if (released) return;
      released = true;
      // Closing the session releases every lock it holds; the explicit unlock first just makes that immediate even
      // if the close is slow. Both may fail on a connection already gone, which released the lock already.
      await client.query(`SELECT pg_advisory_unlock(${NIGHTLY_LOCK_KEY_SQL})`).catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

/**
 * Whether some session holds the nightly lock of the current schema, and which (for `db check` / status). A bigint
 * advisory key shows in pg_locks as classid (high 32 bits) and objid (low 32 bits) with objsubid 1.
 */
export async function nightlyLockHolder(
  query: (sql: string) => Promise<{ rows: { pid: number; application_name: string }[] }>,
): Promise<{ pid: number; applicationName: string } | undefined> {
  const { rows } = await query(`
    SELECT a.pid, a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND l.objsubid = 1 AND ((l.classid::bigint << 32) | l.objid::bigint) = ${NIGHTLY_LOCK_KEY_SQL}`);
  const row = rows[0];
  return row ? { pid: row.pid, applicationName: row.application_name } : undefined;
}

// ---- the port's lock facet --------------------------------------------------------------------------------------

/** The settings row naming the holder (the same key as SQLite's lock row, so a copied store keeps one meaning). */
export const LOCK_KEY = 'nightly.lock';

interface RecordedHolder extends LockHolder {
  /** The server process of the lock's connection: tells a current record from one a dead holder left behind. */
  backendPid: number;
}

function parseHolder(value: string | undefined): RecordedHolder | null {
  if (value === undefined) return null;
  try {
    const parsed = JSON.parse(value) as Partial<RecordedHolder>;
    if (Number.isInteger(parsed.pid) && typeof parsed.hostname === 'string' && typeof parsed.startedAt === 'string') {
      return {
        pid: parsed.pid!,
        hostname: parsed.hostname,
        startedAt: parsed.startedAt,
        runId: typeof parsed.runId === 'string' ? parsed.runId : '',
        kind: runKind(parsed.kind),
        backendPid: Number.isInteger(parsed.backendPid) ? parsed.backendPid! : 0,
      };
    }
  } catch {
    // An unreadable row: reported as a dead holder with nothing to interrupt, and nothing known of it.
  }
  return { pid: null, hostname: '', startedAt: null, runId: '', kind: 'rem nightly run-once', backendPid: 0 };
}

/** A run kind as recorded, or the nightly's when it is not one (a damaged record). */
function runKind(value: unknown): RunKind {
  return (RUN_KINDS as readonly unknown[]).includes(value) ? (value as RunKind) : 'rem nightly run-once';
}

/** The lock connection's application_name, `hippo <kind> <run id>` (set by acquire), read back. */
function fromApplicationName(name: string): { kind: RunKind; runId: string } {
  const match = /^hippo (.+) (run_\w+)$/.exec(name);
  return { kind: runKind(match?.[1]), runId: match?.[2] ?? '' };
}

function publicHolder(holder: RecordedHolder): LockHolder {
  return { pid: holder.pid, hostname: holder.hostname, startedAt: holder.startedAt, runId: holder.runId, kind: holder.kind };
}

export interface LockPortDeps {
  target: PostgresTarget;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  /** Runs `fn` in a transaction of the store (on the pool). */
  transaction<T>(fn: (ops: { settings: SettingsRepo; runs: RunRepo }) => Promise<T>): Promise<T>;
  settings: SettingsRepo;
  query(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * The nightly/restore lock of a PostgreSQL store (port.ts `LockPort`): the session advisory lock above, held on its
 * own connection for the whole run; a second holder is refused at once (ConflictError `nightly_running`, exit 4); a
 * holder that dies frees it with its connection. Who holds it is recorded in `settings` (pid, host, start, run,
 * kind, and the backend pid of the lock's connection), so `holder()` can name it and the next holder can tell a dead
 * holder's record from a live one: a record left behind is taken over and its run's `running` rows are interrupted.
 */
export function lockPort(deps: LockPortDeps, held: Set<PortHeldLock>): LockPort {
  async function liveHolder(): Promise<LockHolder | null> {
    const { rows } = await deps.query(`
      SELECT a.pid, a.application_name, a.backend_start, host(a.client_addr) AS client FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
         AND l.objsubid = 1 AND ((l.classid::bigint << 32) | l.objid::bigint) = ${NIGHTLY_LOCK_KEY_SQL}`);
    const session = rows[0] as { pid: number; application_name: string; backend_start: string | null; client: string | null } | undefined;
    if (!session) return null;
    const recorded = parseHolder(await deps.settings.get(LOCK_KEY));
    if (recorded && recorded.backendPid === session.pid) return publicHolder(recorded);
    // Held, but not (yet) recorded: the session itself is all there is to say (its pid on the client is unknown; the
    // session's start is when its connection was made, at most a moment before it took the lock).
    return {
      pid: null,
      hostname: session.client ?? 'localhost',
      startedAt: session.backend_start,
      ...fromApplicationName(session.application_name),
    };
  }

  return {
    async acquire(owner) {
      const startedAt = deps.clock().toISOString();
      const holder: LockHolder = { pid: process.pid, hostname: hostname(), startedAt, runId: owner.runId, kind: owner.kind };
      const lock = await tryNightlyLock(deps.target, deps.env, { applicationName: `hippo ${owner.kind} ${owner.runId}` });
      if (!lock) {
        // Freed between the refusal and this look: still refused (never wait), named as well as can be.
        const current = (await liveHolder()) ?? { pid: null, hostname: '', startedAt: null, runId: '', kind: owner.kind };
        throw new ConflictError(
          'nightly_running',
          `another nightly run or restore holds this store's lock (${describeHolder(current)}); nothing was done — try again when it has finished`,
          { details: { holder: current } },
        );
      }
      const value = JSON.stringify({ ...holder, backendPid: lock.pid } satisfies RecordedHolder);
      let takenOver: LockHolder | null;
      try {
        takenOver = await deps.transaction(async ({ settings, runs }) => {
          // Holding the advisory lock, any record here is a dead holder's: take it over, close its run's rows.
          const previous = parseHolder(await settings.get(LOCK_KEY));
          await settings.set(LOCK_KEY, value);
          if (previous?.runId) await runs.interruptAbandoned(previous.runId, startedAt);
          return previous ? publicHolder(previous) : null;
        });
      } catch (error) {
        await lock.release();
        throw error;
      }
      const heldLock: PortHeldLock = {
        holder,
        takenOver,
        lost: lock.lost,
        release: async () => {
          if (!held.delete(heldLock)) return;
          // The record first (only if still ours), then the lock: a successor never finds our record as a dead one.
          await deps.settings.delete(LOCK_KEY, value).catch(() => undefined);
          await lock.release();
        },
      };
      held.add(heldLock);
      return heldLock;
    },
    holder: liveHolder,
  };
}

/** A held lock of the port; on PostgreSQL it always has the signal that says its connection (and so the lock) was lost. */
export type PortHeldLock = PortHeld & { readonly lost: AbortSignal };
