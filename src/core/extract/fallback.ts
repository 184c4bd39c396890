/**
 * The model fallback (docs/design.md §5.3) for kinds that no validator covers: the model only points at text in the
 * passages it was shown; `verifyPointers` keeps what is found there verbatim, and nothing the model said is logged,
 * returned or stored.
 */
import { HippoError, InterruptedError } from '../errors.js';
import type { UnvalidatedKind } from '../facts/kinds.js';
import type { Redactor } from '../facts/redact.js';
import type { Fact, Passage } from '../facts/types.js';
import type { ModelClient } from '../model/client.js';
import { FALLBACK_PASSAGE_BUDGET } from './limits.js';

// Room for the verifier's 100 pointers of a line or two each; a longer answer is cut by the provider and then rejected as truncated.
const MAX_OUTPUT_TOKENS = 4096;

export interface FallbackOptions {
  client: ModelClient;
  /** Deadline for the model call; composed with `signal`. */
  timeoutMs: number;
  /** The caller's cancellation (Ctrl-C): the request is cancelled and the interruption is rethrown. */
  signal?: AbortSignal;
  /** Receives one line when the call fails: the error code and a fixed string, never anything the model said. */
  log: (line: string) => void;
  /**
   * Redacts the passages before they are sent (docs/redaction.md): a fresh redactor for the request, or undefined when
   * the policy does not redact for this model.
   */
  redactor?: () => Promise<Redactor | undefined>;
}

/**
 * Leading passages within `budget` characters. A passage that does not fit whole is cut (at its last line break
 * inside the budget, when there is one) and ends the list; a cut keeps a prefix, so offsets into it are offsets into
 * the source.
 */
export function passagesWithin(passages: readonly Passage[], budget: number): Passage[] {
  const shown: Passage[] = [];
  let left = budget;
  for (const passage of passages) {
    if (left <= 0) break;
    if (passage.text.length <= left) {
      shown.push(passage);
      left -= passage.text.length;
      continue;
    }
    const lineBreak = passage.text.lastIndexOf('\n', left);
    shown.push({ source: passage.source, text: passage.text.slice(0, lineBreak > 0 ? lineBreak : left) });
    break;
  }
  return shown;
}

/**
 * §5.3: asks the model to point at spans of `kind` in the passages that fit the budget and keeps only pointers found
 * verbatim in the passage they name. Any provider error, timeout or rejected answer gives no facts and one log line;
 * only the caller's own abort is rethrown.
 */
export async function modelFallback(kind: UnvalidatedKind, passages: readonly Passage[], options: FallbackOptions): Promise<Fact[]> {
  const shown = passagesWithin(passages, FALLBACK_PASSAGE_BUDGET);
  if (shown.length === 0) return [];
  // Loaded here: the verifier's schema is zod, which a fact box of validated kinds never needs (docs/decisions.md, "Fact box").
  const { buildFallbackPrompt, fallbackAnswerJsonSchema, verifyPointers } = await import('../facts/verify.js');
  const { $schema: _dialect, ...pointersJsonSchema } = fallbackAnswerJsonSchema as Record<string, unknown>;
  try {
    // Redacted passages go out; pointers are verified against them and mapped back to the source (verifyPointers).
    const redactor = await options.redactor?.();
    // Each passage is redacted whole and then cut where it was cut for the budget: a value the cut goes through is
    // left out whole rather than sent in part (passage i of `shown` is a prefix of passage i of `passages`).
    const redacted = redactor ? shown.map((passage, index) => redactor.redact(passages[index]!.text, { cutAt: passage.text.length })) : undefined;
    const sent = redacted ? shown.map((passage, index) => ({ source: passage.source, text: redacted[index]!.text })) : shown;
    // Loaded here like the verifier above: a fact box of validated kinds never sends anything, so never needs it.
    (await import('../redaction.js')).assertNothingLeft(redactor);
    await options.client.prepare();
    const answer = await options.client.generateObject({
      prompt: buildFallbackPrompt(kind, sent),
      // No zod schema: each pointer is checked on its own by verifyPointers, so one malformed pointer cannot sink the others.
      jsonSchema: pointersJsonSchema,
      schemaName: 'pointers',
      maxOutputTokens: MAX_OUTPUT_TOKENS,
      temperature: 0,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    return verifyPointers(shown, answer.value, { kind, allowedPassageCount: shown.length, model: answer.model, ...(redacted ? { redacted } : {}) });
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    const code = error instanceof HippoError ? error.code : 'unexpected';
    // Loaded here: a search that names no kind must not load the model layer (test/commands/startup.test.ts).
    const { answerProblemOf } = await import('../model/answer-problem.js');
    const reason = answerProblemOf(error);
    const status = `${code}${reason ? ` (${reason})` : ''}`;
    options.log(`model fallback for ${kind}: ${status} (${fallbackFailure(code, reason)}); nothing from the model, the validated facts are unchanged`);
    return [];
  }
}

/** What a failed fallback call means, in words, for its error code (and, for a rejected answer, its reason). */
function fallbackFailure(code: string, reason: string | undefined): string {
  if (code === 'redaction_incomplete') return 'a value was still there after redaction; nothing was sent';
  if (code === 'model_timeout') return 'the model timed out';
  if (code === 'model_unreachable') return 'the model could not be reached';
  if (code.startsWith('http_status_')) return `the model server answered HTTP ${code.slice('http_status_'.length)}`;
  if (code === 'model_bad_response') return 'the model server did not answer in its format';
  if (reason === 'response_too_large') return "the model's answer was too large";
  if (code === 'model_output_invalid') return "the model's answer was not the JSON asked for";
  return 'the model call failed';
}
