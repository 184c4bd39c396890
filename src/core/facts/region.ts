import { isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';
import { UsageError } from '../errors.js';

/**
 * The regions tried, in this order, for a national phone number that is not valid in the home region, when no
 * `regions` list is configured: the most common regions of the world's phone users and of hippo's users, NANP first
 * (so a labelled `345-899-3560` reads as +1). Order matters only for a labelled number valid or possible in several
 * of them (docs/extract.md §Regions).
 */
export const DEFAULT_REGIONS: readonly CountryCode[] = [
  'US',
  'GB',
  'IE',
  'DE',
  'FR',
  'ES',
  'IT',
  'NL',
  'BE',
  'AT',
  'CH',
  'PT',
  'PL',
  'SE',
  'DK',
  'NO',
  'FI',
  'CA',
  'AU',
  'NZ',
  'IN',
  'BR',
  'MX',
  'AR',
  'JP',
  'CN',
  'KR',
  'RU',
  'TR',
  'ZA',
];

/** The environment variables that name the locale, strongest first (POSIX: LC_ALL overrides LC_MESSAGES and LANG). */
const LOCALE_VARIABLES = ['LC_ALL', 'LC_MESSAGES', 'LANG'] as const;

// language[_script][_REGION][.codeset][@modifier], or the BCP 47 form with hyphens (en-IE).
const LOCALE_RE = /^[A-Za-z]{2,3}(?:[_-][A-Za-z]{4})?[_-]([A-Za-z]{2})(?=$|[.@_-])/;

/**
 * The region a locale name carries (`en_IE.UTF-8` → IE, `de-AT` → AT), or undefined: `C`, `POSIX`, `C.UTF-8`, a bare
 * language (`en`) and anything unparsable name no region. We never guess one from a language: a wrong home region
 * silently mis-reads national numbers.
 */
export function regionFromLocale(locale: string | undefined): CountryCode | undefined {
  if (locale === undefined) return undefined;
  const match = LOCALE_RE.exec(locale.trim());
  return match === null ? undefined : asRegion(match[1]);
}

/**
 * The home region from the locale environment: the first of LC_ALL, LC_MESSAGES, LANG that is set and not empty
 * decides (a `C`/`POSIX` locale gives none), and none set gives none. Node's own default locale is not used: it
 * turns a `C` locale, or none, into en-US.
 */
export function defaultRegion(env: Readonly<Record<string, string | undefined>> = process.env): CountryCode | undefined {
  for (const name of LOCALE_VARIABLES) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '') return regionFromLocale(value);
  }
  return undefined;
}

/** A supported ISO 3166 alpha-2 code, upper-cased, or undefined for anything else (null, '', 'XX', 'EU'). */
export function asRegion(region: string | null | undefined): CountryCode | undefined {
  if (region === null || region === undefined) return undefined;
  const code = region.trim().toUpperCase();
  return isSupportedCountry(code) ? code : undefined;
}

/**
 * Parses a user-given region, exit 2 (`unknown_region`) when it is not a region libphonenumber knows. `source` says
 * where it was written when that is not the caller's own argument (an environment variable, a config key): it
 * prefixes the message and is kept in `details.source`. Without it the message names no source, and a caller words
 * its own (the CLI: `--region`, in src/cli/error-words.ts).
 */
export function parseRegion(input: string, source?: string): CountryCode {
  const region = asRegion(input);
  if (region === undefined) {
    const prefix = source === undefined ? '' : `${source}: `;
    throw new UsageError('unknown_region', `${prefix}unknown region "${input}": use an ISO 3166 alpha-2 code such as IE or US`, {
      details: { region: input, ...(source === undefined ? {} : { source }) },
    });
  }
  return region;
}

/** Parses a list of regions (`IE,GB` or an array), each once, in order; exit 2 naming the first unknown one. */
export function parseRegions(input: string | readonly string[], source?: string): CountryCode[] {
  const items = typeof input === 'string' ? input.split(',') : input;
  const regions: CountryCode[] = [];
  for (const item of items) {
    if (item.trim() === '') continue;
    const region = parseRegion(item, source);
    if (!regions.includes(region)) regions.push(region);
  }
  return regions;
}

/** The regions tried for a national number, in order: the home region first, then the list without it. */
export function candidateRegions(home: CountryCode | undefined, list: readonly string[] | undefined): CountryCode[] {
  const regions: CountryCode[] = home === undefined ? [] : [home];
  for (const item of list ?? DEFAULT_REGIONS) {
    const region = asRegion(item);
    if (region !== undefined && !regions.includes(region)) regions.push(region);
  }
  return regions;
}
