import { describe, expect, it } from 'vitest';
import { ibansAnywhere, ibansInGroups } from '../../../src/core/facts/recognisers/iban.js';
import { texts, values } from './helpers.js';

describe('iban recogniser', () => {
  it('finds compact, space-grouped and dash-grouped IBANs and normalises to electronic format', () => {
    const text = 'pay AL47212110090000000235698741 or NL91 ABNA 0417 1643 00 or AL47-2121-1009-0000-0002-3569-8741.';
    expect(texts('iban', text)).toEqual(['AL47212110090000000235698741', 'NL91 ABNA 0417 1643 00', 'AL47-2121-1009-0000-0002-3569-8741']);
    expect(values('iban', 'IE29 AIBK 9311 5212 3456 78')).toEqual(['IE29AIBK93115212345678']);
  });

  it('rejects a wrong checksum', () => {
    expect(texts('iban', 'AT61 1904 3002 3457 3202')).toEqual([]);
    expect(texts('iban', 'DE89 3704 0044 0532 0130 01')).toEqual([]);
    // The same numbers with their right check digits are found.
    expect(texts('iban', 'AT61 1904 3002 3457 3201 and DE89 3704 0044 0532 0130 00')).toEqual(['AT61 1904 3002 3457 3201', 'DE89 3704 0044 0532 0130 00']);
  });

  it('rejects a wrong length for the country', () => {
    expect(texts('iban', 'IL15 0120 6900 0000 3111 0120 6900 0000 3111 141')).toEqual([]);
    expect(texts('iban', 'AL47 212A 1009 0000 0002 3569 874')).toEqual([]);
    expect(texts('iban', 'IL62 0108 0000 0009 9999 999 and AL47 2121 1009 0000 0002 3569 8741')).toEqual([
      'IL62 0108 0000 0009 9999 999',
      'AL47 2121 1009 0000 0002 3569 8741',
    ]);
  });

  it('rejects an unknown country code', () => {
    expect(texts('iban', 'AB150120690000003111141')).toEqual([]);
    expect(texts('iban', 'IL620108000000099999999')).toEqual(['IL620108000000099999999']);
  });

  it('never runs into adjacent letters or digits', () => {
    expect(texts('iban', 'XAL47212110090000000235698741')).toEqual([]);
    expect(texts('iban', 'AL47212110090000000235698741X')).toEqual([]);
    expect(texts('iban', '9AL47212110090000000235698741')).toEqual([]);
    expect(texts('iban', 'AL472121100900000002356987410')).toEqual([]);
    expect(texts('iban', 'X AL47212110090000000235698741 X')).toEqual(['AL47212110090000000235698741']);
  });

  it('does not absorb a following word or a short trailing token', () => {
    expect(texts('iban', 'AL47212110090000000235698741 ALL CAPS')).toEqual(['AL47212110090000000235698741']);
    expect(texts('iban', 'this is an iban VG96 VPVG 0000 0123 4567 8901 X in a sentence')).toEqual(['VG96 VPVG 0000 0123 4567 8901']);
  });

  it('rejects irregular grouping: double spaces, a split country code, mixed separators', () => {
    expect(texts('iban', 'EE38 2200 2210  014 5686')).toEqual([]);
    expect(texts('iban', 'G T82 TRAJ 0102 0000 0012 1002 9690')).toEqual([]);
    expect(texts('iban', 'NL91 ABNA-0417 1643 00')).toEqual([]);
    expect(texts('iban', 'EE38 2200 2210 2014 5685, GT82 TRAJ 0102 0000 0012 1002 9690')).toEqual([
      'EE38 2200 2210 2014 5685',
      'GT82 TRAJ 0102 0000 0012 1002 9690',
    ]);
  });

  it('matches any case, as written, normalised to upper case; full-width forms are not matched', () => {
    expect(texts('iban', 'pay nl91abna0417164300 now')).toEqual(['nl91abna0417164300']);
    expect(values('iban', 'pay nl91abna0417164300 now')).toEqual(['NL91ABNA0417164300']);
    expect(values('iban', 'IBAN: ie29 aibk 9311 5212 3456 78.')).toEqual(['IE29AIBK93115212345678']);
    expect(values('iban', 'Ie29-aibk-9311-5212-3456-78')).toEqual(['IE29AIBK93115212345678']);
    // Letters after the country code in both cases: a typo, not an IBAN.
    expect(texts('iban', 'LV80 bANK 0000 4351 9500 1')).toEqual([]);
    expect(texts('iban', 'nl91abna0417164301')).toEqual([]);
    expect(texts('iban', 'ＮＬ９１ＡＢＮＡ０４１７１６４３００')).toEqual([]);
  });

  it('rejects an IBAN run into a lower-case or non-ASCII letter', () => {
    expect(texts('iban', 'IE29AIBK93115212345678x IE29 AIBK 9311 5212 3456 78é')).toEqual([]);
    expect(texts('iban', 'IE29AIBK93115212345678 x IE29 AIBK 9311 5212 3456 78 é')).toEqual(['IE29AIBK93115212345678', 'IE29 AIBK 9311 5212 3456 78']);
  });

  it('rejects an IBAN glued to a letter outside the basic plane', () => {
    expect(texts('iban', '𝐀IE29AIBK93115212345678')).toEqual([]);
    expect(texts('iban', '𝟿IE29AIBK93115212345678')).toEqual([]);
    expect(texts('iban', '𝐀 IE29AIBK93115212345678')).toEqual(['IE29AIBK93115212345678']);
    expect(texts('iban', '😀IE29AIBK93115212345678')).toEqual(['IE29AIBK93115212345678']);
    expect(texts('iban', 'to IE29AIBK93115212345678')).toEqual(['IE29AIBK93115212345678']);
    expect(texts('iban', 'a）IE29AIBK93115212345678')).toEqual(['IE29AIBK93115212345678']);
  });
});

describe('ibansAnywhere: the second reading of redacted text (issue 27)', () => {
  const spans = (text: string) => ibansAnywhere(text).map((match) => [match.kind, match.text, match.start, match.end, match.normalized]);

  it("finds an IBAN glued to letters or digits on either side, cut at its country's length", () => {
    expect(spans('ref7DE89370400440532013000x')).toEqual([['iban', 'DE89370400440532013000', 4, 26, 'DE89370400440532013000']]);
    expect(spans('abcDE89370400440532013000')).toEqual([['iban', 'DE89370400440532013000', 3, 25, 'DE89370400440532013000']]);
    expect(spans('DE89370400440532013000123')).toEqual([['iban', 'DE89370400440532013000', 0, 22, 'DE89370400440532013000']]);
  });

  it('finds one written in groups, normalised to its electronic form', () => {
    expect(spans('xx GB82 WEST 1234 5698 7654 32 yy')).toEqual([['iban', 'GB82 WEST 1234 5698 7654 32', 3, 30, 'GB82WEST12345698765432']]);
    expect(spans('DE89 3704 0044 0532 0130 00')).toEqual([['iban', 'DE89 3704 0044 0532 0130 00', 0, 27, 'DE89370400440532013000']]);
  });

  it('finds one in groups of any size or separator, by dots, a blank after the country code, or threes (issue 27 review)', () => {
    expect(spans('IBAN DE89.3704.0044.0532.0130.00 for')).toEqual([['iban', 'DE89.3704.0044.0532.0130.00', 5, 32, 'DE89370400440532013000']]);
    expect(spans('IBAN DE 89 3704 0044 0532 0130 00 for')).toEqual([['iban', 'DE 89 3704 0044 0532 0130 00', 5, 33, 'DE89370400440532013000']]);
    expect(spans('IBAN DE893 704 004 405 320 130 00 for')).toEqual([['iban', 'DE893 704 004 405 320 130 00', 5, 33, 'DE89370400440532013000']]);
    // A wrong check, two separators in a row, or prose: nothing.
    for (const text of ['DE88.3704.0044.0532.0130.00', 'DE89..3704.0044.0532.0130.00', 'It is a fine day at 10 or 11 with 12 friends, de 89 of them.']) {
      expect(spans(text), text).toEqual([]);
    }
  });

  it('finds nothing for a country code of no IBAN country, a wrong check or too few characters', () => {
    expect(spans('QQ89370400440532013000')).toEqual([]);
    expect(spans('DE88370400440532013000')).toEqual([]);
    expect(spans('DE8937040044053201300')).toEqual([]);
  });
});

describe('ibansInGroups: the fourth reading of redaction (issue 27, review rev27k)', () => {
  const spans = (text: string) => ibansInGroups(text).map((match) => [match.text, match.start, match.end, match.normalized]);

  it('reads an IBAN printed in groups of four with one and the same separator of one to three signs', () => {
    for (const separator of [':', '::', ' · ', '||', ', ', '⟦', ' - ', '……', '", "']) {
      const written = ['DE89', '3704', '0044', '0532', '0130', '00'].join(separator);
      expect(spans(`x ${written} y`), separator).toEqual([[written, 2, 2 + written.length, 'DE89370400440532013000']]);
    }
    // A long country (Malta, 31 characters) and one with letters in its groups.
    expect(spans('MT84::MALT::0110::0001::2345::MTLC::AST0::01S')).toEqual([
      ['MT84::MALT::0110::0001::2345::MTLC::AST0::01S', 0, 45, 'MT84MALT011000012345MTLCAST001S'],
    ]);
  });

  it('reads one glued to a date before it or to letters, cut at its country length', () => {
    expect(spans('15.03.2024DE89:3704:0044:0532:0130:00')).toEqual([['DE89:3704:0044:0532:0130:00', 10, 37, 'DE89370400440532013000']]);
    expect(spans('jane@example.comNL16,DRTN,8675,9418,50')).toEqual([['NL16,DRTN,8675,9418,50', 16, 38, 'NL16DRTN8675941850']]);
    expect(spans('comGB82;WEST;1234;5698;7654;32exp')).toEqual([['GB82;WEST;1234;5698;7654;32', 3, 30, 'GB82WEST12345698765432']]);
  });

  it('does not read mixed separators or a wrong checksum', () => {
    expect(spans('DE89:3704::0044:0532:0130:00')).toEqual([]);
    expect(spans('DE89:3704:0044:0532:0130:01')).toEqual([]);
  });

  it('reads one whose first gap has blanks before its wrap and the others none (the separator taken lazily; review rev27q)', () => {
    expect(spans('2024-03-15DE89, \n3704,0044,0532,0130,00 ok')).toEqual([['DE89, \n3704,0044,0532,0130,00', 10, 39, 'DE89370400440532013000']]);
    expect(spans('IBAN IE29||  \nAIBK||9311||5212||3456||78 ok').map((span) => span[3])).toEqual(['IE29AIBK93115212345678']);
    // Read greedily and lazily alike: found once.
    expect(spans('x DE89 - 3704 - 0044 - 0532 - 0130 - 00 y')).toHaveLength(1);
  });
});
