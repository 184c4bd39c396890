import type { AnswerProblem, AnswerRejection } from '../model/answer-problem.js';
import { hasControlCharacters } from '../text-guard.js';
import { isWellFormed } from '../well-formed.js';
import { DEFAULT_MAX_CANDIDATES, MAX_CLAIM_CHARS } from './prompt.js';

export interface ValidCandidate {
  claim: string;
  /** Refs as shown to the model, deduplicated, in the order cited. */
  sources: string[];
  tags: string[];
}

/** A valid answer's candidates, or the first problem found, named in the one answer vocabulary (`AnswerProblem`). */
export type Validation = { ok: true; candidates: ValidCandidate[] } | ({ ok: false } & AnswerRejection);

export interface ValidateOptions {
  /** The refs shown to the model: the only ones a source may name (exact, case-sensitive match). */
  refs: readonly string[];
  maxCandidates?: number;
}

const reject = (reason: AnswerProblem, message: string, index?: number): Validation => ({
  ok: false,
  reason,
  message,
  ...(index === undefined ? {} : { index }),
});

/**
 * docs/design.md §4.4, a pure function: all or nothing over the whole answer. Messages name the candidate index and the rule,
 * never the model's text. Extra fields are ignored (and never stored). An empty list is a valid answer.
 */
export function validateAnswer(answer: unknown, options: ValidateOptions): Validation {
  const maxCandidates = options.maxCandidates ?? DEFAULT_MAX_CANDIDATES;
  let value = answer;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return reject('invalid_json', 'the answer is not valid JSON');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return reject('shape_mismatch', 'the answer is not a JSON object');
  const list = (value as { candidates?: unknown }).candidates;
  if (!Array.isArray(list)) return reject('shape_mismatch', 'the answer has no "candidates" array');
  if (list.length > maxCandidates) return reject('too_many_candidates', `${list.length} candidates; at most ${maxCandidates} are allowed`);

  const allowed = new Set(options.refs);
  const candidates: ValidCandidate[] = [];
  for (const [index, item] of list.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return reject('shape_mismatch', `candidate ${index} is not an object`, index);
    const { claim, sources, tags } = item as { claim?: unknown; sources?: unknown; tags?: unknown };
    if (typeof claim !== 'string') return reject('shape_mismatch', `candidate ${index} has no string "claim"`, index);
    if (sources !== undefined && !Array.isArray(sources)) return reject('shape_mismatch', `candidate ${index}: "sources" is not an array`, index);
    if (Array.isArray(sources) && sources.some((source) => typeof source !== 'string')) {
      return reject('shape_mismatch', `candidate ${index}: every source must be a string ref`, index);
    }
    if (tags !== undefined && (!Array.isArray(tags) || tags.some((tag) => typeof tag !== 'string'))) {
      return reject('shape_mismatch', `candidate ${index}: "tags" must be an array of strings`, index);
    }
    // A claim is shown to reviewers in terminals: escape sequences in it could rewrite the screen they decide on.
    if (hasControlCharacters(claim) || (tags as string[] | undefined)?.some(hasControlCharacters)) {
      return reject('control_characters', `candidate ${index} contains control characters`, index);
    }
    // JSON can spell an unpaired surrogate ("\ud800"); stored, it would be bytes that are not UTF-8.
    if (!isWellFormed(claim) || (tags as string[] | undefined)?.some((tag) => !isWellFormed(tag))) {
      return reject('lone_surrogate', `candidate ${index} contains a lone surrogate (not Unicode text)`, index);
    }
    const trimmed = claim.trim();
    if (trimmed === '') return reject('empty_claim', `candidate ${index} has an empty claim`, index);
    if ([...trimmed].length > MAX_CLAIM_CHARS)
      return reject('claim_too_long', `candidate ${index}'s claim is longer than ${MAX_CLAIM_CHARS} characters`, index);
    const refs = [...new Set((sources ?? []) as string[])];
    if (refs.length === 0) return reject('no_sources', `candidate ${index} cites no source`, index);
    if (refs.some((ref) => !allowed.has(ref))) return reject('source_out_of_set', `candidate ${index} cites a source that was not shown`, index);
    // Tags are optional garnish: keep at most 10 usable ones (1–64 characters) rather than fail a good answer on them.
    const cleanTags = [...new Set(((tags ?? []) as string[]).map((tag) => tag.trim()))].filter((tag) => tag !== '' && tag.length <= 64).slice(0, 10);
    candidates.push({ claim: trimmed, sources: refs, tags: cleanTags });
  }
  return { ok: true, candidates };
}
