/**
 * Rows of hippo's tables (store/tables.ts) as PostgreSQL takes and gives them: statement parameters, `COPY … FROM
 * STDIN` text, and the port's objects from rows as `pg` returns them (text[] and json already parsed, times as ISO
 * strings through connect.ts's type parser, bigint as number).
 *
 * PostgreSQL's `text` cannot hold NUL (U+0000); every text value is checked here, before the server sees it, and
 * refused with a UsageError naming the field.
 */
import { UsageError } from '../../errors.js';
import { objectOf, type Column, type TableSpec } from '../tables.js';
import type { TableRow } from '../port.js';

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

/** A port object from a row as `pg` returns it: every value as it comes. */
export function fromRow<T = TableRow>(spec: TableSpec, row: Record<string, unknown>, columns: readonly Column[] = spec.columns): T {
  return objectOf<T>(columns, row, (value) => value);
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
    case 'time':
      if (typeof value !== 'string') throw badValue(table, column, 'a string');
      checkNoNul(value, `${table}.${column.prop}`, rowOf(spec, row));
      return value;
    case 'integer':
    case 'bigint':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw badValue(table, column, 'a whole number');
      return value;
    case 'list':
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

/** Builds `$n` parameters in order. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast?: string): string {
    this.values.push(value);
    return `$${this.values.length}${cast ? `::${cast}` : ''}`;
  }
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
    else if (column.type === 'list') line += copyText(arrayLiteral(value as string[]));
    else if (column.type === 'integer' || column.type === 'bigint') line += (value as number).toString();
    else line += copyText(value as string);
  }
  return `${line}\n`;
}
