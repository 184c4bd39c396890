/**
 * The tables hippo owns, column by column: how a row of each crosses the port (the engine-neutral objects of port.ts:
 * Memory, CandidateRecord, Run, HandoffRecord, and settings as {key, value}), how it is sent as statement parameters
 * and as `COPY … FROM STDIN` text, and how it is read back. One description per table, so inserts, bulk loads,
 * dumps, snapshots and restores cannot disagree about a column.
 *
 * PostgreSQL's `text` cannot hold NUL (U+0000); every text value is checked here, before the server sees it, and
 * refused with a UsageError naming the field.
 */
import { UsageError } from '../errors.js';
import type { StoreTable, TableRow } from './port.js';

/** How a column is stored: its PostgreSQL type as hippo uses it. */
export type ColumnType = 'text' | 'timestamptz' | 'integer' | 'text[]' | 'json';

export interface Column {
  /** The column's SQL name. */
  name: string;
  /** The property of the port's object. */
  prop: string;
  type: ColumnType;
  /**
   * What a row of an older snapshot, written before the column existed, holds in it (a logical snapshot of an older
   * schema is read with this filled in). Absent for the columns of the first schema.
   */
  since?: { version: number; value: unknown };
}

export interface TableSpec {
  name: StoreTable;
  /** The key column (`id`, or `key` for settings). */
  key: string;
  /** Whether rows carry `agent_id` (every table but settings). */
  perAgent: boolean;
  columns: readonly Column[];
}

const col = (name: string, type: ColumnType = 'text', since?: Column['since']): Column => ({
  name,
  prop: name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
  type,
  ...(since ? { since } : {}),
});

export const MEMORY_TABLE: TableSpec = {
  name: 'memories',
  key: 'id',
  perAgent: true,
  columns: [
    col('id'),
    col('agent_id'),
    col('content'),
    col('durability'),
    col('tags', 'text[]'),
    col('subject'),
    col('source'),
    col('created_at', 'timestamptz'),
    col('updated_at', 'timestamptz'),
    col('expires_at', 'timestamptz'),
    col('archived_at', 'timestamptz'),
    col('archived_reason'),
    col('derived_from', 'text[]'),
    col('promoted_from'),
    col('content_hash'),
    col('last_reflected_at', 'timestamptz'),
    col('retrieval_count', 'integer'),
    col('last_retrieved_at', 'timestamptz'),
    col('thread', 'text', { version: 2, value: null }),
    col('version_of', 'text', { version: 3, value: null }),
  ],
};

/**
 * A memory with its search context, as the bulk path writes it (store/context.ts): the memory's columns, then the
 * neighbours' text. Rows are `Memory & { contextBefore, contextAfter }`.
 */
export const MEMORY_INSERT_TABLE: TableSpec = {
  ...MEMORY_TABLE,
  columns: [...MEMORY_TABLE.columns, col('context_before'), col('context_after')],
};

export const CANDIDATE_TABLE: TableSpec = {
  name: 'candidates',
  key: 'id',
  perAgent: true,
  columns: [
    col('id'),
    col('agent_id'),
    col('claim'),
    col('edited_claim'),
    col('status'),
    col('source_memory_ids', 'text[]'),
    col('tags', 'text[]'),
    col('generated_by'),
    col('provider'),
    col('generated_at', 'timestamptz'),
    col('run_id'),
    col('prompt_sha256'),
    col('reviewer'),
    col('review_rationale'),
    col('decided_at', 'timestamptz'),
    col('promoted_memory_id'),
    { ...col('forgotten_sources', 'text[]', { version: 3, value: [] }), prop: 'forgottenSourceIds' },
    col('reopened_by', 'text', { version: 3, value: null }),
    col('reopened_at', 'timestamptz', { version: 3, value: null }),
    col('reopen_reason', 'text', { version: 3, value: null }),
    col('claim_norm'),
    col('prompt'),
  ],
};

/** A candidate's public columns (everything but the normalised claim and the prompt). */
export const CANDIDATE_PUBLIC_COLUMNS = CANDIDATE_TABLE.columns.filter((column) => column.name !== 'claim_norm' && column.name !== 'prompt');

export const RUN_TABLE: TableSpec = {
  name: 'runs',
  key: 'id',
  perAgent: true,
  columns: [
    col('id'),
    col('kind'),
    col('agent_id'),
    col('started_at', 'timestamptz'),
    col('finished_at', 'timestamptz'),
    col('status'),
    col('snapshot_path'),
    col('counts', 'json'),
    col('candidate_ids', 'text[]'),
    col('model'),
    col('errors', 'json'),
    col('duration_ms', 'integer'),
    col('parent_run_id'),
    col('steps', 'json'),
    col('memory_ids', 'text[]', { version: 3, value: [] }),
  ],
};

export const HANDOFF_TABLE: TableSpec = {
  name: 'handoffs',
  key: 'id',
  perAgent: true,
  columns: [
    col('id'),
    col('agent_id'),
    col('created_at', 'timestamptz'),
    col('focus'),
    col('refs', 'json'),
    col('prompt_sha256'),
    col('expires_at', 'timestamptz'),
    col('max_candidates', 'integer'),
    col('ingested_at', 'timestamptz'),
    col('ingest_run_id'),
    col('prompt'),
    col('placeholders', 'json'),
  ],
};

export const SETTINGS_TABLE: TableSpec = {
  name: 'settings',
  key: 'key',
  perAgent: false,
  columns: [col('key'), col('value')],
};

export const TABLE_SPECS: Record<StoreTable, TableSpec> = {
  memories: MEMORY_TABLE,
  candidates: CANDIDATE_TABLE,
  runs: RUN_TABLE,
  handoffs: HANDOFF_TABLE,
  settings: SETTINGS_TABLE,
};

/** `a, b, c` for a SELECT or an INSERT column list (with an optional table alias). */
export function columnList(columns: readonly Column[], alias?: string): string {
  return columns.map((column) => (alias ? `${alias}.${column.name}` : column.name)).join(', ');
}

/** `ORDER BY` of a dump: byte order of the key (the `C` collation), as SQLite's BINARY orders it, whatever the database's collation. */
export function keyOrder(spec: TableSpec, alias?: string): string {
  return `${alias ? `${alias}.` : ''}${spec.key} COLLATE "C"`;
}

/**
 * The refusal of a NUL character, naming the field and, for a row, the table and its key (a memory's id: the row to
 * fix at the source, say before a `db copy`) — never the content.
 */
export function nulError(field: string, row?: { table: string; key: string }): UsageError {
  const where = row ? `${field} of ${JSON.stringify(row.key)}` : field;
  return new UsageError(
    'nul_in_text',
    `${where} contains a NUL character (U+0000), which a PostgreSQL store cannot hold; nothing was written — remove the character${row ? ' from that row' : ''} and try again`,
    { details: row ? { field, table: row.table, key: row.key } : { field } },
  );
}

/** Throws `nul_in_text` if `value` (a string, or strings in an array) holds U+0000. */
export function checkNoNul(value: unknown, field: string, row?: { table: string; key: string }): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) throw nulError(field, row);
  } else if (Array.isArray(value)) {
    for (const item of value) checkNoNul(item, field, row);
  }
}

/** A port object from a row as `pg` returns it (text[] and json already parsed, times as ISO strings, bigint as number). */
export function fromRow<T = TableRow>(spec: TableSpec, row: Record<string, unknown>, columns: readonly Column[] = spec.columns): T {
  const result: Record<string, unknown> = {};
  for (const column of columns) {
    const value = row[column.name];
    result[column.prop] = value === undefined ? null : value;
  }
  return result as T;
}

/** A port object of any table (Memory, CandidateRecord, Run, HandoffRecord, {key, value}). */
export type RowObject = object;

/** The row a NUL was found in: its table and key (a memory's id), when the row has one. */
function rowOf(spec: TableSpec, row: RowObject): { table: string; key: string } | undefined {
  const key = (row as Record<string, unknown>)[spec.key];
  return typeof key === 'string' && !key.includes('\u0000') ? { table: spec.name, key } : undefined;
}

function valueOf(row: RowObject, column: Column, spec: TableSpec): unknown {
  const table = spec.name;
  const value = (row as Record<string, unknown>)[column.prop];
  if (value === undefined || value === null) return null;
  switch (column.type) {
    case 'text':
    case 'timestamptz':
      if (typeof value !== 'string') throw badValue(table, column, 'a string');
      checkNoNul(value, `${table}.${column.prop}`, rowOf(spec, row));
      return value;
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw badValue(table, column, 'a whole number');
      return value;
    case 'text[]':
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw badValue(table, column, 'a list of strings');
      checkNoNul(value, `${table}.${column.prop}`, rowOf(spec, row));
      return value;
    case 'json':
      return JSON.stringify(value);
  }
}

function badValue(table: string, column: Column, what: string): UsageError {
  return new UsageError('bad_row', `${table}.${column.prop} must be ${what}`, { details: { table, field: column.prop } });
}

/** Statement parameters for a row, in the spec's column order (json as its text, lists as arrays). */
export function toParams(spec: TableSpec, row: RowObject, columns: readonly Column[] = spec.columns): unknown[] {
  return columns.map((column) => valueOf(row, column, spec));
}

/** `$1, $2, …` for `count` parameters starting after `offset`. */
export function placeholders(count: number, offset = 0): string {
  return Array.from({ length: count }, (_, index) => `$${offset + index + 1}`).join(', ');
}

// ---- COPY text format -----------------------------------------------------------------------------------------------

const COPY_SPECIAL = /[\\\n\r\t]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A value as a field of COPY's text format: backslash, newline, carriage return and tab escaped. */
function copyText(text: string): string {
  return text.replace(COPY_SPECIAL, (char) => COPY_ESCAPES[char]!);
}

/** A text[] literal: every element double-quoted, `"` and `\` escaped inside the quotes. */
export function arrayLiteral(items: readonly string[]): string {
  return `{${items.map((item) => `"${item.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** One line of `COPY table (columns) FROM STDIN` (text format, `\N` for null), newline included. */
export function copyLine(spec: TableSpec, row: RowObject, columns: readonly Column[] = spec.columns): string {
  let line = '';
  for (let index = 0; index < columns.length; index++) {
    const column = columns[index]!;
    const value = valueOf(row, column, spec);
    if (index > 0) line += '\t';
    if (value === null) line += '\\N';
    else if (column.type === 'text[]') line += copyText(arrayLiteral(value as string[]));
    else if (column.type === 'integer') line += (value as number).toString();
    else line += copyText(value as string);
  }
  return `${line}\n`;
}
