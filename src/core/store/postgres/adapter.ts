/**
 * The PostgreSQL adapter of the storage port (port.ts; docs/postgres.md): `openPostgresStore` connects a small `pg`
 * pool, brings the schema to this hippo's version (migrate.ts: one transaction under an advisory lock; a foreign or
 * newer schema is refused, exit 2, nothing touched) and returns a `Store` whose every facet runs on that pool:
 *
 * - memories, candidates, runs, handoffs, settings, whole tables: memories.ts and repos.ts;
 * - transactions: session.ts (one pooled client, BEGIN … COMMIT, serialised in-process, nested calls joined);
 * - the nightly lock: lock.ts (a session advisory lock on a connection of its own);
 * - snapshots: snapshots.ts (logical: gzip-compressed JSONL + manifest, under `<XDG data>/hippo/snapshots/<store>/`).
 *
 * Nothing of `pg` leaves this directory: errors are mapped (exit 8 for an unreachable or lost server), values are
 * checked (NUL) before the server sees them. This module loads `pg` when a store is opened; import it lazily.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Pool } from 'pg';
import { hippoDataDir } from '../../paths.js';
import { systemClock, type Clock } from '../../time.js';
import type { Store, StoreDescription, StoreOps, StoreTable } from '../port.js';
import { STORE_TABLES } from '../port.js';
import { ALL_TABLES } from '../tables.js';
import { connectPool, type PostgresTarget } from './connect.js';
import { erasureRepo } from './erasure.js';
import { lockPort, type PortHeldLock } from './lock.js';
import { settleLoad } from './maintenance.js';
import { memoryRepo } from './memories.js';
import { migrate, type MigrateProgress } from './migrate.js';
import { partitionsFromEnv } from './partition.js';
import { candidateRepo, handoffRepo, rowsRepo, runRepo, settingsRepo } from './repos.js';
import { POSTGRES_SCHEMA_VERSION } from './schema.js';
import { Session, type TxState } from './session.js';
import { snapshotPort } from './snapshots.js';
import { tokenRepo, type SqlRunner } from '../tokens.js';
import { auditRepo, receiptRepo, type GovernanceSql } from '../governance.js';

export interface OpenPostgresOptions {
  clock?: Clock;
  /** Read for the PG* variables, the timeouts, and XDG_DATA_HOME (where snapshots go). Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Progress of a migration that rebuilds the search index (its start and its end). */
  onProgress?: MigrateProgress;
  /** Refuse (exit 3, `store_not_found`) a database or schema that holds no hippo store yet, creating nothing. */
  mustExist?: boolean;
}

/** How long `tryTransaction` waits by default, as SQLite's best-effort writes do. */
const TRY_WAIT_MS = 250;

/** Statements written once for both engines (`?` placeholders, numbered here) on this session or transaction. */
function sqlRunner(session: Session, bound?: TxState): SqlRunner {
  const numbered = (sql: string) => {
    let count = 0;
    return sql.replace(/\?/g, () => `$${++count}`);
  };
  return {
    all: async (sql, params) => (await session.query(numbered(sql), params, bound)).rows,
    run: async (sql, params) => (await session.query(numbered(sql), params, bound)).rowCount ?? 0,
    byteOrder: (column) => `${column} COLLATE "C"`,
  };
}

/** The governance statements on PostgreSQL: lists as text[], documents as json (pg parses both on the way back). */
function governanceSql(session: Session, bound?: TxState): GovernanceSql {
  return {
    ...sqlRunner(session, bound),
    list: (values) => [...values],
    json: (value) => JSON.stringify(value),
    read: (value) => value,
    overlaps: (column) => `${column} && ?::text[]`,
    holds: (column) => `?::text = ANY(${column})`,
    without: (column) => `ARRAY(SELECT x FROM unnest(${column}) WITH ORDINALITY AS u (x, n) WHERE x <> ALL(?::text[]) ORDER BY n)`,
  };
}

function opsFor(session: Session, clock: Clock, bound?: TxState): StoreOps {
  const ops: StoreOps = {
    clock,
    memories: memoryRepo(session, bound),
    candidates: candidateRepo(session, bound),
    runs: runRepo(session, bound),
    handoffs: handoffRepo(session, bound),
    settings: settingsRepo(session, bound),
    tokens: tokenRepo(sqlRunner(session, bound)),
    rows: rowsRepo(session, bound),
    erasure: erasureRepo(session, bound),
    audit: auditRepo(governanceSql(session, bound)),
    receipts: receiptRepo(governanceSql(session, bound)),
  };
  if (bound) transactionOf.set(ops, bound);
  return ops;
}

/** The transaction behind a transaction's ops (snapshot restores run their statements on it). */
const transactionOf = new WeakMap<StoreOps, TxState>();

/**
 * The folder of a store's snapshots under `<XDG data>/hippo/snapshots/`: host, port, database (and the schema when it
 * is not `public`), made safe for a file name, plus a short hash of the exact values so two stores never share one.
 * Never the user or the password.
 */
export function snapshotFolderName(target: Pick<PostgresTarget, 'host' | 'port' | 'database'>, schema: string): string {
  const safe = (text: string) =>
    text
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[-.]+|-+$/g, '')
      .slice(0, 40) || 'x';
  const hash = createHash('sha256')
    .update(JSON.stringify([target.host, target.port, target.database, schema]))
    .digest('hex')
    .slice(0, 10);
  const parts = ['postgres', safe(target.host), String(target.port), safe(target.database), ...(schema === 'public' ? [] : [safe(schema)]), hash];
  return parts.join('-');
}

/**
 * Opens the PostgreSQL store at `target`: connects (exit 8 when the server cannot be used), migrates (exit 2 for a
 * database that is not hippo's or is newer), and returns the Store. Close it with `close()`.
 */
export async function openPostgresStore(target: PostgresTarget, options: OpenPostgresOptions = {}): Promise<Store> {
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock;
  const { pool, serverVersion } = await connectPool(target, env);
  let schema: string;
  try {
    schema = (
      await migrate(pool, target, {
        onProgress: options.onProgress,
        mustExist: options.mustExist,
        partitions: () => partitionsFromEnv(options.env ?? process.env),
      })
    ).schema;
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return buildStore(pool, target, { env, clock, serverVersion, schema });
}

function buildStore(pool: Pool, target: PostgresTarget, context: { env: NodeJS.ProcessEnv; clock: Clock; serverVersion: string; schema: string }): Store {
  const session = new Session(pool, target);
  const ops = opsFor(session, context.clock);
  const heldLocks = new Set<PortHeldLock>();
  let closed = false;
  const store: Store = {
    engine: 'postgres',
    location: target.display,
    ...ops,

    transaction: (fn) => session.transaction((tx) => fn(opsFor(session, context.clock, tx))),

    tryTransaction: (fn, waitMs = TRY_WAIT_MS) => session.tryTransaction((tx) => fn(opsFor(session, context.clock, tx)), waitMs),

    async describe(): Promise<StoreDescription> {
      const counts = {} as Record<StoreTable, number>;
      for (const table of STORE_TABLES) counts[table] = await ops.rows.count(table, null);
      return { engine: 'postgres', location: target.display, engineVersion: context.serverVersion, schemaVersion: POSTGRES_SCHEMA_VERSION, counts };
    },

    lock: lockPort(
      {
        target,
        env: context.env,
        clock: context.clock,
        transaction: (fn) => session.transaction((tx) => fn(opsFor(session, context.clock, tx))),
        settings: ops.settings,
        query: (sql) => session.query(sql),
      },
      heldLocks,
    ),

    snapshots: snapshotPort({
      session,
      dir: join(hippoDataDir(context.env), 'snapshots', snapshotFolderName(target, context.schema)),
      schemaVersion: POSTGRES_SCHEMA_VERSION,
      clock: context.clock,
      transactionOf: (ops) => transactionOf.get(ops),
    }),

    rawFiles: () => [],

    async reclaim() {
      // Not in a transaction (VACUUM cannot run in one): the pool's own connection. Dead tuples of the erased rows,
      // their TOAST and their index entries are removed; the server's WAL, archives and replicas are docs/postgres.md's.
      await session.query('VACUUM memories, candidates, handoffs', [], undefined, { timeoutMs: 30 * 60_000 });
      return { complete: true, steps: ['vacuumed memories, candidates and handoffs'] };
    },

    async settleLoad(agentIds) {
      // VACUUM cannot run in a transaction: inside one (a load joined to a caller's), the work is autovacuum's.
      if (session.current()) return [];
      return settleLoad((text, values, options) => session.query(text, values, undefined, options), agentIds, {
        agent: ALL_TABLES.filter((spec) => spec.owner === 'agent').map((spec) => spec.name),
        storeWide: ALL_TABLES.filter((spec) => spec.owner === 'store').map((spec) => spec.name),
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const lock of [...heldLocks]) await lock.release().catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
  return store;
}
