/**
 * The regions in force for phone numbers and numeric dates (docs/extract.md §Regions): the home region and the
 * candidate list, from the caller, the environment, the config file or the locale. Extraction, the redactor and
 * `extract --kinds` all read them here.
 */
import type { CountryCode } from 'libphonenumber-js/max';
import { loadConfig, type HippoConfig } from './config.js';
import { DEFAULT_REGIONS, defaultRegion, parseRegion, parseRegions } from './facts/region.js';

/**
 * Where the home region came from: the caller's own choice (`flag`: the CLI's `--region`, a library caller's `region`),
 * `HIPPO_REGION`, the config file, the locale, or nowhere.
 */
export type RegionSource = 'flag' | 'HIPPO_REGION' | 'config' | 'locale' | 'none';

/** The regions in force for phone numbers and numeric dates (docs/extract.md §Regions). */
export interface RegionSettings {
  /** The home region: national numbers valid here are taken first; undefined when none is known. */
  region: CountryCode | undefined;
  regionSource: RegionSource;
  /** The candidate regions tried next, in order (the home region left out). */
  regions: CountryCode[];
  regionsSource: 'config' | 'default';
}

/**
 * The regions in force. Home region: the caller's `region` > `HIPPO_REGION` > config `region` > the locale (LC_ALL,
 * LC_MESSAGES, LANG; `C`/`POSIX` or none gives none). Candidate list: config `regions`, else `DEFAULT_REGIONS`. An
 * unknown code anywhere is exit 2 (`unknown_region`); `details.source` says where it was written (`HIPPO_REGION`,
 * `config "region"`, `config "regions"`), and its absence means the caller's own `region` (the CLI words that one).
 */
export function resolveRegions(input: { region?: string; env?: NodeJS.ProcessEnv; config?: HippoConfig } = {}): RegionSettings {
  const env = input.env ?? process.env;
  const config = input.config ?? loadConfig({ env });
  const fromEnv = env.HIPPO_REGION?.trim();
  let region: CountryCode | undefined;
  let regionSource: RegionSource;
  if (input.region !== undefined) {
    region = parseRegion(input.region);
    regionSource = 'flag';
  } else if (fromEnv !== undefined && fromEnv !== '') {
    region = parseRegion(fromEnv, 'HIPPO_REGION');
    regionSource = 'HIPPO_REGION';
  } else if (config.region !== undefined) {
    region = parseRegion(config.region, 'config "region"');
    regionSource = 'config';
  } else {
    region = defaultRegion(env);
    regionSource = region === undefined ? 'none' : 'locale';
  }
  const listed = config.regions === undefined ? undefined : parseRegions(config.regions, 'config "regions"');
  const regions = (listed ?? DEFAULT_REGIONS).filter((code) => code !== region);
  return { region, regionSource, regions, regionsSource: listed === undefined ? 'default' : 'config' };
}
