/**
 * Typed errors of the model layer (docs/design.md §8, §3.1). Every one carries a stable `code`, a one-line `summary`
 * and a `fix` (what the user can do), and nothing else: no prompt text, no response text, no key, and no library
 * error as `cause` (AI SDK errors embed the response body and the request body in their message and fields). Only
 * status codes, exit codes, byte counts and fixed strings go in. Fixes name environment variables and the config file,
 * never a command-line flag: the CLI adds its own words (src/cli/error-words.ts).
 *
 * code                      exit  when
 * model_not_configured      5     no model given, no HIPPO_MODEL, no config file model
 * model_unreachable         5     connection refused/reset/dropped, DNS failure; command provider: non-zero exit
 * model_timeout             5     the deadline (HIPPO_MODEL_TIMEOUT_MS / timeoutMs) passed; the request was cancelled
 * http_status_<n>           5     the server answered with HTTP status n (401, 404, 429, 500, …); never retried here
 * interrupted               130   the caller's AbortSignal fired (Ctrl-C, a newer keystroke); the request was cancelled
 *                                 (ModelCallAbortedError, a subclass of the CLI's InterruptedError)
 * model_bad_response        6     the server answered 200 but not in its wire format (HTML, empty body, wrong JSON):
 *                                 not a model's answer, so not an answer problem
 * model_output_invalid      6     the answer was rejected; `details.reason` is an AnswerProblem (answer-problem.ts):
 *                                 `invalid_json`, `shape_mismatch`, `response_too_large` here, more in REM validation
 */
import { InterruptedError, type ErrorCode, ModelOutputError, ModelUnavailableError } from '../errors.js';

export const OLLAMA_RECIPE =
  'To use a local model: install Ollama (https://ollama.com), run `ollama pull llama3.2`, then ' +
  '`export HIPPO_MODEL=ollama:llama3.2` (or set "model" in the config file).';

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
  constructor(code: ErrorCode, summary: string, fix: string, options?: Options) {
    super(code, `${summary}\n${fix}`, options);
    this.summary = summary;
    this.fix = fix;
  }
}

/** Exit 6: the model (or what stands at the base URL) answered, but the answer was rejected. */
export class ModelCallOutputError extends ModelOutputError implements ModelErrorInfo {
  readonly summary: string;
  readonly fix: string;
  constructor(code: ErrorCode, summary: string, fix: string, options?: Options) {
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
export function modelUnreachable(where: string, why: string, options?: Options & { command?: boolean; model?: string }): ModelCallUnavailableError {
  // A model is configured here (wherever from: the environment or the config file): the fix is the server, not how
  // to choose a model — so no `export HIPPO_MODEL`, which would also shadow a config file's choice.
  const pull = options?.model ? `, then \`ollama pull ${options.model}\` if the model is not there yet` : '';
  const fix = options?.command
    ? 'Run the command by hand with a short prompt on stdin to see why it fails (its stderr is not shown by hippo).'
    : `Check that the model server is running and its base URL is right (HIPPO_BASE_URL, or "baseUrl" in the config file). For Ollama: \`ollama serve\`${pull}.`;
  return new ModelCallUnavailableError('model_unreachable', `could not get an answer from ${where}: ${why}`, fix, options);
}

export function modelTimeout(timeoutMs: number): ModelCallUnavailableError {
  return new ModelCallUnavailableError(
    'model_timeout',
    `the model did not answer within ${timeoutMs} ms; the request was cancelled`,
    'Raise HIPPO_MODEL_TIMEOUT_MS (or the config file\'s "timeoutMs"), or use a smaller model.',
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
  if (status >= 500) return 'The model server failed: check its logs and try again.';
  return 'The server refused the request: check HIPPO_BASE_URL and the model name.';
}

export function badResponse(where: string, why: string): ModelCallOutputError {
  return new ModelCallOutputError(
    'model_bad_response',
    `${where} did not answer in its API format (${why})`,
    'Check HIPPO_BASE_URL: it must point at the model API itself (e.g. http://127.0.0.1:11434 for Ollama, …/v1 for OpenAI-compatible servers), not a web page or proxy login.',
  );
}
