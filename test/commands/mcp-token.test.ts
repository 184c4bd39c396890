/** `hippo mcp token create / list / revoke`: a secret shown once, only its hash stored, revocation all or nothing. */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';
import type { Json } from '../helpers/mcp.js';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

describe('hippo mcp token', () => {
  it('create prints the secret alone on stdout, says the rest on stderr, and stores only its hash', async () => {
    const created = await box.hippo(['mcp', 'token', 'create', '--agent', 'alice', '--label', 'laptop']);
    expect(created.exitCode, String(created.stderr)).toBe(0);
    const secret = String(created.stdout).trim();
    expect(secret).toMatch(/^hippo_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).toMatch(/token tok_\w+ for agent alice \(laptop\): shown once, only its hash is stored/);
    expect(created.stderr).toMatch(/Authorization: Bearer <token>/);
    const db = new Database(box.db, { readonly: true });
    const rows = db.prepare('SELECT * FROM mcp_tokens').all() as Record<string, unknown>[];
    db.close();
    expect(rows).toEqual([expect.objectContaining({ agent_id: 'alice', label: 'laptop', token_hash: createHash('sha256').update(secret).digest('hex') })]);
    expect(readFileSync(box.db).includes(Buffer.from(secret))).toBe(false);
    expect(JSON.stringify(json(await box.hippo(['mcp', 'token', 'list', '--json'])))).not.toContain(secret);
  });

  it('create --json is {token, secret}; list shows every agent’s tokens newest first, or one agent’s', async () => {
    const first = json<Json>(await box.hippo(['mcp', 'token', 'create', '--agent', 'alice', '--json']));
    expect(first).toEqual({
      token: { id: expect.stringMatching(/^tok_/), agentId: 'alice', label: null, createdAt: expect.any(String), revokedAt: null },
      secret: expect.any(String),
    });
    const second = json<Json>(await box.hippo(['mcp', 'token', 'create', '--agent', 'bob', '--json']));
    expect(json<Json>(await box.hippo(['mcp', 'token', 'list', '--json'])).tokens.map((token: Json) => token.id)).toEqual([second.token.id, first.token.id]);
    expect(json<Json>(await box.hippo(['mcp', 'token', 'list', '--agent', 'bob', '--json'])).tokens).toEqual([second.token]);
    const text = await box.hippo(['mcp', 'token', 'list']);
    expect(text.stdout).toMatch(new RegExp(`${second.token.id}\\s+\\S+ \\S+ \\S+\\s+bob\\s+live\\n${first.token.id}\\s+\\S+ \\S+ \\S+\\s+alice\\s+live`));
  });

  it('revoke is all or nothing: an unknown id is exit 3 and revokes none; a second revoke is a no-op', async () => {
    const token = json<Json>(await box.hippo(['mcp', 'token', 'create', '--agent', 'alice', '--json'])).token;
    const unknown = await box.hippo(['mcp', 'token', 'revoke', token.id, 'tok_01JD3Z8N6Q2W4E5R7T9Y1U3I5O', '--json']);
    expect(unknown.exitCode).toBe(3);
    expect(json<Json>(unknown).error).toMatchObject({ code: 'token_not_found' });
    expect(json<Json>(await box.hippo(['mcp', 'token', 'list', '--json'])).tokens[0].revokedAt).toBeNull();
    const revoked = await box.hippo(['mcp', 'token', 'revoke', token.id]);
    expect(revoked.exitCode).toBe(0);
    expect(revoked.stdout).toBe(`revoked ${token.id} (agent alice)`);
    const again = json<Json>(await box.hippo(['mcp', 'token', 'revoke', token.id, '--json']));
    expect(again).toEqual({ revoked: [], alreadyRevoked: [token.id] });
    expect((await box.hippo(['mcp', 'token', 'list'])).stdout).toMatch(/revoked \d{4}-/);
  });

  it('refuses a label with control characters or line breaks (exit 2) and writes nothing', async () => {
    const bad = await box.hippo(['mcp', 'token', 'create', '--agent', 'alice', '--label', 'a\u001b[2Jb', '--json']);
    expect(bad.exitCode).toBe(2);
    expect(json<Json>(bad).error.code).toBe('bad_label');
    expect(json<Json>(await box.hippo(['mcp', 'token', 'list', '--json'])).tokens).toEqual([]);
  });
});
