import type { ModelClient } from '../core/model/client.js';
import type { ModelConfig } from '../core/model/config.js';

/** Resolves the model config (flag > env > file); malformed settings are exit 2 even when no model is needed yet. */
export async function resolveModel(flag: string | undefined, flagName?: string): Promise<ModelConfig | undefined> {
  const { resolveModelConfig } = await import('../core/model/config.js');
  return resolveModelConfig({ flag, flagName: flagName ?? '--model', env: process.env });
}

/** The client for a config, loading the provider SDKs only now (they cost startup time for every other command). */
export async function modelClient(config: ModelConfig | undefined): Promise<ModelClient | undefined> {
  if (!config) return undefined;
  const { createModelClient } = await import('../core/model/client.js');
  return createModelClient(config);
}
