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

describe('Redactor: groups parted by any sign, in any sizes (rev27e)', () => {
  it('replaces a card whose groups are parted by a sign that is not a letter or digit', () => {
    for (const separator of ['\u00b7', "'", '\u2019', ',', ', ', ':', '|', '+', '=', '*', ' \u2022', '\u30fb', '\u22c5', '\u066c', '\uff0c', ' / ']) {
      const text = `Card 4111${separator}1111${separator}1111${separator}1111 here.`;
      const result = redacts(text);
      expect(result.out, JSON.stringify(text)).toBe('Card ⟦card 1⟧ here.');
      expect(result.left, text).toEqual([]);
    }
    expect(redacts('Card (4111) 1111-1111-1111 here.').out).not.toMatch(/1111/);
    expect(redacts('Amex 3782\u00b7822463\u00b710005 here.').out).toBe('Amex ⟦card 1⟧ here.');
  });

  it('replaces a card in groups of other sizes: threes, pairs, single digits', () => {
    for (const text of ['Card 411 111 111 111 1111 here.', 'Card 41 11 11 11 11 11 11 11 here.', 'Card 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 here.']) {
      expect(redacts(text).out, text).toBe('Card ⟦card 1⟧ here.');
    }
  });

  it('replaces an IBAN and a phone number whose groups are parted by a middle dot or a comma', () => {
    expect(redacts('IBAN IE29\u00b7AIBK\u00b79311\u00b75212\u00b73456\u00b778 here.').out).toBe('IBAN ⟦iban 1⟧ here.');
    expect(redacts('IBAN IE29,AIBK,9311,5212,3456,78 here.').out).toBe('IBAN ⟦iban 1⟧ here.');
    expect(redacts('Call 087\u00b7123\u00b74567 now.').out).toBe('Call ⟦phone 1⟧ now.');
    expect(redacts('Call +353\u00b71\u00b7234\u00b75678 now.').out).toBe('Call ⟦phone 1⟧ now.');
  });

  it('keeps ordinary numbers out: decimals, a list of decimals, a date and time, a version', () => {
    for (const text of [
      'Pi is 3.14159265358979323 roughly.',
      'Values 3.14, 2.71, 1.41, 1.73, 0.57 and 4.66 here.',
      'At 2024-03-15 10:30:00 we met.',
      'Version 4.1.1.1 of 12/03/2024.',
      // A count: its groups change size, as no card's do.
      'Count 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 done.',
    ]) {
      const result = redacts(text);
      expect(result.out, text).toBe(text);
      expect(result.left, text).toEqual([]);
    }
  });
});

describe('Redactor: a national number next to another number after a blank (rev27e)', () => {
  it('replaces the valid number at the start or the end of a run of blank-parted groups', () => {
    expect(redacts('Call 087 123 4567 12 times.').out).toBe('Call ⟦phone 1⟧ 12 times.');
    expect(redacts('Call 087 123 4567 087 765 4321 now.').out).toBe('Call ⟦phone 1⟧ ⟦phone 2⟧ now.');
    expect(redacts('Room 12 087 123 4567 ask.').out).toBe('Room 12 ⟦phone 1⟧ ask.');
    expect(redacts('Call 415 555 2671 415 555 2672 both.', 'US').out).toBe('Call ⟦phone 1⟧ ⟦phone 2⟧ both.');
    expect(redacts('Call 087 123 4567 12 times.').left).toEqual([]);
  });

  it('leaves a run that holds no valid number at its start or end as written', () => {
    for (const text of ['Scores 12 34 56 78 90 here.', 'Lots 1 2 3 4 5 6 7 8 9 10 11 12.']) expect(redacts(text).out, text).toBe(text);
  });
});
