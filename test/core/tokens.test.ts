/** MCP bearer tokens in the core (src/core/tokens.ts): created with a secret shown once, authenticated by its hash. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authenticateToken, createToken, listTokens, revokeTokens, tokenHash } from '../../src/core/tokens.js';
import { ENGINES, openTestStore, tempStore, type TestStore } from '../helpers/store.js';

describe.each(ENGINES)('MCP tokens on %s', (engine) => {
  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore(engine);
  });
  afterEach(async () => {
    await store.done();
  });

  it('authenticates a live secret as its agent; a wrong, malformed or revoked one is nobody', async () => {
    const { token, secret } = await createToken(store, { agentId: 'alice', label: '  laptop  ' });
    expect(token).toMatchObject({ agentId: 'alice', label: 'laptop', revokedAt: null });
    expect(await authenticateToken(store, secret)).toEqual(token);
    expect(await authenticateToken(store, `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
    expect(await authenticateToken(store, 'hippo_short')).toBeUndefined();
    expect(await authenticateToken(store, tokenHash(secret))).toBeUndefined();
    expect(await revokeTokens(store, [token.id])).toEqual({ revoked: [{ ...token, revokedAt: expect.any(String) }], alreadyRevoked: [] });
    expect(await authenticateToken(store, secret)).toBeUndefined();
  });

  it('makes a new secret every time, and never stores it', async () => {
    const a = await createToken(store, { agentId: 'alice' });
    const b = await createToken(store, { agentId: 'alice' });
    expect(a.secret).not.toBe(b.secret);
    expect(await store.tokens.findByHash(tokenHash(a.secret))).toEqual(a.token);
    expect(await store.tokens.findByHash(a.secret)).toBeUndefined();
    expect(JSON.stringify(await listTokens(store))).not.toContain(a.secret);
    expect((await listTokens(store, { agentId: 'alice' })).map((token) => token.id)).toEqual([b.token.id, a.token.id]);
  });

  it('refuses a bad agent id or label', async () => {
    await expect(createToken(store, { agentId: 'ops\u202eagent' })).rejects.toMatchObject({ code: 'bad_agent' });
    await expect(createToken(store, { agentId: 'alice', label: 'x'.repeat(201) })).rejects.toMatchObject({ code: 'bad_label' });
    await expect(createToken(store, { agentId: 'alice', label: 'two\nlines' })).rejects.toMatchObject({ code: 'bad_label' });
    expect(await listTokens(store)).toEqual([]);
  });
});

describe('MCP tokens in a SQLite file', () => {
  it('keeps only the hashes of the secrets', async () => {
    const store = await tempStore();
    try {
      const a = await createToken(store, { agentId: 'alice' });
      const b = await createToken(store, { agentId: 'bob' });
      const rows = store.db.prepare('SELECT token_hash FROM mcp_tokens').pluck().all();
      expect(rows.sort()).toEqual([tokenHash(a.secret), tokenHash(b.secret)].sort());
    } finally {
      await store.done();
    }
  });
});
