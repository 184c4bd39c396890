/**
 * The values the config file's keys take, and how each is checked (config.ts checks a value when it is set; the code
 * that uses the key checks it again where it is read): the model as provider:model, the base URL and the whole numbers
 * of the model keys (model/config.ts), the redaction mode and kinds (redaction.ts). Below config.ts, so the config file
 * can check a value without importing the code that uses it. The region checks are facts/region.ts's.
 */
import { UsageError } from './errors.js';
import { maskPasswordsIn } from './paths.js';
import { isRedactKind, REDACTABLE_KINDS, type RedactKind } from './facts/kinds.js';

export const PROVIDERS = ['ollama', 'openai', 'anthropic', 'command'] as const;
export type ProviderName = (typeof PROVIDERS)[number];
export type HttpProviderName = Exclude<ProviderName, 'command'>;

function badConfig(message: string): UsageError {
  return new UsageError('bad_model_config', message);
}

/** A short, quoted echo of a user value for error messages (these values are provider:model strings, not keys). */
function quote(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}

/** Parses `provider:model`; `label` names the flag, variable or file in errors. */
export function parseModelSpec(spec: string, label: string): { provider: ProviderName; model: string } {
  const colon = spec.indexOf(':');
  if (colon < 0) {
    throw badConfig(
      `${label}: ${quote(spec)} is not provider:model (e.g. ollama:llama3.2, openai:gpt-4o-mini, anthropic:claude-sonnet-4-5, command:'llm -m mymodel')`,
    );
  }
  const provider = spec.slice(0, colon).trim().toLowerCase();
  const model = spec.slice(colon + 1).trim();
  if (!(PROVIDERS as readonly string[]).includes(provider)) {
    throw badConfig(`${label}: unknown provider ${quote(provider)} (expected ${PROVIDERS.join(', ')})`);
  }
  if (model === '') throw badConfig(`${label}: the ${provider} model name is empty`);
  return { provider: provider as ProviderName, model };
}

export function parsePositiveInt(raw: string | number, label: string, max: number): number {
  const n = typeof raw === 'number' ? raw : /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0 || n > max) {
    throw badConfig(`${label}: expected a whole number between 1 and ${max}, got ${quote(String(raw))}`);
  }
  return n;
}

export function parseBaseUrl(raw: string, label: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badConfig(`${label}: ${quote(maskPasswordsIn(raw))} is not a URL (e.g. http://127.0.0.1:11434)`);
  }
  // As the config's `db` refuses a password (config.ts, checkDbSetting): keys and passwords live in the environment,
  // never in a base URL, wherever the URL comes from (config set, the file, HIPPO_BASE_URL). Issue 27.
  if (url.username !== '' || url.password !== '') {
    throw badConfig(
      `${label} holds a user name or password; keys and passwords are never kept in a base URL: put the key in HIPPO_API_KEY (or OPENAI_API_KEY, ANTHROPIC_API_KEY)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badConfig(`${label}: the base URL must be http:// or https://`);
  }
  if (url.search || url.hash) throw badConfig(`${label}: the base URL must not have a query or fragment`);
  return url.toString().replace(/\/+$/, '');
}

export const REDACT_MODES = ['auto', 'always', 'never'] as const;
export type RedactMode = (typeof REDACT_MODES)[number];

export function parseRedactMode(value: string, label: string): RedactMode {
  if (!(REDACT_MODES as readonly string[]).includes(value)) {
    throw new UsageError('bad_config', `${label}: "${value}" is not a redaction mode (auto, always, never)`, {
      details: { option: 'redact', allowed: [...REDACT_MODES] },
    });
  }
  return value as RedactMode;
}

export function parseRedactKinds(values: readonly string[], label: string): RedactKind[] {
  const kinds: RedactKind[] = [];
  for (const raw of values) {
    const value = raw.trim().toLowerCase();
    if (!isRedactKind(value)) {
      throw new UsageError('bad_config', `${label}: "${raw}" cannot be redacted (kinds: ${REDACTABLE_KINDS.join(', ')})`, {
        details: { option: 'redactKinds', allowed: [...REDACTABLE_KINDS] },
      });
    }
    if (!kinds.includes(value)) kinds.push(value);
  }
  return kinds;
}
