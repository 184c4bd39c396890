/**
 * Fact extraction over texts that arrive a piece at a time (a file read in chunks): the same facts as `extractFacts`
 * over the whole texts, found while holding one window of text, not the input (docs/decisions.md, "Extraction in
 * windows, held as facts"). Pure: the pieces come from the caller.
 */
import { WINDOW_CHARS, WINDOW_OVERLAP, addOccurrence, capPerKind, newFact, type ExtractOptions } from './facts.js';
import type { Kind } from './kinds.js';
import { labelAt, labelWindowStart, type Span } from './label.js';
import { recogniserOf } from './recognisers/index.js';
import { defaultRegion } from './region.js';
import type { LineCol } from './text.js';
import type { Fact, RawMatch, RecogniserOptions } from './types.js';

/** A text by its source name, as the pieces it arrives in (joined, they are the text). */
export interface TextPieces {
  source: string;
  pieces: Iterable<string>;
}

export interface StreamedFacts {
  facts: Fact[];
  /** Line and column (as `lineCol` counts them) of each fact's first occurrence in its source; not kept with `lineCols: false`. */
  firstAt: Map<Fact, LineCol> | undefined;
}

// As in facts.ts's labelling: a value longer than this that starts before a label window is not blanked out of it.
const MAX_BLANKED_SPAN = 4096;

/**
 * `extractFacts` over texts given in pieces: equal to `extractFacts(texts joined, opts)`, facts, occurrences, labels and
 * order alike. The text is read into the window `extractFacts` would recognise next (docs/decisions.md, "Recognition
 * in windows": the same windows, cut at the same places), so what is held is that window and the facts found so far;
 * the strings kept in facts are copies, so no window outlives its turn. Sources are read one after the other, in the
 * order given (their rank).
 */
export function extractFactsFromPieces(texts: readonly TextPieces[], opts: ExtractOptions & { lineCols?: boolean }): StreamedFacts {
  const steps = scanFacts(texts, opts);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/** Where a scan stands between two of its steps: the source being read and how far (in characters) it is done. */
export interface ScanStep {
  source: string;
  /** Characters of `source` whose facts are found (the end of the last window labelled; 0 while its first is read). */
  done: number;
}

/**
 * `extractFactsFromPieces` a step at a time: the generator pauses after each kind recognised in a window and after
 * each window, so a caller may do other work between steps (yield to the event loop, see a cancellation, draw
 * progress) and stop by not asking for more; its result, once run to the end, is `extractFactsFromPieces`'s.
 */
export function* scanFacts(texts: readonly TextPieces[], opts: ExtractOptions & { lineCols?: boolean }): Generator<ScanStep, StreamedFacts, void> {
  const lineCols = opts.lineCols !== false;
  const region = opts.region === undefined ? defaultRegion() : opts.region;
  const recogniserOptions: RecogniserOptions = { region, regions: opts.regions };
  const kinds = [...new Set(opts.kinds)];
  const windowChars = opts.windowChars ?? WINDOW_CHARS;
  const names = texts.map((text) => text.source);
  const grouper = new Grouper((source) => names.indexOf(source) !== names.lastIndexOf(source), lineCols);
  for (const text of texts) {
    const rolling = new Rolling(text.pieces);
    grouper.startSource(text.source, rolling);
    yield* scan(text.source, rolling, kinds, recogniserOptions, windowChars, grouper);
  }
  return { facts: capPerKind(grouper.facts(), opts.limit), firstAt: grouper.firstAt };
}

/** The text read so far, from `base` on: more is read on demand, and what lies before the current window is let go. */
class Rolling {
  private text = '';
  private base = 0;
  private readonly iterator: Iterator<string>;
  done = false;

  constructor(pieces: Iterable<string>) {
    this.iterator = pieces[Symbol.iterator]();
  }

  /** Reads until the text reaches `end` characters or ends; returns the length known (the whole length once done). */
  fill(end: number): number {
    while (!this.done && this.end < end) {
      const next = this.iterator.next();
      if (next.done === true) this.done = true;
      else this.text += next.value;
    }
    return this.end;
  }

  get end(): number {
    return this.base + this.text.length;
  }

  slice(start: number, end: number): string {
    return this.text.slice(start - this.base, end - this.base);
  }

  charCodeAt(index: number): number {
    return this.text.charCodeAt(index - this.base);
  }

  /** The last line feed at or before `index` still held, or -1. */
  lastLineFeed(index: number): number {
    const found = this.text.lastIndexOf('\n', index - this.base);
    return found < 0 ? -1 : found + this.base;
  }

  /** Lets go of the text before `start`. */
  dropBefore(start: number): void {
    if (start <= this.base) return;
    this.text = this.text.slice(start - this.base);
    this.base = start;
  }
}

/**
 * The windows of `recogniseInWindows` (facts.ts), read from `rolling`: one pass over the whole text when it fits a
 * window and its overlap, else window by window, each match kept by the window it starts in and overlaps dropped
 * per kind, earliest first (as `dropOverlaps`).
 */
function* scan(
  source: string,
  rolling: Rolling,
  kinds: readonly Kind[],
  options: RecogniserOptions,
  windowChars: number,
  grouper: Grouper,
): Generator<ScanStep, void, void> {
  const overlap = Math.min(WINDOW_OVERLAP, windowChars);
  const known = rolling.fill(windowChars + overlap + 1);
  if (rolling.done && known <= windowChars + overlap) {
    const text = rolling.slice(0, known);
    const matches: RawMatch[] = [];
    const read = recogniserOf(text, options);
    for (const kind of kinds) {
      matches.push(...read(kind));
      yield { source, done: 0 };
    }
    label(text, 0, matches, [], grouper);
    yield { source, done: known };
    return;
  }
  const lastEnd = new Map<Kind, number>();
  let carried: Span[] = [];
  for (let from = 0; ;) {
    const total = rolling.fill(from + windowChars + overlap + 1);
    if (from >= total) return;
    let to = Math.min(total, from + windowChars);
    if (to < total) {
      const lineEnd = rolling.lastLineFeed(to - 1);
      if (lineEnd >= from + windowChars / 2) to = lineEnd + 1;
    }
    const offset = Math.max(0, from - overlap);
    const text = rolling.slice(offset, Math.min(total, to + overlap));
    const matches: RawMatch[] = [];
    const read = recogniserOf(text, options);
    for (const kind of kinds) {
      const owned = read(kind)
        .filter((match) => match.start + offset >= from && match.start + offset < to)
        .sort((a, b) => a.start - b.start || b.end - a.end);
      let end = lastEnd.get(kind) ?? 0;
      for (const match of owned) {
        if (match.start + offset < end) continue;
        matches.push(match);
        end = match.end + offset;
      }
      lastEnd.set(kind, end);
      yield { source, done: from };
    }
    const spans = label(text, offset, matches, carried, grouper);
    // The next window's labels look back at most this far (labelWindowStart, then MAX_BLANKED_SPAN).
    const keepFrom = labelWindowStart(to) - MAX_BLANKED_SPAN;
    carried = spans.filter((span) => span.start >= keepFrom);
    grouper.countLines(to);
    rolling.dropBefore(Math.max(0, to - overlap));
    from = to;
    yield { source, done: to };
  }
}

/**
 * Labels the matches of one window (in `text`, which starts at `offset` in the source) as facts.ts's `labelled` does
 * over the whole text: sorted by start then end, each with the matches before it blanked out (`carried`: the earlier
 * windows' matches that can still reach its look-back), and hands them to `grouper` in that order. Returns every
 * match's span, in source offsets, `carried` first.
 */
function label(text: string, offset: number, matches: readonly RawMatch[], carried: readonly Span[], grouper: Grouper): Span[] {
  const sorted = [...matches].sort((a, b) => a.start - b.start || a.end - b.end);
  const spans: Span[] = carried.map((span) => ({ start: span.start - offset, end: span.end - offset }));
  for (const match of sorted) spans.push({ start: match.start, end: match.end });
  let first = 0;
  sorted.forEach((match, position) => {
    const index = carried.length + position;
    const from = labelWindowStart(match.start) - MAX_BLANKED_SPAN;
    while (first < index && (spans[first]?.start ?? 0) < from) first++;
    grouper.add(match, offset, labelAt(text, match.start, spans.slice(first, index)));
  });
  return spans.map((span) => ({ start: span.start + offset, end: span.end + offset }));
}

// Characters above U+00FF: a string holding none is copied as one byte a character.
const WIDE_RE = /[\u0100-\uffff]/;

/**
 * A copy of `text` that does not keep the string it was sliced from alive (V8: a slice of 13 characters or more shares
 * its parent's memory, and a fact kept for the whole run would keep its window), held in one byte a character when
 * it can be (a slice of a window that holds a single `€` is two bytes a character, like the window).
 */
function detached(text: string): string {
  if (text === '') return '';
  return WIDE_RE.test(text) ? ` ${text}`.slice(1) : Buffer.from(text, 'latin1').toString('latin1');
}

/**
 * facts.ts's `groupFacts` fed one match at a time, in source order (rank, then start, then end): identity is kind +
 * normalised value; an occurrence listed twice (the same kind, source and span: a source given twice) is listed once.
 * Facts are held lean: strings are copies in their narrowest form, and an occurrence written like its fact's value
 * shares that string.
 */
class Grouper {
  readonly firstAt: Map<Fact, LineCol> | undefined;
  private readonly found: Fact[] = [];
  private readonly byKind = new Map<Kind, Map<string, Fact>>();
  private source = '';
  private repeated = false;
  // Occurrences seen at the current start (any source), and for a source named more than once, all of its.
  private readonly atStart: Array<{ kind: Kind; end: number }> = [];
  private atStartOffset = -1;
  private readonly everSeen = new Map<string, Set<string>>();
  private readonly labels = new Map<string, string>();
  // Line counting, as createLineIndex: `\r\n`, `\n` and a lone `\r` each end a line.
  private position = 0;
  private line = 1;
  private lineStart = 0;
  private rolling: Rolling | undefined;

  constructor(
    private readonly namedTwice: (source: string) => boolean,
    lineCols: boolean,
  ) {
    this.firstAt = lineCols ? new Map() : undefined;
  }

  startSource(source: string, rolling: Rolling): void {
    this.source = source;
    this.repeated = this.namedTwice(source);
    this.atStart.length = 0;
    this.atStartOffset = -1;
    this.position = 0;
    this.line = 1;
    this.lineStart = 0;
    this.rolling = rolling;
  }

  /** Counts the lines of the source up to `to` (the text from the last count on must still be held). */
  countLines(to: number): void {
    const rolling = this.rolling;
    if (rolling === undefined || this.firstAt === undefined) return;
    for (let index = this.position; index < to; index++) {
      const code = rolling.charCodeAt(index);
      if (code === 10 || (code === 13 && rolling.charCodeAt(index + 1) !== 10)) {
        this.line++;
        this.lineStart = index + 1;
      }
    }
    this.position = Math.max(this.position, to);
  }

  private lineColAt(offset: number): LineCol {
    this.countLines(offset);
    return { line: this.line, col: offset - this.lineStart + 1 };
  }

  /** The one copy of a label (labels repeat: `Mobile`, `Contact`). */
  private label(label: string): string {
    let kept = this.labels.get(label);
    if (kept === undefined) {
      kept = detached(label);
      this.labels.set(kept, kept);
    }
    return kept;
  }

  add(match: RawMatch, offset: number, label: string): void {
    const start = match.start + offset;
    const end = match.end + offset;
    if (start !== this.atStartOffset) {
      this.atStart.length = 0;
      this.atStartOffset = start;
    }
    if (this.atStart.some((seen) => seen.kind === match.kind && seen.end === end)) return;
    this.atStart.push({ kind: match.kind, end });
    if (this.repeated) {
      const occurrenceKey = `${match.kind}\u0000${start}\u0000${end}`;
      let seen = this.everSeen.get(this.source);
      if (seen === undefined) this.everSeen.set(this.source, (seen = new Set()));
      if (seen.has(occurrenceKey)) return;
      seen.add(occurrenceKey);
    }
    let facts = this.byKind.get(match.kind);
    if (facts === undefined) this.byKind.set(match.kind, (facts = new Map<string, Fact>()));
    const check = match.check ?? 'validated';
    const kept = this.label(label);
    const fact = facts.get(match.normalized);
    if (fact === undefined) {
      const normalized = detached(match.normalized);
      const text = match.text === match.normalized ? normalized : detached(match.text);
      const created = newFact({ ...match, text, normalized }, { source: this.source, start, end, text, label: kept }, 'validated');
      facts.set(normalized, created);
      this.found.push(created);
      this.firstAt?.set(created, this.lineColAt(start));
      return;
    }
    const text = match.text === fact.value ? fact.value : detached(match.text);
    addOccurrence(fact, { source: this.source, start, end, text, label: kept }, check);
  }

  facts(): Fact[] {
    return this.found;
  }
}
