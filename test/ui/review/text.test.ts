import { describe, expect, it } from 'vitest';
// The copy ink measures with (ink bundles its own string-width 8.3.0; ours must agree with it exactly).
import inkStringWidth from '../../../node_modules/ink/node_modules/string-width/index.js';
import { cutTo, displayWidth, sanitize, wrap } from '../../../src/ui/review/text.js';

const SAMPLES = [
  'plain ascii',
  '🚀 ✅ ⌛ launch',
  'family 👨‍👩‍👧 and 🏳️‍🌈 flag',
  'keycap 1️⃣ #⃣',
  'CJK 日本語のテキスト and ｶﾞ half',
  'Hangul 한국어 and jamo \u1100\u1161\u11A8',
  'accents e\u0301 a\u0308 and ZWJ alone a\u200Db',
  'variation ❤️ ☺ ✈',
  'Thai สวัสดี and Devanagari नमस्ते',
];

describe('display width (what ink measures)', () => {
  it.each(SAMPLES)('agrees with ink’s string-width on %s', (text) => {
    expect(displayWidth(text)).toBe(inkStringWidth(text));
  });

  it('agrees once sanitised on zero-width and format characters', () => {
    const text = sanitize('every\u200B 9\u00AD0 days\uFEFF \u202Ereversed\u202C \u2066iso\u2069');
    expect(displayWidth(text)).toBe(inkStringWidth(text));
  });

  it('cuts and wraps by grapheme, never splitting an emoji or a letter from its accent', () => {
    expect(cutTo('👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧', 5)).toBe('👨‍👩‍👧👨‍👩‍👧…');
    expect(wrap('e\u0301e\u0301e\u0301', 2)).toEqual(['e\u0301e\u0301', 'e\u0301']);
    expect(wrap('🚀🚀🚀', 4)).toEqual(['🚀🚀', '🚀']);
    for (const line of wrap('🚀'.repeat(25) + ' rocket claim END-R', 30)) expect(inkStringWidth(line)).toBeLessThanOrEqual(30);
  });

  it('shows invisible format characters as a visible marker, so stored text cannot reorder or hide itself', () => {
    expect(sanitize('a\u202Eb\u202Cc\u2066d\u2069e\u00ADf\u200Bg\uFEFFh')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg\uFFFDh');
    expect(sanitize('esc \u001B[2J bell \u0007 tab\tend')).toBe('esc \uFFFD[2J bell \uFFFD tab  end');
  });
});
