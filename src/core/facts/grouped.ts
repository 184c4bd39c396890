/**
 * Redaction's grouped reading (issue 27, rev27e; docs/redaction.md): a value written as digit groups parted by any one
 * sign — a middle dot, an apostrophe, a comma, a bullet, `|`, `+`, `*` …, with blanks allowed around it — or in groups
 * of any size (`411 111 111 111 1111`, pairs, single digits), which the recognisers do not take. Not a recogniser
 * (`extract` does not use it): the redactor replaces what it finds, and its second reading stops a request on what is
 * left.
 *
 * - A card: any stretch of two or more whole groups (from a group boundary to a group boundary), all of one size but
 *   the last (or 4-6-5, 4-6-4), whose 13–19 digits are a valid card number.
 * - An IBAN: a country code and check digits and as many letters and digits as that country's IBANs have, any one
 *   sign or blanks between any two of them, valid check digits.
 * - A phone number: a stretch of whole groups at the start or the end of a run (the whole run, or the run split at a
 *   separator: `087 123 4567 12`, `Room 12 087 123 4567`, two numbers side by side) that the phone recogniser reads
 *   whole as a validated number in the home region (or in international form).
 *
 * Ordinary numbers stay out: the groups of one stretch are parted by one sign throughout (blanks alone, and brackets,
 * may stand in for it, except when the sign is a decimal point, comma or colon: `3.14 2.71`, `2024-03-15 10:30:00`
 * hold no stretch across the two), and two groups parted by a bare `.` or `,` are a number with decimals.
 */
import { countryLength, isValidIban, recogniseIbans } from './recognisers/iban.js';
import { isValidCardNumber } from './recognisers/card.js';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { groupingFit, recognisePhones } from './recognisers/phone.js';
import { rawMatch } from './text.js';
import type { Kind } from './kinds.js';
import type { RawMatch, RecogniserOptions } from './types.js';

/** What may stand between two groups: one to three blanks, or one sign that is not a letter, digit or blank with up to three blanks on each side. */
const SEPARATOR = /^(?:[ \t]{1,3}|[ \t]{0,3}([^\p{L}\p{N}\p{M}\s])[ \t]{0,3})$/u;
/** A bracket around a group (`(4111) 1111-1111-1111`): it may stand in for a run's sign. */
const BRACKET = /^[()[\]{}（）［］]$/u;
const BRACKETS = '()';
/** A sign that is a decimal point or a time's colon: never mixed with blanks in one stretch. */
const NUMBER_SIGN = /^[.,:]$/;
/** An IBAN with any one sign or blanks between any two of its characters. */
const SEP = '(?:(?:[ \\t]{0,3}[^\\p{L}\\p{N}\\p{M}\\s][ \\t]{0,3}|[ \\t]{1,3})(?:(?:\\r\\n|\\r|\\n)[ \\t]{0,3})?|(?:\\r\\n|\\r|\\n)[ \\t]{0,3})';
const IBAN_RE = new RegExp(`(?<![\\p{L}\\p{N}])(?=([A-Za-z]{2}${SEP}?\\d${SEP}?\\d(?:${SEP}?[A-Za-z0-9]){11,30}))`, 'gu');
const MAX_CARD = 19;
const MIN_CARD = 13;
const MIN_PHONE = 7;
const MAX_PHONE = 17;
/** What the phone recogniser reads between a number's groups itself (libphonenumber's punctuation), and blanks. */
const PHONE_PUNCTUATION = /^(?:|\(\)|[-‐‑‒–—―−ー－/／.．~⁓∼～])$/u;
/** Characters read on each side of a run for a phone number's context (its label, letters glued to it). */
const WINDOW = 48;

interface Group {
  start: number;
  end: number;
  digits: string;
  /** The sign between this group and the next ('' for blanks alone or a bracket); undefined for the last of a run. */
  sign?: string;
  /** Whether the separator after this group is a bare sign (no blanks). */
  bare?: boolean;
}

/**
 * The runs of two or more digit groups in `text`, each group followed by the separator to the next. A run with a
 * group glued to a letter (`A128`, `684D:1111`), or a letter joined to its first or last group by the run's own sign
 * (`SR-415-555-0132`), is an identifier, not groups: it is left out.
 */
function runsOf(text: string): Group[][] {
  const runs: Group[][] = [];
  let run: Group[] = [];
  let previous: Group | undefined;
  const close = (): void => {
    if (run.length > 1 && !identifier(text, run)) runs.push(run);
    run = [];
  };
  for (const match of text.matchAll(/\d+/g)) {
    const group: Group = { start: match.index, end: match.index + match[0].length, digits: match[0] };
    if (previous !== undefined) {
      const gap = text.slice(previous.end, group.start);
      const separator = SEPARATOR.exec(gap);
      if (separator !== null) {
        const sign = separator[1] ?? '';
        previous.sign = BRACKET.test(sign) ? BRACKETS : sign;
        previous.bare = gap.length === sign.length;
      } else {
        previous.sign = undefined;
        close();
      }
    }
    run.push(group);
    previous = group;
  }
  close();
  return runs;
}

const LETTER = /\p{L}/u;

/** Whether a run is part of an identifier: a group glued to a letter, or a letter joined to its ends by its own sign. */
function identifier(text: string, run: readonly Group[]): boolean {
  if (run.some((group) => LETTER.test(text.charAt(group.start - 1)) || LETTER.test(text.charAt(group.end)))) return true;
  const sign = run.find((group) => group.sign !== undefined && group.sign !== '')?.sign;
  if (sign === undefined) return false;
  const first = run[0]!.start;
  const end = run.at(-1)!.end;
  return (text.charAt(first - 1) === sign && LETTER.test(text.charAt(first - 2))) || (text.charAt(end) === sign && LETTER.test(text.charAt(end + 1)));
}

/** Whether groups `[from, to]` of a run make one stretch: not a number with decimals, and one sign throughout. */
function oneStretch(run: readonly Group[], from: number, to: number): boolean {
  return !isDecimal(run, from, to) && oneSign(run, from, to);
}

/** Two groups parted by a bare `.` or `,`: a number with decimals. */
function isDecimal(run: readonly Group[], from: number, to: number): boolean {
  return to === from + 1 && run[from]!.bare === true && /^[.,]$/.test(run[from]!.sign!);
}

/**
 * One separator between the groups `[from, to]` throughout: blanks alone, or one sign (a bracket may stand in for it,
 * `(4111) 1111-1111-1111`, but not for a decimal point, comma or colon).
 */
function oneSign(run: readonly Group[], from: number, to: number): boolean {
  let sign: string | undefined;
  let brackets = false;
  for (let at = from; at < to; at++) {
    const here = run[at]!.sign!;
    if (here === BRACKETS) brackets = true;
    else if (sign === undefined) sign = here;
    else if (here !== sign) return false;
  }
  return !(brackets && sign !== undefined && NUMBER_SIGN.test(sign));
}

/** Valid cards, IBANs and phone numbers (of `kinds`) written in groups parted by any one sign, or in groups of any size. */
export function groupedValues(text: string, kinds: readonly Kind[], opts: RecogniserOptions): RawMatch[] {
  const ibans: RawMatch[] = [];
  for (const match of text.matchAll(IBAN_RE)) {
    const written = countryLength(match[1]!);
    // Glued to a letter or digit after it, it is one token with them (the second reading stops it).
    if (written === undefined || /[\p{L}\p{N}]/u.test(text.charAt(match.index + written.length))) continue;
    const compact = written.replace(/[^A-Za-z0-9]/g, '');
    if (isValidIban(compact)) ibans.push(rawMatch('iban', text, match.index, match.index + written.length, compact.toUpperCase()));
  }
  const matches: RawMatch[] = kinds.includes('iban') ? [...ibans] : [];
  const cards = kinds.includes('card');
  const phones = kinds.includes('phone');
  if (cards || phones) {
    // Digits inside a valid IBAN are the IBAN's: no card starts there (as the card recogniser reads them).
    const inIban = [...ibans, ...recogniseIbans(text)];
    for (const run of runsOf(text)) {
      if (cards) matches.push(...cardsIn(text, run).filter((card) => !inIban.some((iban) => iban.start <= card.start && card.start < iban.end)));
      if (phones) matches.push(...phonesIn(text, run, opts));
    }
  }
  return matches;
}

/**
 * Whether groups `[from, to]` are grouped as a card is written: all of one size but the last (`4111 1111 1111 1111`,
 * `411 111 111 111 1111`, pairs, single digits), or 4-6-5 / 4-6-4 (Amex, Diners). A count `2 3 4 … 12 13` is not.
 */
function printedGroups(run: readonly Group[], from: number, to: number): boolean {
  const sizes = run.slice(from, to + 1).map((group) => group.digits.length);
  if (sizes.slice(0, -1).every((size) => size === sizes[0])) return true;
  return /^4,6,[45]$/.test(sizes.join());
}

function cardsIn(text: string, run: readonly Group[]): RawMatch[] {
  const matches: RawMatch[] = [];
  for (let from = 0; from < run.length - 1; from++) {
    let digits = run[from]!.digits;
    for (let to = from + 1; to < run.length && digits.length + run[to]!.digits.length <= MAX_CARD; to++) {
      digits += run[to]!.digits;
      if (!oneSign(run, from, to)) break;
      if (isDecimal(run, from, to)) continue;
      if (digits.length >= MIN_CARD && printedGroups(run, from, to) && isValidCardNumber(digits))
        matches.push(rawMatch('card', text, run[from]!.start, run[to]!.end, digits));
    }
  }
  return matches;
}

/**
 * The phone numbers at the start or the end of a run: its longest stretch from the first group, and from the last,
 * ending or starting at a blank between groups (or the whole run when a sign parts its groups: a run of blanks alone
 * the recognisers have read whole already), that the phone recogniser reads as a validated number where it stands —
 * the other groups of the run blanked out (`¤`), the signs inside it read as blanks, the words around it kept (so a
 * label of another kind still vetoes it) — and, in national form, as the region writes it.
 */
function phonesIn(text: string, run: readonly Group[], opts: RecogniserOptions): RawMatch[] {
  const matches: RawMatch[] = [];
  const last = run.length - 1;
  // The whole run only when a sign parts it that the phone recogniser does not read (it has read the run with blanks,
  // dashes, dots, slashes and brackets where it stands, and its vetoes stand: `MA 02139-4307` is a ZIP code).
  const signed = run.some((group) => group.sign !== undefined && !PHONE_PUNCTUATION.test(group.sign));
  // Read in the home region alone (a number in international form anywhere): a run of small numbers is a valid
  // national number somewhere (`12 34 56 78` in Denmark).
  const home: RecogniserOptions = { region: opts.region ?? null, regions: [] };
  const from0 = Math.max(0, run[0]!.start - WINDOW);
  const to0 = Math.min(text.length, run[last]!.end + WINDOW);
  const phone = (from: number, to: number): RawMatch | undefined => {
    if (from === 0 && to === last && !signed) return undefined;
    if ((from > 0 && !splits(run[from - 1]!)) || (to < last && !splits(run[to]!)) || !oneStretch(run, from, to)) return undefined;
    let digits = 0;
    for (let at = from; at <= to; at++) digits += run[at]!.digits.length;
    if (digits < MIN_PHONE || digits > MAX_PHONE) return undefined;
    let window = '';
    let at = from0;
    for (let index = 0; index <= last; index++) {
      const group = run[index]!;
      const inside = index >= from && index <= to;
      const gap = text.slice(at, group.start);
      window += inside && index > from ? gap.replace(/[^ \t]/g, ' ') : gap;
      window += inside ? group.digits : '¤'.repeat(group.digits.length);
      at = group.end;
    }
    window += text.slice(at, to0);
    const start = run[from]!.start - from0;
    const end = run[to]!.end - from0;
    const read = recognisePhones(window, home, []).find(
      (match) =>
        (match.start === start || (match.start === start - 1 && /[+＋]/.test(window.charAt(start - 1)))) &&
        match.end === end &&
        (match.check ?? 'validated') === 'validated',
    );
    if (read === undefined) return undefined;
    // A national number as the region writes it (its trunk prefix, if it has one: `087 123 4567`, not `12 34 56 78`).
    const written = run
      .slice(from, to + 1)
      .map((group) => group.digits)
      .join(' ');
    if (read.start === start && !nationalAsWritten(written, read.region)) return undefined;
    return { ...rawMatch('phone', text, from0 + read.start, from0 + read.end, read.normalized), ...(read.region === undefined ? {} : { region: read.region }) };
  };
  let prefix: RawMatch | undefined;
  for (let to = last; to >= 0 && prefix === undefined; to--) prefix = phone(0, to);
  if (prefix !== undefined) matches.push(prefix);
  if (prefix === undefined || prefix.end < run[last]!.end) {
    let suffix: RawMatch | undefined;
    for (let from = 1; from <= last && suffix === undefined; from++) suffix = phone(from, last);
    if (suffix !== undefined) matches.push(suffix);
  }
  return matches;
}

/** Whether a run may be split after `group`: blanks alone, or a bracket, stand between it and the next. */
function splits(group: Group): boolean {
  return group.sign === '' || group.sign === BRACKETS;
}

/** Whether `written` has the digits of the region's own national format of the number (its trunk prefix included). */
function nationalAsWritten(written: string, region: string | undefined): boolean {
  const number = region === undefined ? undefined : parsePhoneNumberFromString(written, region as CountryCode);
  return number !== undefined && groupingFit(written, number) >= 1;
}
