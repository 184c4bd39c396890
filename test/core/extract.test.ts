import { beforeAll, describe, expect, it } from 'vitest';
import { extract, FALLBACK_PASSAGE_BUDGET, passagesWithin } from '../../src/core/extract.js';
import type { Passage } from '../../src/core/facts/index.js';
import { createModelClient, type ModelConfig } from '../../src/core/model/index.js';
import { reply, useModelServer } from '../helpers/model-server.js';

describe('passagesWithin', () => {
  const passages: Passage[] = [
    { source: 'a', text: 'x'.repeat(10) },
    { source: 'b', text: 'line one\nline two\nline three' },
    { source: 'c', text: 'never shown' },
  ];

  it('keeps whole passages in order while they fit', () => {
    expect(passagesWithin(passages, 100)).toEqual(passages);
    expect(passagesWithin(passages, 38)).toEqual(passages.slice(0, 2));
  });

  it('cuts the passage that does not fit at its last line break within the budget, and stops there', () => {
    expect(passagesWithin(passages, 30)).toEqual([passages[0], { source: 'b', text: 'line one\nline two' }]);
  });

  it('cuts mid-line when there is no line break to cut at; a cut is always a prefix', () => {
    expect(passagesWithin(passages, 15)).toEqual([passages[0], { source: 'b', text: 'line ' }]);
    expect(passagesWithin(passages, 4)).toEqual([{ source: 'a', text: 'xxxx' }]);
    expect(passagesWithin(passages, 10)).toEqual([passages[0]]);
    expect(passagesWithin(passages, 0)).toEqual([]);
  });
});

describe('extract with the model fallback (library, real HTTP stand-in)', () => {
  const server = useModelServer({ per: 'suite' });
  let config: ModelConfig;
  beforeAll(() => {
    config = { provider: 'ollama', model: 'test-model', baseUrl: server.baseUrl('ollama'), timeoutMs: 5000, maxBytes: 1 << 20, source: 'flag' };
  });

  const passages: Passage[] = [
    { source: 'm1', text: 'HQ: 1 Harbour Road, Howth. Tel +353 1 234 5678' },
    { source: 'm2', text: 'Depot: 2 Harbour Road, Howth; 3 Harbour Road, Howth' },
  ];
  const lines: string[] = [];
  const fallback = () => ({ client: createModelClient(config), timeoutMs: 5000, log: (line: string) => lines.push(line) });

  it('asks once per kind without a validator, caps its rows per kind, and keeps validated facts first', async () => {
    server.respondWith(
      reply.json({
        pointers: [
          { passage: 0, text: '1 Harbour Road, Howth' },
          { passage: 1, text: '2 Harbour Road, Howth' },
          { passage: 1, text: '3 Harbour Road, Howth' },
        ],
      }),
    );
    const facts = await extract(passages, { kinds: ['phone', 'address', 'address'], region: null, limit: 2, fallback: fallback() });
    expect(server.requests).toHaveLength(1);
    expect(facts.map((fact) => [fact.kind, fact.value, fact.origin])).toEqual([
      ['phone', '+353 1 234 5678', 'validated'],
      ['address', '1 Harbour Road, Howth', 'model'],
      ['address', '2 Harbour Road, Howth', 'model'],
    ]);
  });

  it('never asks about validated kinds', async () => {
    const facts = await extract(passages, { kinds: ['phone', 'email', 'date'], region: null, fallback: fallback() });
    expect(facts).toHaveLength(1);
    expect(server.requests).toHaveLength(0);
  });

  it('sends at most the budget of passage text', async () => {
    server.respondWith(reply.json({ pointers: [] }));
    const big: Passage[] = [{ source: 'big', text: `${'y'.repeat(FALLBACK_PASSAGE_BUDGET)}\nHQ: 9 Secret Lane, Cork` }];
    await extract(big, { kinds: ['address'], fallback: fallback() });
    expect(server.requests[0]!.rawBody).not.toContain('Secret Lane');
  });

  it("rethrows the caller's abort instead of logging it", async () => {
    server.respondWith(reply.hang());
    const controller = new AbortController();
    const pending = extract(passages, { kinds: ['address'], fallback: { ...fallback(), signal: controller.signal } });
    await server.waitForRequests(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'interrupted', exitCode: 130 });
  });
});
