import { isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';
import { UsageError } from '../errors.js';

/**
 * The region of the process locale (`en-IE` → `IE`), or undefined when the locale names none (`en`, `C`). We do
 * not guess a region from a bare language: a wrong default region silently mis-reads national numbers.
 */
export function defaultRegion(): CountryCode | undefined {
  try {
    const locale = Intl.DateTimeFormat().resolvedOptions().locale;
    return asRegion(new Intl.Locale(locale).region);
  } catch {
    return undefined;
  }
}

/** A supported ISO 3166 alpha-2 code, upper-cased, or undefined for anything else (null, '', 'XX', 'EU'). */
export function asRegion(region: string | null | undefined): CountryCode | undefined {
  if (region === null || region === undefined) return undefined;
  const code = region.trim().toUpperCase();
  return isSupportedCountry(code) ? code : undefined;
}

/** Parses a user-given region (`--region`), exit 2 when it is not a region libphonenumber knows. */
export function parseRegion(input: string): CountryCode {
  const region = asRegion(input);
  if (region === undefined) {
    throw new UsageError('unknown_region', `unknown region "${input}": use an ISO 3166 alpha-2 code such as IE or US`, {
      details: { region: input },
    });
  }
  return region;
}
