/** The bearer tokens of `hippo mcp --http` on SQLite (port.ts `TokenRepo`; docs/mcp.md). */
import type { McpToken } from '../../records.js';
import type { TokenRecord, TokenRepo } from '../port.js';
import type { Connection } from './connection.js';

interface TokenRow {
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

export class SqliteTokens implements TokenRepo {
  constructor(private readonly c: Connection) {}

  async insert(token: TokenRecord): Promise<void> {
    await this.c.use(() =>
      this.c
        .statement('INSERT INTO mcp_tokens (id, agent_id, label, token_hash, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(token.id, token.agentId, token.label, token.tokenHash, token.createdAt, token.revokedAt),
    );
  }

  async findByHash(tokenHash: string): Promise<McpToken | undefined> {
    return this.c.use(() => {
      const row = this.c.statement(`SELECT ${COLUMNS} FROM mcp_tokens WHERE token_hash = ?`).get(tokenHash) as TokenRow | undefined;
      return row ? tokenFromRow(row) : undefined;
    });
  }

  async get(id: string): Promise<McpToken | undefined> {
    return this.c.use(() => {
      const row = this.c.statement(`SELECT ${COLUMNS} FROM mcp_tokens WHERE id = ?`).get(id) as TokenRow | undefined;
      return row ? tokenFromRow(row) : undefined;
    });
  }

  async list(agentId?: string): Promise<McpToken[]> {
    return this.c.use(() => {
      const rows = (
        agentId === undefined
          ? this.c.statement(`SELECT ${COLUMNS} FROM mcp_tokens ORDER BY created_at DESC, id DESC`).all()
          : this.c.statement(`SELECT ${COLUMNS} FROM mcp_tokens WHERE agent_id = ? ORDER BY created_at DESC, id DESC`).all(agentId)
      ) as TokenRow[];
      return rows.map(tokenFromRow);
    });
  }

  async revoke(id: string, at: string): Promise<boolean> {
    return this.c.use(() => this.c.statement('UPDATE mcp_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id).changes === 1);
  }
}
