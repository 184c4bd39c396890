import { describe, expect, it } from 'vitest';
import { redacts, sends } from '../helpers/redaction-leaks.js';

/**
 * Review rev27m of 3bccb22 and b1678b2 (issue 27, defect 1: the fourth reading's printed groups, `cardsInGroups` and
 * `ibansInGroups`, and the bracket seams). Open cases as it.fails (each passes once the case is held; then `.fails`
 * comes off). Found and counted with the reviewer's seeded generators (/tmp/rev27m: glued.mts, c3.mts, c4.mts,
 * cost.mts), this build ("head", b1678b2) against main b9236ed in one process; a leak is no stop and 8 consecutive
 * digits (or letters and digits) of the value in what is sent, outside placeholders.
 *
 * Held since (plain `it`): the regression and the five forms of one to three characters and beyond — a 4-4-4-4 card
 * glued on one side only is read whatever follows it, and only a 4-6-5 / 4-6-4 find whose glued runs are both of six
 * digits is read as items of a list; separators of one to four characters; the printed groups read in the text as
 * written as well as in the normal form; a wrap after a separator. glued.mts N 2000 after: seed 27, 7 sent (main 724),
 * 2 of them main stopped; seed 28, 2 sent (main 698), 1 main stopped — all three an Amex glued on both sides to runs
 * that make six-digit items in its sign (below).
 */

describe('rev27m: a regression against main b9236ed', () => {
  it('a card in one sign with an expiry or code glued to its last group and the same sign after it', () => {
    // `itemOfList` takes the digits glued after the last group, followed by the card's own separator, for the next
    // item of a list and drops the find; the one-sign copy it replaced stopped these. glued.mts seed 27, N 2000: with
    // digits glued after the last group, one-sign separators (`:` `·` `•` `*` `+` `'` `=` `~` `|` `#`) 472 of 504
    // texts sent by head, 0 by main (main stops them); seed 28: 449 of 497, 0.
    expect(sends('card 4111:1111:1111:111112:27', '4111111111111111')).toBe(false);
    expect(sends('Card: 4879•7179•8146•981911•25.', '4879717981469819')).toBe(false);
    expect(sends('card 5459:8897:0522:97490126:684 thanks', '5459889705229749')).toBe(false);
  });
});

describe('rev27m: printed groups in one separator of one to three characters that still go out (main the same)', () => {
  it('a card in `, ` or two signs with an expiry glued to its last group and the separator after it', () => {
    // The same `itemOfList` exception: the docs' `…,111112-27` is held only because a `-` follows. glued.mts seed 27:
    // separators of two or three characters and `,`, digits glued after the last group: 571 of 647 sent, head and main
    // (seed 28: 527 of 646).
    expect(sends('card 4111, 1111, 1111, 111112, 27', '4111111111111111')).toBe(false);
    expect(sends('card 4111||1111||1111||111112||27', '4111111111111111')).toBe(false);
  });

  it('an IBAN in ` - ` groups with a group of letters, glued to a date or to letters', () => {
    // The normal form reads ` - ` between two digits as `-` and keeps it next to a letter (`GB82 - WEST - 1234-5698…`),
    // so the groups are no longer in one separator. Alone (`IBAN GB82 - WEST - …`) it is replaced. c3.mts: 8 of 20
    // texts for each IBAN with a letter group after the check digits (GB IE NL IT MT LC BR SC), head and main.
    expect(sends('15.03.2024GB82 - WEST - 1234 - 5698 - 7654 - 32', 'GB82WEST12345698765432')).toBe(false);
    expect(sends('IBAN GB82 - WEST - 1234 - 5698 - 7654 - 32EUR', 'GB82WEST12345698765432')).toBe(false);
  });

  it('a card or IBAN in two signs that NFKC makes six (`……`, `︰︰`, `‥‥`)', () => {
    // Two characters as written, more than three in the normal form the reading reads. All 20 texts of c3.mts for each
    // IBAN, and every card so written (c1.mts), head and main.
    expect(sends('card 4111……1111……1111……1111', '4111111111111111')).toBe(false);
    expect(sends('IBAN DE89……3704……0044……0532……0130……00', 'DE89370400440532013000')).toBe(false);
  });

  it('a card in `.` or `,` groups with a line break after one separator', () => {
    // The break reads as a blank: `4111, 1111,1111,1111` is in two separators. c4.mts: 48 of 456 texts with one line
    // break (`\n`, `\r\n`, a blank on either side) after a separator — every one in `.` or `,`; head and main.
    expect(sends('card 4111,\n1111,1111,1111', '4111111111111111')).toBe(false);
    expect(sends('card 4111.1111.\n1111.1111 exp 12/27', '4111111111111111')).toBe(false);
  });
});

describe('rev27m: outside the documented one to three characters (head and main)', () => {
  it('a card in a JSON or Python list of strings (`", "`, four characters)', () => {
    expect(sends('card "4111", "1111", "1111", "1111"', '4111111111111111')).toBe(false);
    expect(sends("card ['4111', '1111', '1111', '1111']", '4111111111111111')).toBe(false);
  });

  it.fails('a card parted by a letter that Japanese input methods type as a dash (U+30FC) or a look-alike letter', () => {
    // `ー` (katakana prolonged sound mark, a letter: \p{Lm}) and `ǀ` (U+01C0, \p{Lo}, shows as `|`): not a separator
    // for any reading.
    expect(sends('card 4111ー1111ー1111ー1111', '4111111111111111')).toBe(false);
    expect(sends('card 4111ǀ1111ǀ1111ǀ1111', '4111111111111111')).toBe(false);
  });
});

describe('rev27m: what stays sent after the fixes', () => {
  it.fails('an Amex glued on both sides so that its groups read as a list of six-digit numbers in its sign', () => {
    // glued.mts: 2 of 2000 (seed 27), 1 of 2000 (seed 28); main stopped them (its one-sign copy), and main stopped
    // every list of six-digit figures in one sign but `.` `,` `/` `_` `-` too.
    expect(sends('Card: 263~733717~954240~983628~35', '371795424098362', 'GB')).toBe(false);
  });
});

describe('rev27m: ordinary figures this build stops that main sent unchanged', () => {
  // Kept as the cost of reading any one separator: four four-digit figures in one separator are a card's printed form,
  // and one window of four in 22 is a valid card number by chance. After review rev27m's fixes (separators of one to
  // four, so `", "` too), cost.mts N 4000: seed 27, 12 new stops (4 bracketed, 6 `#dddd, `, 2 quoted); seed 28, 17
  // (5, 4, 8); nothing replaced that main sent.
  it.fails('four order numbers after `#` or four figures in brackets, a chance card over them', () => {
    // cost.mts seed 27, N 4000 (27 shapes of figures, no value): 10 stopped by head and not by main, all of these two
    // shapes (`#dddd, ` 6 of 140; `(dddd) ` 4 of 138); none replaced that main sent. Seed 28: 9 of 4000, the same two
    // shapes. The cost docs/redaction.md names (a list of four-digit figures in one separator).
    expect(redacts('Orders #8104, #6858, #7206, #8602', 'US').stopped).toBe(false);
    expect(redacts('(6852) (1303) (7573) (1784)', 'ES').stopped).toBe(false);
  });
});
