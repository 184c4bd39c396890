import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { asRegion, candidateRegions, DEFAULT_REGIONS, defaultRegion, parseRegion, parseRegions, regionFromLocale } from '../../../src/core/facts/index.js';

describe('regions', () => {
  it('accepts supported ISO codes in any case, with spaces around', () => {
    expect(parseRegion(' ie ')).toBe('IE');
    expect(asRegion('us')).toBe('US');
  });

  it('reads null, empty and unknown codes as no region', () => {
    for (const input of [null, undefined, '', 'XX', 'EU', 'IRL']) expect(asRegion(input), String(input)).toBeUndefined();
    expect(asRegion('IE')).toBe('IE');
  });

  it('refuses an unknown --region with a usage error naming it', () => {
    expect(() => parseRegion('XX')).toThrow(expect.objectContaining({ code: 'unknown_region', exitCode: 2, details: { region: 'XX' } }));
    expect(() => parseRegion('XX')).toThrow(/unknown region "XX"/);
  });

  it('names the source of a bad region in the message', () => {
    expect(() => parseRegion('XX', 'HIPPO_REGION')).toThrow(/^HIPPO_REGION: unknown region "XX"/);
    expect(() => parseRegions(['IE', 'XX'], 'config "regions"')).toThrow(/^config "regions": unknown region "XX"/);
    expect(parseRegions('ie, gb,IE,,us')).toEqual(['IE', 'GB', 'US']);
  });

  it('reads the region of a locale name, and none from C, POSIX or a bare language', () => {
    expect(regionFromLocale('en_IE.UTF-8')).toBe('IE');
    expect(regionFromLocale('de-AT')).toBe('AT');
    expect(regionFromLocale('sr_Latn_RS@latin')).toBe('RS');
    expect(regionFromLocale('de_DE@euro')).toBe('DE');
    for (const locale of ['C', 'POSIX', 'C.UTF-8', 'en', 'en_XX.UTF-8', '', undefined]) expect(regionFromLocale(locale), String(locale)).toBeUndefined();
  });

  it('takes the locale from LC_ALL, then LC_MESSAGES, then LANG; none set gives none', () => {
    expect(defaultRegion({ LC_ALL: 'fr_BE.UTF-8', LC_MESSAGES: 'de_DE', LANG: 'en_IE' })).toBe('BE');
    expect(defaultRegion({ LC_ALL: '', LC_MESSAGES: 'de_DE', LANG: 'en_IE' })).toBe('DE');
    expect(defaultRegion({ LANG: 'en_IE.UTF-8' })).toBe('IE');
    expect(defaultRegion({ LC_ALL: 'C', LANG: 'en_IE.UTF-8' })).toBeUndefined();
    expect(defaultRegion({})).toBeUndefined();
  });

  it('tries the home region first, then the list without it, each once', () => {
    expect(candidateRegions('IE', ['GB', 'IE', 'xx', 'us'])).toEqual(['IE', 'GB', 'US']);
    expect(candidateRegions(undefined, undefined)).toEqual([...DEFAULT_REGIONS]);
    expect(candidateRegions('GB', [])).toEqual(['GB']);
  });

  it('reads a locale name with spaces around it, and skips a blank locale variable', () => {
    expect(regionFromLocale('  en_IE.UTF-8 ')).toBe('IE');
    expect(defaultRegion({ LC_ALL: '  ', LANG: 'en_IE.UTF-8' })).toBe('IE');
    expect(defaultRegion({ LC_ALL: ' ', LC_MESSAGES: '\t', LANG: ' de_AT ' })).toBe('AT');
  });

  it('names no source, in the message or the details, when none is given', () => {
    const error = (input: string, source?: string): unknown => {
      try {
        parseRegion(input, source);
      } catch (caught) {
        return caught;
      }
      throw new Error('no error');
    };
    const bare = error('XX') as { message: string; details: unknown };
    expect(bare.message).toBe('unknown region "XX": use an ISO 3166 alpha-2 code such as IE or US');
    expect(bare.details).toStrictEqual({ region: 'XX' });
    const sourced = error('XX', 'HIPPO_REGION') as { message: string; details: unknown };
    expect(sourced.details).toStrictEqual({ region: 'XX', source: 'HIPPO_REGION' });
  });

  it('skips blank items of a region list', () => {
    expect(parseRegions('ie, ,gb,  ')).toEqual(['IE', 'GB']);
    expect(parseRegions(['de', ' ', 'at'])).toEqual(['DE', 'AT']);
  });
});

describe('the extract benchmark baseline (bench/extract-baseline.ts)', () => {
  it('tries the same default candidate regions as hippo (it keeps a copy so that it never loads hippo)', () => {
    const source = readFileSync(new URL('../../../bench/extract-baseline.ts', import.meta.url), 'utf8');
    const list = /const CANDIDATES = \[([^\]]*)\]/.exec(source)?.[1];
    expect(list?.match(/'([A-Z]{2})'/g)?.map((quoted) => quoted.slice(1, -1))).toEqual([...DEFAULT_REGIONS]);
  });
});
