import { describe, expect, it } from 'vitest';
import { redacts, sends } from '../helpers/redaction-leaks.js';

/**
 * Review rev27r of ef0e472, 8e513fe, 5a441b5 and 4f0d108 against q28a (e3df6c9), issue 27 defect 1 (the fourth
 * reading). Open cases as it.fails (each passes once every text in it is held; then `.fails` comes off). A leak is no
 * stop and 8 consecutive letters and digits of the value in what is sent (test/helpers/redaction-leaks.ts). Measured
 * with both builds in one process (scripts under /tmp/rev27r/).
 */
describe('rev27r: 8e513fe against q28a', () => {
  it('a wrapped card with a longer number exactly eight characters away in its own separator', () => {
    // `inRowOfFigures` reads the twelve characters before the card (and after it) and looks for `(?<!\d)\d{4}` plus a
    // gap of 1 to 8: when the gap is exactly 8, the slice starts (or ends) at the four digits, so `(?<!\d)` / `(?!\d)`
    // cannot see the digit beyond the slice — the tail (or head) of a 5- to 8-digit number reads as a group of four,
    // and, not being a year, makes a row alone. q28a read 17 characters and saw the longer number: it stopped all of
    // these; this build sends them. Seeds 27; 28, 1 000 wrapped cards beside one or two figures of 3 to 8 digits at
    // gaps of 1 to 12 (/tmp/rev27r/row.mts): 6; 5 sent by this build and held by q28a (overall 63; 64 sent against
    // q28a's 153; 135 — the rule is otherwise an improvement). Held since: the slice takes one character more.
    expect(sends('Ref 123456,      \n4111,\n1111,1111,1111 ok', '4111111111111111')).toBe(false);
    expect(sends('card 4111,\n1111,1111,1111,       123456 ok', '4111111111111111')).toBe(false);
    expect(sends('card 4111,\n1111,1111,1111,\n      123456', '4111111111111111')).toBe(false);
    expect(sends('Codes 690403.  \n6011.8894.0250.\n7412.       833957.', '6011889402507412', 'US')).toBe(false);
  });

  it('the same texts with the number one character nearer or farther are held (control)', () => {
    expect(sends('Ref 123456,     \n4111,\n1111,1111,1111 ok', '4111111111111111')).toBe(false);
    expect(sends('card 4111,\n1111,1111,1111,      123456 ok', '4111111111111111')).toBe(false);
    expect(sends('card 4111,\n1111,1111,1111,        123456 ok', '4111111111111111')).toBe(false);
  });
});

describe('rev27r: cost against q28a', () => {
  it('ordinary texts with superscript, subscript and circled numbers, bullet years and wrapped figures are not newly stopped', () => {
    // Seed 27, 6 000 ordinary texts of 24 shapes (/tmp/rev27r/cost.mts): 156 stopped by this build, 155 by q28a (26.0
    // and 25.8 per 1 000); the one new stop is a 14-digit Luhn-valid 4-6-4 with a month and year glued to its last
    // group (`valid 5873 690897 605304/2024`), the shape ef0e472 reads by design.
    for (const text of [
      'as shown¹²³⁴ and 4111 units',
      'Smith et al.¹²,³⁴⁵ and 2027 km⁴⁵⁶⁷',
      'H₂O at 1234 K, CO₂ 5678 ppm, x₁₂₃₄ 2024-03-15',
      '① step 4111\n② pay 1111\n③ ref 1111\n④ ref 1111',
      '- 1999,\n- 2004,\n- 2011,\n- 2027',
      'Years 2019,\n2020,2021,2022,\n2023',
    ])
      expect(redacts(text).stopped).toBe(false);
  });
});
