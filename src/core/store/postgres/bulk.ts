/**
 * Bulk data in and out of PostgreSQL: `COPY … FROM STDIN` (the `pg-copy-streams` package, loaded only here, on first
 * use) for imports, `db copy` and restores, and server-side cursors for streaming whole tables out (dumps, exports,
 * snapshots) without holding them in memory.
 */
import type { PoolClient, QueryResultRow } from 'pg';
import type { HippoError } from '../../errors.js';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { columnList, type Column, type TableSpec } from '../tables.js';
import { copyLine, type RowObject } from './codec.js';
import type { Session, TxState } from './session.js';

/** Rows per COPY statement: each statement stays far inside the statement timeout, and the text built per batch small. */
export const COPY_BATCH = 10_000;
/** Rows per FETCH from a cursor. */
export const FETCH_PAGE = 1_000;

/**
 * The COPY text of a batch, built (and every value checked: NUL, types) before anything is sent, so a bad row is
 * refused before the server sees any of the batch.
 */
export function copyText(spec: TableSpec, rows: readonly RowObject[], columns: readonly Column[] = spec.columns): string[] {
  const chunks: string[] = [];
  let chunk = '';
  for (const row of rows) {
    chunk += copyLine(spec, row, columns);
    if (chunk.length >= 1 << 20) {
      chunks.push(chunk);
      chunk = '';
    }
  }
  if (chunk !== '') chunks.push(chunk);
  return chunks;
}

/**
 * `COPY <into> (columns) FROM STDIN` of already-built text on one client (inside the caller's transaction); returns the
 * rows the server copied. `into` defaults to the table itself (a temp table for a staged load).
 */
export async function copyIn(
  client: PoolClient,
  spec: TableSpec,
  chunks: readonly string[],
  options: { into?: string; columns?: readonly Column[] } = {},
): Promise<number> {
  if (chunks.length === 0) return 0;
  const { from } = await import('pg-copy-streams');
  const stream = client.query(from(`COPY ${options.into ?? spec.name} (${columnList(options.columns ?? spec.columns)}) FROM STDIN`));
  await pipeline(Readable.from(chunks), stream);
  return stream.rowCount;
}

let cursors = 0;

/**
 * Streams the rows of a SELECT through a server-side cursor, FETCH_PAGE at a time. Inside a transaction (bound or of
 * this async context) the cursor lives in it; otherwise on a pooled client of its own in a REPEATABLE READ, READ ONLY
 * transaction (one consistent view for the whole walk), closed and released when the walk ends or is abandoned
 * (`break` in a `for await`). A walk may pause between pages (the consumer writes a file, say): the read transaction
 * may sit idle up to 10 minutes instead of the session's shorter idle-in-transaction limit.
 */
export async function* cursorRows<R extends QueryResultRow>(
  session: Session,
  bound: TxState | undefined,
  text: string,
  values: readonly unknown[] = [],
): AsyncGenerator<R> {
  const name = `hippo_cursor_${++cursors}`;
  const tx = bound ?? session.current();
  if (tx) {
    await session.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${text}`, values, tx);
    try {
      for (;;) {
        const page = await session.query<R>(`FETCH ${FETCH_PAGE} FROM ${name}`, [], tx);
        for (const row of page.rows) yield row;
        if (page.rows.length < FETCH_PAGE) return;
      }
    } finally {
      if (!tx.closed) await session.query(`CLOSE ${name}`, [], tx).catch(() => undefined);
    }
  }
  const client = await session.connect();
  const own: TxState = { client, closed: false, savepoints: 0, failures: 0 };
  let failed = false;
  let committed = false;
  try {
    await session.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', [], own);
    await session.query("SET LOCAL idle_in_transaction_session_timeout = '10min'", [], own);
    await session.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${text}`, values, own);
    for (;;) {
      const page = await session.query<R>(`FETCH ${FETCH_PAGE} FROM ${name}`, [], own);
      for (const row of page.rows) yield row;
      if (page.rows.length < FETCH_PAGE) break;
    }
    await session.query('COMMIT', [], own);
    committed = true;
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    own.closed = true;
    // Abandoned (the consumer stopped early) or failed: the read transaction is ended, or the connection dropped,
    // never returned to the pool open.
    client.release(failed || (!committed && !(await endQuietly(client))) ? true : undefined);
  }
}

/** Ends a read transaction that may still be open (an abandoned walk); false when the connection is not usable. */
async function endQuietly(client: PoolClient): Promise<boolean> {
  try {
    await client.query('ROLLBACK');
    return true;
  } catch {
    return false;
  }
}

/**
 * Inserts rows of a table by COPY inside the caller's transaction, skipping keys the table holds already and keys
 * repeated in the batch (the first one wins, as `INSERT … ON CONFLICT DO NOTHING` row by row would); returns how many
 * were new. New rows are copied straight into the table. If another writer inserts one of those keys meanwhile (the
 * COPY fails on the key), the batch goes again through a temp table and `INSERT … ON CONFLICT DO NOTHING`.
 */
export async function insertRows(session: Session, tx: TxState, spec: TableSpec, rows: readonly RowObject[]): Promise<number> {
  let inserted = 0;
  for (let start = 0; start < rows.length; start += COPY_BATCH) inserted += await insertBatch(session, tx, spec, rows.slice(start, start + COPY_BATCH));
  return inserted;
}

async function insertBatch(session: Session, tx: TxState, spec: TableSpec, batch: readonly RowObject[]): Promise<number> {
  const keyProp = spec.columns.find((column) => column.name === spec.key)!.prop;
  const byAgent = spec.primary[0] === 'agent_id';
  const idOf = (row: RowObject) => (row as Record<string, unknown>)[keyProp] as string;
  const agentOf = (row: RowObject) => (byAgent ? ((row as Record<string, unknown>).agentId as string) : '');
  // A row's key: (agent, id) for an agent's table (NUL, which no stored text holds, between them), the key otherwise.
  const keyOf = (row: RowObject) => `${agentOf(row)}\u0000${idOf(row)}`;
  const existing = new Set<string>();
  // One look-up per agent of the batch, so each reads that agent's partition only.
  const ids = new Map<string, string[]>();
  for (const row of batch) {
    const list = ids.get(agentOf(row));
    if (list) list.push(idOf(row));
    else ids.set(agentOf(row), [idOf(row)]);
  }
  for (const [agentId, keys] of ids) {
    const { rows: found } = byAgent
      ? await session.query<{ key: string }>(
          `SELECT ${spec.key} AS key FROM ${spec.name} WHERE agent_id = $1 AND ${spec.key} = ANY($2::text[])`,
          [agentId, keys],
          tx,
        )
      : await session.query<{ key: string }>(`SELECT ${spec.key} AS key FROM ${spec.name} WHERE ${spec.key} = ANY($1::text[])`, [keys], tx);
    for (const row of found) existing.add(`${agentId}\u0000${row.key}`);
  }
  const fresh = batch.filter((row) => {
    const key = keyOf(row);
    if (existing.has(key)) return false;
    existing.add(key);
    return true;
  });
  if (fresh.length === 0) return 0;
  const chunks = copyText(spec, fresh);
  await session.query('SAVEPOINT hippo_copy', [], tx);
  try {
    const copied = await session.withClient(tx, (client) => copyIn(client, spec, chunks));
    await session.query('RELEASE SAVEPOINT hippo_copy', [], tx);
    return copied;
  } catch (error) {
    if ((error as HippoError).details?.sqlstate !== '23505') throw error;
    await session.query('ROLLBACK TO SAVEPOINT hippo_copy', [], tx);
    await session.query('RELEASE SAVEPOINT hippo_copy', [], tx);
  }
  const temp = `hippo_in_${spec.name}`;
  await session.query(`CREATE TEMP TABLE IF NOT EXISTS ${temp} (LIKE ${spec.name} INCLUDING DEFAULTS) ON COMMIT DROP`, [], tx);
  await session.query(`TRUNCATE ${temp}`, [], tx);
  await session.withClient(tx, (client) => copyIn(client, spec, chunks, { into: temp }));
  const columns = columnList(spec.columns);
  const result = await session.query(
    `INSERT INTO ${spec.name} (${columns}) SELECT ${columns} FROM ${temp} ON CONFLICT (${spec.primary.join(', ')}) DO NOTHING`,
    [],
    tx,
  );
  return result.rowCount ?? 0;
}
