/**
 * The bearer tokens of `hippo mcp --http` (port.ts `TokenRepo`; docs/mcp.md), once for both engines: the statements
 * are plain SQL both understand, over the columns of TOKEN_TABLE (tables.ts); each adapter runs them (`SqlRunner`).
 */
import type { McpToken } from '../records.js';
import type { TokenRecord, TokenRepo } from './port.js';
import { columnList, objectOf, TOKEN_PUBLIC_COLUMNS, TOKEN_TABLE } from './tables.js';

/** What an engine gives a repo written once: statements with `?` placeholders, run in the caller's scope. */
export interface SqlRunner {
  /** The rows a statement returns. */
  all(sql: string, params: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** How many rows a statement changed. */
  run(sql: string, params: readonly unknown[]): Promise<number>;
  /** `column` as an ORDER BY term in byte order (SQLite's BINARY; PostgreSQL's `COLLATE "C"`). */
  byteOrder(column: string): string;
}

const COLUMNS = columnList(TOKEN_PUBLIC_COLUMNS);
const INSERT = `INSERT INTO mcp_tokens (${columnList(TOKEN_TABLE.columns)}) VALUES (${TOKEN_TABLE.columns.map(() => '?').join(', ')})`;

const tokenOf = (row: Record<string, unknown>): McpToken => objectOf<McpToken>(TOKEN_PUBLIC_COLUMNS, row, (value) => value);

export function tokenRepo(db: SqlRunner): TokenRepo {
  const newestFirst = `ORDER BY created_at DESC, ${db.byteOrder('id')} DESC`;
  return {
    async insert(token: TokenRecord) {
      await db.run(
        INSERT,
        TOKEN_TABLE.columns.map((column) => (token as unknown as Record<string, unknown>)[column.prop] ?? null),
      );
    },
    async findByHash(tokenHash) {
      const [row] = await db.all(`SELECT ${COLUMNS} FROM mcp_tokens WHERE token_hash = ?`, [tokenHash]);
      return row ? tokenOf(row) : undefined;
    },
    async get(id) {
      const [row] = await db.all(`SELECT ${COLUMNS} FROM mcp_tokens WHERE id = ?`, [id]);
      return row ? tokenOf(row) : undefined;
    },
    async list(agentId) {
      const rows =
        agentId === undefined
          ? await db.all(`SELECT ${COLUMNS} FROM mcp_tokens ${newestFirst}`, [])
          : await db.all(`SELECT ${COLUMNS} FROM mcp_tokens WHERE agent_id = ? ${newestFirst}`, [agentId]);
      return rows.map(tokenOf);
    },
    async revoke(id, at) {
      return (await db.run('UPDATE mcp_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, id])) === 1;
    },
  };
}
