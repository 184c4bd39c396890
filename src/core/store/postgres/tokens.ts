/** The bearer tokens of `hippo mcp --http` on PostgreSQL (port.ts `TokenRepo`; docs/mcp.md). */
import type { McpToken } from '../../records.js';
import type { TokenRecord, TokenRepo } from '../port.js';
import type { Session, TxState } from './session.js';

interface TokenRow extends Record<string, unknown> {
  id: string;
  agent_id: string;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
}

const COLUMNS = 'id, agent_id, label, created_at, revoked_at';

function tokenFromRow(row: TokenRow): McpToken {
  return { id: row.id, agentId: row.agent_id, label: row.label, createdAt: row.created_at, revokedAt: row.revoked_at };
}

export function tokenRepo(session: Session, bound?: TxState): TokenRepo {
  const query = <R extends Record<string, unknown> = Record<string, unknown>>(text: string, values: readonly unknown[] = []) =>
    session.query<R>(text, values, bound);
  return {
    async insert(token: TokenRecord) {
      await query('INSERT INTO mcp_tokens (id, agent_id, label, token_hash, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        token.id,
        token.agentId,
        token.label,
        token.tokenHash,
        token.createdAt,
        token.revokedAt,
      ]);
    },
    async findByHash(tokenHash) {
      const { rows } = await query<TokenRow>(`SELECT ${COLUMNS} FROM mcp_tokens WHERE token_hash = $1`, [tokenHash]);
      return rows[0] ? tokenFromRow(rows[0]) : undefined;
    },
    async get(id) {
      const { rows } = await query<TokenRow>(`SELECT ${COLUMNS} FROM mcp_tokens WHERE id = $1`, [id]);
      return rows[0] ? tokenFromRow(rows[0]) : undefined;
    },
    async list(agentId) {
      const { rows } = await query<TokenRow>(
        `SELECT ${COLUMNS} FROM mcp_tokens WHERE $1::text IS NULL OR agent_id = $1 ORDER BY created_at DESC, id COLLATE "C" DESC`,
        [agentId ?? null],
      );
      return rows.map(tokenFromRow);
    },
    async revoke(id, at) {
      const result = await query('UPDATE mcp_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [id, at]);
      return result.rowCount === 1;
    },
  };
}
