/**
 * Bearer tokens for `hippo mcp --http` (docs/mcp.md). A token is a random secret bound to one agent: the server serves
 * each request as its token's agent. The secret is shown once, when it is created; the store keeps only its sha-256,
 * so a copy of the database (or a snapshot) cannot be used to call the server. Revoking takes effect on the next request.
 */
import { createHash, randomBytes } from 'node:crypto';
import { NotFoundError, UsageError } from './errors.js';
import { newId } from './ids.js';
import { checkNewAgents } from './agent-ids.js';
import { validateAgentId } from './memory/memory.js';
import type { McpToken } from './records.js';
import type { Store, StoreOps } from './store/port.js';
import { hasHiddenCharacters } from './text-guard.js';
import { isWellFormed } from './well-formed.js';
import { iso } from './time.js';

export type { McpToken } from './records.js';

/** What every secret starts with, so a leaked one is recognisable (secret scanners, logs) and never taken for another. */
export const TOKEN_PREFIX = 'hippo_';
/** 32 random bytes: 256 bits, far beyond guessing, so one fast hash (not a password hash) is the right way to store it. */
const SECRET_BYTES = 32;
const MAX_LABEL_CHARS = 200;
/** The shape of a secret: the prefix and 43 base64url characters. Anything else is not looked up at all. */
const SECRET_SHAPE = /^hippo_[A-Za-z0-9_-]{43}$/;

export interface CreatedToken {
  token: McpToken;
  /** The secret itself: shown this once, never stored, never shown again. */
  secret: string;
}

/** The stored form of a secret: its sha-256, hex. */
export function tokenHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function validateLabel(label: string | undefined): string | null {
  const trimmed = label?.trim();
  if (!trimmed) return null;
  if (trimmed.length > MAX_LABEL_CHARS || hasHiddenCharacters(trimmed) || !isWellFormed(trimmed) || /[\t\n]/.test(trimmed)) {
    throw new UsageError('bad_label', `a token label must be at most ${MAX_LABEL_CHARS} visible characters on one line`, { details: { option: 'label' } });
  }
  return trimmed;
}

/** A new token for `agentId`: its secret is returned once and only its hash is stored. */
export async function createToken(store: StoreOps, options: { agentId: string; label?: string }): Promise<CreatedToken> {
  const agentId = validateAgentId(options.agentId);
  const label = validateLabel(options.label);
  await checkNewAgents(store, [agentId]);
  const now = store.clock();
  const secret = `${TOKEN_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`;
  const token: McpToken = { id: newId('tok', now.getTime()), agentId, label, createdAt: iso(now), revokedAt: null };
  await store.tokens.insert({ ...token, tokenHash: tokenHash(secret) });
  return { token, secret };
}

/** Newest first: one agent's tokens, or every agent's. Revoked ones are listed too (with `revokedAt`). */
export function listTokens(store: StoreOps, options: { agentId?: string } = {}): Promise<McpToken[]> {
  return store.tokens.list(options.agentId);
}

export interface RevokeTokensResult {
  revoked: McpToken[];
  /** Ids that were revoked before: nothing to do (as rejecting a rejected candidate). */
  alreadyRevoked: string[];
}

/**
 * Revokes tokens by id, whatever their agent (an operator's command). All or nothing: an unknown id is exit 3 and
 * revokes none of the others.
 */
export async function revokeTokens(store: Store, ids: readonly string[]): Promise<RevokeTokensResult> {
  return store.transaction(async (tx) => {
    const now = iso(tx.clock());
    const revoked: McpToken[] = [];
    const alreadyRevoked: string[] = [];
    for (const id of new Set(ids)) {
      const token = await tx.tokens.get(id);
      if (!token) throw new NotFoundError('token_not_found', `no token ${id}`, { details: { id } });
      if (token.revokedAt !== null || !(await tx.tokens.revoke(id, now))) {
        alreadyRevoked.push(id);
        continue;
      }
      revoked.push({ ...token, revokedAt: now });
    }
    return { revoked, alreadyRevoked };
  });
}

/**
 * The live token a presented secret belongs to, or undefined — for an unknown, malformed or revoked secret alike (the
 * server answers all of them with the same bare 401).
 */
export async function authenticateToken(store: StoreOps, secret: string): Promise<McpToken | undefined> {
  if (!SECRET_SHAPE.test(secret)) return undefined;
  const token = await store.tokens.findByHash(tokenHash(secret));
  return token && token.revokedAt === null ? token : undefined;
}
