/**
 * Labels: the words a writer put in front of a value on the same line, as in `Office: +353 1 234 5678` → `Office`
 * or `Billing contact — jane@x.com` → `Billing contact`.
 *
 * Rule: take the line up to the value, with the other values found on it blanked out. Its last label marker (a
 * colon, or a spaced em/en dash ` — `, ` – `) must not be followed by a plain word (letters only; tokens with
 * digits, `@`, `/`, `.` or `:` are values, not prose), so in `Card: 4111…, my phone is 425…` the phone gets no
 * label while in `Emails: a@x.ie, https://x.ie, b@y.ie` every value gets `Emails`.
 * The label is the text between that marker and the previous clause break on the line (`, ; | ! ?`, a sentence
 * full stop, a tab, another marker, or the line start), with list bullets and emphasis stripped, cut to its last
 * 40 characters on a word boundary. It must contain a letter; otherwise there is no label (an empty string). Only
 * the 240 characters before the value are read.
 */
const MAX_LABEL = 40;
// How far back on a line to look for a marker: enough for a label and a short list of values before this one,
// and it keeps labelling linear on huge single-line texts.
const MAX_LOOKBACK = 240;
const MARKER_RE = /:|\s[—–]\s/g;
const CLAUSE_BREAK_RE = /[,;|!?\t]|\.\s|\s[—–]\s|:\s/g;

export interface Span {
  start: number;
  end: number;
}

/** The start of the look-back window for a value at `offset`. */
export function labelWindowStart(offset: number): number {
  return Math.max(0, offset - MAX_LOOKBACK);
}

/** Replaces the parts of `head` (which starts at `from` in the text) covered by `spans` with spaces. */
function blankOut(head: string, from: number, spans: readonly Span[]): string {
  let masked = head;
  for (const span of spans) {
    const start = Math.max(span.start, from) - from;
    const end = Math.min(span.end, from + head.length) - from;
    // Stryker disable next-line EqualityOperator: at start === end the slices rejoin the same text (nothing to blank)
    if (start < end) masked = masked.slice(0, start) + ' '.repeat(end - start) + masked.slice(end);
  }
  return masked;
}

function lineBefore(text: string, offset: number, spans: readonly Span[]): string {
  const from = labelWindowStart(offset);
  const head = blankOut(text.slice(from, offset), from, spans);
  const lineStart = Math.max(head.lastIndexOf('\n'), head.lastIndexOf('\r')) + 1;
  return head.slice(lineStart);
}

/** The last label marker on the line, when no letters follow it; undefined otherwise. */
function lastMarker(line: string): { start: number; end: number } | undefined {
  let found: { start: number; end: number } | undefined;
  for (const marker of line.matchAll(MARKER_RE)) {
    const end = marker.index + marker[0].length;
    // A colon inside a token (`http://`, `10:30`) is not a marker unless a value starts right after it (`tel:+1…`).
    if (marker[0] === ':' && end < line.length && !/\s/.test(line.charAt(end))) continue;
    found = { start: marker.index, end };
  }
  if (found === undefined || hasPlainWord(line.slice(found.end))) return undefined;
  return found;
}

const PLAIN_WORD_RE = /^\p{L}[\p{L}\p{M}'’-]*$/u;
function hasPlainWord(tail: string): boolean {
  // Stryker disable next-line Regex: splitting on single spaces only adds empty tokens, which are no plain word
  const tokens = tail.split(/\s+/);
  return tokens.map((token) => token.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '')).some((word) => PLAIN_WORD_RE.test(word));
}

function clauseBefore(head: string): string {
  let start = 0;
  for (const brk of head.matchAll(CLAUSE_BREAK_RE)) start = brk.index + brk[0].length;
  return head.slice(start);
}

function tidy(label: string): string {
  const stripped = label
    .replace(/^[\s>*#+\-•·]+/u, '')
    .replace(/[*_`]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (stripped.length <= MAX_LABEL) return stripped;
  const tail = stripped.slice(-MAX_LABEL);
  // From the first word boundary on; a tail without a space (indexOf -1) is kept whole.
  return tail.slice(tail.indexOf(' ') + 1);
}

/**
 * The label for a value starting at `offset` in `text`, or '' when the line names none. `spans` are the other
 * values found in the text (only those before `offset` matter), blanked out before the rule is applied.
 */
// Stryker disable next-line ArrayDeclaration: a default of non-spans blanks nothing (Math.max(undefined, from) is NaN, and NaN < NaN is false)
export function labelAt(text: string, offset: number, spans: readonly Span[] = []): string {
  const line = lineBefore(text, offset, spans);
  const marker = lastMarker(line);
  if (marker === undefined) return '';
  const label = tidy(clauseBefore(line.slice(0, marker.start)));
  return /\p{L}/u.test(label) ? label : '';
}
