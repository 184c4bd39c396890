/**
 * The config file `<XDG config>/hippo/config.json` (docs/design.md §8): read once per process and path, every known
 * key type-checked, unknown keys ignored (a newer hippo's file still works with an older one). Each consumer resolves
 * its own precedence (flag > environment > this file > default): the model in `model/config.ts`, the regions in
 * `extract.ts`.
 *
 *   { "model": "ollama:llama3.2", "baseUrl": "http://127.0.0.1:11434", "timeoutMs": 120000, "maxBytes": 1048576,
 *     "region": "IE", "regions": ["GB", "US", "DE"] }
 *
 * API keys are never read from the file: an `apiKey` (or `key`) field is refused, so keys never sit in a dotfile by
 * accident. A malformed file or value is a UsageError (exit 2) naming the file and the key; nothing falls back
 * silently. Messages never repeat a value that could be a key.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from './errors.js';
import { configFilePath } from './paths.js';

export interface HippoConfig {
  /** provider:model for the model layer. */
  model?: string;
  baseUrl?: string;
  timeoutMs?: number;
  maxBytes?: number;
  /** Home region for national phone numbers and numeric dates (ISO 3166 alpha-2). */
  region?: string;
  /** Regions tried, in order, for a national phone number not valid in the home region. */
  regions?: string[];
}

type KeyType = 'string' | 'number' | 'string[]';
const KEYS: Record<keyof HippoConfig, KeyType> = {
  model: 'string',
  baseUrl: 'string',
  timeoutMs: 'number',
  maxBytes: 'number',
  region: 'string',
  regions: 'string[]',
};
/** The error code of each key's mistakes: the model keys keep the code they always had. */
const MODEL_KEYS: ReadonlySet<string> = new Set(['model', 'baseUrl', 'timeoutMs', 'maxBytes']);

function badConfig(message: string, key?: string): UsageError {
  return new UsageError(key !== undefined && MODEL_KEYS.has(key) ? 'bad_model_config' : 'bad_config', message);
}

function hasType(value: unknown, type: KeyType): boolean {
  if (type === 'string[]') return Array.isArray(value) && value.every((item) => typeof item === 'string');
  return typeof value === type;
}

const TYPE_NAMES: Record<KeyType, string> = { string: 'a string', number: 'a number', 'string[]': 'an array of strings' };

function parseConfig(text: string, path: string): HippoConfig {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw badConfig(`${path}: the config file is not valid JSON`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw badConfig(`${path}: the config file must hold a JSON object`);
  const object = data as Record<string, unknown>;
  if ('apiKey' in object || 'key' in object) {
    throw badConfig(`${path}: API keys are not read from the config file; set HIPPO_API_KEY in the environment instead`);
  }
  const config: Record<string, unknown> = {};
  for (const [key, type] of Object.entries(KEYS)) {
    const value = object[key];
    if (value === undefined) continue;
    if (!hasType(value, type)) throw badConfig(`${path}: "${key}" must be ${TYPE_NAMES[type]}`, key);
    config[key] = value;
  }
  return config;
}

const cache = new Map<string, HippoConfig>();

/**
 * The config file at `path` (default `<XDG config>/hippo/config.json` from `env`), read and checked once per process;
 * a missing file is an empty config.
 */
export function loadConfig(options: { env?: NodeJS.ProcessEnv; path?: string } = {}): HippoConfig {
  const path = options.path ?? configFilePath(options.env ?? process.env);
  const cached = cache.get(path);
  if (cached !== undefined) return cached;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw badConfig(`${path}: cannot read the config file (${code ?? 'error'})`);
    text = '{}';
  }
  const config = parseConfig(text, path);
  cache.set(path, config);
  return config;
}
