import { describe, expect, it } from 'vitest';
import { DEFAULT_REDACT_KINDS, readingOf, Redactor } from '../../../src/core/facts/redact.js';

/**
 * Issue 27 review (rev27e): texts whose validated value went out under `redact: auto`, each asserting the text that
 * would be sent and whether the request stops. The same texts through the CLI: test/commands/rev27e-scratch.test.ts.
 */
const redacts = (text: string, region: string | null = 'IE') => {
  const r = new Redactor({ kinds: DEFAULT_REDACT_KINDS, region, regions: [] });
  const out = r.redact(text);
  return { out: out.text, left: r.leftBehind().sort(), map: r.map() };
};

describe('Redactor: invisible characters the normal form kept (rev27e)', () => {
  it('leaves out C0 and C1 controls other than the blanks and line breaks, so the value reads whole', () => {
    for (const control of ['\u0000', '\u0001', '\u0008', '\u001b', '\u007f', '\u0080', '\u009f']) {
      const text = `Card 4111${control}1111${control}1111${control}1111 here.`;
      expect(redacts(text).out, JSON.stringify(text)).toBe('Card ⟦card 1⟧ here.');
      expect(readingOf(`4111${control}1111`)?.text).toBe('41111111');
    }
    expect(redacts('Call 087\u0000123\u00004567 now.').out).toBe('Call ⟦phone 1⟧ now.');
  });

  it('reads Hangul fillers and the Braille blank as blanks', () => {
    for (const filler of ['\u3164', '\uffa0', '\u115f', '\u1160', '\u2800']) {
      const text = `Card 4111${filler}1111${filler}1111${filler}1111 here.`;
      expect(redacts(text).out, JSON.stringify(text)).toBe('Card ⟦card 1⟧ here.');
      expect(readingOf(`4111${filler}1111`)?.text).toBe('4111 1111');
    }
  });

  it('leaves out a combining mark after any character that is not a letter, and keeps one after a letter', () => {
    expect(redacts('Card 4111-\u03011111-\u03011111-\u03011111 here.').out).toBe('Card ⟦card 1⟧ here.');
    expect(redacts('Card 4111 \u03011111 \u03011111 \u03011111 here.').out).toBe('Card ⟦card 1⟧ here.');
    expect(readingOf('4111 \u0301 1111-\u20dd1111')?.text).toBe('4111 1111-1111');
    // Unchanged: a reading equal to the text is none.
    expect(readingOf('cafe\u0301 4111')).toBeUndefined();
  });
});
