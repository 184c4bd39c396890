import type { Kind } from './kinds.js';
import type { RawMatch } from './types.js';

/** Builds a match whose `text` is sliced from the scanned text, so the slice invariant holds by construction. */
export function rawMatch(kind: Kind, source: string, start: number, end: number, normalized: string): RawMatch {
  return { kind, start, end, text: source.slice(start, end), normalized };
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;

/** Letters (any script), digits (any script), combining marks and `_`: what a fact must not run into. */
export function isWordChar(char: string | undefined): boolean {
  return char !== undefined && WORD_CHAR.test(char);
}

/** The code point ending just before `index` (a whole surrogate pair when there is one). */
export function charBefore(text: string, index: number): string | undefined {
  // At or before 0 (or past the end) `charCodeAt` is NaN and `text[index - 1]` undefined.
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) return text.slice(index - 2, index);
  return text[index - 1];
}

/** The code point starting at `index`. */
export function charAt(text: string, index: number): string | undefined {
  const codePoint = text.codePointAt(index);
  return codePoint === undefined ? undefined : String.fromCodePoint(codePoint);
}

/** True when the span [start, end) does not touch a word character on either side. */
export function isWordBounded(text: string, start: number, end: number): boolean {
  return !isWordChar(charBefore(text, start)) && !isWordChar(charAt(text, end));
}

/**
 * Keeps the earliest of overlapping matches (the longest when they start together), sorted by offset. Recognisers
 * may propose overlapping candidates; a fact's occurrences must not.
 */
export function dropOverlaps(matches: RawMatch[]): RawMatch[] {
  const sorted = [...matches].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: RawMatch[] = [];
  for (const match of sorted) {
    const last = kept[kept.length - 1];
    if (last === undefined || match.start >= last.end) kept.push(match);
  }
  return kept;
}

export interface LineCol {
  line: number;
  col: number;
}

/**
 * A lookup from offset to 1-based line and column (columns in UTF-16 code units), built once per text so a table
 * of many facts from one large file stays linear. `\r\n`, `\n` and a lone `\r` each end a line.
 */
export function createLineIndex(text: string): (offset: number) => LineCol {
  const starts = [0];
  // Stryker disable next-line EqualityOperator: one step past the end reads NaN, which starts no line.
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10 || (code === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return (offset) => {
    const clamped = Math.max(0, Math.min(offset, text.length));
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= clamped) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, col: clamped - (starts[low] ?? 0) + 1 };
  };
}

/** 1-based line and column of an offset, for `source:line:col` in the CLI table. */
export function lineCol(text: string, offset: number): LineCol {
  return createLineIndex(text)(offset);
}

/**
 * Between two groups of a card or IBAN as the fourth reading reads it: one to eight characters that are no letter, digit
 * or line break (`||`, `· `, `, `, `", "`, `) - (`, and `…… ` as NFKC reads it: six dots and a blank), and one or more line breaks
 * (LF, CR, CRLF, VT, FF, NEL, U+2028, U+2029) with blanks around them may follow (a value wrapped after its separator:
 * `4111,` / `1111,1111,1111`, `4111. ` / `` / `1111.1111.1111`).
 */
/** The line terminators a wrap may hold, as a character-class body: LF, CR, VT, FF, NEL, U+2028, U+2029. */
export const LINE_TERMINATORS = '\\r\\n\\v\\f\\u0085\\u2028\\u2029';
export const ANY_SEPARATOR = `[^\\p{L}\\p{N}${LINE_TERMINATORS}]{1,8}`;
export const WRAP = `(?:(?:[\\p{Zs}\\t]*(?:\\r\\n|[${LINE_TERMINATORS}]))+[\\p{Zs}\\t]*)?`;
