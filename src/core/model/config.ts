/**
 * Model configuration (docs/design.md §8). Precedence for the model: `--model` > `HIPPO_MODEL` > config file > unset.
 *
 * Config file `<XDG config>/hippo/config.json`, read by `../config.ts` (all fields optional; these are the model's):
 *   { "model": "ollama:llama3.2", "baseUrl": "http://127.0.0.1:11434", "timeoutMs": 120000, "maxBytes": 1048576 }
 * - `baseUrl` belongs to the file's `model`: it is used only when the selected provider is the file model's provider
 *   (a `--model openai:…` must not be sent to the file's Ollama address). `HIPPO_BASE_URL` beats it.
 * - `timeoutMs` / `maxBytes` apply to every provider; `HIPPO_MODEL_TIMEOUT_MS` / `HIPPO_MODEL_MAX_BYTES` beat them.
 * - API keys are read from the environment only (`HIPPO_API_KEY`, else `OPENAI_API_KEY` / `ANTHROPIC_API_KEY` for
 *   the selected provider); the config reader refuses an `apiKey` field, so keys never sit in a dotfile by accident.
 * Empty environment variables count as unset. Every malformed value is a UsageError (exit 2) naming the variable or
 * file; nothing falls back silently. The error messages never repeat a key.
 */
import { loadConfig } from '../config.js';
import { parseBaseUrl, parseModelSpec, parsePositiveInt, type HttpProviderName, type ProviderName } from '../config-values.js';
import { UsageError } from '../errors.js';
import { configFilePath } from '../paths.js';
import { isLoopbackUrl, staysOnMachine } from './loopback.js';

export { isLoopbackUrl };

export const DEFAULT_BASE_URLS: Record<HttpProviderName, string> = {
  ollama: 'http://127.0.0.1:11434',
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
};
export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_BYTES = 1024 * 1024;

/**
 * Where the model setting came from (for `model check`): `flag` is the caller's explicit choice (the `flag` input —
 * the CLI's `--model`, which the CLI words itself), then the environment variable, then the config file.
 */
export type ModelConfigSource = 'flag' | 'HIPPO_MODEL' | 'config file';

interface CommonConfig {
  /** The model id (for `command`, the shell command). */
  model: string;
  timeoutMs: number;
  maxBytes: number;
  source: ModelConfigSource;
}
export interface HttpModelConfig extends CommonConfig {
  provider: HttpProviderName;
  /** Normalised, without trailing slash; for Ollama the server root (no `/api`). */
  baseUrl: string;
  apiKey?: string;
  /**
   * Set by `pinLoopback` (./loopback.ts) when the base URL's host name resolved only to loopback addresses: every
   * request connects to this address, and the prompt counts as staying on this machine.
   */
  pinnedAddress?: string;
}
export interface CommandModelConfig extends CommonConfig {
  provider: 'command';
}
export type ModelConfig = HttpModelConfig | CommandModelConfig;

function badConfig(message: string): UsageError {
  return new UsageError('bad_model_config', message);
}

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export interface ResolveModelConfigInput {
  /** The model asked for explicitly (the CLI's `--model`), if given: it beats HIPPO_MODEL and the config file. */
  flag?: string;
  /** How to name `flag` in errors (default `model`; the CLI passes `--model`, or `--via` for `rem rapid --via`). */
  flagName?: string;
  env: NodeJS.ProcessEnv;
  /** Config file path; default `<XDG config>/hippo/config.json` from `env`. */
  configFile?: string;
}

/**
 * The resolved model configuration, or `undefined` when no model is set anywhere (callers then raise
 * `modelNotConfigured()` or skip, as nightly does). Throws UsageError (exit 2) on any malformed value, even when no
 * model is set, so a typo is reported where it is made.
 */
export function resolveModelConfig(input: ResolveModelConfigInput): ModelConfig | undefined {
  const { env } = input;
  const filePath = input.configFile ?? configFilePath(env);
  const file = loadConfig({ path: filePath });

  const timeoutRaw = envValue(env, 'HIPPO_MODEL_TIMEOUT_MS');
  const timeoutMs =
    timeoutRaw !== undefined
      ? parsePositiveInt(timeoutRaw, 'HIPPO_MODEL_TIMEOUT_MS', 86_400_000)
      : file?.timeoutMs !== undefined
        ? parsePositiveInt(file.timeoutMs, `${filePath}: "timeoutMs"`, 86_400_000)
        : DEFAULT_TIMEOUT_MS;
  const maxBytesRaw = envValue(env, 'HIPPO_MODEL_MAX_BYTES');
  const maxBytes =
    maxBytesRaw !== undefined
      ? parsePositiveInt(maxBytesRaw, 'HIPPO_MODEL_MAX_BYTES', 1024 ** 3)
      : file?.maxBytes !== undefined
        ? parsePositiveInt(file.maxBytes, `${filePath}: "maxBytes"`, 1024 ** 3)
        : DEFAULT_MAX_BYTES;
  const envBaseUrl = envValue(env, 'HIPPO_BASE_URL');
  const baseUrlFromEnv = envBaseUrl === undefined ? undefined : parseBaseUrl(envBaseUrl, 'HIPPO_BASE_URL');
  const fileSpec = file?.model === undefined ? undefined : parseModelSpec(file.model, `${filePath}: "model"`);
  const baseUrlFromFile = file?.baseUrl === undefined ? undefined : parseBaseUrl(file.baseUrl, `${filePath}: "baseUrl"`);

  let spec: { provider: ProviderName; model: string };
  let source: ModelConfigSource;
  const envModel = envValue(env, 'HIPPO_MODEL');
  if (input.flag !== undefined) {
    spec = parseModelSpec(input.flag, input.flagName ?? 'model');
    source = 'flag';
  } else if (envModel !== undefined) {
    spec = parseModelSpec(envModel, 'HIPPO_MODEL');
    source = 'HIPPO_MODEL';
  } else if (fileSpec !== undefined) {
    spec = fileSpec;
    source = 'config file';
  } else {
    return undefined;
  }

  if (spec.provider === 'command') {
    return { provider: 'command', model: spec.model, timeoutMs, maxBytes, source };
  }
  const provider = spec.provider;
  const fileBaseUrlApplies = fileSpec === undefined || fileSpec.provider === provider;
  const baseUrl = baseUrlFromEnv ?? (fileBaseUrlApplies ? baseUrlFromFile : undefined) ?? DEFAULT_BASE_URLS[provider];
  const baseUrlLabel = baseUrlFromEnv ? 'HIPPO_BASE_URL' : 'the base URL';

  // Only the selected provider's own key variable is consulted: an ANTHROPIC_API_KEY lying around changes nothing
  // for an openai: model, and vice versa.
  const providerKeyVar = provider === 'openai' ? 'OPENAI_API_KEY' : provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : undefined;
  const apiKey = envValue(env, 'HIPPO_API_KEY') ?? (providerKeyVar ? envValue(env, providerKeyVar) : undefined);
  if (apiKey === undefined) {
    if (provider === 'anthropic') {
      throw badConfig('anthropic needs an API key: set HIPPO_API_KEY or ANTHROPIC_API_KEY');
    }
    if (provider === 'openai' && !isLoopbackUrl(baseUrl)) {
      throw badConfig(
        `openai at a non-loopback address (${baseUrlLabel} ${displayBaseUrl(baseUrl)}) needs an API key: set HIPPO_API_KEY or OPENAI_API_KEY ` +
          '(a local OpenAI-compatible server on 127.0.0.1/localhost needs none)',
      );
    }
  }
  return { provider, model: spec.model, baseUrl, ...(apiKey ? { apiKey } : {}), timeoutMs, maxBytes, source };
}

/** The base URL without any user:password part (a URL may carry credentials). */
export function displayBaseUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    if (url.username || url.password) {
      url.username = '***';
      url.password = '';
    }
    return url.toString().replace(/\/+$/, '');
  } catch {
    return baseUrl;
  }
}

/** `sk-…abcd`: first 3 and last 4 characters; keys shorter than 12 characters are masked completely. */
export function maskKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  return key.length < 12 ? '…' : `${key.slice(0, 3)}…${key.slice(-4)}`;
}

export interface ModelConfigDescription {
  provider: ProviderName;
  model: string;
  source: ModelConfigSource;
  /** Credentials removed; undefined for `command`. */
  baseUrl?: string;
  /** Masked; undefined when no key is set. */
  key?: string;
  /** True when memory content sent to the model leaves this machine (base URL host is not loopback). */
  leavesMachine: boolean;
  /** One plain sentence about where content goes. */
  egress: string;
  timeoutMs: number;
  maxBytes: number;
}

export function describeModelConfig(config: ModelConfig): ModelConfigDescription {
  const common = { model: config.model, source: config.source, timeoutMs: config.timeoutMs, maxBytes: config.maxBytes };
  if (config.provider === 'command') {
    return {
      provider: 'command',
      ...common,
      // We cannot see where a command sends its stdin; it runs locally, so we report local and say so.
      leavesMachine: false,
      egress: 'content is piped to a local command; whether it leaves this machine depends on that command',
    };
  }
  const baseUrl = displayBaseUrl(config.baseUrl);
  const leavesMachine = !staysOnMachine(config);
  return {
    provider: config.provider,
    ...common,
    baseUrl,
    ...(config.apiKey ? { key: maskKey(config.apiKey) } : {}),
    leavesMachine,
    egress: leavesMachine
      ? `memory content sent to the model LEAVES THIS MACHINE: it goes to ${new URL(config.baseUrl).host}`
      : config.pinnedAddress !== undefined
        ? `memory content stays on this machine (${new URL(config.baseUrl).hostname} resolves only to loopback; requests go to ${config.pinnedAddress})`
        : 'memory content stays on this machine (loopback address)',
  };
}
