/**
 * The one vocabulary for a bad answer from a model (docs/design.md §4.3, §4.4, §8). Whichever layer finds the problem
 * — the model client (no JSON, over the byte cap), the REM validator (a source not shown, a claim too long) or
 * `rem ingest` — names it with an `AnswerProblem` and throws the same error: code `model_output_invalid` (exit 6) with
 * `details.reason`. The run row records the reason. Messages are fixed words: never the answer's text.
 */
import { HippoError } from '../errors.js';
import { ModelCallOutputError } from './errors.js';

export const ANSWER_PROBLEMS = [
  /** No parseable JSON object: none at all, more than one, unparseable, or cut off at the output token limit. */
  'invalid_json',
  /** JSON, but not `{"candidates": [{"claim": string, "sources": [string], "tags"?: [string]}]}` (or the asked schema). */
  'shape_mismatch',
  'source_out_of_set',
  'too_many_candidates',
  'claim_too_long',
  'empty_claim',
  'no_sources',
  'control_characters',
  /** A claim or tag holds a lone surrogate (an unpaired `\ud800`–`\udfff` escape): not Unicode, cannot be stored as UTF-8. */
  'lone_surrogate',
  /**
   * The answer uses a placeholder that was never issued for its request, or a mangled one (docs/redaction.md): its
   * values cannot be put back, so nothing of it is kept.
   */
  'unknown_placeholder',
  /** `rem ingest`: a cited memory was deleted or archived since the handoff. */
  'source_unavailable',
  /** The response went past the byte cap (never parsed truncated). */
  'response_too_large',
] as const;
export type AnswerProblem = (typeof ANSWER_PROBLEMS)[number];

/** A problem found in an answer, in fixed words; `index` is the candidate it was found in, when there is one. */
export interface AnswerRejection {
  reason: AnswerProblem;
  /** Fixed words that read after "rejected because" (e.g. "candidate 2 cites m99, which was not shown (shown: m1…m18)"). */
  message: string;
  index?: number;
}

/**
 * Malformed answers — no usable JSON, or the wrong shape — get docs/design.md §4.3's one retry in plain JSON mode.
 * The rest are a clear "no" from a model that did answer (retrying would invite it to guess), or, for an over-cap
 * response, a limit the retry would hit again.
 */
export function isMalformed(reason: AnswerProblem): boolean {
  return reason === 'invalid_json' || reason === 'shape_mismatch';
}

export function isAnswerProblem(value: unknown): value is AnswerProblem {
  return typeof value === 'string' && (ANSWER_PROBLEMS as readonly string[]).includes(value);
}

const DEFAULT_FIX = 'Nothing from it was kept. Try again, or try a larger or instruction-tuned model.';

/** Exit 6, code `model_output_invalid`, `details.reason` = the problem; `rejection` keeps the fixed words for a retry. */
export class AnswerRejectedError extends ModelCallOutputError {
  readonly rejection: AnswerRejection;
  constructor(rejection: AnswerRejection, options: { fix?: string; details?: Record<string, unknown> } = {}) {
    const { reason, message, index } = rejection;
    super('model_output_invalid', `the model's answer was rejected (${reason}): ${message}`, options.fix ?? DEFAULT_FIX, {
      details: { reason, ...(index === undefined ? {} : { index }), ...options.details },
    });
    this.rejection = { reason, message, ...(index === undefined ? {} : { index }) };
  }
}

/** The error for a rejected answer: always `model_output_invalid` (exit 6) with `details.reason`. */
export function answerRejected(rejection: AnswerRejection, options: { fix?: string; details?: Record<string, unknown> } = {}): AnswerRejectedError {
  return new AnswerRejectedError(rejection, options);
}

/** The answer problem an error carries (`details.reason` of `model_output_invalid`), else undefined. */
export function answerProblemOf(error: unknown): AnswerProblem | undefined {
  if (!(error instanceof HippoError) || error.code !== 'model_output_invalid') return undefined;
  const reason = error.details?.reason;
  return isAnswerProblem(reason) ? reason : undefined;
}

export function responseTooLarge(maxBytes: number): AnswerRejectedError {
  return answerRejected(
    { reason: 'response_too_large', message: `the response was larger than ${maxBytes} bytes (it is never parsed truncated)` },
    { fix: 'Raise HIPPO_MODEL_MAX_BYTES (or the config file\'s "maxBytes") if this answer size is expected.', details: { maxBytes } },
  );
}
