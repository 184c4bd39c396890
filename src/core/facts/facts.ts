import type { Kind } from './kinds.js';
import { labelAt, labelWindowStart, type Span } from './label.js';
import { recogniserOf } from './recognisers/index.js';
import { defaultRegion } from './region.js';
import { dropOverlaps } from './text.js';
import type { Check, Fact, Occurrence, Passage, RawMatch, RecogniserOptions } from './types.js';

export interface ExtractOptions {
  /** Kinds to extract. For `address` only the addresses a postcode certifies are found here (the model does the rest). */
  kinds: readonly Kind[];
  /**
   * Default region for national phone numbers and numeric date order. Omitted: the process locale's region
   * (`defaultRegion()`); `null`: none, so only `+`-international phone numbers are found.
   */
  region?: string | null;
  /** Regions tried, in order, for national phone numbers not valid in `region` (omitted: `DEFAULT_REGIONS`). */
  regions?: readonly string[];
  /** At most this many facts per kind (docs/design.md §5.2: 5 by default in `search`; no cap when omitted). */
  limit?: number;
  /** Texts longer than this are recognised a window at a time (see `recogniseInWindows`); for tests. */
  windowChars?: number;
}

/**
 * A long text is recognised a window at a time, so each recogniser's working set (chrono's and libphonenumber's
 * candidates above all) is bounded by the window, not by the input (docs/decisions.md, "Recognition in windows").
 * Window i owns the text from its start to the next window's start, cut at a line end where one is near, and reads
 * WINDOW_OVERLAP characters either side of it; a match belongs to the window it starts in. So a fact that straddles an
 * edge is read whole by the window it starts in (it reaches into the overlap) and dropped by the next one (which sees
 * it start before its own part), and a match that would begin inside a value cut by the edge cannot happen: the next
 * window sees the value from its true start, in its overlap.
 */
export const WINDOW_CHARS = 1 << 20;
export const WINDOW_OVERLAP = 4096;

function recogniseInWindows(kinds: readonly Kind[], text: string, opts: RecogniserOptions, windowChars: number): RawMatch[] {
  const overlap = Math.min(WINDOW_OVERLAP, windowChars);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator,BlockStatement: equivalent — a shortcut: a short text read in windows gives the same matches (the windows' own guarantee, tested).
  if (text.length <= windowChars + overlap) {
    const read = recogniserOf(text, opts);
    return kinds.flatMap((kind) => read(kind));
  }
  const found = kinds.map((): RawMatch[] => []);
  for (let from = 0; from < text.length;) {
    let to = Math.min(text.length, from + windowChars);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent — cutting the last window at a line end too only adds a window.
    if (to < text.length) {
      const lineEnd = text.lastIndexOf('\n', to - 1);
      if (lineEnd >= from + windowChars / 2) to = lineEnd + 1;
    }
    const offset = Math.max(0, from - overlap);
    // Every kind over one window at a time: the window's card numbers are recognised once, for cards and phones.
    const read = recogniserOf(text.slice(offset, Math.min(text.length, to + overlap)), opts);
    kinds.forEach((kind, index) => {
      for (const match of read(kind)) {
        const start = match.start + offset;
        if (start >= from && start < to) found[index]!.push({ ...match, start, end: match.end + offset });
      }
    });
    from = to;
  }
  return found.flatMap((matches) => dropOverlaps(matches));
}

/** A match located in a passage; `rank` is the passage's position in the caller's ranked list. */
export interface LocatedMatch {
  rank: number;
  source: string;
  match: RawMatch;
  label: string;
}

/**
 * Groups located matches into facts: identity is kind + normalised value, occurrences keep the source order
 * (passage rank, then offset) and are listed once each. `value` is the first occurrence's text; `label` is the
 * first non-empty occurrence label. Facts are ordered by their first occurrence. Shared with the model verifier.
 */
export function groupFacts(located: readonly LocatedMatch[], origin: Fact['origin'], model?: string): Fact[] {
  const ordered = [...located].sort((a, b) => a.rank - b.rank || a.match.start - b.match.start || a.match.end - b.match.end);
  const facts = new Map<string, Fact>();
  const seen = new Set<string>();
  for (const { source, match, label } of ordered) {
    const occurrenceKey = JSON.stringify([match.kind, source, match.start, match.end]);
    if (seen.has(occurrenceKey)) continue;
    seen.add(occurrenceKey);
    const occurrence: Occurrence = { source, start: match.start, end: match.end, text: match.text, label };
    const identity = JSON.stringify([match.kind, match.normalized]);
    const fact = facts.get(identity);
    if (fact === undefined) {
      facts.set(identity, newFact(match, occurrence, origin, model));
    } else {
      addOccurrence(fact, occurrence, checkOf(match, origin));
    }
  }
  return [...facts.values()];
}

/**
 * A further occurrence of a fact: listed, its label taken when the fact has none yet, its check kept when stronger
 * (the rule groupFacts and the streamed grouper in stream.ts share).
 */
export function addOccurrence(fact: Fact, occurrence: Occurrence, check: Check): void {
  fact.occurrences.push(occurrence);
  if (fact.label === '') fact.label = occurrence.label;
  if (CHECK_STRENGTH[check] > CHECK_STRENGTH[fact.check]) fact.check = check;
}

// A fact seen once as validated and once only thanks to its label is validated.
const CHECK_STRENGTH: Record<Check, number> = { validated: 3, postcode: 2, labelled: 1, model: 0 };

function checkOf(match: RawMatch, origin: Fact['origin']): Check {
  return origin === 'model' ? 'model' : (match.check ?? 'validated');
}

export function newFact(match: RawMatch, occurrence: Occurrence, origin: Fact['origin'], model?: string): Fact {
  const fact: Fact = {
    kind: match.kind,
    value: match.text,
    normalized: match.normalized,
    label: occurrence.label,
    origin,
    check: checkOf(match, origin),
    occurrences: [occurrence],
  };
  if (match.region !== undefined) fact.region = match.region;
  if (model !== undefined) fact.model = model;
  return fact;
}

/** Keeps the first `limit` facts of each kind, preserving order. */
export function capPerKind(facts: readonly Fact[], limit: number | undefined): Fact[] {
  if (limit === undefined) return [...facts];
  const counts = new Map<Kind, number>();
  return facts.filter((fact) => {
    const count = counts.get(fact.kind) ?? 0;
    counts.set(fact.kind, count + 1);
    return count < limit;
  });
}

/**
 * docs/design.md §5.2: the recognised facts of the given kinds in ranked passages (best first). Pure apart from reading the
 * locale when `region` is omitted. Every occurrence satisfies `passage.text.slice(start, end) === text`.
 */
export function extractFacts(passages: readonly Passage[], opts: ExtractOptions): Fact[] {
  const region = opts.region === undefined ? defaultRegion() : opts.region;
  const kinds = [...new Set(opts.kinds)];
  const located: LocatedMatch[] = [];
  passages.forEach((passage, rank) => {
    const matches = recogniseInWindows(kinds, passage.text, { region, regions: opts.regions }, opts.windowChars ?? WINDOW_CHARS);
    for (const [match, label] of labelled(passage.text, matches)) {
      located.push({ rank, source: passage.source, match, label });
    }
  });
  return capPerKind(groupFacts(located, 'validated'), opts.limit);
}

// Values longer than this that start before a label window are not blanked out of it (harmless, and it keeps
// labelling linear in the number of matches).
const MAX_BLANKED_SPAN = 4096;

/** Labels each match, blanking out the other matches of the passage that precede it on its line. */
function labelled(text: string, matches: readonly RawMatch[]): Array<[RawMatch, string]> {
  // By start only: a match starting where this one does lies outside its label window either way.
  const sorted = [...matches].sort((a, b) => a.start - b.start);
  let first = 0;
  return sorted.map((match, index) => {
    const from = labelWindowStart(match.start) - MAX_BLANKED_SPAN;
    while (first < index && (sorted[first]?.start ?? 0) < from) first++;
    const before: Span[] = sorted.slice(first, index);
    return [match, labelAt(text, match.start, before)];
  });
}

export { createLineIndex, lineCol, type LineCol } from './text.js';
