import { describe, expect, it } from 'vitest';
import { validateAnswer } from '../../../src/core/rem/validate.js';

const refs = ['m1', 'm2', 'm3'];
const one = (candidate: Record<string, unknown>) => ({ candidates: [candidate] });
const code = (answer: unknown, maxCandidates?: number) => {
  const verdict = validateAnswer(answer, { refs, maxCandidates });
  return verdict.ok ? 'ok' : verdict.reason;
};

describe('validateAnswer (docs/design.md §4.4)', () => {
  it('accepts a valid answer, trimming claims, deduplicating sources and ignoring extra fields', () => {
    const verdict = validateAnswer(
      {
        candidates: [{ claim: '  Deploys fail on Fridays.  ', sources: ['m2', 'm1', 'm2'], tags: ['deploy', ' deploy ', ''], confidence: 0.9 }],
        note: 'extra',
      },
      { refs },
    );
    expect(verdict).toEqual({ ok: true, candidates: [{ claim: 'Deploys fail on Fridays.', sources: ['m2', 'm1'], tags: ['deploy'] }] });
  });

  it('accepts an empty list: nothing to learn is an answer', () => {
    expect(validateAnswer({ candidates: [] }, { refs })).toEqual({ ok: true, candidates: [] });
  });

  it('parses a JSON string, and rejects text that is not JSON', () => {
    expect(code('{"candidates":[]}')).toBe('ok');
    expect(code('{"candidates":[')).toBe('invalid_json');
    expect(code('<html>oops</html>')).toBe('invalid_json');
    expect(code('')).toBe('invalid_json');
  });

  it.each([
    ['null', null],
    ['an array', [{ claim: 'x', sources: ['m1'] }]],
    ['a number', 42],
    ['no candidates key', { insights: [] }],
    ['candidates not an array', { candidates: {} }],
    ['a candidate that is a string', { candidates: ['x'] }],
    ['a claim that is a number', one({ claim: 7, sources: ['m1'] })],
    ['sources that is a string', one({ claim: 'x', sources: 'm1' })],
    ['a source that is a number', one({ claim: 'x', sources: [1] })],
    ['tags that are not strings', one({ claim: 'x', sources: ['m1'], tags: [1, 2] })],
    ['tags that is a string', one({ claim: 'x', sources: ['m1'], tags: 'deploy' })],
  ])('rejects %s as shape_mismatch', (_name, answer) => {
    expect(code(answer)).toBe('shape_mismatch');
  });

  it('rejects a candidate with no sources', () => {
    expect(code(one({ claim: 'x', sources: [] }))).toBe('no_sources');
    expect(code(one({ claim: 'x' }))).toBe('no_sources');
  });

  it.each([
    ['a ref not shown', 'm4'],
    ['a real memory id', 'mem_01JD3Z8N6Q2W4E5R7T9Y1U3I5O'],
    ['a ref in another case', 'M1'],
    ['a ref with a full-width digit', 'm１'],
    ['a ref with a Cyrillic look-alike', 'м1'],
    ['a ref with spaces', ' m1'],
    ['an empty ref', ''],
  ])('rejects %s as source_out_of_set', (_name, ref) => {
    expect(code(one({ claim: 'x', sources: ['m1', ref] }))).toBe('source_out_of_set');
  });

  it('is all or nothing: one bad candidate rejects the batch', () => {
    const verdict = validateAnswer(
      {
        candidates: [
          { claim: 'good', sources: ['m1'] },
          { claim: 'bad', sources: ['m9'] },
        ],
      },
      { refs },
    );
    expect(verdict).toMatchObject({ ok: false, reason: 'source_out_of_set', index: 1 });
  });

  it('caps the number of candidates (default 10)', () => {
    const many = (count: number) => ({ candidates: Array.from({ length: count }, (_, index) => ({ claim: `claim ${index}`, sources: ['m1'] })) });
    expect(code(many(10))).toBe('ok');
    expect(code(many(11))).toBe('too_many_candidates');
    expect(code(many(3), 2)).toBe('too_many_candidates');
  });

  it('caps a claim at 500 characters (code points) and refuses an empty one', () => {
    expect(code(one({ claim: 'x'.repeat(500), sources: ['m1'] }))).toBe('ok');
    expect(code(one({ claim: 'x'.repeat(501), sources: ['m1'] }))).toBe('claim_too_long');
    expect(code(one({ claim: '😀'.repeat(500), sources: ['m1'] }))).toBe('ok');
    expect(code(one({ claim: `  ${'x'.repeat(500)}  `, sources: ['m1'] }))).toBe('ok');
    expect(code(one({ claim: ' \n\t ', sources: ['m1'] }))).toBe('empty_claim');
    expect(code(one({ claim: '', sources: ['m1'] }))).toBe('empty_claim');
  });

  it("names the rule and index in its message, never the model's text", () => {
    const verdict = validateAnswer(one({ claim: 'SECRET-CANARY', sources: ['CANARY-REF'] }), { refs });
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.message).not.toMatch(/CANARY/);
  });

  it('keeps at most ten tags of 1–64 characters', () => {
    const verdict = validateAnswer(one({ claim: 'x', sources: ['m1'], tags: [...Array.from({ length: 12 }, (_, index) => `t${index}`), 'y'.repeat(65)] }), {
      refs,
    });
    expect(verdict.ok && verdict.candidates[0]!.tags).toEqual(Array.from({ length: 10 }, (_, index) => `t${index}`));
  });
});

describe('control characters (terminal safety)', () => {
  it.each([
    ['ESC (a screen-clearing sequence)', 'Fine claim \u001b[2J\u001b[1;1H'],
    ['BEL in an OSC title sequence', 'claim \u001b]0;owned\u0007'],
    ['a C1 CSI', 'claim \u009b2J'],
    ['NUL', 'claim\u0000'],
    ['DEL', 'claim\u007f'],
    ['a right-to-left override (text that reads backwards)', 'Invoice due \u202Efdp.exe'],
    ['a bidi isolate', 'claim \u2067hidden\u2069'],
  ])('rejects a claim holding %s', (_name, claim) => {
    expect(validateAnswer({ candidates: [{ claim, sources: ['m1'] }] }, { refs: ['m1'] })).toMatchObject({ ok: false, reason: 'control_characters', index: 0 });
  });

  it('rejects a control character in a tag, and keeps tabs and newlines in a claim', () => {
    expect(validateAnswer({ candidates: [{ claim: 'x', sources: ['m1'], tags: ['a\u001bb'] }] }, { refs: ['m1'] })).toMatchObject({
      ok: false,
      reason: 'control_characters',
    });
    expect(validateAnswer({ candidates: [{ claim: 'x', sources: ['m1'], tags: ['deploy\u202E'] }] }, { refs: ['m1'] })).toMatchObject({
      ok: false,
      reason: 'control_characters',
    });
    expect(validateAnswer({ candidates: [{ claim: 'line one\n\tline two', sources: ['m1'] }] }, { refs: ['m1'] })).toMatchObject({ ok: true });
  });
});

describe('lone surrogates (JSON escapes no UTF-8 can store)', () => {
  it.each([
    ['in a claim', { claim: 'Deploys \ud800 fail', sources: ['m1'] }],
    ['a low one at the end of a claim', { claim: 'Deploys fail \udfff', sources: ['m1'] }],
    ['in a tag', { claim: 'Deploys fail', sources: ['m1'], tags: ['ok', 'x\ud83d'] }],
  ])('rejects the whole answer for one %s: lone_surrogate, naming the candidate', (_what, candidate) => {
    const answer = { candidates: [{ claim: 'A fine claim.', sources: ['m2'] }, candidate] };
    expect(validateAnswer(answer, { refs })).toEqual({
      ok: false,
      reason: 'lone_surrogate',
      message: 'candidate 2 contains a lone surrogate (not Unicode text)',
      index: 1,
    });
  });

  it('accepts surrogate pairs (emoji) in claims and tags, also when they arrive as JSON escapes', () => {
    expect(code('{"candidates":[{"claim":"Ship it \\ud83d\\ude80","sources":["m1"],"tags":["\\ud83d\\ude80"]}]}')).toBe('ok');
  });
});
