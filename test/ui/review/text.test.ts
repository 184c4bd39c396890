import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { safeText } from '../../../src/core/text-guard.js';
import { cutTo, displayWidth, oneLine, wrap } from '../../../src/ui/review/text.js';

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

/** The string-width ink resolves from its own package: the measure that decides where ink cuts a line. */
async function inkStringWidth(): Promise<(text: string) => number> {
  const fromInk = createRequire(createRequire(import.meta.url).resolve('ink')).resolve('string-width');
  return ((await import(fromInk)) as { default: (text: string) => number }).default;
}

describe('display width (what ink measures)', () => {
  it('measures with the very string-width ink uses (if an ink upgrade brought another, text could vanish)', async () => {
    const ours = createRequire(import.meta.url).resolve('string-width');
    expect(createRequire(createRequire(import.meta.url).resolve('ink')).resolve('string-width')).toBe(ours);
  });

  it.each(SAMPLES)('agrees with ink’s string-width on %s', async (text) => {
    expect(displayWidth(text)).toBe((await inkStringWidth())(text));
  });

  it('agrees once sanitised on zero-width and format characters', async () => {
    const text = safeText('every\u200B 9\u00AD0 days\uFEFF \u202Ereversed\u202C \u2066iso\u2069 tag\u{E0041}\u{E0042}');
    expect(displayWidth(text)).toBe((await inkStringWidth())(text));
  });

  it('cuts and wraps by grapheme, never splitting an emoji or a letter from its accent', async () => {
    const inkWidth = await inkStringWidth();
    expect(cutTo('👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧', 5)).toBe('👨‍👩‍👧👨‍👩‍👧…');
    expect(wrap('e\u0301e\u0301e\u0301', 2)).toEqual(['e\u0301e\u0301', 'e\u0301']);
    expect(wrap('🚀🚀🚀', 4)).toEqual(['🚀🚀', '🚀']);
    for (const line of wrap('🚀'.repeat(25) + ' rocket claim END-R', 30)) expect(inkWidth(line)).toBeLessThanOrEqual(30);
  });

  it('shows invisible format characters as a visible marker, so stored text cannot reorder or hide itself', () => {
    expect(wrap('a\u202Eb\u202Cc\u2066d\u2069e\u00ADf\u200Bg\uFEFFh', 80)).toEqual(['a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg\uFFFDh']);
    expect(wrap('esc \u001B[2J bell \u0007 tab\tend', 80)).toEqual(['esc \uFFFD[2J bell \uFFFD tab  end']);
    expect(oneLine(' model\u001B]0;pwned\u0007 \r\n id ')).toBe('model\uFFFD]0;pwned\uFFFD id');
  });
});
