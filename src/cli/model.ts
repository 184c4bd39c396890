// The model set-up of a command: core's lazy resolution (src/core/model/lazy.ts), with the flag named as the command
// line names it.
import type { ModelClient } from '../core/model/client.js';
import type { ModelConfig } from '../core/model/config.js';
import { lazyModel as lazyModelFor, modelClient, resolveModel as resolveModelFor } from '../core/model/lazy.js';

export { modelClient };

/** Resolves the model config (flag > env > file); malformed settings are exit 2 even when no model is needed yet. */
export async function resolveModel(flag: string | undefined, flagName = '--model'): Promise<ModelConfig | undefined> {
  return resolveModelFor(flag, flagName);
}

/** `--via CMD` stands for the model `command:CMD`; otherwise `--model` (or the environment and config file). */
export async function resolveRunModel(flags: { model?: string; via?: string }): Promise<ModelConfig | undefined> {
  return flags.via === undefined ? resolveModel(flags.model) : resolveModel(`command:${flags.via}`, '--via');
}

/** The client for `--model` (or the environment and config file), resolved only when called (src/core/model/lazy.ts). */
export function lazyModel(flag: string | undefined): () => Promise<ModelClient | undefined> {
  return lazyModelFor(flag, '--model');
}
