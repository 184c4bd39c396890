import { describe, expect, it } from 'vitest';
import { redacts, sends } from '../helpers/redaction-leaks.js';

/**
 * Review rev27n of 7c5d5f3, df84f6d and f2d2288 (issue 27, defect 1: the fourth reading's printed groups,
 * `cardsInGroups` / `ibansInGroups`, read in the normal form and in the text as written). Open cases as it.fails (each
 * passes once the case is held; then `.fails` comes off). Counted with the reviewer's seeded generators
 * (/tmp/rev27n: cls.mts, fz.mts, wrapcost.mts), this build ("head", f2d2288) against main b9236ed in one process; a
 * leak is no stop and 8 consecutive digits (or letters and digits) of the value in what is sent, outside
 * placeholders. None of these is a regression: main sends every one of them too (head-only leaks: 0 of 3 000 fz.mts
 * texts, seed 27).
 *
 * Held since (plain `it`, 255dc5a, 61542ec, 495b1e3): all five leak classes and the wrapped-CSV cost — separators of
 * one to eight signs, any line terminator and any number of breaks in a wrap, the written reading with every digit as
 * ASCII, readings without marks and format characters (IBANs compact too), an expiry glued to a 14- or 19-digit card,
 * and a wrapped find next to a group of four judged by the ordinary-number rules. cls.mts N 400: 0 sent in every class
 * (seeds 27 and 28); fz.mts 4 000: 30 sent (main 1 815), none that main did not send; wrapcost.mts: 1 new stop of 3 000.
 */

describe('rev27n: a wrap after a separator with a line terminator other than CR and LF, or three breaks', () => {
  it('a card or IBAN in one sign wrapped with VT, FF, NEL, U+2028 or U+2029 after one separator', () => {
    // `WRAP` takes `\r` and `\n` only; the normal form reads VT, FF and NEL as a blank (so `4111, 1111,1111,1111` is in
    // two separators) and keeps U+2028/U+2029, which `ANY_SEPARATOR` then counts into the one gap. Word's manual line
    // break is VT, PDF text has FF between pages. cls.mts `otherBreaks`, N 400, seed 27: 186 sent by head, 186 by main.
    expect(sends('card 4111,\u000b1111,1111,1111', '4111111111111111')).toBe(false);
    expect(sends('card 4111,\f1111,1111,1111', '4111111111111111')).toBe(false);
    expect(sends('card 4111,\u20281111,1111,1111', '4111111111111111')).toBe(false);
    expect(sends('card 5513·3557·6362·\u2029 3664', '5513355763623664')).toBe(false);
    expect(sends('ref CH58||1637||1QT9||\u0085DIKQ||9E86||C ok', 'CH5816371QT9DIKQ9E86C')).toBe(false);
  });

  it('three line breaks after a separator (a blank line and a break)', () => {
    // `WRAP` takes one or two. cls.mts `threeBreaks`, N 400, seed 27: 373 sent by head, 373 by main.
    expect(sends('card 4111-1111-\n\n\n1111-1111', '4111111111111111')).toBe(false);
    expect(sends('ref 12 5137:5484:4419:\n\n\n7928 exp 12/27', '5137548444197928')).toBe(false);
  });
});

describe('rev27n: a separator NFKC makes longer than four, with digits the text as written does not read', () => {
  it('full-width, Arabic-Indic or zero-width-split digits in `……` or `︙︙` groups', () => {
    // The normal form reads the digits but makes `……` six dots (over four); the text as written keeps two signs but
    // its digits are not ASCII digits or a format character splits a group. Neither reading reads the groups, no other
    // reading reads them either. cls.mts `nfkcLongAndDigits`, N 400, seed 27: 399 sent by head, 400 by main.
    expect(sends('card ４１１１……１１１１……１１１１……１１１１', '4111111111111111')).toBe(false);
    expect(sends('card 4111……1111……1111……11\u200b11', '4111111111111111')).toBe(false);
    expect(sends('card ٤١١١︙︙١١١١︙︙١١١١︙︙١١١١', '4111111111111111')).toBe(false);
    expect(sends('IBAN ＤＥ８９……３７０４……００４４……０５３２……０１３０……００', 'DE89370400440532013000', 'DE')).toBe(false);
  });
});

describe('rev27n: an expiry glued to the last group of a 14-digit (4-6-4) or 19-digit (4-4-4-4-3) card', () => {
  it('in blanks or one sign, the expiry run into the last group', () => {
    // The docs hold an expiry glued to a 4-4-4-4 or 4-6-5 card; the 4-6-4 and 4-4-4-4-{1,3} forms require no digit
    // after their last group (`(?!\d)`), and no other reading reads them; "What is still sent" does not name them.
    // cls.mts `gluedExpiry1419`, N 400, seed 27: 367 sent by head, 367 by main.
    expect(sends('card 3056 930902 590412/27', '30569309025904')).toBe(false);
    expect(sends('card 3056:930902:590412:27', '30569309025904')).toBe(false);
    expect(sends('card 4000 0000 0000 0000 00612/27', '4000000000000000006')).toBe(false);
  });
});

describe('rev27n: an IBAN with an invisible default-ignorable mark after one of its letters', () => {
  it('a variation selector, the grapheme joiner or a Mongolian selector after a letter, in the usual print', () => {
    // The normal form keeps a mark after a letter (docs/redaction.md), so `DE︎89` is no country code and check digits
    // for any reading, though it shows as `DE89`. Outside the reviewed diff (main the same), but defect 1's rule.
    // cls.mts `ibanIgnorableMark`, N 400, seed 27: 372 sent by head, 372 by main.
    expect(sends('IBAN DE\ufe0f89 3704 0044 0532 0130 00', 'DE89370400440532013000', 'DE')).toBe(false);
    expect(sends('IBAN GB82 WE\u034fST 1234 5698 7654 32', 'GB82WEST12345698765432', 'GB')).toBe(false);
    expect(sends('IBAN IE29AI\u034fBK93115212345678', 'IE29AIBK93115212345678')).toBe(false);
  });
});

describe('rev27n: ordinary figures this build stops that main sent unchanged', () => {
  it('rows of four-digit figures with a trailing comma, a line break after it', () => {
    // A line break in a find makes it count whatever the ordinary-number rules say (`counts` in `readWhole`), so a
    // row's trailing separator and the next row read as a wrapped card. wrapcost.mts N 600, seed 27: `csvTrailing`
    // 103 stopped by head and sent unchanged by main (17 in 100); hard-wrapped lists in prose (`…, 5975,\n8283, …`)
    // 4 of 600. Not in the cost docs/redaction.md names.
    expect(redacts('9844,6978,\n5759,2842,\n5590,5918,5255,\n7413,3659,', 'DE').stopped).toBe(false);
    expect(redacts('4376,8456,\n5892,6507,\n9941,5261,\n9838,1998,9688,').stopped).toBe(false);
  });
});
