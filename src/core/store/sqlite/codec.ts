/**
 * Rows of hippo's tables (store/tables.ts) as SQLite keeps them: lists and documents as JSON text, everything else as
 * it crosses the port. Column lists, statement parameters and the port's objects all come from the spec, so no
 * statement counts its own columns.
 */
import type { Memory } from '../../records.js';
import { columnList, MEMORY_TABLE, objectOf, type Column, type TableSpec } from '../tables.js';

/** The port's object from a row (lists and documents parsed from their JSON text). */
export function fromRow<T>(spec: TableSpec, row: Record<string, unknown>, columns: readonly Column[] = spec.columns): T {
  return objectOf<T>(columns, row, (value, column) => (column.type === 'list' || column.type === 'json' ? JSON.parse(value as string) : value));
}

/** A row's statement parameters in the columns' order (lists and documents as JSON text, absent values as NULL). */
export function toParams(row: object, columns: readonly Column[]): unknown[] {
  return columns.map((column) => {
    const value = (row as Record<string, unknown>)[column.prop];
    if (value === undefined || value === null) return null;
    return column.type === 'list' || column.type === 'json' ? JSON.stringify(value) : value;
  });
}

/** `(?, ?, …)`: one row's placeholders for these columns. */
export function rowMarks(columns: readonly Column[]): string {
  return `(${columns.map(() => '?').join(', ')})`;
}

/** An INSERT of whole rows of the table that skips a key already stored (an agent's table: the agent's key). */
export function insertSql(spec: TableSpec, columns: readonly Column[] = spec.columns): string {
  return `INSERT INTO ${spec.name} (${columnList(columns)}) VALUES ${rowMarks(columns)} ON CONFLICT (${spec.primary.join(', ')}) DO NOTHING`;
}

/** A memory's row as SQLite returns it: the spec's columns by name (those a statement reads by name, typed). */
export type MemoryRow = Record<string, unknown> & { id: string; agent_id: string; thread: string | null; created_at: string };

export const MEMORY_COLUMNS = columnList(MEMORY_TABLE.columns);

export const memoryFromRow = (row: Record<string, unknown>): Memory => fromRow<Memory>(MEMORY_TABLE, row);
