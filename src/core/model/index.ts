/** The model layer: the only code in hippo that sends text to a model (docs/design.md §8). */
export {
  resolveModelConfig,
  describeModelConfig,
  isLoopbackUrl,
  maskKey,
  displayBaseUrl,
  DEFAULT_BASE_URLS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_MAX_BYTES,
  type ModelConfig,
  type HttpModelConfig,
  type CommandModelConfig,
  type ModelConfigSource,
  type ModelConfigDescription,
  type ResolveModelConfigInput,
} from './config.js';
export { parseModelSpec, PROVIDERS, type ProviderName, type HttpProviderName } from '../config-values.js';
export {
  createModelClient,
  type ModelClient,
  type ModelClientOptions,
  type GenerateObjectRequest,
  type GenerateObjectResult,
  type ModelUsage,
} from './client.js';
export { isLoopbackAddress, pinLoopback, staysOnMachine, type LookupAll, type ResolvedAddress } from './loopback.js';
export { checkModel, type ModelCheckResult, type ModelCheckError, type CheckModelOptions } from './check.js';
export { extractJsonObject, stripThinking, type ExtractJsonResult } from './json.js';
export {
  ModelCallUnavailableError,
  ModelCallOutputError,
  ModelCallAbortedError,
  isModelCallError,
  modelNotConfigured,
  OLLAMA_RECIPE,
  type ModelCallError,
  type ModelErrorInfo,
} from './errors.js';
export {
  ANSWER_PROBLEMS,
  answerRejected,
  AnswerRejectedError,
  answerProblemOf,
  isMalformed,
  type AnswerProblem,
  type AnswerRejection,
} from './answer-problem.js';
