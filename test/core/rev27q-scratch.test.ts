import { describe, expect, it } from 'vitest';
import { redacts, sends } from '../helpers/redaction-leaks.js';

/**
 * Review rev27q of d0163b5, f2ab91a and 1415809 (issue 27, defect 1: the fourth reading). Open cases as it.fails (each
 * passes once every text in it is held; then `.fails` comes off). A leak is no stop and 8 consecutive letters and
 * digits of the value in what is sent, outside placeholders (test/helpers/redaction-leaks.ts). Each case says which
 * of b3a1f69 (the build before f2ab91a), main's b9236ed and ad18e48 (the build before d0163b5) send it too, measured
 * in one process (scripts under /tmp/rev27q/). Nothing b3a1f69 held is sent by this build: the first describe is the
 * one regression found, of d0163b5 against its parent.
 *
 * The helper's `sends` read every `|` of the text as a placeholder's boundary (it put `|` for each placeholder and kept
 * the text's own): a card in `||` groups counted as held whatever the redactor did, so the earlier reviews' `||` cases
 * could not fail. It now reads the stretches between placeholders apart; the `||` cases below fail by it.
 */
describe('rev27q: d0163b5 against ad18e48 (its parent)', () => {
  it('a wrapped card with a group of four 9 to 12 blanks or line breaks away in its own separator', () => {
    // `inRowOfFigures` reads up to 12 characters between the card and the group (blanks and breaks aside), where
    // `GROUP_BEFORE` / `GROUP_AFTER` read 1 to 8: a figure a paragraph away, or after trailing blanks, makes a row.
    // ad18e48 stopped all four; b3a1f69 and b9236ed send all four. Seed 27, gaps of 9 to 12: 148 of 179 sent by this
    // build and b3a1f69, 0 by ad18e48 (/tmp/rev27q/rowgap.mts).
    expect(sends('Codes 9844,         \n4111,\n1111,1111,1111', '4111111111111111')).toBe(false);
    expect(sends('Codes 9844,\n\n\n\n\n\n\n\n\n5555,\n5555,5555,4444', '5555555555554444')).toBe(false);
    expect(sends('card 5555,\n5555,5555,4444,\n\n\n\n\n\n\n\n\n2027', '5555555555554444')).toBe(false);
    expect(sends('card 5555;\n5555;5555;4444;         2027', '5555555555554444')).toBe(false);
  });
});

describe('rev27q: sent by this build, b3a1f69, ad18e48 and b9236ed alike', () => {
  it('a wrapped card with a year beside it in its own sign (the row rule)', () => {
    // By design since d0163b5 (a row of figures), but a year in the card's sign is as likely as in a blank, which
    // docs/redaction.md gives as the case that does not make a row. Wrapped cards in `,` `;` `.` groups with a figure in
    // their own sign 1 to 8 characters away (seed 27): 352 of 421 sent by every build. Held since q28c: a year alone
    // beside a wrapped card makes no row (a figure of another kind alone still does: rows of five figures).
    expect(sends('card 5555,\n5555,5555,4444, 2027', '5555555555554444')).toBe(false);
    expect(sends('card 5555;\n5555;5555;4444;2027 ok', '5555555555554444')).toBe(false);
    expect(sends('In 2027; 5555;\n5555;5555;4444 ok', '5555555555554444')).toBe(false);
  });

  it('an IBAN whose first gap has a blank or tab before its wrap', () => {
    // `GROUPS_ANY_RE` sits in a lookahead (atomic): the separator is captured greedily with the blank (`, `), the
    // other gaps (`,`) do not repeat it, and `{0,7}` lets the lookahead end after the second group — too short for
    // the country, so nothing is read. `printedForm` (cards) backtracks and holds the same shapes (seeds 27; 28: 0; 1
    // of 300 sent, the one a row of figures).
    // Seeds 27; 28: 146; 159 of 300 such IBANs sent by this build, b3a1f69 and ad18e48 alike (b9236ed 149; 164).
    // Held since q28c: `ibansInGroups` reads each place with the separator taken greedily and lazily.
    expect(sends('IBAN DE89) (\u00a0\r\n3704) (0044) (0532) (0130) (00 ok', 'DE89370400440532013000')).toBe(false);
    expect(sends('2024-03-15DE89, \n3704,0044,0532,0130,00 ok', 'DE89370400440532013000')).toBe(false);
    expect(sends('IBAN IE29||  \nAIBK||9311||5212||3456||78 ok', 'IE29AIBK93115212345678')).toBe(false);
  });

  it.fails('a card as a bullet list (the separator after the line break)', () => {
    // Seeds 27; 28: 289; 279 of 300 sent, every build.
    expect(sends('Card:\n- 5555\n- 5555\n- 5555\n- 4444', '5555555555554444')).toBe(false);
    expect(sends('* 4111\r\n* 1111\r\n* 1111\r\n* 1111\nexp 12/27', '4111111111111111')).toBe(false);
    expect(sends('• 3782\n\n• 822463\n\n• 10005', '378282246310005')).toBe(false);
  });

  it('superscript, subscript or circled digits with an NEL, U+2028 or FF wrap', () => {
    // The written reading turns decimal digits to ASCII, not these (NFKC does); the normal form reads NEL and FF as a
    // blank and ` - ` as `-`, so its gaps differ. Seeds 27; 28: 26; 24 of 300 wrapped ones sent (b3a1f69 alike, b9236ed
    // 140; 125). Held since q28c: the written reading reads a digit that is one ASCII digit to NFKC as that digit.
    expect(sends('card ⁵⁵⁵⁵,⁵⁵⁵⁵,\u0085⁵⁵⁵⁵,⁴⁴⁴⁴', '5555555555554444')).toBe(false);
    expect(sends('card ₅₅₅₅ - ₅₅₅₅ - \u2028₅₅₅₅ - ₄₄₄₄ ok', '5555555555554444')).toBe(false);
    expect(sends('card ⑤⑤⑤⑤||⑤⑤⑤⑤||\f⑤⑤⑤⑤||④④④④ ok', '5555555555554444')).toBe(false);
  });

  it.fails('a separator escaped as JSON, URL or HTML writes it (a model reads through the escape)', () => {
    // Seeds 27; 28: 252; 255 of 300 sent by the helper's measure, every build; `%20` adds digits, so the helper does
    // not see it.
    expect(sends('{"note":"card 5555 5555\\n5555 4444"}', '5555555555554444')).toBe(false);
    expect(sends('{"note":"card 5555 5555\\u00205555 4444"}', '5555555555554444')).toBe(false);
    expect(sends('card 5555 5555&nbsp;5555 4444', '5555555555554444')).toBe(false);
    const { out, stopped } = redacts('q=card&n=5555%205555%205555%204444');
    expect(stopped || !out.includes('5555%205555%205555%204444')).toBe(true);
  });

  it.fails('card lengths in printed groups the fourth reading has no form for (4-5-6 UATP, 4-4-4, 4-4-5, 4-4-4-3)', () => {
    // `PRINTED_ANY` has 4-4-4-4(-x), 4-6-5 and 4-6-4. Seeds 27; 28: 115; 127 of 300 sent, every build.
    expect(sends('ref 1627||32871||976199 ok', '162732871976199')).toBe(false);
    expect(sends('card 6759•0359•3423 ok', '675903593423')).toBe(false);
    expect(sends('card 4090||0575||88714 ok', '4090057588714')).toBe(false);
    expect(sends('card 6241||6035||2530||297 ok', '624160352530297')).toBe(false);
  });

  it.fails('separators of more than one sign, mixed between the groups', () => {
    // One separator throughout is what the fourth reading reads. Seeds 27; 28: 220; 218 of 300 sent (b9236ed 222; 221).
    expect(sends('card 6011::1111 | 1111::1117 exp 12/27', '6011111111111117')).toBe(false);
    expect(sends('card 5555||5555::5555||4444 ok', '5555555555554444')).toBe(false);
    expect(sends('IBAN GB82 · WEST || 1234 · 5698 || 7654 · 32', 'GB82WEST12345698765432')).toBe(false);
  });

  it.fails('an IBAN with a letter written in a Cyrillic look-alike (no longer valid as written; its digits and its reader do not care)', () => {
    // Not a validated value as written: mod-97 fails with `Е` (U+0415) for `E`. A confusable skeleton (as defect 7's
    // agent ids have) would read it. Every build sends it.
    expect(sends('IBAN GB82 W\u0415ST 1234 5698 7654 32', 'GB82WEST12345698765432')).toBe(false);
    expect(sends('IBAN NL91 \u0410BNA 0417 1643 00', 'NL91ABNA0417164300')).toBe(false);
  });
});

describe('rev27q: held', () => {
  it('cards and IBANs in circled and superscript digits in groups (f2ab91a sent them; 1415809 reads the normal form)', () => {
    expect(sends('④①①①||①①①①||①①①①||①①①①', '4111111111111111')).toBe(false);
    expect(sends('card ⁵⁵⁵⁵ · ⁵⁵⁵⁵ · ⁵⁵⁵⁵ · ⁴⁴⁴⁴ ok', '5555555555554444')).toBe(false);
    expect(sends('IBAN ⒹⒺ⑧⑨||③⑦⓪④||⓪⓪④④||⓪⑤③②||⓪①③⓪||⓪⓪ ok', 'DE89370400440532013000')).toBe(false);
  });
});
