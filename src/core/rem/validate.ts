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

/** A cited ref is named back only when it is shaped like one (`m` and digits): anything else is model text. */
const REF_SHAPE = /^m\d{1,9}$/;

/** The refs shown, as a reader checks them: `m1…m18` when they are m1 to mN in order, else listed (at most 5). */
export function shownRefs(refs: readonly string[]): string {
  if (refs.length === 0) return 'none were shown';
  if (refs.every((ref, index) => ref === `m${index + 1}`)) return refs.length === 1 ? 'shown: m1' : `shown: m1…m${refs.length}`;
  return `shown: ${refs.slice(0, 5).join(', ')}${refs.length > 5 ? `, … (${refs.length})` : ''}`;
}

const kindOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;

/**
 * docs/design.md §4.4, a pure function: all or nothing over the whole answer. Messages number candidates as a reader
 * counts them (the first is candidate 1; `index` stays the 0-based array index), say what was wrong and what is
 * allowed, and never repeat the model's text — except a cited ref shaped like one (`m99`). Extra fields are ignored
 * (and never stored). An empty list is a valid answer.
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
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return reject('shape_mismatch', `the answer is ${kindOf(value)}, not a JSON object`);
  const list = (value as { candidates?: unknown }).candidates;
  if (!Array.isArray(list)) {
    return reject('shape_mismatch', list === undefined ? 'the answer has no "candidates" array' : `the answer's "candidates" is ${kindOf(list)}, not an array`);
  }
  if (list.length > maxCandidates) return reject('too_many_candidates', `${list.length} candidates; at most ${maxCandidates} are allowed`);

  const allowed = new Set(options.refs);
  const candidates: ValidCandidate[] = [];
  for (const [index, item] of list.entries()) {
    const n = index + 1;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return reject('shape_mismatch', `candidate ${n} is ${kindOf(item)}, not an object`, index);
    const { claim, sources, tags } = item as { claim?: unknown; sources?: unknown; tags?: unknown };
    if (typeof claim !== 'string') {
      return reject(
        'shape_mismatch',
        claim === undefined ? `candidate ${n} has no "claim"` : `candidate ${n}'s "claim" is ${kindOf(claim)}, not a string`,
        index,
      );
    }
    if (sources !== undefined && !Array.isArray(sources))
      return reject('shape_mismatch', `candidate ${n}'s "sources" is ${kindOf(sources)}, not an array`, index);
    if (Array.isArray(sources)) {
      const position = sources.findIndex((source) => typeof source !== 'string');
      if (position >= 0) {
        return reject(
          'shape_mismatch',
          `candidate ${n}'s source ${position + 1} is ${kindOf(sources[position])}, not a ref like m1 (${shownRefs(options.refs)})`,
          index,
        );
      }
    }
    if (tags !== undefined && (!Array.isArray(tags) || tags.some((tag) => typeof tag !== 'string'))) {
      return reject('shape_mismatch', `candidate ${n}'s "tags" must be an array of strings`, index);
    }
    // A claim is shown to reviewers in terminals: escape sequences in it could rewrite the screen they decide on.
    if (hasControlCharacters(claim)) return reject('control_characters', `candidate ${n}'s claim contains control characters`, index);
    if ((tags as string[] | undefined)?.some(hasControlCharacters))
      return reject('control_characters', `candidate ${n}'s tags contain control characters`, index);
    // JSON can spell an unpaired surrogate ("\ud800"); stored, it would be bytes that are not UTF-8.
    if (!isWellFormed(claim) || (tags as string[] | undefined)?.some((tag) => !isWellFormed(tag))) {
      return reject('lone_surrogate', `candidate ${n} contains a lone surrogate (not Unicode text)`, index);
    }
    const trimmed = claim.trim();
    if (trimmed === '') return reject('empty_claim', `candidate ${n} has an empty claim`, index);
    const length = [...trimmed].length;
    if (length > MAX_CLAIM_CHARS) {
      return reject('claim_too_long', `candidate ${n}'s claim is ${length} characters; at most ${MAX_CLAIM_CHARS} are allowed`, index);
    }
    const refs = [...new Set((sources ?? []) as string[])];
    if (refs.length === 0) return reject('no_sources', `candidate ${n} cites no source (${shownRefs(options.refs)})`, index);
    const bad = refs.find((ref) => !allowed.has(ref));
    if (bad !== undefined) {
      const named = REF_SHAPE.test(bad) ? `cites ${bad}, which was not shown` : 'cites a source that is not one of the refs shown';
      return reject('source_out_of_set', `candidate ${n} ${named} (${shownRefs(options.refs)})`, index);
    }
    // Tags are optional garnish: keep at most 10 usable ones (1–64 characters) rather than fail a good answer on them.
    const cleanTags = [...new Set(((tags ?? []) as string[]).map((tag) => tag.trim()))].filter((tag) => tag !== '' && tag.length <= 64).slice(0, 10);
    candidates.push({ claim: trimmed, sources: refs, tags: cleanTags });
  }
  return { ok: true, candidates };
}
