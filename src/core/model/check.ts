/**
 * `hippo model check`: where content would go, then one tiny structured call. Never throws for a model failure (the
 * result carries the typed error and its fix); throws only when the caller aborts.
 */
import { z } from 'zod';
import { describeModelConfig, type ModelConfig, type ModelConfigDescription } from './config.js';
import { createModelClient, type ModelClientOptions } from './client.js';
import { isModelCallError, ModelCallAbortedError, modelNotConfigured } from './errors.js';
import type { ErrorCode } from '../errors.js';
import type { RedactMode } from '../config-values.js';
import { destinationOf, redactionApplies, resolveRedaction, type Destination, type RedactionPolicy } from '../redaction.js';

/** The redaction policy in force for this model (docs/redaction.md): the mode, the kinds, and whether it applies. */
export interface ModelCheckRedaction extends RedactionPolicy {
  destination: Destination | 'none';
  applies: boolean;
}

export interface ModelCheckError {
  code: ErrorCode;
  /** One line, fixed text. */
  message: string;
  /** What to do about it. */
  fix: string;
  exitCode: number;
}

export type ModelCheckResult =
  | (ModelConfigDescription & {
      configured: true;
      ok: boolean;
      /** False when the check only resolved and described the config (`call: false`): nothing was sent. */
      called: boolean;
      latencyMs: number;
      /** The model id the provider reported, when the call succeeded. */
      reportedModel?: string;
      error?: ModelCheckError;
      redaction: ModelCheckRedaction;
    })
  | { configured: false; ok: false; leavesMachine: false; error: ModelCheckError; redaction: ModelCheckRedaction };

export interface CheckModelOptions extends ModelClientOptions {
  signal?: AbortSignal;
  /** Default: the config's timeoutMs. */
  timeoutMs?: number;
  /** false: describe the config and where content would go, without sending anything (default true). */
  call?: boolean;
  /** The caller's redaction mode; omitted: config `redact`, else `auto`. */
  redact?: RedactMode;
}

const CHECK_SCHEMA = z.object({ ok: z.boolean() });

export async function checkModel(config: ModelConfig | undefined, options: CheckModelOptions = {}): Promise<ModelCheckResult> {
  const policy = resolveRedaction({ mode: options.redact });
  const destination = config ? destinationOf(config) : 'none';
  const redaction: ModelCheckRedaction = { ...policy, destination, applies: redactionApplies(policy, destination) };
  if (!config) {
    const e = modelNotConfigured();
    return { configured: false, ok: false, leavesMachine: false, error: { code: e.code, message: e.summary, fix: e.fix, exitCode: e.exitCode }, redaction };
  }
  const description = { ...describeModelConfig(config), redaction };
  if (options.call === false) return { ...description, configured: true, ok: true, called: false, latencyMs: 0 };
  const started = performance.now();
  try {
    const result = await createModelClient(config, options).generateObject({
      system: 'You are a health check. Answer with JSON only.',
      prompt: 'Reply with exactly this JSON object and nothing else: {"ok": true}',
      schema: CHECK_SCHEMA,
      schemaName: 'health_check',
      maxOutputTokens: 256,
      temperature: 0,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    return { ...description, configured: true, ok: true, called: true, latencyMs: result.latencyMs, reportedModel: result.model };
  } catch (error) {
    if (error instanceof ModelCallAbortedError || !isModelCallError(error)) throw error;
    return {
      ...description,
      configured: true,
      ok: false,
      called: true,
      latencyMs: Math.round(performance.now() - started),
      error: { code: error.code, message: error.summary, fix: error.fix, exitCode: error.exitCode },
    };
  }
}
