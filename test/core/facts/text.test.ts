import { describe, expect, it } from 'vitest';
import { charBefore, dropOverlaps, isWordBounded, rawMatch } from '../../../src/core/facts/text.js';

describe('charBefore', () => {
  it('is the code point ending before an offset: a whole surrogate pair, a lone surrogate as it is, nothing at the start', () => {
    expect(charBefore('a😀b', 3)).toBe('😀');
    expect(charBefore('a😀b', 1)).toBe('a');
    expect(charBefore('\uDE00xy', 1)).toBe('\uDE00');
    expect(charBefore('abc', 0)).toBeUndefined();
    expect(charBefore('abc', -1)).toBeUndefined();
  });

  it('bounds a value by letters and digits of any script, not by punctuation or emoji', () => {
    expect(isWordBounded('😀1234😀', 2, 6)).toBe(true);
    expect(isWordBounded('é1234', 1, 5)).toBe(false);
    expect(isWordBounded('1234٣', 0, 4)).toBe(false);
  });
});

describe('dropOverlaps', () => {
  const text = 'abcdefghijkl';
  const match = (start: number, end: number) => rawMatch('email', text, start, end, text.slice(start, end));

  it('keeps the earliest of overlapping matches, the longest when they start together, in offset order', () => {
    const kept = dropOverlaps([match(6, 9), match(0, 3), match(0, 5), match(4, 7), match(2, 6)]);
    expect(kept.map((m) => [m.start, m.end])).toEqual([
      [0, 5],
      [6, 9],
    ]);
  });

  it('keeps matches that only touch', () => {
    expect(dropOverlaps([match(5, 9), match(0, 5)]).map((m) => [m.start, m.end])).toEqual([
      [0, 5],
      [5, 9],
    ]);
  });
});
