import { describe, expect, test } from 'vitest';
import { extractJsonObject, stripThinking } from '../../../src/core/model/index.js';

const ok = (text: string) => {
  const result = extractJsonObject(text);
  if (!result.ok) throw new Error(`expected an object, got ${result.reason}`);
  return result.value;
};
/** `ok`, or the answer problem and the fixed words that say which case it was. */
const reason = (text: string) => {
  const result = extractJsonObject(text);
  return result.ok ? 'ok' : `${result.reason}: ${result.message}`;
};
const NONE = 'invalid_json: it contained no JSON object';
const UNPARSEABLE = 'invalid_json: its JSON did not parse';
const SEVERAL = 'invalid_json: it contained more than one JSON object';

describe('extractJsonObject', () => {
  test('a bare object', () => {
    expect(ok('{"a": 1}')).toEqual({ a: 1 });
    expect(ok('  \n{"a": {"b": [1, {"c": 2}]}}\n')).toEqual({ a: { b: [1, { c: 2 }] } });
  });

  test('prose and code fences around it', () => {
    expect(ok('Here you go:\n```json\n{"a": 1}\n```\nAnything else?')).toEqual({ a: 1 });
    expect(ok('```\n{"a": 1}\n```')).toEqual({ a: 1 });
    expect(ok('The answer is {"a": 1}.')).toEqual({ a: 1 });
  });

  test('braces and quotes inside strings do not confuse it', () => {
    expect(ok('{"claim": "use {braces} and \\"quotes\\" and }"}')).toEqual({ claim: 'use {braces} and "quotes" and }' });
  });

  test('stray braces in prose are skipped', () => {
    expect(ok('Use {curly} style. {"a": 1}')).toEqual({ a: 1 });
  });

  test('offsets point at the object in the thinking-stripped text', () => {
    const result = extractJsonObject('x {"a": 1} y');
    expect(result).toMatchObject({ ok: true, start: 2, end: 10 });
  });

  test('thinking blocks are removed first (they often hold draft JSON)', () => {
    expect(ok('<think>maybe {"a": 0}?</think>{"a": 1}')).toEqual({ a: 1 });
    expect(ok('<thinking>{"a": 0}</thinking>\n{"a": 1}')).toEqual({ a: 1 });
    expect(ok('draft {"a": 0}</think>\n{"a": 1}')).toEqual({ a: 1 });
  });

  test('zero objects → invalid_json, saying none was found', () => {
    expect(reason('')).toBe(NONE);
    expect(reason('Sorry, I cannot do that.')).toBe(NONE);
    expect(reason('[1, 2, 3]')).toBe(NONE);
    expect(reason('<think>{"a": 1}</think>')).toBe(NONE);
    expect(reason('{"a": 1')).toBe(NONE);
  });

  test('a brace-balanced object that does not parse → invalid_json, saying it did not parse', () => {
    expect(reason('{"a": 1,}')).toBe(UNPARSEABLE);
    expect(reason("{'a': 1}")).toBe(UNPARSEABLE);
  });

  test('two objects → invalid_json, saying there was more than one (never a guess)', () => {
    expect(reason('{"a": 1}\n{"a": 2}')).toBe(SEVERAL);
    expect(reason('Example: {"a": 0}. Answer: ```json\n{"a": 1}\n```')).toBe(SEVERAL);
  });

  test('hostile input stays fast', () => {
    const started = Date.now();
    expect(reason('{'.repeat(200_000))).toBe(NONE);
    expect(reason('{"a": [}'.repeat(20_000))).toBe(UNPARSEABLE);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('stripThinking', () => {
  test('removes blocks, unclosed openings and lone closings', () => {
    expect(stripThinking('a<think>x</think>b<think>y</think>c')).toBe('abc');
    expect(stripThinking('answer<think>never closed {"a":1}')).toBe('answer');
    expect(stripThinking('thoughts</think>answer')).toBe('answer');
    expect(stripThinking('<THINK>x</THINK>y')).toBe('y');
    expect(stripThinking('plain')).toBe('plain');
  });
});
