import { describe, expect, it } from 'vitest';
import { texts, values } from './helpers.js';

describe('phone recogniser', () => {
  it('normalises national and international forms of one number to the same E.164 value', () => {
    expect(values('phone', 'Office: +353 1 234 5678, home 01 234 5678', { region: 'IE' })).toEqual(['+35312345678', '+35312345678']);
  });

  it('finds only international numbers without a region (null or unsupported) and an empty candidate list', () => {
    const text = 'Office: +353 1 234 5678, home 01 234 5678';
    expect(texts('phone', text, { region: null, regions: [] })).toEqual(['+353 1 234 5678']);
    expect(texts('phone', text, { region: 'XX', regions: [] })).toEqual(['+353 1 234 5678']);
  });

  it('uses the region for national numbers', () => {
    expect(texts('phone', 'My US number is (415) 555-0132', { region: 'US' })).toEqual(['(415) 555-0132']);
    expect(texts('phone', 'My US number is (415) 555-0132', { region: null })).toEqual([]);
  });

  it('rejects invalid numbers: wrong length, unassigned ranges', () => {
    expect(texts('phone', '1111111111', { region: 'US' })).toEqual([]);
    expect(texts('phone', '532123456 53212345678', { region: 'TR' })).toEqual([]);
    expect(texts('phone', 'call +353 1 234', { region: null })).toEqual([]);
  });

  it('rejects numbers run into letters', () => {
    expect(texts('phone', '2133734253a', { region: 'US' })).toEqual([]);
    expect(texts('phone', 'The UUID is CA801c26f98cd16e231354125ad046e40b.', { region: 'FR' })).toEqual([]);
  });

  it('keeps an extension in the span and in the normalised value', () => {
    expect(values('phone', 'Call +7 (800) 555-35-35 ext. 123 now', { region: null })).toEqual(['+78005553535;ext=123']);
  });

  it('does not absorb a bracket that wraps the whole number', () => {
    expect(texts('phone', 'ring (+353 1 234 5678) or [01 234 5678]', { region: 'IE' })).toEqual(['+353 1 234 5678', '01 234 5678']);
    expect(texts('phone', 'US (415) 555-0132', { region: 'US' })).toEqual(['(415) 555-0132']);
  });

  it('matches full-width digits, with the span as written and the value in ASCII', () => {
    const text = 'Call ０１ ２３４ ５６７８ now';
    expect(texts('phone', text, { region: 'IE' })).toEqual(['０１ ２３４ ５６７８']);
    expect(values('phone', text, { region: 'IE' })).toEqual(['+35312345678']);
  });

  it('is not fooled by a timestamp', () => {
    expect(texts('phone', '2012-01-02 08:00', { region: 'US' })).toEqual([]);
  });

  it('trims an unbalanced opening bracket of any kind, with the spaces after it', () => {
    for (const opener of ['(', '[', '{', '（', '［']) {
      expect(texts('phone', `call ${opener} +353 1 234 5678 now`, { region: null }), opener).toEqual(['+353 1 234 5678']);
    }
  });
});
