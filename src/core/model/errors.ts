/**
 * Typed errors of the model layer (SPEC §8, §3.1). Every one carries a stable `code`, a one-line `summary` and a
 * `fix` (what the user can do), and nothing else: no prompt text, no response text, no key, and no library error as
 * `cause` (AI SDK errors embed the response body and the request body in their message and fields). Only status
 * codes, exit codes, byte counts and fixed strings go in.
 *
 * code                      exit  when
 * model_not_configured      5     no --model, HIPPO_MODEL or config file model
 * model_unreachable         5     connection refused/reset/dropped, DNS failure; command provider: non-zero exit
 * model_timeout             5     the deadline (HIPPO_MODEL_TIMEOUT_MS / timeoutMs) passed; the request was cancelled
 * http_status_<n>           5     the server answered with HTTP status n (401, 404, 429, 500, …); never retried here
 * interrupted               130   the caller's AbortSignal fired (Ctrl-C, a newer keystroke); the request was cancelled
 *                                 (ModelCallAbortedError, a subclass of the CLI's InterruptedError)
 * response_too_large        6     the response body (or command stdout) went past HIPPO_MODEL_MAX_BYTES
 * model_bad_response        6     the server answered 200 but not in its wire format (HTML, empty body, wrong JSON)
 * model_output_invalid      6     the model's text held no single JSON object, or it did not match the schema;
 *                                 `reason` says which (no_json_object, multiple_json_objects, invalid_json,
 *                                 shape_mismatch, truncated)
 */
import { InterruptedError, ModelOutputError, ModelUnavailableError } from '../errors.js';

export const OLLAMA_RECIPE =
  'To use a local model: install Ollama (https://ollama.com), run `ollama pull llama3.2`, then ' +
  '`export HIPPO_MODEL=ollama:llama3.2` (or pass --model, or set "model" in the config file). ' +
  'Without a model, use --prompt-only to hand the prompt to any LLM and bring the answer back with `hippo rem ingest`.';

export type ModelOutputReason = 'no_json_object' | 'multiple_json_objects' | 'invalid_json' | 'shape_mismatch' | 'truncated';

/** What every model-layer error exposes beyond HippoError. */
export interface ModelErrorInfo {
  readonly summary: string;
  readonly fix: string;
}

type Options = { details?: Record<string, unknown> };

/** Exit 5: no model, or it could not be reached / did not answer in time / answered with an HTTP error. */
export class ModelCallUnavailableError extends ModelUnavailableError implements ModelErrorInfo {
  readonly summary: string;
  readonly fix: string;
  constructor(code: string, summary: string, fix: string, options?: Options) {
    super(code, `${summary}\n${fix}`, options);
    this.summary = summary;
    this.fix = fix;
  }
}

/** Exit 6: the model (or what stands at the base URL) answered, but the answer was rejected. */
export class ModelCallOutputError extends ModelOutputError implements ModelErrorInfo {
  readonly summary: string;
  readonly fix: string;
  constructor(code: string, summary: string, fix: string, options?: Options) {
    super(code, `${summary}\n${fix}`, options);
    this.summary = summary;
    this.fix = fix;
  }
}

/**
 * Exit 130, code `interrupted`: the caller aborted (Ctrl-C, a superseded search). An InterruptedError, so the CLI
 * treats it like any other interruption; the subclass lets a caller tell that it was the model call.
 */
export class ModelCallAbortedError extends InterruptedError implements ModelErrorInfo {
  readonly summary = 'the model call was cancelled';
  readonly fix = 'nothing to do: the request was cancelled by the caller';
}

export type ModelCallError = ModelCallUnavailableError | ModelCallOutputError | ModelCallAbortedError;

export function isModelCallError(error: unknown): error is ModelCallError {
  return error instanceof ModelCallUnavailableError || error instanceof ModelCallOutputError || error instanceof ModelCallAbortedError;
}

export function modelNotConfigured(): ModelCallUnavailableError {
  return new ModelCallUnavailableError('model_not_configured', 'no model is configured', OLLAMA_RECIPE);
}

/** `where` is a provider label and base URL (or "the command"), never anything from the call. */
export function modelUnreachable(where: string, why: string, options?: Options & { command?: boolean }): ModelCallUnavailableError {
  const fix = options?.command
    ? 'Run the command by hand with a short prompt on stdin to see why it fails (its stderr is not shown by hippo).'
    : `Check that the model server is running and HIPPO_BASE_URL is right (for Ollama: \`ollama serve\`). ${OLLAMA_RECIPE}`;
  return new ModelCallUnavailableError('model_unreachable', `could not get an answer from ${where}: ${why}`, fix, options);
}

export function modelTimeout(timeoutMs: number): ModelCallUnavailableError {
  return new ModelCallUnavailableError(
    'model_timeout',
    `the model did not answer within ${timeoutMs} ms; the request was cancelled`,
    'Raise HIPPO_MODEL_TIMEOUT_MS (or the config file\'s "timeoutMs"), use a smaller model, or use --prompt-only.',
    { details: { timeoutMs } },
  );
}

export function httpStatus(status: number, where: string, model: string): ModelCallUnavailableError {
  return new ModelCallUnavailableError(`http_status_${status}`, `${where} answered with HTTP status ${status}`, fixForStatus(status, model), {
    details: { status },
  });
}

function fixForStatus(status: number, model: string): string {
  if (status === 401 || status === 403) return 'Check the API key (HIPPO_API_KEY, or OPENAI_API_KEY / ANTHROPIC_API_KEY).';
  if (status === 404) return `Check the model name and HIPPO_BASE_URL; for Ollama, pull the model first: \`ollama pull ${model}\`.`;
  if (status === 429) return 'The provider is rate-limiting: wait and try again (hippo does not retry on its own).';
  if (status >= 500) return 'The model server failed: check its logs and try again, or use --prompt-only.';
  return 'The server refused the request: check HIPPO_BASE_URL and the model name.';
}

export function responseTooLarge(maxBytes: number): ModelCallOutputError {
  return new ModelCallOutputError(
    'response_too_large',
    `the model's response was larger than ${maxBytes} bytes and was rejected (never parsed truncated)`,
    'Raise HIPPO_MODEL_MAX_BYTES (or the config file\'s "maxBytes") if this answer size is expected.',
    { details: { maxBytes } },
  );
}

export function badResponse(where: string, why: string): ModelCallOutputError {
  return new ModelCallOutputError(
    'model_bad_response',
    `${where} did not answer in its API format (${why})`,
    'Check HIPPO_BASE_URL: it must point at the model API itself (e.g. http://127.0.0.1:11434 for Ollama, …/v1 for OpenAI-compatible servers), not a web page or proxy login.',
  );
}

export const REASON_TEXT: Record<ModelOutputReason, string> = {
  no_json_object: 'it contained no JSON object',
  multiple_json_objects: 'it contained more than one JSON object',
  invalid_json: 'its JSON did not parse',
  shape_mismatch: 'its JSON did not match the expected shape',
  truncated: 'it was cut off at the output token limit',
};

/** `where` is a schema path built from the schema's own property names (see client.ts), never response text. */
export function outputInvalid(reason: ModelOutputReason, where?: string): ModelCallOutputError {
  return new ModelCallOutputError(
    'model_output_invalid',
    `the model's answer was rejected: ${REASON_TEXT[reason]}${where ? ` (${where})` : ''}`,
    'Try again, try a larger or instruction-tuned model, or use --prompt-only with a model you trust.',
    { details: { reason, ...(where ? { where } : {}) } },
  );
}
