/**
 * The nightly lock on PostgreSQL: a session-level advisory lock (`pg_try_advisory_lock`) held on a dedicated
 * connection for the whole run. A second run is refused at once (never waits); the lock goes with its connection, so
 * a crashed or killed holder frees it as soon as the server sees the connection close — no stale lock row to clean.
 *
 * The key is per schema (two hippo stores in one database do not block each other) and computed by the server from
 * documented functions only: the first 64 bits of md5('hippo nightly <schema>').
 */
import type { Client } from 'pg';
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
export async function tryNightlyLock(target: PostgresTarget, env: NodeJS.ProcessEnv = process.env): Promise<HeldLock | undefined> {
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
