import { describe, expect, it } from 'vitest';
import { domainRegions, namesRegion, paragraphAround, PassageCues, REACH } from '../../../src/core/facts/passage.js';

describe('what a passage says about its region', () => {
  it('is the paragraph around the value, up to a blank line, at most REACH characters either side', () => {
    const text = 'first\n\nSecond paragraph 0171 2345678 here\n  \r\nthird';
    const at = text.indexOf('0171');
    const paragraph = paragraphAround(text, at, at + 12);
    expect(text.slice(paragraph.start, paragraph.end)).toBe('Second paragraph 0171 2345678 here');
    const long = `${'a'.repeat(REACH + 50)} 0171 ${'b'.repeat(REACH + 50)}`;
    const middle = long.indexOf('0171');
    expect(paragraphAround(long, middle, middle + 4)).toEqual({ start: middle - REACH, end: middle + 4 + REACH });
    expect(paragraphAround('0171', 0, 4)).toEqual({ start: 0, end: 4 });
  });

  it('reads the country-code domains of e-mail and web addresses', () => {
    expect(domainRegions('j.weber@weber-bau.de, www.example.co.uk and https://shop.example.fr/path')).toEqual(['DE', 'GB', 'FR']);
    expect(domainRegions('mail me at ola@hansen.no.')).toEqual(['NO']);
    // No host: a file name, a version, a generic domain, a longer label.
    expect(domainRegions('see notes.de or v1.2.at, anna@example.com, www.example.info, a@b.de-x')).toEqual([]);
  });

  it('finds country names in English and the lexicon’s languages, as written and not inside a word', () => {
    expect(namesRegion('Our office in Germany', 'DE')).toBe(true);
    expect(namesRegion('Büro in Deutschland', 'DE')).toBe(true);
    expect(namesRegion('bureau en Allemagne', 'DE')).toBe(true);
    expect(namesRegion('the UK office', 'GB')).toBe(true);
    expect(namesRegion('the US office', 'US')).toBe(true);
    expect(namesRegion('Sverige', 'SE')).toBe(true);
    expect(namesRegion('germany', 'DE')).toBe(false);
    expect(namesRegion('Germanys', 'DE')).toBe(false);
    expect(namesRegion('Our office in Germany', 'AT')).toBe(false);
  });

  it('names places by international numbers, domains, IBANs, country names and postcodes', () => {
    const cues = new PassageCues('IBAN NL91 ABNA 0417 1643 00, mail x@y.se, office in Norway, 10 Downing Street, London, SW1A 2AA', ['IE']);
    expect([...cues.places(['IE', 'NL', 'SE', 'NO', 'GB', 'DE', 'US'], 'certain')].sort()).toEqual(['GB', 'IE', 'NL', 'NO', 'SE']);
    expect([...cues.places(['IE', 'NL', 'SE', 'NO', 'GB'], 'vague')]).toEqual([]);
  });

  it('calls a postcode that several countries’ formats fit a vague place', () => {
    const cues = new PassageCues('Stephansplatz 1\n1010 Wien', []);
    expect([...cues.places(['AT', 'CH', 'DE'], 'vague')].sort()).toEqual(['AT', 'CH']);
    expect([...cues.places(['AT', 'CH', 'DE'], 'certain')]).toEqual([]);
    const prefixed = new PassageCues('Stephansplatz 1\nA-1010 Wien', []);
    expect([...prefixed.places(['AT', 'CH'], 'certain')]).toEqual(['AT']);
  });

  it('tells how strongly the passage is written in a language of a region', () => {
    const cues = new PassageCues('Hallo Tom, kannst du bitte morgen früh zurückrufen? Die Nummer ist', []);
    const support = cues.languageSupport('AT');
    expect(support.language).toBe('de');
    expect(support.score).toBeGreaterThanOrEqual(2);
    expect(cues.languageSupport('JP')).toEqual({ score: 0, language: undefined });
  });
});

describe('the names of a region', () => {
  it('matches a name with regex characters as written', () => {
    expect(namesRegion('office in St. Lucia', 'LC')).toBe(true);
    expect(namesRegion('office in St Lucia', 'LC')).toBe(false);
    expect(namesRegion('Büro in St. Kitts und Nevis', 'KN')).toBe(true);
  });

  it('knows no name for a region Intl does not name, and takes no one-letter name', () => {
    expect(namesRegion('No country here, or there.', 'XX')).toBe(false);
    expect(namesRegion('', 'XX')).toBe(false);
    expect(namesRegion('Guam', 'GU')).toBe(true);
    expect(namesRegion('괌', 'GU')).toBe(false);
    expect(namesRegion('the US team', 'US')).toBe(true);
    expect(namesRegion('the UK team', 'GB')).toBe(true);
  });
});

describe('the language support of a passage for a region', () => {
  it('is the best-scoring of the region’s languages, the first seen on a tie', () => {
    // fr 2.5, es 0.5 (a word shared with French), de 1: for Switzerland, French.
    expect(new PassageCues('bonjour nous avons les und', []).languageSupport('CH')).toEqual({ score: 2.5, language: 'fr' });
    // de 1.5 and fr 1.5: German, seen first.
    expect(new PassageCues('Die Nummer und les numéros nous', []).languageSupport('CH')).toEqual({ score: 1.5, language: 'de' });
    expect(new PassageCues('Die Nummer und les numéros nous', []).languageSupport('FR')).toEqual({ score: 1.5, language: 'fr' });
  });
});
