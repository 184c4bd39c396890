// chrono's English entry alone: the package's main entry loads every locale (about 270 modules against 50), and
// these recognisers read English only (docs/decisions.md, "Fact box").
import * as chrono from 'chrono-node/en';
import type { ParsedResult } from 'chrono-node';
import { asRegion } from '../region.js';
import { isWordBounded, rawMatch } from '../text.js';
import type { RawMatch, RecogniserOptions } from '../types.js';

// Regions that write numeric dates month first (05/06/2021 is 6 May elsewhere). Without a region chrono's
// English default (month first) is used.
const MONTH_FIRST_REGIONS = new Set(['US', 'PH', 'FM', 'MH', 'PW', 'GU', 'AS', 'MP', 'PR', 'VI', 'UM', 'BZ']);

// The chrono parsers that read a calendar date as written. Left out: relative expressions (`in 34 minutes`, `two
// weeks ago`, `for 3 days`), which chrono resolves against the reference and reports with every component "certain";
// weekdays and times of day, which would widen the span beyond the date; and month/year-only forms. A whitelist, so
// a parser added by a later chrono release cannot slip relative dates back in.
const FULL_DATE_PARSERS = new Set([
  'ISOFormatParser',
  'ENYearMonthDayParser',
  'SlashDateFormatParser',
  'ENMonthNameLittleEndianParser',
  'ENMonthNameMiddleEndianParser',
  'ENYearMonthNameParser',
]);

// Refiners left out: the range merger, so `2021-05-01 to 2021-05-03` gives two dates, each with its own span (a range
// chrono parses in one piece, such as `March 5 - 7, 2021`, stays one match for its first day); and the time-zone
// extractors, which glue a following `-7` or `GMT` onto a date (an ISO timestamp's own offset is covered by isoEnd);
// and chrono's overlap removal, which keeps the longest of overlapping readings before our checks run: in
// `2024-03-15 March 5, 2021` the partial `03-15 March` outlived `2024-03-15` and then lost to `March 5, 2021`, so the
// first date was lost. Overlapping readings are dropped after the checks instead, the longest kept (`keepLongest`;
// `1111 March 5, 2021` is `March 5, 2021`), issue 27.
const LEFT_OUT_REFINERS = /MergeDateRange|ExtractTimezone|OverlapRemoval/;

/** Strict English chrono with only the full-date parsers and refiners. */
function createParser(littleEndian: boolean): chrono.Chrono {
  const configuration = chrono.configuration.createConfiguration(true, littleEndian);
  configuration.parsers = configuration.parsers.filter((parser) => FULL_DATE_PARSERS.has(parser.constructor.name));
  configuration.refiners = configuration.refiners.filter((refiner) => !LEFT_OUT_REFINERS.test(refiner.constructor.name));
  return new chrono.Chrono(configuration);
}

const parsers = new Map<boolean, chrono.Chrono>();
function parserFor(region: string | undefined): chrono.Chrono {
  const littleEndian = region !== undefined && !MONTH_FIRST_REGIONS.has(region);
  const parser = parsers.get(littleEndian) ?? createParser(littleEndian);
  parsers.set(littleEndian, parser);
  return parser;
}

// A fixed reference keeps results deterministic; only dates whose year, month and day are written are kept, so the
// reference never fills anything in.
const REFERENCE = new Date(Date.UTC(2000, 0, 1));

// An ISO-8601 timestamp is covered whole, including fractions of a second chrono stops before.
const ISO_TIMESTAMP_RE = /\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?/y;

function isoEnd(text: string, start: number, end: number): number {
  ISO_TIMESTAMP_RE.lastIndex = start;
  const match = ISO_TIMESTAMP_RE.exec(text);
  return match === null ? end : Math.max(end, start + match[0].length);
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

// With a month name, a two-digit "year" is usually a count: `May 21, 22 people` is not 21 May 2022. Two-digit
// years are accepted in all-numeric dates only (`21.5.21`, `05/21/21`).
const MONTH_NAME_RE = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?![a-z])/i;
function hasAmbiguousYear(written: string): boolean {
  return MONTH_NAME_RE.test(written) && !/(?<!\d)\d{4}(?!\d)/.test(written);
}

// chrono's day-first pattern takes an optional leading "on" into its text; the span is the date itself.
const LEADING_ON_RE = /^on\s*/i;

const DIGIT_RE = /\d/;
// chrono's slash parser already refuses a date inside a longer slash run (`1/5/20/2021`); dots and dashes it does not.
const DATE_SEPARATORS = ['.', '-'];

/**
 * True when the digit groups of a numeric date go on with the same separator on either side, as in an address, a
 * version or a serial (`10.20.1.21` holds `20.1.21`, `v1.5.20.2021`, `05-20-2021-7`): the date is then part of a
 * longer token.
 */
function isInLongerDigitRun(text: string, start: number, end: number): boolean {
  const written = text.slice(start, end);
  return DATE_SEPARATORS.some(
    (separator) =>
      written.includes(separator) &&
      ((text[start - 1] === separator && DIGIT_RE.test(text.charAt(start - 2))) || (text[end] === separator && DIGIT_RE.test(text.charAt(end + 1)))),
  );
}

/** `YYYY-MM-DD` when year, month and day are all written (certain), else undefined (the reference would fill them in). */
function isoDate(result: ParsedResult): string | undefined {
  const start = result.start;
  if (!start.isCertain('year') || !start.isCertain('month') || !start.isCertain('day')) return undefined;
  // A certain component always has a value: the `?? 0` only satisfies the type.
  return `${pad(start.get('year') ?? 0, 4)}-${pad(start.get('month') ?? 0, 2)}-${pad(start.get('day') ?? 0, 2)}`;
}

/** Full calendar dates (year, month and day all written), word-bounded, normalised `YYYY-MM-DD`. */
export function recogniseDates(text: string, opts: RecogniserOptions = {}): RawMatch[] {
  const matches: RawMatch[] = [];
  for (const result of parserFor(asRegion(opts.region)).parse(text, REFERENCE)) {
    const normalized = isoDate(result);
    if (normalized === undefined) continue;
    const start = result.index + (LEADING_ON_RE.exec(result.text)?.[0].length ?? 0);
    const end = isoEnd(text, start, result.index + result.text.length);
    if (!isWordBounded(text, start, end) || hasAmbiguousYear(result.text) || isInLongerDigitRun(text, start, end)) continue;
    matches.push(rawMatch('date', text, start, end, normalized));
  }
  return keepLongest(matches);
}

/** Of overlapping readings, the longest (the earliest of equal ones); the rest in text order. */
function keepLongest(matches: RawMatch[]): RawMatch[] {
  const kept: RawMatch[] = [];
  for (const match of [...matches].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start)) {
    if (kept.every((other) => match.end <= other.start || other.end <= match.start)) kept.push(match);
  }
  return kept.sort((a, b) => a.start - b.start);
}
