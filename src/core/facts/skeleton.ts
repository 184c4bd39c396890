/**
 * Redaction's digit skeleton (issue 27, rev27f; docs/redaction.md): one rule for the digits of a run of digit groups,
 * whatever parts them, and one rule for what in such a run is an ordinary number. Not a recogniser (`extract` does not
 * use it): the redactor replaces what `skeletonValues` finds, in both its readings, and drops what `ordinaryFinds`
 * calls ordinary from every reading (the second one too, so an ordinary list no longer stops a request).
 *
 * - A run: digit groups each two parted by a gap of no letter or digit — up to three blanks, at most one sign (any
 *   character that is not a letter, digit, mark or white space) with up to three blanks after it, and at most one line
 *   break with up to three blanks after it — so its separators may change from gap to gap (`4111 1111-1111 1111`,
 *   `087·123 4567`) and it may wrap after a sign (`4111·1111·` / `1111·1111`). A group glued to a letter is part of an
 *   identifier: it is left out and parts the run (`Order AB12 087 123 4567`) — but a run inside an IBAN's tokens
 *   (`IT45 X944 0735 …`) is left out whole, for the IBAN readers and the second reading.
 * - Its skeleton is its digits; every stretch of whole groups (from a group boundary to a group boundary) is read:
 *   a card when its 13–19 digits are a valid card number (Luhn, a known issuer and length), whatever the group sizes;
 *   a phone number when its 7–15 digits are a valid number in the home region written with the region's trunk prefix
 *   (or after a `+`, in international form), its brackets paired, and the phone recogniser reads the stretch there as a
 *   validated number, with the signs it does not read itself and line breaks as blanks and the rest of the run blanked
 *   (its labels and vetoes hold: `MA 02139-4307` is a ZIP+4 code).
 * - Ordinary numbers (`ordinaryFinds`): a card of two or more groups inside a longer list of groups of the same size and
 *   sign that no other value covers — two or more before it, three or more after it (two for pairs), three in all —
 *   unless a card word stands before the run, and for groups of four only when the list counts (`4495 4496 4497 4498
 *   4499 4500 …`); a card or phone number that cuts another card, phone number or IBAN found, when the finds kept hold
 *   every digit of it (`083 404 2606-086 666 4888`: two numbers read across; the tail of an IBAN and the head of the
 *   card after it) — never one with a digit of its own; a phone number written in four or more single digits without
 *   a `+`, a trunk prefix `0` or a phone word before it, whose single digits count (`1–2–3–4–5–6–7–8–9`); a card or
 *   phone number written as a number itself (a bare `.`, `,`, `'` or `’` between two of its groups, a sign used twice
 *   or more being a thousands sign) glued on both sides to another group by such a sign it does not use itself, or
 *   after a bare `'` or `’` (`1'186.65 884'593.36`, `1'082.50`: inside larger numbers) — a whole card or phone number
 *   between two numbers glued by commas is a field of a row (`42,4111111111111111,2027`), not ordinary; numbers with
 *   decimals: a card or phone number whose gaps are of more than one kind, one of them a bare `.` or `,` (for a phone
 *   number, before two digits: `8102.27 1970.23`); and items of a list or times: gaps of more than one kind, one of them
 *   a comma or semicolon with a blank after it or a bare `:` before two digits (`368-7316, 106-4041`, `04:17-22:00`).
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { cardContextBefore, phoneContextBefore } from './context.js';
import { isValidCardNumber } from './recognisers/card.js';
import { opensIban } from './recognisers/iban.js';
import { groupingFit, recognisePhones } from './recognisers/phone.js';
import { rawMatch } from './text.js';
import type { Kind } from './kinds.js';
import type { RawMatch, RecogniserOptions } from './types.js';

/** Blanks, at most one sign and blanks, at most one line break and blanks. */
const GAP = /^[ \t]{0,3}(?:([^\p{L}\p{N}\p{M}\s])[ \t]{0,3})?(?:(?:\r\n|\r|\n)[ \t]{0,3})?$/u;
const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/gu;
/** Longest run read: a longer one is a table of figures (the recognisers and the grouped reading still read it). */
const MAX_GROUPS = 48;
const MIN_CARD = 13;
const MAX_CARD = 19;
const MIN_PHONE = 7;
const MAX_PHONE = 15;
/** Characters read on each side of a stretch for a phone number's context (its label, letters glued to it). */
const WINDOW = 48;

export interface SkeletonGroup {
  start: number;
  end: number;
  digits: string;
  /** The sign in the gap to the next group ('' for blanks or a line break alone); undefined for the last of a run. */
  sign?: string;
  /** Whether that gap is the sign alone (no blank, no line break). */
  bare?: boolean;
}

/** The runs of two or more digit groups of `text` (see the module's comment), in order. */
export function skeletonRuns(text: string): SkeletonGroup[][] {
  const runs: SkeletonGroup[][] = [];
  let run: SkeletonGroup[] = [];
  // A group glued to a letter is part of an identifier (`AB12`, `EI123`): it parts the run, and the groups on either side
  // of it are runs of their own (`Order AB12 087 123 4567`: a phone number after an order code). After the head of an
  // IBAN (`IT45`: a country with IBANs and two digits), the rest of the run is the IBAN's, left to the IBAN readers and
  // the second reading, whose stop a card read across its groups here would break (rev27i).
  const close = (): void => {
    const glued = (group: SkeletonGroup): boolean => LETTER.test(text.charAt(group.start - 1)) || LETTER.test(text.charAt(group.end));
    // Inside an IBAN's tokens (`IT45 X944 0735 …`: a glued group of the run or right before it opens one): the whole run
    // is left out, as before rev27h.
    const iban =
      run.some(glued) &&
      (run.some((group) => glued(group) && opensIban(IBAN_HEAD.exec(tokenAt(text, group))?.[1] ?? '')) ||
        opensIban(IBAN_BEFORE.exec(text.slice(Math.max(0, run[0]!.start - 48), run[0]!.start))?.[1] ?? ''));
    let part: SkeletonGroup[] = [];
    for (const group of iban ? [] : run) {
      if (glued(group)) {
        if (part.length > 1) runs.push(endRun(part));
        part = [];
      } else part.push(group);
    }
    if (part.length > 1) runs.push(endRun(part));
    run = [];
  };
  for (const match of text.matchAll(/\d+/g)) {
    const group: SkeletonGroup = { start: match.index, end: match.index + match[0].length, digits: match[0] };
    const previous = run.at(-1);
    if (previous !== undefined) {
      const gap = text.slice(previous.end, group.start);
      const parted = GAP.exec(gap);
      if (parted === null) close();
      else {
        previous.sign = parted[1] ?? '';
        previous.bare = gap.length === previous.sign.length;
      }
    }
    run.push(group);
  }
  close();
  return runs;
}

/** An IBAN's head and the tokens after it, up to where a run starts (`IBAN IT45 X944 `). */
const IBAN_BEFORE = /(?:^|[^\p{N}])([A-Za-z]{2}[0-9]{2})(?:[ .-]?[A-Za-z0-9]{1,4}){0,8}[ .-]?$/u;

/** The head of an IBAN at the end of a token's letters and digits (`IT45`, `ES54` of `IBANES54`). */
const IBAN_HEAD = /([A-Za-z]{2}[0-9]{2})[0-9]*$/;

/** The letters and digits around a group (`IT45` of `IT45 X944 …`). */
function tokenAt(text: string, group: SkeletonGroup): string {
  let start = group.start;
  while (start > 0 && /[\p{L}\p{N}]/u.test(text.charAt(start - 1))) start--;
  let end = group.end;
  while (end < text.length && /[\p{L}\p{N}]/u.test(text.charAt(end))) end++;
  return text.slice(start, end);
}

/** A run cut out of a longer one: its last group has no gap after it. */
function endRun(part: SkeletonGroup[]): SkeletonGroup[] {
  const last = part.at(-1)!;
  if (last.sign === undefined) return part;
  return [...part.slice(0, -1), { start: last.start, end: last.end, digits: last.digits }];
}

/** Cards and phone numbers (of `kinds`) in the digit skeleton of each run of `text`. */
export function skeletonValues(text: string, kinds: readonly Kind[], opts: RecogniserOptions): RawMatch[] {
  const cards = kinds.includes('card');
  const phones = kinds.includes('phone');
  if (!cards && !phones) return [];
  const matches: RawMatch[] = [];
  for (const run of skeletonRuns(text)) {
    if (run.length > MAX_GROUPS) continue;
    for (let from = 0; from < run.length; from++) {
      let digits = '';
      for (let to = from; to < run.length && digits.length + run[to]!.digits.length <= MAX_CARD; to++) {
        digits += run[to]!.digits;
        // Two groups parted by a bare `.` or `,` are a number with decimals.
        if (to === from || (to === from + 1 && run[from]!.bare === true && /^[.,]$/.test(run[from]!.sign!))) continue;
        if (cards && digits.length >= MIN_CARD && isValidCardNumber(digits)) matches.push(rawMatch('card', text, run[from]!.start, run[to]!.end, digits));
        // A phone number part of a run is parted from the rest by a blank, a line break or a sign the phone recogniser
        // does not read (`087·123·4567·12`): across a bare dash, slash or dot (`91-415-555-0132`) the recogniser has
        // read the run where it stands.
        const joined = (group: SkeletonGroup | undefined): boolean => group?.bare === true && PHONE_SIGN.test(group.sign!);
        // Two digits after a bare `.` or `,` that end the run are cents or a sentence's figure, not the number's own
        // (`01 234 5678.12`: the phone recogniser reads the whole as one number with decimals, which is ordinary).
        const cents = to === run.length - 2 && run[to]!.bare === true && /^[.,]$/.test(run[to]!.sign!) && run[to + 1]!.digits.length === 2;
        if (
          phones &&
          digits.length >= MIN_PHONE &&
          digits.length <= MAX_PHONE &&
          !joined(run[from - 1]) &&
          !(to < run.length - 1 && joined(run[to]) && !cents)
        ) {
          const phone = phoneAt(text, run, from, to, digits, opts);
          if (phone !== undefined) matches.push(phone);
        }
      }
    }
  }
  return matches;
}

/**
 * Groups `[from, to]` of a run as a phone number: valid in the home region as written (its trunk prefix included), or
 * in international form after a `+`; and read by the phone recogniser as a validated number where it stands, with its
 * gaps read as blanks and the other groups of the run blanked (`¤`), the words around kept.
 */
function phoneAt(text: string, run: readonly SkeletonGroup[], from: number, to: number, digits: string, opts: RecogniserOptions): RawMatch | undefined {
  const first = run[from]!;
  const plus = /[+＋]$/.test(text.slice(Math.max(0, first.start - 1), first.start));
  const region = (opts.region ?? undefined) as CountryCode | undefined;
  if (!plus && region === undefined) return undefined;
  const number = parsePhoneNumberFromString(plus ? `+${digits}` : digits, region);
  if (number === undefined || !number.isValid()) return undefined;
  const written = run
    .slice(from, to + 1)
    .map((group) => group.digits)
    .join(' ');
  if (!plus && groupingFit(written, number) < 1) return undefined;
  // Brackets in it, or right before it, pair up (`(087) 123·4567`; `213(3734253` is no number).
  const stretch = text.slice(Math.max(0, first.start - 1), run[to]!.end);
  if (stretch.split('(').length !== stretch.split(')').length) return undefined;
  const from0 = Math.max(0, run[0]!.start - WINDOW);
  const to0 = Math.min(text.length, run.at(-1)!.end + WINDOW);
  let window = '';
  let at = from0;
  for (let index = 0; index < run.length; index++) {
    const group = run[index]!;
    const inside = index >= from && index <= to;
    const gap = text.slice(at, group.start);
    // Digits before the run are not its (a code glued to letters, `AB12 087 123 4567`): blanked like its other groups.
    window += inside && index > from ? gap.replace(NOT_PHONE_PUNCTUATION, ' ') : index === 0 ? gap.replace(DIGIT, '¤') : gap;
    window += inside ? group.digits : '¤'.repeat(group.digits.length);
    at = group.end;
  }
  window += text.slice(at, to0).replace(DIGIT, '¤');
  const start = first.start - from0;
  const end = run[to]!.end - from0;
  const read = recognisePhones(window, { region: opts.region ?? null, regions: [] }, []).find(
    (match) =>
      (match.start === start || (match.start === start - 1 && /[+＋(（]/.test(window.charAt(start - 1)))) &&
      match.end === end &&
      (match.check ?? 'validated') === 'validated',
  );
  if (read === undefined) return undefined;
  return { ...rawMatch('phone', text, from0 + read.start, from0 + read.end, read.normalized), ...(read.region === undefined ? {} : { region: read.region }) };
}

/**
 * Whether a phone number is written with a `+` or a trunk prefix `0` (`0 8 7 1 2 3 4 5 6 7`), or after a phone word
 * or a word for a number (`Call 1 2 3 4 5 6 7 8 9`, `mi número es 9 8 7 6 5 4 3 2 1`).
 */
function prefixed(text: string, match: RawMatch): boolean {
  return (
    /^(?:[+＋]|0)/.test(text.slice(match.start, match.end)) ||
    phoneContextBefore(text, match.start) ||
    NUMBER_WORD.test(text.slice(Math.max(0, match.start - WINDOW), match.start))
  );
}

/**
 * A word for a number right before a value (`my number is`, `number's`, `Nummer:`, `Nr.`, `Nº`, `mi número es`, `il
 * mio numero è`): what follows is a number spelled out, even when its digits count (`9 8 7 6 5 4 3 2 1`).
 */
const NUMBER_WORD =
  /(?:^|[^\p{L}])(?:numbers?|number's|nos?\.|nr\.?|n[º°]|#|nummer|num[eé]ro|n[uú]mero|numer|móvil|movil|cell|mobile)(?:\s+(?:is|was|ist|est|es|è|e|é))?\s*[:#]?\s*$/iu;

/**
 * Whether four or more single digits count, up or down one at a time (`1–2–3–4–5–6–7–8–9`, a countdown): a count or a
 * range, not a number spelled out digit by digit (`my number's 4 1 5 5 5 5 2 6 7 1`, whatever word is before it).
 */
function counts(singles: readonly SkeletonGroup[]): boolean {
  if (singles.length < 4) return false;
  const step = Number(singles[1]!.digits) - Number(singles[0]!.digits);
  return Math.abs(step) === 1 && singles.every((group, index) => index === 0 || Number(group.digits) - Number(singles[index - 1]!.digits) === step);
}

/**
 * Whether groups `[a, b]` are written as one number: a bare decimal or thousands sign between two of them, and a sign
 * used more than once is a thousands sign — one to three digits before its first use and three after each
 * (`1'186.65`, `1.234.567,89`; not `4111.1111.1111.1111` or `087.123.4567`).
 */
function writtenAsNumber(run: readonly SkeletonGroup[], a: number, b: number): boolean {
  const gaps = run.slice(a, b);
  if (!gaps.some((group) => group.bare === true && NUMBER_GLUE.test(group.sign!))) return false;
  for (const sign of new Set(gaps.filter((group) => group.bare === true && NUMBER_GLUE.test(group.sign!)).map((group) => group.sign!))) {
    const at = gaps.flatMap((group, index) => (group.bare === true && group.sign === sign ? [a + index] : []));
    if (at.length < 2) continue;
    if (run[at[0]!]!.digits.length > 3 || at.some((index) => run[index + 1]!.digits.length !== 3)) return false;
  }
  return true;
}

/** What the phone recogniser does not read between a number's groups itself (all but blanks, dashes, slashes, dots, brackets, tildes). */
const NOT_PHONE_PUNCTUATION = /[^ \t()\-‐‑‒–—―−ー－/／.．~⁓∼～]/gu;

const PHONE_SIGN = /^[()\-‐‑‒–—―−ー－/／.．~⁓∼～]$/u;

/** A bare decimal or thousands sign: a group glued by one on both sides is part of a larger number. */
const NUMBER_GLUE = /^[.,'’]$/;

/**
 * Whether groups `[a, b]` are numbers with decimals: parted by more than one kind of gap, one of them a bare `.` or
 * `,` (`8102.27 1970.23`, `1'186.65 884`) — for a phone number, one before two digits (cents: `087.123 4567` is a
 * phone number).
 */
function withDecimals(run: readonly SkeletonGroup[], a: number, b: number, kind: string): boolean {
  const gaps = run.slice(a, b);
  if (new Set(gaps.map((group) => `${group.sign}${group.bare === true ? '' : ' '}`)).size < 2) return false;
  return gaps.some(
    (group, index) =>
      // A decimal sign (for a phone number, before two digits: cents).
      (group.bare === true && /^[.,]$/.test(group.sign!) && (kind === 'card' || run[a + index + 1]!.digits.length === 2)) ||
      // A list's comma or semicolon with a blank after it, among other gaps: items of a list (`368-7316, 106-4041`,
      // `380–396, 180–199`), never one value's groups.
      (group.bare !== true && LIST_SIGN.test(group.sign!)) ||
      // A time: a bare colon before two digits (`04:17-22:00, 14:56`).
      (group.bare === true && group.sign === ':' && run[a + index + 1]!.digits.length === 2),
  );
}

/** The signs a list of items is written with (`1–3, 7–9`; `12; 34`). */
const LIST_SIGN = /^[,;，；]$/u;

/** Whether a find shares digits with another card, phone number or IBAN of `matches` without either holding the other whole. */
function cuts(find: RawMatch, matches: readonly RawMatch[]): boolean {
  return matches.some(
    (value) =>
      value !== find &&
      (value.kind === 'card' || value.kind === 'phone' || value.kind === 'iban') &&
      value.start < find.end &&
      find.start < value.end &&
      (value.start < find.start || value.end > find.end) &&
      (find.start < value.start || find.end > value.end),
  );
}

/** The digits of `match` in `text` that none of `others` covers. */
function uncoveredDigits(text: string, match: RawMatch, others: readonly RawMatch[]): number {
  let count = 0;
  for (let at = match.start; at < match.end; at++) {
    if (/\d/.test(text.charAt(at)) && !others.some((other) => other !== match && other.start <= at && at < other.end)) count++;
  }
  return count;
}

/**
 * Of the cards and phone numbers that cut another find (`cutting`), those read across two values that the other finds
 * kept cover digit by digit (the tail of an IBAN and the head of the card after it; `404 2606-086 666` of two phone
 * numbers): never one with a digit no other find holds, which would go out (a card after a phone number that a DE or
 * FR reading runs into its first groups keeps its placeholder, and the phone number its own). Those that cut fewer
 * finds, then those with more digits of their own, are kept first.
 */
function coveredCuts(text: string, cutting: readonly RawMatch[], kept: readonly RawMatch[]): RawMatch[] {
  const covering = [...kept];
  const dropped: RawMatch[] = [];
  const all = [...kept, ...cutting];
  const cutCount = new Map(cutting.map((find) => [find, all.filter((other) => cuts(find, [other])).length]));
  const order = [...cutting].sort(
    (x, y) => cutCount.get(x)! - cutCount.get(y)! || uncoveredDigits(text, y, kept) - uncoveredDigits(text, x, kept) || x.start - y.start,
  );
  for (const card of order) {
    if (uncoveredDigits(text, card, covering) === 0) dropped.push(card);
    else covering.push(card);
  }
  return dropped;
}

/**
 * The finds of `matches` that are ordinary numbers in `text` (see the module's comment): cards in a longer list of
 * groups of one size and sign, phone numbers in single digits, and cards or phone numbers glued to a larger number.
 * Only finds that start and end at group boundaries of one run are judged; any other is kept.
 */
export function ordinaryFinds(text: string, matches: readonly RawMatch[]): Set<RawMatch> {
  const ordinary = new Set<RawMatch>();
  const judged = matches.filter((match) => match.kind === 'card' || match.kind === 'phone');
  if (judged.length === 0) return ordinary;
  const inRun = new Set<RawMatch>();
  for (const run of skeletonRuns(text)) {
    const startAt = new Map(run.map((group, index) => [group.start, index]));
    const endAt = new Map(run.map((group, index) => [group.end, index]));
    // Phone numbers first: a card gives way only to a phone number that is not ordinary itself.
    for (const match of [...judged].sort((x, y) => (x.kind === y.kind ? 0 : x.kind === 'phone' ? -1 : 1))) {
      const a = startAt.get(match.start) ?? (/[+＋]/.test(text.charAt(match.start)) ? startAt.get(match.start + 1) : undefined);
      const b = endAt.get(match.end);
      if (a === undefined || b === undefined || b < a) continue;
      inRun.add(match);
      const signs = new Set(run.slice(a, b).map((group) => group.sign));
      // Glued on both sides by a bare decimal or thousands sign it does not use itself to a group: the middle of a
      // larger number, or of two (`1'186.65 884'593.36`); or after a bare thousands apostrophe (`1'082.50`: the rest
      // of a number). After it alone, such a sign may end a sentence or a list.
      const glue = (group: SkeletonGroup | undefined): boolean =>
        group !== undefined && group.bare === true && NUMBER_GLUE.test(group.sign!) && !signs.has(group.sign);
      const thousands = glue(run[a - 1]) && /^['’]$/.test(run[a - 1]!.sign!);
      // Only a find that is itself written as a number (a bare decimal or thousands sign between two of its groups) is
      // a piece of a larger one: a whole card or phone number between two numbers glued by commas is a field of a row.
      const numberInside = writtenAsNumber(run, a, b);
      if ((numberInside && (thousands || (glue(run[a - 1]) && b < run.length - 1 && glue(run[b])))) || withDecimals(run, a, b, match.kind)) ordinary.add(match);
      else if (match.kind === 'phone' && counts(run.slice(a, b + 1).filter((group) => group.digits.length === 1)) && !prefixed(text, match))
        ordinary.add(match);
      else if (match.kind === 'card' && b > a && inList(run, a, b, match, matches) && !cardContextBefore(text, run[0]!.start)) ordinary.add(match);
    }
  }
  // Then the finds read across two values (each cuts one: shares digits with it, neither holding the other whole):
  // left out only where the other finds kept cover every digit of them.
  const kept = matches.filter((match) => !ordinary.has(match));
  const cutting = [...inRun].filter((match) => !ordinary.has(match) && cuts(match, kept));
  if (cutting.length > 0) {
    for (const find of coveredCuts(
      text,
      cutting,
      kept.filter((match) => !cutting.includes(match)),
    ))
      ordinary.add(find);
  }
  return ordinary;
}

/**
 * Whether a card on groups `[a, b]` stands in a longer list: groups next to it of the size of its edge group and parted
 * by the sign its groups are parted by there, that no other find (not overlapping it) covers — two or more before it,
 * three or more after it (two or more for groups of one or two digits), or three or more in all: a card comes first,
 * and two groups after it may be its expiry and code (`4111 1111 1111 1111 0925 1234`).
 */
function inList(run: readonly SkeletonGroup[], a: number, b: number, card: RawMatch, matches: readonly RawMatch[]): boolean {
  const covered = (group: SkeletonGroup): boolean =>
    matches.some((other) => other !== card && (other.end <= card.start || other.start >= card.end) && other.start <= group.start && group.end <= other.end);
  let before = 0;
  for (let at = a - 1; at >= 0; at--) {
    const group = run[at]!;
    if (group.digits.length !== run[a]!.digits.length || group.sign !== run[a]!.sign || covered(group)) break;
    before++;
  }
  let after = 0;
  for (let at = b + 1; at < run.length; at++) {
    const group = run[at]!;
    if (group.digits.length !== run[b]!.digits.length || run[at - 1]!.sign !== run[b - 1]!.sign || covered(group)) break;
    after++;
  }
  if (!(before >= 2 || after >= (run[b]!.digits.length <= 2 ? 2 : 3) || before + after >= 3)) return false;
  // A list of figures written with a comma or semicolon between them is how figures are listed, never how a card is
  // printed. A list of groups of four — as cards are printed — parted otherwise (blanks, a dash, a dot) is ordinary
  // only when it counts (each group the one before it plus the same step: invoice numbers); a card among other groups
  // there is replaced (`4111 1111 1111 1111 1111 2222 3333`), at the cost of a placeholder over some lists of random
  // four-digit figures.
  if (run[a]!.digits.length !== 4) return true;
  const values = run.slice(a - before, b + after + 1).map((group) => Number(group.digits));
  const step = values[1]! - values[0]!;
  return step !== 0 && values.every((value, index) => index === 0 || value - values[index - 1]! === step);
}
