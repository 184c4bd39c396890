/**
 * The config file `<XDG config>/hippo/config.json` (docs/design.md §8) and its schema: the one place a key is declared,
 * with its type, what it means, and how its value is checked. Read once per process and path; every key is
 * type-checked, and a key the schema does not know is refused (exit 2) naming the nearest known key — a typo such as
 * `"modle"` silently ignored is the bug this prevents. Each consumer resolves its own precedence (flag > environment >
 * this file > default): the model in `model/config.ts`, the regions in `regions.ts`. `hippo config` reads and writes
 * the file through `configFile`, `setConfigValue` and `unsetConfigValue`.
 *
 *   { "model": "ollama:llama3.2", "baseUrl": "http://127.0.0.1:11434", "timeoutMs": 120000, "maxBytes": 1048576,
 *     "region": "IE", "regions": ["GB", "US", "DE"], "redact": "auto", "redactKinds": ["email", "phone", "iban", "card"] }
 *
 * API keys are never read from or written to the file: an `apiKey` (or `key`, `token`, …) field is refused, so keys
 * never sit in a dotfile by accident. A malformed file or value is a UsageError (exit 2) naming the file and the key;
 * nothing falls back silently. Messages never repeat a value that could be a key.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseBaseUrl, parseModelSpec, parsePositiveInt, parseRedactKinds, parseRedactMode } from './config-values.js';
import { UsageError } from './errors.js';
import { writeFileAtomically } from './files.js';
import { configFilePath, isPostgresLocation, maskPassword, maskPasswordsIn, withoutPassword } from './paths.js';
import { closest } from './suggest.js';

type KeyType = 'string' | 'integer' | 'string[]';
type ValueOf<T extends KeyType> = T extends 'string' ? string : T extends 'integer' ? number : string[];

export interface ConfigKey<T extends KeyType = KeyType> {
  type: T;
  /** One line for `config list` and the docs. */
  description: string;
  /** A value to show in examples. */
  example: string;
  /** The error code of a mistake in this key: the model keys keep the code they always had. */
  code: 'bad_model_config' | 'bad_config';
  /**
   * Checks a value of the right type when it is set (`config set`), returning it as stored (normalised: `ie` → `IE`);
   * throws a UsageError naming `label`. The checks live in config-values.ts, below this file; the region checks load
   * lazily (libphonenumber's metadata is large).
   */
  check?(value: ValueOf<T>, label: string): Promise<ValueOf<T>>;
}

const key = <T extends KeyType>(spec: ConfigKey<T>): ConfigKey<T> => spec;

/** Every key the config file may hold. Adding a key is one entry here. */
export const CONFIG_KEYS = {
  model: key({
    type: 'string',
    description: 'the model, provider:model (ollama:, openai:, anthropic:, command:); HIPPO_MODEL and --model beat it',
    example: 'ollama:llama3.2',
    code: 'bad_model_config',
    check: async (value, label) => {
      parseModelSpec(value, label);
      return value;
    },
  }),
  baseUrl: key({
    type: 'string',
    description: "the model server's address, for the file's own model provider; HIPPO_BASE_URL beats it",
    example: 'http://127.0.0.1:11434',
    code: 'bad_model_config',
    check: async (value, label) => parseBaseUrl(value, label),
  }),
  timeoutMs: key({
    type: 'integer',
    description: 'deadline of a model call in milliseconds (default 120000); HIPPO_MODEL_TIMEOUT_MS beats it',
    example: '120000',
    code: 'bad_model_config',
    check: async (value, label) => parsePositiveInt(value, label, 86_400_000),
  }),
  maxBytes: key({
    type: 'integer',
    description: 'largest model response in bytes (default 1048576); HIPPO_MODEL_MAX_BYTES beats it',
    example: '1048576',
    code: 'bad_model_config',
    check: async (value, label) => parsePositiveInt(value, label, 1024 ** 3),
  }),
  region: key({
    type: 'string',
    description: 'home region for national phone numbers and numeric dates (ISO code); --region and HIPPO_REGION beat it',
    example: 'IE',
    code: 'bad_config',
    check: async (value, label) => (await import('./facts/region.js')).parseRegion(value, label),
  }),
  regions: key({
    type: 'string[]',
    description: 'regions tried, in order, for a national phone number not valid in the home region',
    example: 'GB US DE',
    code: 'bad_config',
    check: async (value, label) => (await import('./facts/region.js')).parseRegions(value, label),
  }),
  redact: key({
    type: 'string',
    description:
      'replace emails, phones, IBANs and cards in prompts by placeholders: auto (when text may leave the machine), always, never; --redact/--no-redact beat it',
    example: 'auto',
    code: 'bad_config',
    check: async (value, label) => parseRedactMode(value.trim(), label),
  }),
  redactKinds: key({
    type: 'string[]',
    description: 'the kinds redaction replaces (default email phone iban card; also ip, url)',
    example: 'email phone iban card ip',
    code: 'bad_config',
    check: async (value, label) => parseRedactKinds(value, label),
  }),
  db: key({
    type: 'string',
    description: 'the store when neither --db nor HIPPO_DB names one: an absolute SQLite path, or a postgres:// URL (its password in ~/.pgpass)',
    example: 'postgres://hippo@db.example.com/hippo',
    code: 'bad_config',
    check: async (value, label) => checkDbSetting(value, label),
  }),
  'audit.cliReads': key({
    type: 'string',
    description: 'record CLI reads (search, memory show/list/export, extract) in the read audit too: on or off (default off; MCP reads always are)',
    example: 'on',
    code: 'bad_config',
    check: async (value, label) => {
      const mode = value.trim().toLowerCase();
      if (mode !== 'on' && mode !== 'off') throw new UsageError('bad_config', `${label} must be on or off`, { details: { key: 'audit.cliReads' } });
      return mode;
    },
  }),
} satisfies Record<string, ConfigKey>;

/**
 * The `db` key: an absolute SQLite path or a `postgres://` URL without a password (a password never sits in the config
 * file: ~/.pgpass or PGPASSWORD hold it). Checked when set and when read.
 */
export function checkDbSetting(value: string, label = 'db'): string {
  const trimmed = value.trim();
  if (isPostgresLocation(trimmed)) {
    if (withoutPassword(trimmed) !== trimmed) {
      throw new UsageError('bad_config', `${label} holds a password; passwords are never kept in the config file: put it in ~/.pgpass (or PGPASSWORD)`, {
        details: { key: 'db' },
      });
    }
    return trimmed;
  }
  if (!trimmed.startsWith('/')) {
    throw new UsageError('bad_config', `${label} must be an absolute SQLite file path or a postgres:// URL`, { details: { key: 'db' } });
  }
  return trimmed;
}

/** The config file's `db` (checked), or undefined: the store when neither --db nor HIPPO_DB names one. */
export function configuredDb(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = loadConfig({ env }).db;
  return value === undefined ? undefined : checkDbSetting(value, `${configFilePath(env)}: "db"`);
}

export type ConfigKeyName = keyof typeof CONFIG_KEYS;
export const CONFIG_KEY_NAMES = Object.keys(CONFIG_KEYS) as ConfigKeyName[];

/** The config file's settings, typed from the schema. */
export type HippoConfig = { [K in ConfigKeyName]?: ValueOf<(typeof CONFIG_KEYS)[K]['type']> };

/** Names that look like a secret: never stored in the file (keys come from the environment). */
const SECRET = /^(api[-_]?key|key|token|secret|password|passwd)$/i;

const TYPE_NAMES: Record<KeyType, string> = { string: 'a string', integer: 'a whole number', 'string[]': 'an array of strings' };

function mistake(message: string, name?: string, details?: Record<string, unknown>): UsageError {
  const code = name !== undefined && name in CONFIG_KEYS ? CONFIG_KEYS[name as ConfigKeyName].code : 'bad_config';
  return new UsageError(code, message, details ? { details } : undefined);
}

function secretRefused(prefix: string): UsageError {
  return mistake(
    `${prefix}API keys are never kept in the config file: set HIPPO_API_KEY (or OPENAI_API_KEY / ANTHROPIC_API_KEY for that provider) in the environment instead`,
  );
}

/** A key the schema does not know: exit 2 naming it and, when one is near, the key probably meant. */
function unknownKey(name: string, prefix: string, path: string): UsageError {
  const suggestion = closest(name, CONFIG_KEY_NAMES);
  return new UsageError(
    'unknown_config_key',
    `${prefix}"${name}" is not a config key${suggestion ? `; did you mean "${suggestion}"?` : ''} (known: ${CONFIG_KEY_NAMES.join(', ')})`,
    { details: { key: name, path, known: CONFIG_KEY_NAMES, ...(suggestion ? { suggestion } : {}) } },
  );
}

function hasType(value: unknown, type: KeyType): boolean {
  if (type === 'string[]') return Array.isArray(value) && value.every((item) => typeof item === 'string');
  if (type === 'integer') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === type;
}

/** The file's JSON object as written (no schema applied); `{}` when there is no file. */
function readObject(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {};
    throw mistake(`${path}: cannot read the config file (${code ?? 'error'})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw mistake(`${path}: the config file is not valid JSON`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw mistake(`${path}: the config file must hold a JSON object`);
  return data as Record<string, unknown>;
}

function parseConfig(object: Record<string, unknown>, path: string): HippoConfig {
  const names = Object.keys(object);
  if (names.some((name) => SECRET.test(name))) throw secretRefused(`${path}: `);
  for (const name of names) if (!(name in CONFIG_KEYS)) throw unknownKey(name, `${path}: `, path);
  for (const name of CONFIG_KEY_NAMES) {
    const value = object[name];
    if (value === undefined) continue;
    const { type } = CONFIG_KEYS[name];
    if (!hasType(value, type)) throw mistake(`${path}: "${name}" must be ${TYPE_NAMES[type]}`, name);
  }
  return object;
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
  const config = parseConfig(readObject(path), path);
  cache.set(path, config);
  return config;
}

/** One key of `config list`: what it is, and its value in the file (null when not set there). */
export interface ConfigEntry {
  key: ConfigKeyName;
  type: KeyType;
  value: string | number | string[] | null;
  description: string;
}

/** What `config list` shows: the file, every key of the schema with its value there, and keys it should not hold. */
export interface ConfigFileReport {
  path: string;
  exists: boolean;
  keys: ConfigEntry[];
  /** Keys in the file the schema does not know (with the key probably meant), each a sentence. */
  warnings: string[];
}

/** The file as `config list` reports it: unknown keys are named as warnings here (loading would refuse them). */
export function configFile(options: { env?: NodeJS.ProcessEnv; path?: string } = {}): ConfigFileReport {
  const path = options.path ?? configFilePath(options.env ?? process.env);
  let exists = true;
  try {
    readFileSync(path);
  } catch {
    exists = false;
  }
  const object = readObject(path);
  const warnings = Object.keys(object)
    .filter((name) => !(name in CONFIG_KEYS))
    .map((name) => (SECRET.test(name) ? secretRefused(`"${name}": `).message : unknownKey(name, '', path).message));
  const keys = CONFIG_KEY_NAMES.map((name) => {
    const value = object[name];
    const { type, description } = CONFIG_KEYS[name];
    const shown = hasType(value, type) ? (value as ConfigEntry['value']) : null;
    // A password written into `db` or `baseUrl` by hand (config set refuses one) is shown masked, as every command
    // shows a store; a base URL's credentials are refused when a model is used (warned here).
    const masked =
      name === 'db' && typeof shown === 'string' && isPostgresLocation(shown)
        ? maskPassword(shown)
        : name === 'baseUrl' && typeof shown === 'string'
          ? maskPasswordsIn(shown)
          : shown;
    if (name === 'baseUrl' && typeof shown === 'string' && masked !== shown) {
      warnings.push(`"baseUrl" holds a user name or password: it is refused when a model is used; put the key in HIPPO_API_KEY`);
    }
    return { key: name, type, value: masked, description };
  });
  return { path, exists, keys, warnings };
}

/** A key named by a person (`config get/set`): known, or refused with the nearest known key; a secret never. */
export function configKey(name: string, path: string): ConfigKeyName {
  if (SECRET.test(name)) throw secretRefused(`"${name}": `);
  if (!(name in CONFIG_KEYS)) throw unknownKey(name, '', path);
  return name as ConfigKeyName;
}

/** Values from the command line as the key's type: a string, a whole number, or a list (`GB US` or `GB,US`). */
function fromText(name: ConfigKeyName, values: readonly string[]): string | number | string[] {
  const { type } = CONFIG_KEYS[name];
  if (type === 'string[]')
    return values
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter((value) => value !== '');
  if (values.length !== 1) throw mistake(`"${name}" takes one value, got ${values.length}`, name);
  const [value] = values as [string];
  if (type === 'integer') {
    if (!/^\s*\d+\s*$/.test(value)) throw mistake(`"${name}" must be a whole number`, name);
    return Number(value);
  }
  return value;
}

async function rewrite(path: string, change: (object: Record<string, unknown>) => void): Promise<void> {
  const object = readObject(path);
  change(object);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  await writeFileAtomically(path, async (stream) => {
    stream.write(`${JSON.stringify(object, null, 2)}\n`);
  });
  cache.delete(path);
}

/**
 * Sets a key in the file: the name checked against the schema, the value converted to the key's type and checked
 * (exit 2 naming the key otherwise), the file rewritten atomically at mode 0600. Other keys are kept as written.
 * Returns the value as stored.
 */
export async function setConfigValue(name: string, values: readonly string[], options: { env?: NodeJS.ProcessEnv; path?: string } = {}): Promise<ConfigEntry> {
  const path = options.path ?? configFilePath(options.env ?? process.env);
  const known = configKey(name, path);
  const spec = CONFIG_KEYS[known] as ConfigKey;
  const raw = fromText(known, values);
  if (Array.isArray(raw) && raw.length === 0) throw mistake(`"${known}" needs at least one value (to remove it: unset)`, known);
  const value = spec.check ? await spec.check(raw, `config "${known}"`) : raw;
  await rewrite(path, (object) => {
    object[known] = value;
  });
  return { key: known, type: spec.type, value: value as ConfigEntry['value'], description: spec.description };
}

/**
 * Removes a key from the file (atomically, mode 0600). A key the schema does not know is removed too when the file
 * holds it — that is how a typo is cleaned up; otherwise it is refused with the nearest known key. Says whether the
 * file held it.
 */
export async function unsetConfigValue(name: string, options: { env?: NodeJS.ProcessEnv; path?: string } = {}): Promise<{ key: string; removed: boolean }> {
  const path = options.path ?? configFilePath(options.env ?? process.env);
  const object = readObject(path);
  if (!(name in object)) {
    configKey(name, path);
    return { key: name, removed: false };
  }
  await rewrite(path, (current) => {
    delete current[name];
  });
  return { key: name, removed: true };
}
