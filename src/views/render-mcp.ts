import type { McpToken, RevokeTokensResult } from '../core/tokens.js';
import { safeText } from '../core/text-guard.js';
import { table, timeColumn, type Column, type TextContext, type View } from './output.js';

const inline = (text: string) => safeText(text, { lines: 'join' });

/** What `hippo mcp` says on stderr when it serves stdio (stdout is the protocol's). */
export function mcpStdioNote(options: { agentId: string; location: string; allowReview: boolean }): string {
  return `hippo mcp: serving agent ${inline(options.agentId)} on stdio (store ${inline(options.location)}; review tools ${options.allowReview ? 'on' : 'off'})`;
}

/** What `hippo mcp --http` says on stderr once it listens. */
export function mcpHttpNotes(options: { url: string; agentId: string; requireTokens: boolean; liveTokens: number; allowReview: boolean }): string[] {
  const who = options.requireTokens
    ? 'bearer tokens required: each request is served as its token’s agent'
    : `agent ${inline(options.agentId)}, no token needed on loopback`;
  return [
    `hippo mcp: listening on ${options.url} (${who}; review tools ${options.allowReview ? 'on' : 'off'})`,
    options.requireTokens && options.liveTokens === 0 ? 'warning: no live tokens yet: create one with hippo mcp token create --agent NAME' : '',
  ].filter(Boolean);
}

/** `mcp token list`: id, creation time, agent, state (live, or when it was revoked) and label, cut to the width. */
export function tokenTable(tokens: readonly McpToken[], context: TextContext): string {
  const created = timeColumn(
    'CREATED',
    tokens.map((token) => token.createdAt),
    context,
  );
  const columns: Column[] = [
    { header: 'ID', style: 'bold' },
    { header: created.header, optional: true, dropOrder: 2 },
    { header: 'AGENT' },
    { header: 'STATE' },
    { header: 'LABEL', flex: true, optional: true, dropOrder: 1 },
  ];
  const rows = tokens.map((token, index) => [
    token.id,
    created.cells[index]!,
    inline(token.agentId),
    token.revokedAt ? `revoked ${context.time(token.revokedAt)}` : 'live',
    token.label ? inline(token.label) : '',
  ]);
  return table(columns, rows, context);
}

/** `mcp token create`: the secret alone on stdout (so `TOKEN=$(hippo mcp token create …)` works); the rest on stderr. */
export const tokenCreateView: View<{ token: McpToken; secret: string }> = {
  text: ({ secret }) => secret,
  notes: ({ token }, { json, hint }) => [
    `token ${token.id} for agent ${inline(token.agentId)}${token.label ? ` (${inline(token.label)})` : ''}: shown once, only its hash is stored — keep it now`,
    !json && `clients send it as: Authorization: Bearer <token>   (revoke: ${hint(['mcp', 'token', 'revoke', token.id], { agent: null })})`,
  ],
};

export const tokenListView: View<{ tokens: McpToken[] }> = {
  text: ({ tokens }, context) => (tokens.length === 0 ? 'no tokens' : tokenTable(tokens, context)),
};

export const tokenRevokeView: View<RevokeTokensResult> = {
  text: ({ revoked, alreadyRevoked }) =>
    [...revoked.map((token) => `revoked ${token.id} (agent ${inline(token.agentId)})`), ...alreadyRevoked.map((id) => `${id} was already revoked`)].join('\n'),
};
