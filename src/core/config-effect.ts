/**
 * `config list`'s second half: for every key, the value in effect and where it comes from — the environment variable
 * that beats the file, the file, or hippo's default (docs/design.md §8 for the model keys). Flags beat all three but
 * belong to one command, so they are not shown here.
 */
import { configFile, type ConfigEntry, type ConfigFileReport, type ConfigKeyName } from './config.js';
import { PROVIDERS, type HttpProviderName } from './config-values.js';
import { DEFAULT_REDACT_KINDS } from './facts/kinds.js';
import { DEFAULT_BASE_URLS, DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS } from './model/config.js';
import { defaultDbPath, isPostgresLocation, maskPassword, maskPasswordsIn } from './paths.js';

/** Where a key's value in effect comes from. */
export type ConfigSource = 'env' | 'file' | 'default';

export interface EffectiveEntry extends ConfigEntry {
  /** The value commands use (without a flag): from the environment, the file, or the default; null when none applies. */
  effective: ConfigEntry['value'];
  source: ConfigSource;
  /** The environment variable that beats the file, when there is one (`HIPPO_MODEL`). */
  env?: string;
  /** What the default is, in words, when it is not a plain value (`from the locale`). */
  note?: string;
}

export interface EffectiveConfigReport extends Omit<ConfigFileReport, 'keys'> {
  keys: EffectiveEntry[];
}

/** The environment variable that beats each key of the file, if any. */
const ENV_OF: Partial<Record<ConfigKeyName, string>> = {
  model: 'HIPPO_MODEL',
  baseUrl: 'HIPPO_BASE_URL',
  timeoutMs: 'HIPPO_MODEL_TIMEOUT_MS',
  maxBytes: 'HIPPO_MODEL_MAX_BYTES',
  region: 'HIPPO_REGION',
  db: 'HIPPO_DB',
};

const masked = (name: ConfigKeyName, value: string): string =>
  name === 'db' && isPostgresLocation(value) ? maskPassword(value) : name === 'baseUrl' ? maskPasswordsIn(value) : value;

/** The config file as `config list` shows it, each key with the value in effect and its source. */
export async function configInEffect(options: { env?: NodeJS.ProcessEnv; path?: string } = {}): Promise<EffectiveConfigReport> {
  const env = options.env ?? process.env;
  const report = configFile(options);
  const fileValue = (name: ConfigKeyName) => report.keys.find((entry) => entry.key === name)?.value ?? null;
  const fromEnv = (name: ConfigKeyName): string | undefined => {
    const variable = ENV_OF[name];
    const value = variable === undefined ? undefined : env[variable]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const modelInEffect = fromEnv('model') ?? (fileValue('model') as string | null) ?? undefined;
  const provider = modelInEffect?.split(':')[0];
  const defaults: Record<ConfigKeyName, { value: ConfigEntry['value']; note?: string }> = {
    model: { value: null, note: 'none' },
    baseUrl:
      provider !== undefined && (PROVIDERS as readonly string[]).includes(provider) && provider !== 'command'
        ? { value: DEFAULT_BASE_URLS[provider as HttpProviderName] }
        : { value: null, note: "the model provider's own" },
    timeoutMs: { value: DEFAULT_TIMEOUT_MS },
    maxBytes: { value: DEFAULT_MAX_BYTES },
    region: { value: null, note: 'from the locale' },
    regions: { value: null, note: 'the default list' },
    redact: { value: 'auto' },
    redactKinds: { value: [...DEFAULT_REDACT_KINDS] },
    db: { value: defaultDbPath(env) },
    'audit.cliReads': { value: 'off' },
  };
  // The regions the locale and the default list give (loaded here only: the phone metadata is large); a broken
  // setting leaves the words above, since `config list` must still print.
  try {
    const { resolveRegions } = await import('./regions.js');
    const file = { region: fileValue('region') as string | null, regions: fileValue('regions') as string[] | null };
    const regions = resolveRegions({ env: { ...env, HIPPO_REGION: '' }, config: { region: undefined, regions: file.regions ?? undefined } });
    defaults.region = { value: regions.region ?? null, note: regions.region === undefined ? 'none (C/POSIX or no locale)' : undefined };
    defaults.regions = { value: [...regions.regions] };
  } catch {
    // keep the words
  }
  const keys = report.keys.map((entry): EffectiveEntry => {
    const variable = ENV_OF[entry.key];
    const envValue = fromEnv(entry.key);
    if (envValue !== undefined) return { ...entry, effective: masked(entry.key, envValue), source: 'env', env: variable };
    if (entry.value !== null) return { ...entry, effective: entry.value, source: 'file', ...(variable ? { env: variable } : {}) };
    const fallback = defaults[entry.key];
    return {
      ...entry,
      effective: fallback.value,
      source: 'default',
      ...(variable ? { env: variable } : {}),
      ...(fallback.note !== undefined ? { note: fallback.note } : {}),
    };
  });
  return { ...report, keys };
}
