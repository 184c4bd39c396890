import { countrySpecs, electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { ANY_SEPARATOR, isWordChar, charAt, charBefore, rawMatch, WRAP } from '../text.js';
import type { RawMatch, RecogniserOptions } from '../types.js';

// Candidates are ASCII letters and digits in any case (people type `ie29 aibk …`): either compact (15–34 characters)
// or in groups of four separated by one space or one dash, used consistently, the last group possibly shorter.
// Full-width forms are not matched. The span is the text as written; the value is upper case.
const COMPACT = '[A-Za-z]{2}[0-9]{2}[A-Za-z0-9]{11,30}';
const GROUPED = '[A-Za-z]{2}[0-9]{2}([ -])[A-Za-z0-9]{4}(?:\\1[A-Za-z0-9]{4}){1,6}(?:\\1[A-Za-z0-9]{1,4})?';
const CANDIDATE_RE = new RegExp(`${GROUPED}|${COMPACT}`, 'g');

/** ibantools upper-cases and drops spaces and dashes itself (`electronicFormatIBAN`), so any case is read. */
export function isValidIban(candidate: string): boolean {
  // null only for a value that is not a string.
  return isValidIBAN(electronicFormatIBAN(candidate)!);
}

/**
 * The longest valid prefix of a candidate made of whole groups, so a short trailing word (`… 8901 X in a
 * sentence`) is not absorbed, while a group cut in half never is.
 */
function longestValidPrefix(candidate: string, separator: string | undefined): string | undefined {
  if (isValidIban(candidate)) return candidate;
  // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent — without it, `lastIndexOf(undefined)` looks for the text "undefined": absent, the loop does not run; present, only a prefix followed by letters is cut, which the word-boundary check after it rejects.
  if (separator === undefined) return undefined;
  let prefix = candidate;
  // Stryker disable next-line EqualityOperator: equivalent — a separator never stands at index 0 (a candidate starts with its country code).
  for (let cut = prefix.lastIndexOf(separator); cut > 0; cut = prefix.lastIndexOf(separator)) {
    prefix = prefix.slice(0, cut);
    if (isValidIban(prefix)) return prefix;
  }
  return undefined;
}

/**
 * The letters after the country code are all upper case or all lower case: `LV80 bANK …` is a typo or not an IBAN
 * (the country code itself may be written `Fr`, `fr` or `FR`).
 */
function oneCase(iban: string): boolean {
  const rest = iban.slice(2);
  return rest === rest.toUpperCase() || rest === rest.toLowerCase();
}

/**
 * IBANs validated by ibantools (country format + mod-97), case-insensitive, word-bounded: never run into letters or
 * digits. Normalised to the upper-case electronic format.
 */
export function recogniseIbans(text: string, _opts: RecogniserOptions = {}): RawMatch[] {
  const matches: RawMatch[] = [];
  for (const match of text.matchAll(CANDIDATE_RE)) {
    const start = match.index;
    if (isWordChar(charBefore(text, start))) continue;
    const iban = longestValidPrefix(match[0], match[1]);
    if (iban === undefined || !oneCase(iban)) continue;
    const end = start + iban.length;
    if (isWordChar(charAt(text, end))) continue;
    matches.push(rawMatch('iban', text, start, end, electronicFormatIBAN(iban) ?? iban));
  }
  return matches;
}

// GROUPED's back-reference renumbered: its separator is the second group here.
const ANYWHERE_RE = new RegExp(`(?=(${GROUPED.replaceAll('\\1', '\\2')}|[A-Za-z]{2}[0-9]{2}[A-Za-z0-9]{11,}))`, 'g');

/** Whether a token opens an IBAN: the code of a country with IBANs and two digits (`IT45`, `de89`). */
export function opensIban(token: string): boolean {
  return /^[A-Za-z]{2}[0-9]{2}/.test(token) && countrySpecs[token.slice(0, 2).toUpperCase()]?.chars !== undefined;
}

/** The candidate cut after as many letters and digits as its country's IBANs have (undefined for no such country). */
export function countryLength(candidate: string): string | undefined {
  const length = countrySpecs[candidate.slice(0, 2).toUpperCase()]?.chars;
  // Stryker disable next-line ConditionalExpression: equivalent — a shortcut: no count equals undefined, so the loop ends in undefined too.
  if (length === undefined) return undefined;
  let count = 0;
  // Stryker disable next-line EqualityOperator: equivalent — one step past the end reads '', no letter or digit.
  for (let at = 0; at < candidate.length; at++) {
    if (/[A-Za-z0-9]/.test(candidate.charAt(at)) && ++count === length) return candidate.slice(0, at + 1);
  }
  return undefined;
}

/**
 * An IBAN written with one separator of any kind between any of its characters (`DE89.3704.0044.0532.0130.00`,
 * `DE 89 3704 …`, in threes): a country code, two check digits, and letters and digits, each after at most one blank,
 * dot, dash, slash or underscore.
 */
const LOOSE_RE = /(?<![A-Za-z])(?=([A-Za-z]{2}[ ./_-]?\d[ ./_-]?\d(?:[ ./_-]?[A-Za-z0-9]){11,30}))/g;

/**
 * The second reading of redacted text (issue 27): IBANs wherever they stand, glued to letters or digits on either
 * side (`alice@example.comDE89370400440532013000`, an IBAN run into a card's digits): at every country code and check
 * digits, exactly as many letters and digits as that country's IBANs have, or the longest valid prefix made of whole
 * groups. Not a recogniser: redaction stops a request on what it finds.
 */
export function ibansAnywhere(text: string): RawMatch[] {
  const matches: RawMatch[] = [];
  for (const match of text.matchAll(ANYWHERE_RE)) {
    const candidate = match[1]!;
    const iban = [countryLength(candidate), longestValidPrefix(candidate, match[2])].find((written) => written !== undefined && isValidIban(written));
    if (iban !== undefined) {
      matches.push(rawMatch('iban', text, match.index, match.index + iban.length, electronicFormatIBAN(iban) ?? iban));
    }
  }
  // In groups of any size or separator (issue 27 review): as many letters and digits as the country's IBANs have.
  for (const match of text.matchAll(LOOSE_RE)) {
    const written = countryLength(match[1]!);
    if (written === undefined || matches.some((other) => other.start === match.index)) continue;
    const compact = written.replace(/[^A-Za-z0-9]/g, '');
    if (isValidIban(compact)) matches.push(rawMatch('iban', text, match.index, match.index + written.length, compact.toUpperCase()));
  }
  return matches;
}

/**
 * An IBAN in groups of four (the last of one to four) with one and the same separator (`ANY_SEPARATOR`) between every
 * two groups, each maybe followed by a wrap; in a lookahead (finds may overlap), which keeps its first match: once with
 * the separator taken greedily and once lazily, since blanks before a wrap belong to the separator in one gap and to the
 * wrap in another (`DE89, ` / `3704,0044,…`: the greedy reading takes `, ` and ends after two groups; review rev27q).
 */
const groupsAny = (lazy: boolean): RegExp =>
  new RegExp(
    `(?=([A-Za-z]{2}\\d{2}(${ANY_SEPARATOR}${lazy ? '?' : ''})${WRAP}[A-Za-z0-9]{4}(?:\\2${WRAP}[A-Za-z0-9]{4}){0,7}(?:\\2${WRAP}[A-Za-z0-9]{1,4})?))`,
    'gu',
  );
const GROUPS_ANY = [groupsAny(false), groupsAny(true)];

/**
 * The fourth reading of redaction (issue 27, reviews rev27k and rev27m): IBANs printed in groups of four with one and
 * the same separator of any kind between every two groups (`DE89:3704:0044:…`, `DE89 · 3704 · …`, `GB82 - WEST - …`), glued to anything before the
 * country code but a letter and to anything after the last group: as many letters and digits as the country's IBANs
 * have. Not a recogniser: redaction stops a request on what it finds.
 */
export function ibansInGroups(text: string): RawMatch[] {
  const matches: RawMatch[] = [];
  for (const groups of GROUPS_ANY) {
    for (const match of text.matchAll(groups)) {
      const written = countryLength(match[1]!);
      if (written === undefined || matches.some((other) => other.start === match.index && other.text === written)) continue;
      const compact = written.replace(/[^A-Za-z0-9]/g, '');
      if (isValidIban(compact)) matches.push(rawMatch('iban', text, match.index, match.index + written.length, compact.toUpperCase()));
    }
  }
  return matches;
}
