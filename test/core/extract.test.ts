import { beforeAll, describe, expect, it } from 'vitest';
import { extract } from '../../src/core/extract/extract.js';
import { passagesWithin } from '../../src/core/extract/fallback.js';
import { FALLBACK_PASSAGE_BUDGET } from '../../src/core/extract/limits.js';
import { extractFrom } from '../../src/core/extract/sources.js';
import { addMemory } from '../../src/core/memory/memory.js';
import { tempStore } from '../helpers/store.js';
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

describe('extractFrom a text or memories by id (what the MCP tool facts_extract reads)', () => {
  const noModel = async () => undefined;
  const request = { kinds: ['phone', 'email'] as const, region: 'IE', ai: false, model: noModel, timeoutMs: 1000 };

  it('reads a text given in the call as the source "text", offsets into it', async () => {
    const text = 'Mail ana@example.com or ring 01 234 5678.';
    const outcome = await extractFrom({ text }, { ...request, kinds: [...request.kinds] });
    expect(outcome.passages).toEqual([{ source: 'text', text }]);
    expect(outcome.facts.map((fact) => fact.kind)).toEqual(['email', 'phone']);
    for (const fact of outcome.facts) for (const at of fact.occurrences) expect(text.slice(at.start, at.end)).toBe(at.text);
  });

  it("reads the agent's memories in the order given; another agent's id (or an unknown one) is not found, naming it", async () => {
    const store = await tempStore();
    try {
      const a = (await addMemory(store, { agentId: 'me', content: 'Dublin: +353 1 234 5678' })).memory;
      const b = (await addMemory(store, { agentId: 'me', content: 'Ana: ana@example.com', durability: 'persistent' })).memory;
      const theirs = (await addMemory(store, { agentId: 'other', content: 'Bob: bob@example.com' })).memory;
      const outcome = await extractFrom({ store, agentId: 'me', memoryIds: [b.id, a.id, b.id] }, { ...request, kinds: [...request.kinds] });
      expect(outcome.passages.map((passage) => passage.source)).toEqual([b.id, a.id]);
      expect(outcome.facts.map((fact) => fact.occurrences[0]!.source)).toEqual([b.id, a.id]);
      await expect(extractFrom({ store, agentId: 'me', memoryIds: [a.id, theirs.id] }, { ...request, kinds: ['email'] })).rejects.toMatchObject({
        code: 'memory_not_found',
        details: { missing: [theirs.id] },
      });
    } finally {
      await store.done();
    }
  });
});
