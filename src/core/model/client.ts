/**
 * The one way hippo calls a model (docs/design.md §8). Every provider goes through `generateObject`, which enforces the rules:
 * schema-constrained output where the backend supports it, a deadline composed with the caller's signal (an abort
 * cancels the HTTP request or kills the command), a byte cap on the response, no retries, thinking stripped, one JSON
 * object extracted from prose/fences, zod validation, and typed errors that never carry prompt, response or key.
 *
 * HTTP providers use the AI SDK (`generateText`) with a custom `Output` that hands us the raw text: the SDK's own
 * `Output.object` parses before we could strip `<think>` blocks or tolerate fences, and its errors embed the text.
 * The SDK and providers are imported lazily so commands that never call a model do not pay their startup cost.
 */
import type { OutputInterface } from 'ai';
import { z } from 'zod';
import { HippoError, ExitCode } from '../errors.js';
import { createCappedFetch, type FetchState } from './capped-fetch.js';
import { runCommandModel } from './command.js';
import type { ProviderName } from '../config-values.js';
import { displayBaseUrl, type HttpModelConfig, type ModelConfig } from './config.js';
import { answerRejected, responseTooLarge } from './answer-problem.js';
import { badResponse, httpStatus, isModelCallError, ModelCallAbortedError, modelTimeout, modelUnreachable } from './errors.js';
import { extractJsonObject } from './json.js';
import { pinnedFetch } from './pinned-fetch.js';

interface GenerateObjectOptions {
  system?: string;
  prompt: string;
  /** Name of the schema, for backends that want one (OpenAI `json_schema.name`). Default `response`. */
  schemaName?: string;
  /**
   * `schema` (default): constrain the output with the JSON schema where the backend supports it.
   * `json`: ask only for JSON (Ollama `format: "json"`, OpenAI `json_object`, Anthropic: prompt only) — for the
   * caller's single retry after a malformed answer. Either way the answer is validated with `schema` when given.
   * In `json` mode the prompt itself must ask for JSON (OpenAI requires the word in the messages).
   */
  mode?: 'schema' | 'json';
  maxOutputTokens: number;
  temperature: number;
  /** The caller's cancellation (Ctrl-C, a newer keystroke). */
  signal?: AbortSignal;
  /** Deadline for this call; default the config's `timeoutMs`. */
  timeoutMs?: number;
}

/**
 * Either a zod `schema` (validates the parsed answer, and is the JSON schema sent unless `jsonSchema` is given), or
 * only a `jsonSchema` to send: the answer object then comes back unvalidated, as `unknown`, for a caller that checks
 * it itself (REM validation, the fact fallback's pointer check).
 */
export type GenerateObjectRequest<T> = GenerateObjectOptions &
  ({ schema: z.ZodType<T>; jsonSchema?: Record<string, unknown> } | { schema?: undefined; jsonSchema: Record<string, unknown> });

export interface ModelUsage {
  inputTokens?: number;
  outputTokens?: number;
}

export interface GenerateObjectResult<T> {
  value: T;
  /** The model's answer text as received (reasoning fields already separated out; `<think>` blocks still in). */
  rawText: string;
  /** The model id the provider reported, else the configured one (for `command`, the command). */
  model: string;
  provider: ProviderName;
  usage?: ModelUsage;
  latencyMs: number;
}

export interface ModelClient {
  readonly config: ModelConfig;
  /**
   * Loads the provider SDK now (no request is sent), so that a short deadline on the next call measures the model
   * rather than module loading (the search fact box gives the model 800 ms).
   */
  prepare(): Promise<void>;
  generateObject<T = unknown>(request: GenerateObjectRequest<T>): Promise<GenerateObjectResult<T>>;
}

export interface ModelClientOptions {
  /** The fetch under the byte cap (default the global fetch). */
  fetch?: typeof globalThis.fetch;
}

interface RawAnswer {
  text: string;
  model: string;
  usage?: ModelUsage;
  truncated: boolean;
}

export function createModelClient(config: ModelConfig, options: ModelClientOptions = {}): ModelClient {
  return {
    config,
    async prepare(): Promise<void> {
      if (config.provider !== 'command') await Promise.all([import('ai'), languageModel(config, globalThis.fetch)]);
    },
    async generateObject<T = unknown>(request: GenerateObjectRequest<T>): Promise<GenerateObjectResult<T>> {
      const started = performance.now();
      // setTimeout fires at once for delays past 2^31-1 ms; nobody waits 24 days for a model anyway.
      const timeoutMs = Math.min(request.timeoutMs ?? config.timeoutMs, 2 ** 31 - 1);
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), timeoutMs);
      const signal = request.signal ? AbortSignal.any([request.signal, deadline.signal]) : deadline.signal;
      try {
        const answer = config.provider === 'command' ? await callCommand(config, request, signal) : await callHttp(config, request, signal, options.fetch);
        const value = parseAnswer(answer, request);
        const usage = answer.usage;
        return {
          value,
          rawText: answer.text,
          model: answer.model,
          provider: config.provider,
          ...(usage ? { usage } : {}),
          latencyMs: Math.round(performance.now() - started),
        };
      } catch (error) {
        // The caller's abort wins over everything, then our deadline; typed errors pass; anything else is a bug
        // reported by name only (a library error's message may quote the request or response).
        if (request.signal?.aborted) throw new ModelCallAbortedError();
        if (deadline.signal.aborted) throw modelTimeout(timeoutMs);
        if (isModelCallError(error)) throw error;
        throw new HippoError(
          'model_call_failed',
          `the model call failed unexpectedly (${error instanceof Error ? error.name : 'unknown error'})`,
          ExitCode.unexpected,
        );
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

async function callCommand(
  config: Extract<ModelConfig, { provider: 'command' }>,
  request: GenerateObjectRequest<unknown>,
  signal: AbortSignal,
): Promise<RawAnswer> {
  // A CLI has no system channel: the system text goes first, then the prompt.
  const input = request.system ? `${request.system}\n\n${request.prompt}` : request.prompt;
  const { text } = await runCommandModel(config, input, signal);
  return { text, model: config.model, truncated: false };
}

async function callHttp(
  config: HttpModelConfig,
  request: GenerateObjectRequest<unknown>,
  signal: AbortSignal,
  baseFetch: typeof globalThis.fetch | undefined,
): Promise<RawAnswer> {
  const state: FetchState = { requests: 0 };
  // A base URL whose name resolved only to loopback is held to that address (./loopback.ts): no second lookup.
  const pinned = config.pinnedAddress === undefined ? undefined : pinnedFetch(new URL(config.baseUrl).hostname.toLowerCase(), config.pinnedAddress);
  const fetch = createCappedFetch(config.maxBytes, state, baseFetch ?? pinned);
  const where = `${config.provider} at ${displayBaseUrl(config.baseUrl)}`;
  const jsonSchema = sentSchema(request);
  const mode = request.mode ?? 'schema';
  try {
    const { generateText } = await import('ai');
    // The SDK's default warning logger writes to stdout (console.info), which would corrupt `--json` output.
    (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS ??= false;
    const result = await generateText({
      model: await languageModel(config, fetch),
      ...(request.system ? { system: request.system } : {}),
      prompt: request.prompt,
      maxOutputTokens: request.maxOutputTokens,
      temperature: request.temperature,
      maxRetries: 0,
      abortSignal: signal,
      output: rawTextOutput(mode === 'schema' ? { type: 'json', schema: jsonSchema, name: request.schemaName ?? 'response' } : { type: 'json' }),
      providerOptions: providerOptions(config, request, jsonSchema),
    });
    const usage: ModelUsage = {};
    if (result.usage.inputTokens !== undefined) usage.inputTokens = result.usage.inputTokens;
    if (result.usage.outputTokens !== undefined) usage.outputTokens = result.usage.outputTokens;
    return {
      text: result.text,
      model: reportedModel(result.response.body) ?? (result.response.modelId || config.model),
      ...(Object.keys(usage).length ? { usage } : {}),
      truncated: result.finishReason === 'length',
    };
  } catch (error) {
    if (signal.aborted) throw error; // classified by the caller: abort or timeout
    if (state.tooLarge) throw responseTooLarge(config.maxBytes);
    if (state.transportFailed) throw modelUnreachable(where, 'the connection failed or was dropped', { model: config.model });
    if (state.status === undefined) {
      if (state.requests === 0) throw error; // failed before sending: reported as a bug by name
      throw modelUnreachable(where, 'no response', { model: config.model });
    }
    if (state.status < 200 || state.status > 299) throw httpStatus(state.status, where, config.model);
    throw badResponse(where, state.bytes === 0 ? 'an empty body' : /html/i.test(state.contentType ?? '') ? 'an HTML page' : 'unexpected content');
  }
}

/** The `model` field of the raw response: the Ollama provider reports the configured id, not the server's. */
function reportedModel(body: unknown): string | undefined {
  const model = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' && model !== '' ? model : undefined;
}

async function languageModel(config: HttpModelConfig, fetch: typeof globalThis.fetch) {
  switch (config.provider) {
    case 'ollama': {
      const { createOllama } = await import('ollama-ai-provider-v2');
      const baseURL = config.baseUrl.endsWith('/api') ? config.baseUrl : `${config.baseUrl}/api`;
      const headers: Record<string, string> = config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {};
      return createOllama({ baseURL, fetch, headers })(config.model);
    }
    case 'openai': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        name: 'openai',
        baseURL: config.baseUrl,
        ...(config.apiKey ? { apiKey: config.apiKey } : {}),
        fetch,
        // Without this the provider downgrades every schema to `json_object`.
        supportsStructuredOutputs: true,
      }).chatModel(config.model);
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      // Structured output: the SDK uses `output_config.format` (JSON schema) for models that support it and a
      // forced `json` tool otherwise; either way the answer comes back to us as text.
      return createAnthropic({ baseURL: config.baseUrl, apiKey: config.apiKey, fetch })(config.model);
    }
  }
}

function providerOptions(
  config: HttpModelConfig,
  request: GenerateObjectRequest<unknown>,
  jsonSchema: Record<string, unknown>,
): Record<string, Record<string, never>> | undefined {
  if (config.provider === 'ollama') {
    // Ollama reads sampling settings from `options`; the provider's top-level `temperature` is ignored by the server.
    return {
      ollama: { options: { temperature: request.temperature, num_predict: request.maxOutputTokens } },
    } as never;
  }
  if (config.provider === 'openai') {
    // OpenAI's strict mode refuses schemas with optional properties or open objects; send strict only when valid.
    return { openai: { strictJsonSchema: isStrictCompatible(jsonSchema) } } as never;
  }
  return undefined;
}

/** An AI SDK Output that sends our response format and returns the text untouched; parsing is ours. */
function rawTextOutput(responseFormat: { type: 'json'; schema?: Record<string, unknown>; name?: string }): OutputInterface<string, string, never> {
  return {
    name: 'hippo-raw-json',
    responseFormat: Promise.resolve(responseFormat as never),
    parseCompleteOutput: async ({ text }) => text,
    parsePartialOutput: async () => undefined,
    createElementStreamTransform: () => undefined,
  };
}

function sentSchema(request: GenerateObjectRequest<unknown>): Record<string, unknown> {
  return request.jsonSchema ?? toJsonSchema(request.schema!);
}

function toJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

function isStrictCompatible(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(isStrictCompatible);
  if (typeof node !== 'object' || node === null) return true;
  const obj = node as Record<string, unknown>;
  if (obj.type === 'object' || obj.properties) {
    const keys = Object.keys((obj.properties as Record<string, unknown> | undefined) ?? {});
    const required = Array.isArray(obj.required) ? obj.required : [];
    if (obj.additionalProperties !== false || !keys.every((k) => required.includes(k))) return false;
  }
  return Object.values(obj).every(isStrictCompatible);
}

/** Thinking stripped, one JSON object extracted, then validated; failures name a schema path, never the text. */
function parseAnswer<T>(answer: RawAnswer, request: GenerateObjectRequest<T>): T {
  const extracted = extractJsonObject(answer.text);
  if (!extracted.ok) {
    throw answerRejected(answer.truncated ? { reason: 'invalid_json', message: 'it was cut off at the output token limit' } : extracted);
  }
  if (!request.schema) return extracted.value as T;
  const parsed = request.schema.safeParse(extracted.value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const known = propertyNames(sentSchema(request));
  // Path segments are shown only when they are the schema's own property names or array indices: a record key or
  // an unknown key comes from the response and could carry its text.
  const path = (issue?.path ?? []).map((p) => (typeof p === 'number' ? String(p) : typeof p === 'string' && known.has(p) ? p : '*'));
  const where = `${path.length ? path.join('.') : '(root)'}: ${issue?.code ?? 'invalid'}`;
  throw answerRejected({ reason: 'shape_mismatch', message: `its JSON did not match the expected shape (${where})` }, { details: { where } });
}

function propertyNames(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) schema.forEach((s) => propertyNames(s, out));
  else if (typeof schema === 'object' && schema !== null) {
    const obj = schema as Record<string, unknown>;
    if (typeof obj.properties === 'object' && obj.properties !== null) {
      for (const key of Object.keys(obj.properties)) out.add(key);
    }
    for (const value of Object.values(obj)) propertyNames(value, out);
  }
  return out;
}
