import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HippoError } from '../../../src/core/errors.js';
import { addMemory } from '../../../src/core/memory/memory.js';
import { clip, gather, MAX_MEMORY_CHARS } from '../../../src/core/rem/gather.js';
import { answerJsonSchema, buildPrompt, FOCUSES, parseFocus, sha256 } from '../../../src/core/rem/prompt.js';
import { ANSWER_PROBLEMS, isMalformed } from '../../../src/core/model/answer-problem.js';
import { shownRefs, validateAnswer } from '../../../src/core/rem/validate.js';
import { fixedClock, tempStore } from '../../helpers/store.js';

describe('clip', () => {
  it('keeps exactly 2 000 characters whole and cuts 2 001 with the literal marker', async () => {
    expect(MAX_MEMORY_CHARS).toBe(2000);
    expect(clip('a'.repeat(2000))).toEqual({ text: 'a'.repeat(2000), truncated: false });
    expect(clip('a'.repeat(2001))).toEqual({ text: `${'a'.repeat(2000)}…[truncated]`, truncated: true });
  });

  it('steps back only over a high surrogate at the cut', async () => {
    const high = (code: number) => `${'a'.repeat(1999)}${String.fromCharCode(code)}tail`;
    expect(clip(high(0xd800)).text).toBe(`${'a'.repeat(1999)}…[truncated]`);
    expect(clip(high(0xdbff)).text).toBe(`${'a'.repeat(1999)}…[truncated]`);
    expect(clip(high(0xdc00)).text).toBe(`${'a'.repeat(1999)}\udc00…[truncated]`);
    expect(clip(high(0xd7ff)).text).toBe(`${'a'.repeat(1999)}\ud7ff…[truncated]`);
  });
});

describe('gather options', () => {
  let store: Awaited<ReturnType<typeof tempStore>>;
  beforeEach(async () => {
    store = await tempStore(fixedClock('2026-11-02T12:00:00.000Z'));
  });
  afterEach(() => store.done());

  const codeOf = async (fn: () => unknown): Promise<string> => {
    try {
      await fn();
    } catch (error) {
      return (error as HippoError).code;
    }
    return 'no error';
  };

  it.each([
    [{ scope: 'everything' as never }, 'bad_scope'],
    [{ maxMemories: 0 }, 'bad_max_memories'],
    [{ maxMemories: 1.5 }, 'bad_max_memories'],
    [{ charBudget: 0 }, 'bad_char_budget'],
    [{ charBudget: 2.5 }, 'bad_char_budget'],
    [{ scope: 'tagged' as const }, 'tag_required'],
  ])('refuses %j with a usage error', async (options, code) => {
    expect(await codeOf(() => gather(store, { agentId: 'a', ...options }))).toBe(code);
  });

  it('accepts the smallest valid caps, and a memory that fits the budget exactly', async () => {
    await addMemory(store, { agentId: 'a', content: 'x'.repeat(100), createdAt: '2026-11-02T11:00:00.000Z' });
    await addMemory(store, { agentId: 'a', content: 'y'.repeat(100), createdAt: '2026-11-02T10:00:00.000Z' });
    expect((await gather(store, { agentId: 'a', maxMemories: 1 })).memories).toHaveLength(1);
    expect((await gather(store, { agentId: 'a', charBudget: 200 })).memories).toHaveLength(2);
    expect((await gather(store, { agentId: 'a', charBudget: 199 })).memories).toHaveLength(1);
    expect((await gather(store, { agentId: 'a', charBudget: 1 })).memories).toHaveLength(0);
  });
});

describe('prompt parts', () => {
  it('parses each focus and refuses others', async () => {
    for (const focus of FOCUSES) expect(parseFocus(focus)).toBe(focus);
    expect(() => parseFocus('gossip')).toThrow(/^the focus must be one of lessons, patterns, decisions, errors, preferences$/);
  });

  it('states a real task for every focus', async () => {
    const words = { lessons: 'lessons', patterns: 'recur', decisions: 'decisions', errors: 'errors', preferences: 'preferences' };
    for (const focus of FOCUSES) {
      const prompt = buildPrompt({ focus, memories: [] });
      expect(prompt).toMatch(new RegExp(`Task: Find [^\\n]*${words[focus]}`));
    }
  });

  it('hashes with sha-256 in hex', async () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('builds exactly the §4.3 schema', async () => {
    expect(answerJsonSchema(['m1', 'm2'], 3)).toEqual({
      type: 'object',
      properties: {
        candidates: {
          type: 'array',
          maxItems: 3,
          items: {
            type: 'object',
            properties: {
              claim: { type: 'string', minLength: 1, maxLength: 500 },
              sources: { type: 'array', minItems: 1, items: { type: 'string', enum: ['m1', 'm2'] } },
              tags: { type: 'array', items: { type: 'string' } },
            },
            required: ['claim', 'sources'],
            additionalProperties: false,
          },
        },
      },
      required: ['candidates'],
      additionalProperties: false,
    });
  });
});

describe('validation messages and edges', () => {
  const refs = ['m1'];
  it('retries exactly the malformed reasons', async () => {
    expect(ANSWER_PROBLEMS.filter(isMalformed).sort()).toEqual(['invalid_json', 'shape_mismatch']);
  });

  it.each([
    [null, 'the answer is null, not a JSON object', undefined],
    ['[1]', 'the answer is an array, not a JSON object', undefined],
    [{}, 'the answer has no "candidates" array', undefined],
    [{ candidates: 1 }, 'the answer\'s "candidates" is a number, not an array', undefined],
    [{ candidates: [null] }, 'candidate 1 is null, not an object', 0],
    [{ candidates: [[1]] }, 'candidate 1 is an array, not an object', 0],
    [{ candidates: ['x'] }, 'candidate 1 is a string, not an object', 0],
    [{ candidates: [{ claim: 1, sources: ['m1'] }] }, 'candidate 1\'s "claim" is a number, not a string', 0],
    [{ candidates: [{ sources: ['m1'] }] }, 'candidate 1 has no "claim"', 0],
    [{ candidates: [{ claim: 'x', sources: 'm1' }] }, 'candidate 1\'s "sources" is a string, not an array', 0],
    [{ candidates: [{ claim: 'x', sources: ['m1', 2] }] }, "candidate 1's source 2 is a number, not a ref like m1 (shown: m1)", 0],
    [{ candidates: [{ claim: 'x', sources: ['m1'], tags: ['ok', 3] }] }, 'candidate 1\'s "tags" must be an array of strings', 0],
    [{ candidates: [{ claim: 'x', sources: ['m1'], tags: ['ok', 'a\u001bb'] }] }, "candidate 1's tags contain control characters", 0],
    [{ candidates: [{ claim: 'a\u001bb', sources: ['m1'] }] }, "candidate 1's claim contains control characters", 0],
    [{ candidates: [{ claim: ' ', sources: ['m1'] }] }, 'candidate 1 has an empty claim', 0],
    [{ candidates: [{ claim: 'x'.repeat(501), sources: ['m1'] }] }, "candidate 1's claim is 501 characters; at most 500 are allowed", 0],
    [{ candidates: [{ claim: 'x', sources: [] }] }, 'candidate 1 cites no source (shown: m1)', 0],
    [{ candidates: [{ claim: 'x', sources: ['m2'] }] }, 'candidate 1 cites m2, which was not shown (shown: m1)', 0],
    // A cited source not shaped like a ref is model text: never repeated.
    [{ candidates: [{ claim: 'x', sources: ['sk-live-secret'] }] }, 'candidate 1 cites a source that is not one of the refs shown (shown: m1)', 0],
    [
      {
        candidates: [
          { claim: 'x', sources: ['m1'] },
          { claim: 'y', sources: ['m1'] },
        ],
      },
      '2 candidates; at most 1 are allowed',
      undefined,
    ],
  ])('says what is wrong with %j', (answer, message, index) => {
    const verdict = validateAnswer(answer, { refs, maxCandidates: 1 });
    expect(verdict.ok).toBe(false);
    if (verdict.ok) return;
    expect(verdict.message).toBe(message);
    expect(verdict.index).toBe(index);
    if (index === undefined) expect('index' in verdict).toBe(false);
  });

  it('numbers candidates from 1 and names the bad ref and the refs shown (issue 30)', async () => {
    const shown = Array.from({ length: 18 }, (_, i) => `m${i + 1}`);
    const answer = {
      candidates: [
        { claim: 'x', sources: ['m1'] },
        { claim: 'y', sources: ['m3', 'm99'] },
      ],
    };
    const verdict = validateAnswer(answer, { refs: shown });
    expect(verdict).toMatchObject({ ok: false, reason: 'source_out_of_set', index: 1, message: 'candidate 2 cites m99, which was not shown (shown: m1…m18)' });
    expect(shownRefs(['m2', 'm5'])).toBe('shown: m2, m5');
    expect(shownRefs(['m1'])).toBe('shown: m1');
    expect(shownRefs([])).toBe('none were shown');
    expect(shownRefs(['a', 'b', 'c', 'd', 'e', 'f'])).toBe('shown: a, b, c, d, e, … (6)');
  });

  it('keeps a tag of exactly 64 characters and drops blank ones', async () => {
    const verdict = validateAnswer({ candidates: [{ claim: 'x', sources: ['m1'], tags: ['t'.repeat(64), '  '] }] }, { refs });
    expect(verdict.ok && verdict.candidates[0]!.tags).toEqual(['t'.repeat(64)]);
  });
});
