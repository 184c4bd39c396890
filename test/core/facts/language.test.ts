import { describe, expect, it } from 'vitest';
import { isLanguageOf, languageScores, regionsOfLanguage } from '../../../src/core/facts/language.js';

const top = (text: string): string | undefined => [...languageScores(text)].sort((a, b) => b[1] - a[1])[0]?.[0];

describe('language of a passage (function words and scripts)', () => {
  it('scores the function words of each language, a word shared by n languages counting 1/n to each', () => {
    const scores = languageScores('Hallo Tom, kannst du bitte morgen früh zurückrufen? Die Nummer ist 0171 2345678.');
    expect(top('Hallo Tom, kannst du bitte morgen früh zurückrufen? Die Nummer ist 0171 2345678.')).toBe('de');
    expect(scores.get('de')).toBeGreaterThanOrEqual(2);
    // `på` is Swedish, Danish and Norwegian alike.
    const shared = languageScores('på');
    expect(shared.get('sv')).toBeCloseTo(1 / 3);
    expect(shared.get('da')).toBeCloseTo(1 / 3);
    expect(shared.get('no')).toBeCloseTo(1 / 3);
    expect(shared.get('en')).toBeUndefined();
    // Case does not matter; words not in any list count nothing.
    expect(languageScores('ETTER')).toEqual(languageScores('etter'));
    expect(languageScores('Xyzzy 0171 2345678').size).toBe(0);
  });

  it('tells Japanese by kana, Korean by Hangul and Chinese by Han without kana, a word per four characters', () => {
    expect(languageScores('ご連絡ください').get('ja')).toBeCloseTo(5 / 4);
    expect(languageScores('ご連絡ください').get('zh')).toBeUndefined();
    expect(languageScores('전화 주세요').get('ko')).toBeCloseTo(5 / 4);
    expect(languageScores('请给我打电话').get('zh')).toBeCloseTo(6 / 4);
    expect(languageScores('请给我打电话').get('ja')).toBeUndefined();
  });

  it('knows where each language is written: the lexicon table, else the region’s most likely language (CLDR)', () => {
    expect(regionsOfLanguage('de')).toEqual(['DE', 'AT', 'CH', 'LI', 'LU']);
    expect(regionsOfLanguage('xx')).toEqual([]);
    expect(isLanguageOf('de', 'AT')).toBe(true);
    expect(isLanguageOf('fr', 'CH')).toBe(true);
    expect(isLanguageOf('de', 'FR')).toBe(false);
    expect(isLanguageOf('uk', 'UA')).toBe(true);
    expect(isLanguageOf('en', 'UA')).toBe(false);
    expect(isLanguageOf('en', 'not a region')).toBe(false);
  });
});
