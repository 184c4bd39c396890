import { describe, expect, it } from 'vitest';
import { sends } from '../helpers/redaction-leaks.js';

/**
 * Review rev27p of 255dc5a, 61542ec and 495b1e3 (issue 27, defect 1: the fourth reading's printed groups). Open cases
 * as it.fails (each passes once the case is held; then `.fails` comes off). A leak is no stop and 8 consecutive
 * letters and digits of the value in what is sent, outside placeholders. Main sends every one of these too; the first
 * describe is sent by this build and stopped by f2d2288 (the tree rev27n reviewed).
 *
 * Held since (plain `it`): a wrapped card next to a year or a phone number's tail (a group of four counts as a row of
 * figures only in the card's own separator), a full-width IBAN wrapped in FF/VT/U+2028 (the written reading folds
 * full-width letters and signs too), a wrap indented with any space; later (q28a/q28b) mathematical digits (the written
 * reading reads a digit outside the BMP as one) and a four-digit year glued to a 4-6-4 card (a month of 01–12 and `20`
 * after the short last group). Still open, tried and withdrawn: the separator after the line break — the readings
 * tried stopped rows of figures and cards with a code after them (new stops: 32 of 4 000 ordinary figures next to a
 * value, 93 of 1 000 CSV rows, 14 of 400 cards with expiry and code), and it makes bulleted lists of years cards.
 */
describe('rev27p: a wrapped card next to a group of four in another separator', () => {
  it('a card wrapped after its separator beside a year or the end of a phone number', () => {
    // 255dc5a judges a wrapped find by the ordinary-number rules when any group of four stands next to it in any
    // separator (`GROUP_BEFORE` / `GROUP_AFTER`); rows of figures share the card's own separator. f2d2288 stopped all four.
    expect(sends('card 4111,\n1111,1111,1111 2027 ok', '4111111111111111')).toBe(false);
    expect(sends('card 4111,\n1111,1111,1111\n2027 ok', '4111111111111111')).toBe(false);
    expect(sends('In 2024 4111.\n1111.1111.1111 paid', '4111111111111111')).toBe(false);
    expect(sends('call 087 123 4567 4111,\n1111,1111,1111 ok', '4111111111111111')).toBe(false);
  });
});

describe('rev27p: variations of the fixed classes', () => {
  it('an IBAN in full-width letters and digits wrapped with FF, VT or U+2028', () => {
    // The written reading turns digits to ASCII but not full-width letters; the normal form reads FF/VT as a blank.
    expect(sends('IBAN ＤＥ８９||３７０４||００４４||\f０５３２||０１３０||００ ok', 'DE89370400440532013000')).toBe(false);
    expect(sends('IBAN ＤＥ８９||３７０４||００４４||\u000b０５３２||０１３０||００ ok', 'DE89370400440532013000')).toBe(false);
    expect(sends('IBAN ＤＥ８９ - ３７０４ - ００４４ - \u2028０５３２ - ０１３０ - ００ ok', 'DE89370400440532013000')).toBe(false);
  });

  it('a 4-6-4 card with an expiry of a four-digit year glued to its last group', () => {
    // `SHORT_LAST` took MMYY and MM?YY only; now a month of 01–12 and a year of 20xx too.
    expect(sends('card 3056 930902 590412/2027 ok', '30569309025904')).toBe(false);
    expect(sends('card 3056-930902-5904122027 ok', '30569309025904')).toBe(false);
    expect(sends('card 3056.930902.590412.2027 ok', '30569309025904')).toBe(false);
  });

  it('a wrap in FF or VT indented with a no-break or ideographic space', () => {
    // `WRAP` takes `[ \t]` around the breaks; with LF the normal form holds it, with FF/VT it does not.
    expect(sends('card 4111,\f\u00a01111,1111,1111 ok', '4111111111111111')).toBe(false);
    expect(sends('card 4111,\u000b\u30001111,1111,1111 ok', '4111111111111111')).toBe(false);
    expect(sends('card 4111,\u00a0\f1111,1111,1111 ok', '4111111111111111')).toBe(false);
  });

  it('mathematical digits (outside the BMP) with a U+2028 wrap after ` - `', () => {
    // The normal form reads ` - ` between two digits as `-`; the written reading reads each digit outside the BMP as one (q28a).
    expect(sends('card 𝟒𝟏𝟏𝟏 - \u2028𝟏𝟏𝟏𝟏 - 𝟏𝟏𝟏𝟏 - 𝟏𝟏𝟏𝟏 ok', '4111111111111111')).toBe(false);
  });

  it.fails('the separator after the line break rather than before it', () => {
    expect(sends('card 4111\n-1111-1111-1111 ok', '4111111111111111')).toBe(false);
    expect(sends('card 4111\u2028-1111-1111-1111 ok', '4111111111111111')).toBe(false);
  });
});
