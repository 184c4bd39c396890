import type { ModelClient } from '../core/model/client.js';
import type { ModelConfig } from '../core/model/config.js';

/** Resolves the model config (flag > env > file); malformed settings are exit 2 even when no model is needed yet. */
export async function resolveModel(flag: string | undefined, flagName?: string): Promise<ModelConfig | undefined> {
  const { resolveModelConfig } = await import('../core/model/config.js');
  return resolveModelConfig({ flag, flagName: flagName ?? '--model', env: process.env });
}

/** `--via CMD` stands for the model `command:CMD`; otherwise `--model` (or the environment and config file). */
export async function resolveRunModel(flags: { model?: string; via?: string }): Promise<ModelConfig | undefined> {
  return flags.via === undefined ? resolveModel(flags.model) : resolveModel(`command:${flags.via}`, '--via');
}

/** The client for a config, loading the provider SDKs only now (they cost startup time for every other command). */
export async function modelClient(config: ModelConfig | undefined): Promise<ModelClient | undefined> {
  if (!config) return undefined;
  const { createModelClient } = await import('../core/model/client.js');
  return createModelClient(config);
}

/**
 * The client for `--model` (or the environment and config file), resolved only when called: a command passes this to
 * work that needs a model only sometimes (the fact box, extract's fallback), so the rest never reads the settings.
 */
export function lazyModel(flag: string | undefined): () => Promise<ModelClient | undefined> {
  return async () => modelClient(await resolveModel(flag));
}
