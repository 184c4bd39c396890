import { findPhoneNumbersInText, parseDigits, type CountryCode, type NumberFound, type PhoneNumber } from 'libphonenumber-js/max';
import { phoneContextBefore } from '../context.js';
import { asRegion, candidateRegions } from '../region.js';
import { charAt, isWordChar, rawMatch } from '../text.js';
import type { Check, RawMatch, RecogniserOptions } from '../types.js';

/**
 * Phone numbers (docs/extract.md §Phones). Three passes, each over what the previous one left:
 *
 * 1. libphonenumber-js text search over the whole text in the home region: numbers written in international form
 *    (`+353 1 …`, any region) and national numbers valid in the home region. `validated`.
 * 2. Every other run of digits that looks like a phone number (a *window*) is read in each region of the list. A
 *    reading counts when the number is valid there and written the way that region groups its digits (the written
 *    groups are libphonenumber's national format, or that format split further or joined, never cut across). When the
 *    best readings agree on one number it is taken (`validated`); when they disagree the region is unknown, so the
 *    number is kept only with a phone label right before it (`labelled`, first region of the list). A bare run of
 *    digits (no separators) is too often an order number: it too needs a label.
 * 3. A window no region validates, with a phone label right before it, is kept when libphonenumber calls it possible
 *    in the home region, internationally, or in a region of the list (first that does): `labelled`.
 *
 * Dates, IPv4 addresses, versions and 13+ digit runs (card numbers) are never read as national numbers.
 */

/** E.164, plus `;ext=N` (RFC 3966) when the number has an extension: two extensions are two ways to reach someone. */
export function normalizePhone(number: PhoneNumber): string {
  return number.ext === undefined ? number.number : `${number.number};ext=${number.ext}`;
}

const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '（': '）', '［': '］' };

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

/**
 * libphonenumber-js keeps an opening bracket that wraps the whole number (`(+353 1 234 5678)` → `(+353 1 234 5678`).
 * A leading opener left unbalanced inside the span is trimmed, with the spaces after it.
 */
function trimUnbalancedOpener(text: string, start: number, end: number): number {
  const opener = text[start] ?? '';
  const closer = OPENERS[opener];
  const span = text.slice(start, end);
  if (closer === undefined || count(span, opener) <= count(span, closer)) return start;
  let from = start + 1;
  while (from < end && /\s/.test(text[from] ?? '')) from++;
  return from;
}

interface Span {
  start: number;
  end: number;
}

const overlaps = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end;

// The characters of a window: digits of any script libphonenumber reads, and the separators it accepts inside a
// number (spaces, dashes, dots, slashes, brackets), at most three in a row; an optional leading + or bracket; and an
// optional extension (`x123`, `ext. 123`, `#123`, `доб. 123`, …), which libphonenumber parses.
const DIGIT = '[0-9\\uFF10-\\uFF19\\u0660-\\u0669\\u06F0-\\u06F9]';
const SEPARATOR = '[ \\u00A0\\t().\\-\\u2010-\\u2015\\u2212/\\uFF0D\\[\\]\\uFF08\\uFF09]';
const EXTENSION = `(?:[ \\u00A0\\t,]*(?:e?xt(?:ension|n)?\\.?|x|#|доб\\.?|anexo|int\\.?|poste|dw\\.?|durchwahl|interno)[ \\u00A0\\t:.,-]*${DIGIT}{1,6}#?)?`;
const WINDOW_RE = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}_])(?:[+\\uFF0B(\\uFF08\\[][ \\u00A0]?)?${DIGIT}(?:${SEPARATOR}{0,3}${DIGIT})*${EXTENSION}`, 'giu');
const EXTENSION_RE = new RegExp(`${EXTENSION}$`, 'iu');

/** Windows shorter or longer than this many digits (extension left out) are not read as national numbers. */
const MIN_DIGITS = 6;
const MAX_DIGITS = 12;
/** A labelled merely-possible number needs at least this many digits. */
const MIN_LABELLED_DIGITS = 7;

// Shapes that are something else: a numeric date (followed by an hour, when read outside the home region), an IPv4
// address, a dotted version with a one-digit part (`10.0.19041.1`).
const DATE = '(?:\\d{1,2}[./-]\\d{1,2}[./-](?:\\d{4}|\\d{2})|\\d{4}[./-]\\d{1,2}[./-]\\d{1,2})';
const DATE_RE = new RegExp(`^${DATE}$`);
const DATE_TIME_RE = new RegExp(`^${DATE}[ T]\\d{1,2}(?:[:.]\\d{2})*$`);
const IPV4_RE = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const DOTTED_VERSION_RE = /^\d+(?:\.\d+){2,}$/;

function digitsOf(written: string): string {
  return parseDigits(written);
}

/** True when a national number valid in the home region is written as a date or an IPv4 address. */
function isDateOrIp(written: string): boolean {
  const trimmed = written.trim();
  return DATE_RE.test(trimmed) || IPV4_RE.test(trimmed);
}

/**
 * True when a written national number read outside the home region (or kept for its label) is a date, a date and
 * hour, an IP address or a version rather than a phone number: we have less evidence there, so we ask for more.
 */
function isOtherShape(written: string): boolean {
  const trimmed = written.trim();
  if (isDateOrIp(trimmed) || DATE_TIME_RE.test(trimmed)) return true;
  return DOTTED_VERSION_RE.test(trimmed) && trimmed.split('.').some((part) => part.length === 1);
}

const isInternational = (written: string): boolean => /^[(\uFF08[]?\s*[+\uFF0B]/.test(written);

/** The written number without its extension. */
function withoutExtension(written: string, number: PhoneNumber): string {
  if (number.ext === undefined) return written;
  const match = EXTENSION_RE.exec(written);
  return match === null ? written : written.slice(0, match.index);
}

/** Digit offsets (within the digits) where a new group of digits starts. */
function groupStarts(written: string): { digits: string; starts: number[] } {
  let digits = '';
  const starts: number[] = [];
  let previousWasDigit = false;
  for (const char of written) {
    const digit = digitsOf(char);
    if (digit === '') {
      previousWasDigit = false;
      continue;
    }
    if (!previousWasDigit && digits.length > 0) starts.push(digits.length);
    digits += digit;
    previousWasDigit = true;
  }
  return { digits, starts };
}

const isSubset = (small: readonly number[], large: readonly number[]): boolean => small.every((value) => large.includes(value));

/**
 * How well the written national number matches the region's own national format of the parsed number: 2 when the
 * groups are the same, 1 when one grouping refines the other (`07700 900 123` for `07700 900123`, or `6502530000`),
 * 0 when the digits differ (no national prefix where the region writes one) or the groups cut across each other.
 */
export function groupingFit(written: string, number: PhoneNumber): 0 | 1 | 2 {
  const ours = groupStarts(written);
  const theirs = groupStarts(number.formatNational());
  if (ours.digits !== theirs.digits) return 0;
  if (ours.starts.join() === theirs.starts.join()) return 2;
  return isSubset(ours.starts, theirs.starts) || isSubset(theirs.starts, ours.starts) ? 1 : 0;
}

interface Reading {
  start: number;
  end: number;
  number: PhoneNumber;
  check: Check;
  region: string | undefined;
}

function toMatch(text: string, reading: Reading): RawMatch {
  const match = rawMatch('phone', text, reading.start, reading.end, normalizePhone(reading.number));
  match.check = reading.check;
  const region = reading.number.country ?? reading.region;
  if (region !== undefined) match.region = region;
  return match;
}

/** Pass 1: the whole text in the home region (or none): international numbers and national ones valid at home. */
function homeReadings(text: string, home: CountryCode | undefined): Reading[] {
  const readings: Reading[] = [];
  for (const hit of findPhoneNumbersInText(text, home === undefined ? {} : { defaultCountry: home })) {
    if (!hit.number.isValid()) continue;
    const start = trimUnbalancedOpener(text, hit.startsAt, hit.endsAt);
    const written = text.slice(start, hit.endsAt);
    if (!isInternational(written) && isDateOrIp(withoutExtension(written, hit.number))) continue;
    readings.push({ start, end: hit.endsAt, number: hit.number, check: 'validated', region: home });
  }
  return readings;
}

/** The phone-like runs of the text that pass 1 did not take, with what is needed to read them. */
function* windows(text: string, taken: readonly Span[]): Generator<{ start: number; end: number; written: string }> {
  for (const match of text.matchAll(WINDOW_RE)) {
    const span = { start: match.index, end: match.index + match[0].length };
    if (isWordChar(charAt(text, span.end)) || taken.some((other) => overlaps(span, other))) continue;
    yield { ...span, written: match[0] };
  }
}

/** The national part of a window is worth reading: not a date, IP or version, and a plausible number of digits. */
function readable(written: string): boolean {
  const national = written.replace(EXTENSION_RE, '');
  const digits = digitsOf(national).length;
  return digits >= MIN_DIGITS && digits <= MAX_DIGITS && !isInternational(national) && !isOtherShape(national);
}

function hits(written: string, region: CountryCode | undefined, possible: boolean): NumberFound[] {
  const options = { ...(region === undefined ? {} : { defaultCountry: region }), ...(possible ? { extended: true } : {}) };
  return findPhoneNumbersInText(written, options);
}

interface RegionReading {
  start: number;
  end: number;
  number: PhoneNumber;
  fit: number;
  region: CountryCode;
}

/** Pass 2: readings of one window valid in a region of the list and grouped as that region writes numbers. */
function listReadings(text: string, window: { start: number; written: string }, regions: readonly CountryCode[]): Reading[] {
  const found: RegionReading[] = [];
  for (const region of regions) {
    for (const hit of hits(window.written, region, false)) {
      if (!hit.number.isValid()) continue;
      const written = window.written.slice(hit.startsAt, hit.endsAt);
      if (isInternational(written)) continue;
      const fit = groupingFit(withoutExtension(written, hit.number), hit.number);
      if (fit > 0) found.push({ start: window.start + hit.startsAt, end: window.start + hit.endsAt, number: hit.number, fit, region });
    }
  }
  const readings: Reading[] = [];
  // Longest spans first, then the best fit; a span overlapping one already decided is dropped.
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || b.fit - a.fit);
  for (const best of found) {
    if (readings.some((reading) => overlaps(reading, best))) continue;
    const rivals = found.filter((other) => other.start === best.start && other.end === best.end && other.fit === best.fit);
    const numbers = new Set(rivals.map((rival) => normalizePhone(rival.number)));
    const written = text.slice(best.start, best.end);
    const bare = !/[^\p{Nd}]/u.test(withoutExtension(written, best.number));
    const unique = numbers.size === 1 && !bare;
    if (!unique && !phoneContextBefore(text, best.start)) continue;
    readings.push({ start: best.start, end: best.end, number: best.number, check: unique ? 'validated' : 'labelled', region: best.region });
  }
  return readings;
}

/** Pass 3: a labelled window no region validates, read as a possible number (home, international, then the list). */
function possibleReading(text: string, window: { start: number; written: string }, regions: readonly (CountryCode | undefined)[]): Reading | undefined {
  if (!phoneContextBefore(text, window.start)) return undefined;
  for (const region of regions) {
    for (const hit of hits(window.written, region, true)) {
      if (hit.startsAt !== 0 || !hit.number.isPossible()) continue;
      const written = withoutExtension(window.written.slice(hit.startsAt, hit.endsAt), hit.number);
      if (digitsOf(written).length < MIN_LABELLED_DIGITS || isOtherShape(written)) continue;
      return { start: window.start, end: window.start + hit.endsAt, number: hit.number, check: 'labelled', region };
    }
  }
  return undefined;
}

/**
 * Phone numbers by libphonenumber-js with the full (`max`) metadata: international numbers, national numbers in the
 * home region (`region`) and, failing that, in the candidate regions (`regions`, default `DEFAULT_REGIONS`).
 */
export function recognisePhones(text: string, opts: RecogniserOptions = {}): RawMatch[] {
  const home = asRegion(opts.region);
  const readings = homeReadings(text, home);
  const list = candidateRegions(undefined, opts.regions).filter((region) => region !== home);
  const taken: Span[] = [...readings];
  for (const window of windows(text, taken)) {
    const international = isInternational(window.written);
    if (!international && !readable(window.written)) continue;
    const fromList = international ? [] : listReadings(text, window, list);
    if (fromList.length > 0) {
      readings.push(...fromList);
      continue;
    }
    const possible = possibleReading(text, window, international ? [undefined] : [home, ...list]);
    if (possible !== undefined) readings.push(possible);
  }
  return readings.map((reading) => toMatch(text, reading));
}
