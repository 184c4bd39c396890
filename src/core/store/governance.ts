/**
 * The read audit and forget receipts (port.ts `AuditRepo`, `ReceiptRepo`; docs/governance.md), once for both engines:
 * plain SQL over READ_AUDIT_TABLE and FORGET_RECEIPT_TABLE (tables.ts), with the few list operations each engine
 * words its own way given by its adapter (`GovernanceSql`). Every statement names the agent, except the prune, which
 * says why it does not.
 */
import type { ReadRecord, StoredReceipt } from '../records.js';
import type { AuditRepo, ReceiptRepo } from './port.js';
import { columnList, FORGET_RECEIPT_TABLE, objectOf, READ_AUDIT_TABLE, type Column } from './tables.js';
import type { SqlRunner } from './tokens.js';

/** What an engine adds to a `SqlRunner` for lists (SQLite: JSON text; PostgreSQL: text[]) and documents. */
export interface GovernanceSql extends SqlRunner {
  /** A list as a statement parameter. */
  list(values: readonly string[]): unknown;
  /** A document as a statement parameter. */
  json(value: unknown): unknown;
  /** A stored list or document as it crosses the port. */
  read(value: unknown, column: Column): unknown;
  /** True when the list `column` holds any of the list parameter `?`. */
  overlaps(column: string): string;
  /** True when the list `column` holds the text parameter `?`. */
  holds(column: string): string;
  /** The list `column` without the elements of the list parameter `?`, order kept. */
  without(column: string): string;
}

const AUDIT_COLUMNS = columnList(READ_AUDIT_TABLE.columns);
const RECEIPT_COLUMNS = columnList(FORGET_RECEIPT_TABLE.columns);
const marks = (columns: readonly Column[]) => columns.map(() => '?').join(', ');

function params(db: GovernanceSql, row: object, columns: readonly Column[]): unknown[] {
  return columns.map((column) => {
    const value = (row as Record<string, unknown>)[column.prop];
    if (value === undefined || value === null) return null;
    if (column.type === 'list') return db.list(value as string[]);
    if (column.type === 'json') return db.json(value);
    return value;
  });
}

export function auditRepo(db: GovernanceSql): AuditRepo {
  const recordOf = (row: Record<string, unknown>) => objectOf<ReadRecord>(READ_AUDIT_TABLE.columns, row, (value, column) => db.read(value, column));
  const id = db.byteOrder('id');
  return {
    async insert(record) {
      await db.run(`INSERT INTO read_audit (${AUDIT_COLUMNS}) VALUES (${marks(READ_AUDIT_TABLE.columns)})`, params(db, record, READ_AUDIT_TABLE.columns));
    },
    async list(query) {
      const where = ['agent_id = ?'];
      const values: unknown[] = [query.agentId];
      if (query.memoryId !== undefined) {
        where.push(db.holds('memory_ids'));
        values.push(query.memoryId);
      }
      if (query.client !== undefined) {
        where.push('client = ?');
        values.push(query.client);
      }
      if (query.since !== undefined) {
        where.push('at >= ?');
        values.push(query.since);
      }
      const rows = await db.all(`SELECT ${AUDIT_COLUMNS} FROM read_audit WHERE ${where.join(' AND ')} ORDER BY ${id} DESC LIMIT ?`, [...values, query.limit]);
      return rows.map(recordOf);
    },
    async removeMemoryIds(agentId, ids) {
      if (ids.length === 0) return 0;
      const list = db.list(ids);
      return db.run(`UPDATE read_audit SET memory_ids = ${db.without('memory_ids')} WHERE agent_id = ? AND ${db.overlaps('memory_ids')}`, [
        list,
        agentId,
        list,
      ]);
    },
    async cap(agentId, keep) {
      return db.run(
        `DELETE FROM read_audit WHERE agent_id = ? AND ${id} <= (SELECT ${id} FROM read_audit WHERE agent_id = ? ORDER BY ${id} DESC LIMIT 1 OFFSET ?)`,
        [agentId, agentId, keep],
      );
    },
    async prune(before, options = {}) {
      if (options.dryRun) {
        const [row] = await db.all('SELECT count(*) AS n FROM read_audit WHERE at < ? -- all agents: retention is the store’s rule', [before]);
        return Number(row?.n ?? 0);
      }
      return db.run('DELETE FROM read_audit WHERE at < ? -- all agents: retention is the store’s rule', [before]);
    },
  };
}

export function receiptRepo(db: GovernanceSql): ReceiptRepo {
  const receiptOf = (row: Record<string, unknown>) => objectOf<StoredReceipt>(FORGET_RECEIPT_TABLE.columns, row, (value, column) => db.read(value, column));
  return {
    async insert(receipt) {
      await db.run(
        `INSERT INTO forget_receipts (${RECEIPT_COLUMNS}) VALUES (${marks(FORGET_RECEIPT_TABLE.columns)})`,
        params(db, receipt, FORGET_RECEIPT_TABLE.columns),
      );
    },
    async update(agentId, id, receipt) {
      await db.run('UPDATE forget_receipts SET receipt = ? WHERE agent_id = ? AND id = ?', [db.json(receipt), agentId, id]);
    },
    async get(agentId, id) {
      const [row] = await db.all(`SELECT ${RECEIPT_COLUMNS} FROM forget_receipts WHERE agent_id = ? AND id = ?`, [agentId, id]);
      return row ? receiptOf(row) : undefined;
    },
    async forgottenAmong(agentId, ids) {
      if (ids.length === 0) return [];
      const rows = await db.all(`SELECT memory_ids FROM forget_receipts WHERE agent_id = ? AND ${db.overlaps('memory_ids')}`, [agentId, db.list(ids)]);
      const covered = new Set(rows.flatMap((row) => db.read(row.memory_ids, FORGET_RECEIPT_TABLE.columns[4]!) as string[]));
      return ids.filter((memoryId) => covered.has(memoryId));
    },
    async derivedFrom(agentId, ids) {
      if (ids.length === 0) return [];
      const rows = await db.all(`SELECT id, derived_from FROM memories WHERE agent_id = ? AND ${db.overlaps('derived_from')} ORDER BY ${db.byteOrder('id')}`, [
        agentId,
        db.list(ids),
      ]);
      return rows.map((row) => ({ id: row.id as string, derivedFrom: db.read(row.derived_from, FORGET_RECEIPT_TABLE.columns[4]!) as string[] }));
    },
  };
}
