import type { ModelClient } from './client.js';
import type { ModelConfig } from './config.js';

/**
 * The model settings (the `flag` given, else HIPPO_MODEL and the rest of the environment, else the config file),
 * loading the settings module only now. Malformed settings are a UsageError even when no model is needed yet.
 * `flagName` names `flag` in errors (the CLI passes `--model` or `--via`). A base URL's host name is resolved here,
 * once (`pinLoopback`).
 */
export async function resolveModel(flag: string | undefined, flagName?: string): Promise<ModelConfig | undefined> {
  const { resolveModelConfig } = await import('./config.js');
  const config = resolveModelConfig({ flag, flagName, env: process.env });
  if (config === undefined || config.provider === 'command') return config;
  // Once per command: a base URL host name that resolves only to loopback now counts as loopback and is pinned to
  // that address for every request (docs/redaction.md "Loopback").
  const { pinLoopback } = await import('./loopback.js');
  return pinLoopback(config);
}

/** The client for a config, loading the provider SDKs only now (they cost startup time wherever no model is called). */
export async function modelClient(config: ModelConfig | undefined): Promise<ModelClient | undefined> {
  if (!config) return undefined;
  const { createModelClient } = await import('./client.js');
  return createModelClient(config);
}

/**
 * The client for `flag` (or the environment and config file), resolved only when called: the CLI and the MCP server
 * pass this to work that needs a model only sometimes (the fact box, extract's fallback), so the rest never reads the
 * settings.
 */
export function lazyModel(flag: string | undefined, flagName?: string): () => Promise<ModelClient | undefined> {
  return async () => modelClient(await resolveModel(flag, flagName));
}
