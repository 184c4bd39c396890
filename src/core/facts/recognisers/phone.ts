import { findPhoneNumbersInText, Metadata, parseDigits, type CountryCode, type NumberFound, type PhoneNumber } from 'libphonenumber-js/max';
import { otherKindBefore, phoneLabelLanguages, phoneLabelRegions } from '../context.js';
import { isLanguageOf } from '../language.js';
import type { Span } from '../label.js';
import { paragraphAround, PassageCues } from '../passage.js';
import { asRegion, candidateRegions } from '../region.js';
import { charAt, isWordChar, rawMatch } from '../text.js';
import type { Check, RawMatch, RecogniserOptions } from '../types.js';
import { isStreetWord, US_STATES } from './address.js';
import { recogniseCards } from './card.js';

/**
 * Phone numbers (docs/extract.md §Phones):
 *
 * 1. libphonenumber-js text search over the whole text in the home region: numbers written in international form
 *    (`+353 1 …`, any region) are taken (`validated`); national numbers valid at home become candidates.
 * 2. Each run of digits that looks like a phone number (a *window*) is also read in each region of the list. A
 *    reading is a candidate when the number is valid there; its *fit* says how well it is written for that region
 *    (its national format exactly, the same digit groups, a finer or coarser grouping, or not at all). The best
 *    fitting readings decide: the home region's, else the one number they agree on, else the one the paragraph
 *    around the window points at (places it names, its language, the one reading in its region's own groups:
 *    `byPassage`), all `validated`. Readings that still disagree, or fit badly, or a bare digit run read abroad, are
 *    kept only with a phone label right before them (`labelled`).
 * 3. A window no region reads for sure, with a phone label right before it, is kept when libphonenumber calls it
 *    possible internationally, in the home region (unless a region of the list validates it and writes it better),
 *    or in the regions of the list (when none validates it): `labelled`. A labelled number valid only where the
 *    label's language is not written is read where it is, when possible there and written as well (`relabelled`).
 *
 * Dates and IPv4 addresses are never national numbers; read abroad or for a label, neither are a date with an hour,
 * versions, or runs of more than 12 digits (card numbers).
 */

/** E.164, plus `;ext=N` (RFC 3966) when the number has an extension: two extensions are two ways to reach someone. */
export function normalizePhone(number: PhoneNumber): string {
  return number.ext === undefined ? number.number : `${number.number};ext=${number.ext}`;
}

const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '（': '）', '［': '］' };

/**
 * libphonenumber-js keeps an opening bracket that wraps the whole number (`(+353 1 234 5678)` → `(+353 1 234 5678`).
 * A leading opener left unbalanced inside the span is trimmed, with the spaces after it.
 */
function trimUnbalancedOpener(text: string, start: number, end: number): number {
  const opener = text.charAt(start);
  const closer = OPENERS[opener];
  const span = text.slice(start, end);
  // As many pieces as occurrences plus one, on both sides.
  if (closer === undefined || span.split(opener).length <= span.split(closer).length) return start;
  // The span holds digits after the opener, so the spaces end before it does.
  let from = start + 1;
  while (/\s/.test(text.charAt(from))) from++;
  return from;
}

const overlaps = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end;

// The characters of a window: digits of any script libphonenumber reads, and the separators it accepts inside a
// number (spaces, dashes, dots, slashes, brackets), at most three in a row; an optional leading + or bracket; and an
// optional extension (`x123`, `ext. 123`, `#123`, `доб. 123`, …), which libphonenumber parses.
const DIGIT = '[0-9\\uFF10-\\uFF19\\u0660-\\u0669\\u06F0-\\u06F9]';
const SEPARATOR = '[ \\u00A0\\t().\\-\\u2010-\\u2015\\u2212/\\uFF0D\\[\\]\\uFF08\\uFF09]';
const EXTENSION = `(?:[ \\u00A0\\t,;]*(?:e?xt(?:ension|n)?\\.?|x|#|доб\\.?|anexo|int\\.?|poste|dw\\.?|durchwahl|interno)[ \\u00A0\\t:.,=-]*${DIGIT}{1,6}#?)?`;
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
const YEAR_FIRST_RE = /^(?:19|20)\d\d[-./]\d{3,}/;

/** The metadata's numbering plans: the typings declare neither the calling-code argument nor the plan's methods. */
interface Plans {
  selectNumberingPlan(country: CountryCode | undefined, callingCode: string): void;
  numberingPlan: { nationalNumberPattern(): string };
}

let plans: Plans | undefined;

/**
 * True when a merely possible number could be one: its national number fits its region's number plan (the general
 * pattern of the metadata: no NANP number starts with 0) and is not one digit repeated (`0000 000000`, `2222 222222`:
 * placeholders). A valid number always fits; a possible one is only the right length.
 */
export function plausiblePlan(number: PhoneNumber): boolean {
  const national = number.nationalNumber;
  if (/^(\d)\1*$/.test(national)) return false;
  plans ??= new Metadata() as unknown as Plans;
  // A parsed number's calling code is one the metadata knows (a non-geographic one has no country).
  plans.selectNumberingPlan(number.country, number.countryCallingCode);
  return new RegExp(`^(?:${plans.numberingPlan.nationalNumberPattern()})$`).test(national);
}

function digitsOf(written: string): string {
  return parseDigits(written);
}

/** True when a national number valid in the home region is written as a date or an IPv4 address. */
function isDateOrIp(written: string): boolean {
  return DATE_RE.test(written) || IPV4_RE.test(written);
}

/**
 * True when a written national number read outside the home region (or kept for its label) is a date, a date and
 * hour, an IP address or a version rather than a phone number: we have less evidence there, so we ask for more.
 * Written numbers here and in isDateOrIp are spans of the text or of a window: no spaces around them.
 */
function isOtherShape(written: string): boolean {
  if (isDateOrIp(written) || DATE_TIME_RE.test(written)) return true;
  return DOTTED_VERSION_RE.test(written) && written.split('.').some((part) => part.length === 1);
}

const isInternational = (written: string): boolean => /^[(\uFF08[]?\s*[+\uFF0B]/.test(written);

/** The written number without its extension. */
function withoutExtension(written: string, number: PhoneNumber): string {
  // EXTENSION_RE, all optional, always matches at the end.
  return number.ext === undefined ? written : written.replace(EXTENSION_RE, '');
}

// A run of the digits libphonenumber reads (parseDigits knows exactly DIGIT's characters).
const DIGIT_GROUP_RE = new RegExp(`${DIGIT}+`, 'g');

/** Digit offsets (within the digits) where a new group of digits starts: where each group but the last ends. */
function groupStarts(written: string): { digits: string; starts: number[] } {
  // A written number has digits.
  const groups = written.match(DIGIT_GROUP_RE)!;
  let end = 0;
  const starts = groups.slice(0, -1).map((group) => (end += group.length));
  return { digits: digitsOf(written), starts };
}

const isSubset = (small: readonly number[], large: readonly number[]): boolean => small.every((value) => large.includes(value));

/**
 * How well the written national number matches the region's own national format of the parsed number: 3 when it is
 * that format exactly, 2 when the digit groups are the same (other separators), 1 when groups are joined (a bare
 * `6502530000`) or only the last group is split (`07700 900 123` for `07700 900123`), 0 otherwise: the digits differ
 * (no national prefix where the region writes one) or the groups are cut elsewhere.
 */
export function groupingFit(written: string, number: PhoneNumber): 0 | 1 | 2 | 3 {
  const formatted = number.formatNational({ formatExtension: (national) => national });
  if (written === formatted) return 3;
  const ours = groupStarts(written);
  const theirs = groupStarts(formatted);
  if (ours.digits !== theirs.digits) return 0;
  if (ours.starts.join() === theirs.starts.join()) return 2;
  // Coarser (groups joined, or none at all), or finer only inside the last group (`07700 900 123`).
  const last = theirs.starts.at(-1) ?? 0;
  const extra = ours.starts.filter((start) => !theirs.starts.includes(start));
  const coarser = isSubset(ours.starts, theirs.starts);
  const splitsLast = isSubset(theirs.starts, ours.starts) && extra.every((start) => start > last);
  return coarser || splitsLast ? 1 : 0;
}

interface Reading {
  start: number;
  end: number;
  number: PhoneNumber;
  check: Check;
  /** The region the number was read in; undefined for a number written in international form. */
  region: CountryCode | undefined;
}

/** A national reading of a span in one region, with how well it is written for that region. */
interface Candidate extends Reading {
  region: CountryCode;
  fit: number;
  home: boolean;
}

function toMatch(text: string, reading: Reading): RawMatch {
  const match = rawMatch('phone', text, reading.start, reading.end, normalizePhone(reading.number));
  match.check = reading.check;
  const region = reading.number.country ?? reading.region;
  if (region !== undefined) match.region = region;
  return match;
}

function hits(written: string, region: CountryCode | undefined, possible: boolean): NumberFound[] {
  return findPhoneNumbersInText(written, { defaultCountry: region, extended: possible });
}

function candidate(text: string, start: number, end: number, number: PhoneNumber, region: CountryCode, home: boolean): Candidate {
  const fit = groupingFit(withoutExtension(text.slice(start, end), number), number);
  return { start, end, number, check: 'validated', region, fit, home };
}

/**
 * Pass 1, the whole text in the home region (or none): numbers written in international form, taken at once, and
 * national numbers valid in the home region, which become candidates beside the other regions' readings.
 */
function homePass(text: string, home: CountryCode | undefined, from = 0, to = text.length): { international: Reading[]; national: Candidate[] } {
  const international: Reading[] = [];
  const national: Candidate[] = [];
  // Without `extended`, libphonenumber finds valid numbers only.
  for (const inPart of findPhoneNumbersInText(text.slice(from, to), { defaultCountry: home })) {
    const found = from === 0 ? inPart : { ...inPart, startsAt: inPart.startsAt + from, endsAt: inPart.endsAt + from };
    const hit = withoutBareExtension(text, found, home);
    if (hit === undefined) continue;
    const start = trimUnbalancedOpener(text, hit.startsAt, hit.endsAt);
    const written = text.slice(start, hit.endsAt);
    if (isInternational(written)) international.push({ start, end: hit.endsAt, number: hit.number, check: 'validated', region: undefined });
    else if (home !== undefined && !isDateOrIp(withoutExtension(written, hit.number)) && !isIdentifier(text, start) && !isCutTime(text, written, hit.endsAt)) {
      if (vetoed(text, { start, end: hit.endsAt })) continue;
      national.push(candidate(text, start, hit.endsAt, hit.number, home, true));
    }
  }
  return { international, national };
}

/**
 * libphonenumber reads digits after a comma as an extension (`0412 345 678, 18 George St` → ext. 18): without an
 * extension marker (`x`, `ext.`, `#`, …) they are the next thing on the line, so the number is read without them
 * (undefined when it is not valid so).
 */
function withoutBareExtension(text: string, hit: NumberFound, home: CountryCode | undefined): NumberFound | undefined {
  const written = text.slice(hit.startsAt, hit.endsAt);
  if (hit.number.ext === undefined || withoutExtension(written, hit.number) !== written) return hit;
  // libphonenumber's extension forms without a marker end in the extension's digits after a comma or semicolon.
  const cut = /[\s,;]+\d+$/.exec(written);
  // An extension after a marker EXTENSION_RE does not take (`#` and more digits than it allows: `0871234567#0871234567`)
  // stays libphonenumber's reading, whole: never a crash, and redaction covers all of it.
  if (cut === null) return hit;
  const [again] = findPhoneNumbersInText(written.slice(0, cut.index), { defaultCountry: home }).filter(
    (other) => other.startsAt === 0 && other.endsAt === cut.index,
  );
  return again === undefined ? undefined : { ...again, startsAt: hit.startsAt, endsAt: hit.startsAt + cut.index };
}

// An international dialling prefix written instead of `+`: `00` (most of the world) or `011` (North America).
const IDD_RE = /^(?:011|00)[ \u00A0.-]?(?=[1-9])/;

/**
 * A window written with an international dialling prefix instead of `+` (`0041 44 668 18 00`, `011 44 20 7946 0958`,
 * `001-212-555-0147`), whatever the home region: read as the international number it dials when that number is valid
 * and covers the whole window, written with separators (a bare run is an identifier as often as not).
 */
function iddReading(window: { start: number; end: number; written: string }): Reading | undefined {
  // Asked only of a window that opens with a prefix.
  const prefix = IDD_RE.exec(window.written)!;
  // The prefix (and a separator after it) becomes `+`, spaces before it: offsets stay those of the window.
  const probe = `${' '.repeat(prefix[0].length - 1)}+${window.written.slice(prefix[0].length)}`;
  const hit = findPhoneNumbersInText(probe).find((found) => found.startsAt === prefix[0].length - 1 && found.endsAt === probe.length);
  if (hit === undefined || !/[^\p{Nd}]/u.test(withoutExtension(window.written, hit.number))) return undefined;
  return { start: window.start, end: window.end, number: hit.number, check: 'validated', region: undefined };
}

const INTERNATIONAL_START_RE = /^[+\uFF0B]/;
/** What ends a number and its sign right before a window (`2024;`, `2024, `): libphonenumber reads the two as one. */
const AFTER_NUMBER_RE = /\p{Nd}[^\p{L}\p{N}\p{M}\s][ \u00A0\t]*$/u;
/** Where a number in international form may end inside a window: before a blank or another separator after a digit. */
const CUT_RE = new RegExp(`(?<=${DIGIT})${SEPARATOR}`, 'g');
const SEPARATORS_ONLY_RE = new RegExp(`^${SEPARATOR}*$`);

/**
 * A window in international form that no reading took, because another number follows it after a blank
 * (`+44 20 7946 0958 192.168.0.1`, `+44 20 7946 0958 15 March 2024`: libphonenumber reads the run whole and finds it
 * too long): the longest part of it up to such a blank that is a valid number (issue 27 variations). International
 * form only: the calling code says where the number ends; a national number followed by another number stays one run.
 */
function internationalBeforeNumber(window: { start: number; written: string }): Reading | undefined {
  if (!INTERNATIONAL_START_RE.test(window.written)) return undefined;
  const cuts = [...window.written.matchAll(CUT_RE)].map((blank) => blank.index).reverse();
  for (const cut of cuts) {
    const part = window.written.slice(0, cut);
    // Up to the blank, or to the separators before it (`+44 20 7946 0958 / 2024-03-15`).
    const hit = findPhoneNumbersInText(part).find((found) => found.startsAt === 0 && SEPARATORS_ONLY_RE.test(part.slice(found.endsAt)));
    if (hit !== undefined) return { start: window.start, end: window.start + hit.endsAt, number: hit.number, check: 'validated', region: undefined };
  }
  return undefined;
}

/**
 * A date and an hour cut from its minutes (`03.05.2021 10:30` gives libphonenumber `03.05.2021 10`, a German number).
 * A date and hour that ends the text stays libphonenumber's verdict at home (`2012-01-02 08` is +1 201 201 0208).
 */
function isCutTime(text: string, written: string, end: number): boolean {
  return DATE_TIME_RE.test(written) && /[:.]\d/.test(text.slice(end, end + 2));
}

/** `#123456789` is an order, ticket or issue number: a national number glued to a `#` is not a phone number. */
function isIdentifier(text: string, start: number): boolean {
  return text[start - 1] === '#';
}

// Issue 28's vetoes (docs/extract.md §Vetoes): what stands around a run of digits can make it something else.

const LETTER_OR_DIGIT_RE = /[\p{L}\p{N}]/u;
const LETTER_RE = /\p{L}/u;

/**
 * Letters glued to the digits: an identifier, not a phone number (`CN-2026-0142`, `INV-2024-00017`, `PO#4471-2210`,
 * `SN_0301234567`, `AB/020 7946 0958`, `NL-0201234567-B`). Before the span: a `-`, `_`, `#` or `/` right after a
 * letter (or a `#` or `_` after a digit); after it: a `-`, `_` or `/` right before a letter. A phone word glued with a
 * dot or colon (`Tel.030 1234567`, `Tel:+44 …`) is a label, not part of the value.
 */
export function gluedToLetters(text: string, start: number, end: number): boolean {
  const before = text.charAt(start - 1);
  const beforeThat = text.charAt(start - 2);
  const gluedBefore = /[-_#/]/.test(before) && (LETTER_RE.test(beforeThat) || (/[#_]/.test(before) && LETTER_OR_DIGIT_RE.test(beforeThat)));
  const gluedAfter = /[-_/]/.test(text.charAt(end)) && LETTER_RE.test(text.charAt(end + 1));
  return gluedBefore || gluedAfter;
}

// Street types written before the name (`Rue Sainte-Catherine`, `Rua Augusta`, `Via Emilia`, `Calle Mayor`), and
// the endings of Nordic compound street names (`Drottninggatan`, `Vesterbrogade`, `Karl Johans gate`).
const STREET_FIRST = new Set([
  'rue',
  'rua',
  'via',
  'viale',
  'calle',
  'avenida',
  'avda',
  'avenue',
  'av',
  'boulevard',
  'bd',
  'blvd',
  'chemin',
  'piazza',
  'piazzale',
  'corso',
  'largo',
  'strada',
  'paseo',
  'carrer',
  'plaza',
  'praça',
  'travessa',
  'ulica',
  'ul',
  'allée',
  'quai',
  'impasse',
  'rambla',
  'camino',
]);
const NORDIC_STREET_RE = /\p{Lu}\p{L}{2,}(?:gatan|gata|vägen|väg|gade|vej|veien|vegen|gate|katu|tie)$/u;
const bareWord = (word: string): string => word.toLowerCase().replace(/\.$/, '');

/**
 * A run of digits that opens a street line (`We moved to 4821 1930 Harbor Road`, `88120 4471 Elm St Suite 12`,
 * `12503 2207 Rue Sainte-Catherine`): spaces only, then a street type written first (`Rue`, `Via`, `Calle`, …), a
 * compound street name (`Hauptstraße`, `Keizersgracht`, `Drottninggatan`), or up to three capitalised (or numbered,
 * `5th`) name words and a street type (`Harbor Road`, `Elm St`, `Pacific Hwy`), all in one clause.
 */
export function opensStreetLine(text: string, end: number): boolean {
  const after = /^[ \u00A0\t]+([^\n\r,;:()|]{1,60})/u.exec(text.slice(end, end + 64));
  if (after === null) return false;
  const words = after[1]!.trim().split(/\s+/).slice(0, 4);
  const [first] = words as [string];
  if (STREET_FIRST.has(bareWord(first)) || NORDIC_STREET_RE.test(first)) return true;
  // A compound name is one capitalised word with a street ending; a plain street type (`Way`, `Park`) needs a name before it.
  if (isStreetWord(first) && !isStreetWord(first.toLowerCase())) return true;
  for (const [index, word] of words.entries()) {
    if (index > 0 && isStreetWord(word)) return true;
    if (!/^(?:\p{Lu}|\d+(?:st|nd|rd|th)\b)/u.test(word)) return false;
  }
  return false;
}

// A US state's code right before a span (`Cambridge, MA 02139-4307`).
const STATE_BEFORE_RE = new RegExp(`(?<![\\p{L}\\p{N}])(?:${US_STATES.split(' ').join('|')}),? $`, 'u');

/** A ZIP+4 code after a US state's code is a postcode (`MA 02139-4307` is valid as a German number, written so). */
function zipAfterState(text: string, span: Span): boolean {
  return /^\d{5}-\d{4}$/.test(text.slice(span.start, span.end)) && STATE_BEFORE_RE.test(text.slice(Math.max(0, span.start - 4), span.start));
}

/** Letters glued to the span, a street line it opens, or a ZIP+4 code after a state. */
const vetoed = (text: string, span: Span): boolean =>
  gluedToLetters(text, span.start, span.end) || opensStreetLine(text, span.end) || zipAfterState(text, span);

/** A run of digits right after a word of another kind (`SSN:`, `Invoice no.`): only a number written as a phone is read. */
const OTHER_KIND_SHAPES = [
  // US social security, employer identification, ZIP+4
  /^\d{3}-\d{2}-\d{4}$/,
  /^\d{2}-\d{7}$/,
  /^\d{5}-\d{4}$/,
  // a year and a serial (`2024-00017`, `2024 00017`, `2024/00017`)
  /^(?:19|20)\d\d[-./ ]\d{3,}/,
];

/**
 * The rule for a phone reading right after a word of another kind (`SSN:`, `Invoice no.`, `Credit note`, `PO Box`,
 * `Kundennummer`): it stands only when the number is valid, written as a phone — in international form with `+`, or
 * in its region's own digit groups (fit 2 or 3) — and nothing else claims it: not the shape of an SSN, an EIN, a
 * ZIP+4 code, or a year and a serial. (A reading kept only for its phone label, or as merely possible, needs a phone
 * word right before the number, which is then no word of another kind: such readings never meet this rule.)
 */
function otherKindAllows(text: string, reading: Reading, chosen: Candidate, home: CountryCode | undefined): boolean {
  const written = withoutExtension(text.slice(reading.start, reading.end), reading.number);
  if (isInternational(written)) return true;
  // A national number read abroad when a home region is known (`SIREN 732 829 320` in France is no Polish number).
  if (home !== undefined && !chosen.home) return false;
  return chosen.fit >= 2 && !OTHER_KIND_SHAPES.some((shape) => shape.test(written));
}

/** The phone-like runs of the text that no international number took (`taken` sorted by start, not overlapping). */
function* windows(text: string, taken: readonly Span[]): Generator<{ start: number; end: number; written: string }> {
  let next = 0;
  for (const match of text.matchAll(WINDOW_RE)) {
    const span = { start: match.index, end: match.index + match[0].length };
    while (next < taken.length && taken[next]!.end <= span.start) next++;
    const blocker = taken[next];
    if (blocker !== undefined && overlaps(span, blocker)) continue;
    if (isWordChar(charAt(text, span.end)) || isIdentifier(text, span.start)) continue;
    yield { ...span, written: match[0] };
  }
}

/**
 * The national part of a window is worth reading in other regions: 6–12 digits with separators (a bare run read
 * abroad is never taken without a label, and pass 3 reads labelled ones), not a date, IP or version.
 */
function readable(written: string): boolean {
  const national = written.replace(EXTENSION_RE, '');
  const digits = digitsOf(national).length;
  const bare = !/[^\p{Nd}]/u.test(national);
  return !bare && digits >= MIN_DIGITS && digits <= MAX_DIGITS && !isInternational(national) && !isOtherShape(national);
}

/**
 * Pass 2: readings of one window valid in a region of the list (other than home), each with its fit. Only those
 * written as there (fit > 0) and not a bare digit run (read abroad, that is as often an order number) are plausible.
 */
function listReadings(text: string, window: { start: number; written: string }, regions: readonly CountryCode[]): Candidate[] {
  const found: Candidate[] = [];
  // Without `extended`, libphonenumber finds valid numbers only; a readable window is not in international form.
  for (const region of regions) {
    for (const hit of hits(window.written, region, false)) {
      const end = window.start + hit.endsAt;
      found.push(candidate(text, trimUnbalancedOpener(text, window.start + hit.startsAt, end), end, hit.number, region, false));
    }
  }
  return found;
}

function plausibleAbroad(text: string, reading: Candidate): boolean {
  return reading.fit > 0 && /[^\p{Nd}]/u.test(withoutExtension(text.slice(reading.start, reading.end), reading.number));
}

/** True when the readings name one number. */
function agree(readings: readonly Candidate[]): boolean {
  return new Set(readings.map((reading) => normalizePhone(reading.number))).size === 1;
}

/** A language counts when its function words add up to this much, and twice as much as any rival number's. */
const MIN_LANGUAGE_SCORE = 2;
const LANGUAGE_MARGIN = 2;

/**
 * Among plausible readings of one span that name different numbers (none the home region's), the one the passage
 * points at (docs/extract.md §Regions), or undefined:
 *
 * 1. places: the readings in regions the passage names (an international number's country, an e-mail or web
 *    domain's country code, an IBAN's country, a country's name, a postcode address's country) — when that leaves
 *    readings of one number, it is the one; when it leaves several, the others are out;
 * 2. language: the readings in regions where the passage's language is written, when the passage is clearly in it
 *    (MIN_LANGUAGE_SCORE, and LANGUAGE_MARGIN times any rival number's language). English is written everywhere, so
 *    it only decides among the readings that fit the written grouping best;
 * 3. grouping: the one number written exactly in its region's national format, when every rival reading only
 *    joins or splits groups (fit 3 against at most 1).
 */
function byPassage(rivals: readonly Candidate[], cues: PassageCues): Candidate | undefined {
  let pool = [...rivals];
  for (const strength of ['certain', 'vague'] as const) {
    const places = cues.places(
      pool.map((reading) => reading.region),
      strength,
    );
    const placed = pool.filter((reading) => places.has(reading.region));
    if (placed.length > 0) pool = placed;
    if (agree(pool)) return pool[0];
  }
  const supported = pool.map((reading) => ({ reading, ...cues.languageSupport(reading.region) }));
  const top = Math.max(...supported.map((entry) => entry.score));
  if (top >= MIN_LANGUAGE_SCORE) {
    const winners = supported.filter((entry) => entry.score === top);
    const number = normalizePhone(winners[0]!.reading.number);
    const runnerUp = Math.max(0, ...supported.filter((entry) => normalizePhone(entry.reading.number) !== number).map((entry) => entry.score));
    const bestFit = Math.max(...pool.map((reading) => reading.fit));
    const fitting = winners.filter((entry) => entry.language !== 'en' || entry.reading.fit === bestFit).map((entry) => entry.reading);
    // `agree` holds only for a non-empty list.
    if (top >= LANGUAGE_MARGIN * runnerUp && agree(fitting)) return fitting[0];
  }
  return exactlyWritten(pool);
}

/**
 * The one number written in its region's own digit groups (fit 2 or 3): every other reading then only joins or splits
 * groups (fit 1), since any reading written in its groups is one of `exact`.
 */
function exactlyWritten(readings: readonly Candidate[]): Candidate | undefined {
  const exact = readings.filter((reading) => reading.fit >= 2);
  return agree(exact) ? exact[0] : undefined;
}

/** True when the phone label right before a reading is in languages (English aside: written everywhere) none of which is written in its region. */
function foreignLabel(text: string, reading: Candidate): boolean {
  const languages = (phoneLabelLanguages(text, reading.start) ?? []).filter((language) => language !== 'en');
  return languages.length > 0 && !languages.some((language) => isLanguageOf(language, reading.region));
}

/**
 * Chooses among the candidates of one window, longest span first. Among the readings of a span with the best fit: the
 * home region's, else the one number they all agree on, else the one the passage points at (`byPassage`); readings
 * that still disagree are kept only with a phone label (`labelled`, when the label's language narrows them to one).
 * A reading written badly for its region (fit 0: no national prefix where the region writes one, groups cut
 * elsewhere) is kept only with a label, unless it is the home region's and no other region reads the span plausibly
 * (libphonenumber's own verdict, as before regions). The home region's plausible readings come first, whatever else
 * reads the text.
 */
function choose(text: string, candidates: readonly Candidate[], order: readonly CountryCode[], cues: () => PassageCues): Candidate[] {
  const chosen: Candidate[] = [];
  const rank = (region: CountryCode) => order.indexOf(region);
  // The reading that covers most of the text first (`8 (912) 345-67-89` is Russian, trunk prefix included), then the
  // home region's plausible readings (fit > 0) before any other region's.
  const atHome = (reading: Candidate) => Number(reading.home && reading.fit > 0);
  const sorted = [...candidates].sort(
    (a, b) =>
      b.end - b.start - (a.end - a.start) || atHome(b) - atHome(a) || b.fit - a.fit || Number(b.home) - Number(a.home) || rank(a.region) - rank(b.region),
  );
  const decided: Span[] = [];
  for (const best of sorted) {
    if (decided.some((span) => overlaps(span, best))) continue;
    decided.push(best);
    // Every plausible reading of the span (fit > 0) must agree, unless the best one is the home region's.
    const rivals = sorted.filter((other) => other.start === best.start && other.end === best.end && other.fit > 0);
    const agreed = best.home || agree(rivals) || rivals.length === 0;
    const national = withoutExtension(text.slice(best.start, best.end), best.number);
    const bare = !/[^\p{Nd}]/u.test(national);
    // A bare run of more than 12 digits is a timestamp or a card number more often than a phone number, even at home.
    const tooLong = bare && national.length > MAX_DIGITS;
    // A home reading written badly for home (fit 0) still stands when no other region reads the span plausibly:
    // libphonenumber's own verdict for the home region, as before regions were tried; unless it is short or is a
    // year and a serial (`211-227`, `2024-00123`: page ranges, order and invoice numbers).
    const weak = best.fit === 0 && (digitsOf(national).length < MIN_LABELLED_DIGITS || YEAR_FIRST_RE.test(national));
    // A reading abroad not written in its region's own groups, under a phone label in a language not written there
    // (`Tél. : 01 23 45 67 8`, French pairs a digit short, valid only in Vienna), is not that region's for sure.
    const foreign = !best.home && best.fit < 2 && foreignLabel(text, best);
    const certain = (best.fit > 0 || best.home) && agreed && !tooLong && !weak && !foreign;
    if (certain) {
      chosen.push({ ...best, check: 'validated' });
      continue;
    }
    const pointed = !agreed && !tooLong ? byPassage(rivals, cues()) : undefined;
    if (pointed !== undefined) {
      chosen.push({ ...pointed, check: 'validated' });
      continue;
    }
    const label = phoneLabelRegions(text, best.start);
    // A national run of more than 12 digits is never kept for its label (a timestamp or a card number).
    if (label === undefined || digitsOf(national).length > MAX_DIGITS) continue;
    // Readings that disagree, or a foreign label: the label's language must narrow them to one number (`Telefono:` → IT, CH).
    const plausible = rivals.length > 0 ? rivals : [best];
    const narrowed = agreed && !foreign ? plausible : plausible.filter((reading) => label.includes(reading.region));
    const pick = agree(narrowed) ? narrowed[0] : exactlyWritten(narrowed);
    if (pick === undefined) continue;
    chosen.push({ ...pick, check: 'labelled' });
  }
  return chosen;
}

/**
 * Pass 3: a labelled window no region reads for sure, read as a possible number: written in international form, or
 * in the home region, or else (when no region of the list validates it) in the regions of the list where it is
 * possible and written as there, when they agree on one number (after the label's language narrowed them).
 */
function possibleReading(
  text: string,
  window: { start: number; written: string },
  home: CountryCode | undefined,
  list: readonly CountryCode[],
  abroadFit: number,
): Reading | undefined {
  const label = phoneLabelRegions(text, window.start);
  if (label === undefined) return undefined;
  // Possible numbers read from the window's start, long enough and not of another shape.
  const possibleHits = (region: CountryCode | undefined): NumberFound[] =>
    hits(window.written, region, true).filter((hit) => {
      const written = withoutExtension(window.written.slice(0, hit.endsAt), hit.number);
      const digits = digitsOf(written).length;
      // A national run of more than 12 digits is a timestamp or a card number, label or not; international form may be longer.
      const inBounds = digits >= MIN_LABELLED_DIGITS && (digits <= MAX_DIGITS || isInternational(written));
      return hit.startsAt === 0 && hit.number.isPossible() && inBounds && plausiblePlan(hit.number) && !isOtherShape(written);
    });
  if (isInternational(window.written)) {
    const [hit] = possibleHits(undefined);
    return hit === undefined ? undefined : { start: window.start, end: window.start + hit.endsAt, number: hit.number, check: 'labelled', region: undefined };
  }
  const readings = (region: CountryCode): Candidate[] =>
    possibleHits(region).map((hit) => candidate(text, window.start, window.start + hit.endsAt, hit.number, region, false));
  // Called with a list `agree` or a length check found non-empty.
  const first = (found: readonly Candidate[]): Reading => ({ ...found[0]!, check: 'labelled' });
  // A window a region of the list validates whole (abroadFit ≥ 0, however it is grouped) is read as possible at home
  // only when it is written at least as well for home (`345-899-3560x4587` is NANP-grouped: +1 345, not an Italian
  // mobile), and never as a possible number abroad.
  // Stryker disable next-line ConditionalExpression: equivalent — with no region libphonenumber finds no national number, so `readings(undefined)` is empty too.
  const atHome = home === undefined ? [] : readings(home).filter((reading) => reading.fit >= abroadFit);
  if (atHome.length > 0) return first(atHome);
  if (abroadFit >= 0) return undefined;
  const abroad = list.flatMap(readings).filter((reading) => reading.fit > 0);
  if (agree(abroad)) return first(abroad);
  const narrowed = abroad.filter((reading) => label.includes(reading.region));
  return agree(narrowed) ? first(narrowed) : undefined;
}

/**
 * A number valid only abroad, in a region where the language of the phone label before it is not written, is read
 * where the label's language is written when it is possible there and written at least as well (`Ring 07700 900 123`:
 * a British number of the range kept for drama, merely possible in GB, valid as a German fixed line): `labelled`.
 */
function relabelled(text: string, window: { start: number; written: string }, chosen: Candidate, list: readonly CountryCode[]): Reading | undefined {
  if (chosen.home) return undefined;
  const languages = phoneLabelLanguages(text, window.start) ?? [];
  if (languages.length === 0 || languages.some((language) => isLanguageOf(language, chosen.region))) return undefined;
  const found = list
    .filter((region) => languages.some((language) => isLanguageOf(language, region)))
    .flatMap((region) =>
      hits(window.written, region, true)
        .filter((hit) => window.start + hit.startsAt === chosen.start && window.start + hit.endsAt === chosen.end && hit.number.isPossible())
        .map((hit) => candidate(text, chosen.start, chosen.end, hit.number, region, false)),
    )
    .filter((reading) => reading.fit >= chosen.fit);
  return agree(found) ? { ...found[0]!, check: 'labelled' } : undefined;
}

/** True when a reading spans the whole window (an opening bracket left out). */
const covers = (reading: Span, window: Span): boolean => reading.start <= window.start + 1 && reading.end >= window.end;

/** The cues of the paragraph around a span, with the countries of the international numbers in it. */
function passageCues(text: string, span: Span, international: readonly Reading[]): PassageCues {
  const paragraph = paragraphAround(text, span.start, span.end);
  // `international` is in text order and does not overlap: find the first reading ending inside the paragraph.
  let low = 0;
  let high = international.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (international[middle]!.end <= paragraph.start) low = middle + 1;
    else high = middle;
  }
  const countries: string[] = [];
  for (let index = low; index < international.length && international[index]!.start < paragraph.end; index++) {
    const country = international[index]!.number.country;
    if (country !== undefined) countries.push(country);
  }
  return new PassageCues(text.slice(paragraph.start, paragraph.end), countries);
}

/**
 * The text with each card number blanked (`¤`, a sign no number is read across; same length): a phone number written
 * right before a card (`+44 20 7946 0958 4111 1111 1111 1111`) is read up to the card, not as one run of numbers too
 * long to be a phone (issue 27). `cards` in text order, not overlapping (as `recogniseCards` finds them).
 */
function withoutCards(text: string, cards: readonly Span[]): string {
  // One pass (a window may hold thousands of cards): the text between the cards, each card as signs.
  let blanked = '';
  let at = 0;
  for (const card of cards) {
    blanked += text.slice(at, card.start) + '¤'.repeat(card.end - card.start);
    at = card.end;
  }
  return blanked + text.slice(at);
}

/**
 * Phone numbers by libphonenumber-js with the full (`max`) metadata: international numbers, national numbers in the
 * home region (`region`) and in the candidate regions (`regions`, default `DEFAULT_REGIONS`). `cards` are the card
 * numbers of `written` when the caller has recognised them already (`recogniseCards(written)`, which is what is read
 * otherwise): no phone is read across one, and a caller asking for both kinds recognises cards once.
 */
export function recognisePhones(written: string, opts: RecogniserOptions = {}, cards: readonly Span[] = recogniseCards(written)): RawMatch[] {
  const text = withoutCards(written, cards);
  const home = asRegion(opts.region);
  const order = candidateRegions(home, opts.regions);
  const list = order.filter((region) => region !== home);
  const { international, national } = homePass(text, home);
  const readings: Reading[] = [...international];
  // Home readings in text order, handed to the window they overlap; the ones no window takes are chosen at the end.
  const pending: Candidate[] = [];
  let next = 0;
  for (const window of windows(text, international)) {
    while (next < national.length && national[next]!.end <= window.start) pending.push(national[next++]!);
    const inside: Candidate[] = [];
    while (next < national.length && national[next]!.start < window.end) inside.push(national[next++]!);
    // A window the reading of the whole text left without a home reading is read on its own: libphonenumber's search
    // takes a number after another and a `;` or `,` with it (`2024;087 123 4567`) and refuses the two (issue 27 review).
    if (inside.length === 0 && home !== undefined && AFTER_NUMBER_RE.test(text.slice(Math.max(0, window.start - 8), window.start))) {
      inside.push(...homePass(text, home, window.start, window.end).national);
    }
    // Issue 28's vetoes: a word of another kind before the window; letters glued to a reading, a street line it opens.
    // Each is asked once per window and span (the list's readings mostly share one span), and only when it matters.
    let other: boolean | undefined;
    const otherKind = (): boolean => (other ??= otherKindBefore(text, window.start));
    const vetoes = new Map<string, boolean>();
    const spanVetoed = (span: Span): boolean => {
      const key = `${span.start}:${span.end}`;
      let verdict = vetoes.get(key);
      // Stryker disable next-line ConditionalExpression: equivalent — a cache: asking again gives the same verdict.
      if (verdict === undefined) vetoes.set(key, (verdict = vetoed(text, span)));
      return verdict;
    };
    // A plausible home reading of the whole window wins whatever the list says: no need to ask it.
    // Stryker disable next-line ConditionalExpression,ArrowFunction: equivalent — only saves asking the list: choose() takes the home reading anyway.
    const settled = inside.some((reading) => reading.fit > 0 && covers(reading, window));
    // The dialled reading first: the word pattern and the vetoes are asked only of a window it reads (the same verdict).
    // A bare run of digits is never read so (iddReading): it is not parsed.
    // Stryker disable next-line Regex: equivalent — a shortcut: iddReading refuses a bare run itself.
    const dialled = settled || !IDD_RE.test(window.written) || !/[^\p{Nd}]/u.test(window.written) ? undefined : iddReading(window);
    if (dialled !== undefined && !otherKind() && !spanVetoed(window)) {
      readings.push(dialled);
      continue;
    }
    const cut = settled ? undefined : internationalBeforeNumber(window);
    if (cut !== undefined && !spanVetoed(cut)) {
      readings.push(cut);
      continue;
    }
    // Only the readings written as there (fromList) or covering the window (abroadFit) count.
    const valid = !settled && readable(window.written) ? listReadings(text, window, list).filter((reading) => !spanVetoed(reading)) : [];
    const fromList = valid.filter((reading) => plausibleAbroad(text, reading));
    const chosen = choose(text, [...inside, ...fromList], order, () => passageCues(text, window, international));
    if (chosen.length > 0) {
      const read = chosen.map((reading) => relabelled(text, window, reading, list) ?? reading);
      // The word pattern is asked only when a reading would not stand after a word of another kind (the same verdict).
      const allowed = read.map((reading, index) => otherKindAllows(text, reading, chosen[index]!, home));
      readings.push(...(allowed.every(Boolean) || !otherKind() ? read : read.filter((_, index) => allowed[index])));
      continue;
    }
    const abroadFit = Math.max(-1, ...valid.filter((reading) => covers(reading, window)).map((reading) => reading.fit));
    const possible = possibleReading(text, window, home, list, abroadFit);
    if (possible !== undefined && !spanVetoed(possible)) readings.push(possible);
  }
  // Home readings outside every window (a form the window pattern does not cover) are chosen on their own.
  pending.push(...national.slice(next));
  // (No word of another kind stands right before one: only an underscore keeps a window from starting at a home reading.)
  for (const reading of pending) readings.push(...choose(text, [reading], order, () => passageCues(text, reading, international)));
  return readings.sort((a, b) => a.start - b.start).map((reading) => toMatch(written, reading));
}
