import cardValidator from 'card-validator';
import { cardContextBefore } from '../context.js';
import { ANY_SEPARATOR, rawMatch, WRAP } from '../text.js';
import { recogniseIbans } from './iban.js';
import type { RawMatch, RecogniserOptions } from '../types.js';

// ASCII digits only (full-width digits are not matched). Either 12–19 digits in one run, or a first group of four
// followed by groups of 2–6, parted by dashes throughout (one each) or by blanks throughout (one to three spaces, tabs,
// no-break, figure, narrow no-break or thin spaces, as text pasted from a web page, a PDF or a table has, in any mix):
// 4-4-4-4, 4-6-5, 4-4-4-4-3, …
// A candidate starts at a digit with no letter, digit, mark or plus sign before it (`+4915123456274` is a phone
// number); an underscore parts it from what stands before or after like any other sign (issue 27 review).
// After a digit and a decimal point or comma (`v1.4111 1111 1111 1111`, `x 1.4111111111111111`,
// `ref 7,4111111111111111`) a card is read only in the printed form a card inside a run of numbers needs (`PRINTED`):
// a decimal part of 15–16 digits that is a valid card number is taken for one, any other length stays a decimal part
// (`0.4111111111111`). After a digit and a blank, a run of 12–19 digits of its own is a token as after a word, read at
// any card length (`+44 20 7946 0958 4222222222222`, issue 27 variations); in groups it is read in the printed form
// only (`1234 5678 9012 3456` holds no 12-digit Maestro). It ends before anything but a letter, digit or mark, or a decimal point and a
// digit. A comma between digits is a decimal comma after a run of digits (`4111111111111111,5`), but a list
// separator after a card written in groups (`4111 1111 1111 1111,5555 …`).
const START_RE = /(?<![\p{L}\p{N}\p{M}+＋])\d/gu;
const DIGITS_RE = /\d+/y;
/** A blank between groups: a space, a tab, a no-break, figure, narrow no-break or thin space. */
const BLANK_CHARS = ' \\t\\u00A0\\u2007\\u202F\\u2009';
/** Most blanks between two groups (a card copied from a PDF: `4111  1111  1111  1111`). */
const MAX_BLANKS = 3;
/** What joins a card to a number before it: a group separator, or a decimal point or comma. */
const RUN_SEPARATOR = new RegExp(`[${BLANK_CHARS}.,-]`);
/** More groups after a card: a separator (a dash, or one to three blanks) and a digit. */
const SEPARATOR_DIGIT = new RegExp(`^(?:-|[${BLANK_CHARS}]{1,${MAX_BLANKS}})\\d`);
/** A blank between two numbers (not a decimal point or comma, not a dash): the number after it is a token of its own. */
const BLANK = new RegExp(`[${BLANK_CHARS}]`);
const BLANK_RUN = new RegExp(`[${BLANK_CHARS}]+`, 'g');
const ONE_RUN = /^\d+$/;
const END_BLOCKED = /[\p{L}\p{N}\p{M}]/u;
const NUMBER = /\p{N}/u;
/**
 * How a card standing inside a run of other numbers is written (`… 3456 78 4111 1111 1111 1111`): 16 digits as
 * 4-4-4-4, 15 as 4-6-5, or 15–16 digits in one run — the way cards are printed. A shorter number read out of the middle
 * of a longer one (a 12-digit Maestro inside `1234 5678 9012 3456`) is not taken.
 */
const PRINTED = /^(?:\d{15,16}|\d{4}([ \u00A0\u202F\u2009-])\d{4}\1\d{4}\1\d{4}|\d{4}([ \u00A0\u202F\u2009-])\d{6}\2\d{5})$/;
/** Most groups a written card number has (4-4-4-4-3). */
const MAX_GROUPS = 5;

/** The Luhn (mod 10) checksum over a string of ASCII digits. */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      // Stryker disable next-line EqualityOperator: equivalent — a doubled digit is even, never 9.
      if (digit > 9) digit -= 9;
    }
    // Stryker disable next-line AssignmentOperator: equivalent — a sum and its negation are both multiples of 10 or neither.
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

// card-validator does not know UATP (Universal Air Travel Plan): prefix 1, 15 digits, Luhn.
function isUatp(digits: string): boolean {
  return digits.length === 15 && digits.startsWith('1');
}

// Lengths that issuers used and card-validator no longer lists: 13-digit Visa (prefix 4, issued until the 2000s).
function isLegacyLength(digits: string): boolean {
  return digits.length === 13 && digits.startsWith('4');
}

/**
 * Issuer prefix and length known (card-validator / credit-card-type, UATP, or a legacy length) and the Luhn checksum
 * passes (our own Luhn runs first, so UnionPay, which card-validator exempts by default, is checked too). The issuer
 * rules also keep out 13-digit Unix-millisecond timestamps: the 13-digit types start at 4 (Visa; a timestamp from
 * the year 2096 on) and 4936… (Maestro).
 */
export function isValidCardNumber(digits: string): boolean {
  return luhn(digits) && (isUatp(digits) || isLegacyLength(digits) || cardValidator.number(digits).isValid);
}

/** Whether a candidate may end at `end`: not running into a letter, digit or mark, nor a decimal part. */
function endsCleanly(text: string, end: number, grouped: boolean): boolean {
  const next = text.charAt(end);
  if (next === '') return true;
  if (END_BLOCKED.test(next)) return false;
  return !((next === '.' || (next === ',' && !grouped)) && isDigit(text.charAt(end + 1)));
}

function isDigit(char: string): boolean {
  return NUMBER.test(char);
}

/** The run of digits at `at` (empty when none). */
function digitsAt(text: string, at: number): string {
  DIGITS_RE.lastIndex = at;
  return DIGITS_RE.exec(text)?.[0] ?? '';
}

/**
 * The separator at `at` between two groups: a dash (one), or a run of one to three blanks (`4111  1111`, tabs, no-break
 * spaces: a card copied from a PDF or a table). Undefined when there is none, or a longer run.
 */
function separatorAt(text: string, at: number): { length: number; dash: boolean } | undefined {
  if (text.charAt(at) === '-') return { length: 1, dash: true };
  let length = 0;
  while (BLANK.test(text.charAt(at + length))) length++;
  return length >= 1 && length <= MAX_BLANKS ? { length, dash: false } : undefined;
}

/**
 * The ends of the card-shaped candidates starting at `start`, longest first: the digit run itself when it has 12–19
 * digits, or a group of four and then one to four groups of 2–6 digits, parted by dashes throughout or by blanks
 * throughout.
 */
function candidateEnds(text: string, start: number): number[] {
  const first = digitsAt(text, start);
  if (first.length >= 12 && first.length <= 19) return endsCleanly(text, start + first.length, false) ? [start + first.length] : [];
  if (first.length !== 4) return [];
  const kind = separatorAt(text, start + 4);
  if (kind === undefined) return [];
  const ends: number[] = [];
  let at = start + 4;
  for (let groups = 1; groups < MAX_GROUPS; groups++) {
    const separator = separatorAt(text, at);
    if (separator === undefined || separator.dash !== kind.dash) break;
    const group = digitsAt(text, at + separator.length);
    if (group.length < 2 || group.length > 6) break;
    at += separator.length + group.length;
    if (endsCleanly(text, at, true)) ends.push(at);
  }
  return ends.reverse();
}

/**
 * Card numbers: `validated` when the issuer and length are known and Luhn passes; `labelled` when only Luhn passes
 * (an issuer we do not know, 12–19 digits), a card word stands right before it (`Card number:`, `Visa`, …) and no
 * more digit groups follow.
 *
 * A card may stand right after or before other numbers written with the same separator (an IBAN's last digits, a
 * phone number, a year, a quantity: `DE89 3704 0044 0532 0130 00 4111 1111 1111 1111`), so every digit that may start
 * one is tried, not only the start of a run of groups: from the left, the longest valid candidate at each start is
 * taken and the search goes on after it. Digits inside a valid IBAN are the IBAN's: no card starts there.
 */
export function recogniseCards(text: string, _opts: RecogniserOptions = {}): RawMatch[] {
  const matches: RawMatch[] = [];
  let ibans: RawMatch[] | undefined;
  START_RE.lastIndex = 0;
  for (let start = START_RE.exec(text); start !== null; start = START_RE.exec(text)) {
    const ends = candidateEnds(text, start.index);
    if (ends.length === 0) continue;
    ibans ??= recogniseIbans(text);
    if (ibans.some((iban) => iban.start <= start.index && start.index < iban.end)) continue;
    // Right after another group of digits and one separator, or a decimal point or comma: inside a longer run of
    // numbers, or a number's decimal part.
    const before = text.charAt(start.index - 1);
    const inRun = RUN_SEPARATOR.test(before) && isDigit(text.charAt(start.index - 2));
    for (const end of ends) {
      const written = text.slice(start.index, end);
      // A run of digits of its own after a blank is a token as after a word (`+44 20 7946 0958 4222222222222`).
      if (inRun && !PRINTED.test(written.replace(BLANK_RUN, ' ')) && !(BLANK.test(before) && ONE_RUN.test(written))) continue;
      const digits = written.replace(/\D/g, '');
      const valid = isValidCardNumber(digits);
      // A card of no known issuer needs its card word, and must not be followed by more groups of its run.
      const labelled =
        !valid &&
        digits.length >= 12 &&
        digits.length <= 19 &&
        luhn(digits) &&
        end === ends[0] &&
        !SEPARATOR_DIGIT.test(text.slice(end, end + MAX_BLANKS + 1)) &&
        cardContextBefore(text, start.index);
      if (!valid && !labelled) continue;
      const card = rawMatch('card', text, start.index, end, digits);
      if (!valid) card.check = 'labelled';
      matches.push(card);
      START_RE.lastIndex = end;
      break;
    }
  }
  return matches;
}

const RUN_START_RE = /(?<!\d)\d/g;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const BLANK_OR_UNDERSCORE = /[\s_]/;

/**
 * Whether the digits at `at` are a number's decimal part: after a digit and a decimal point or comma, the number's
 * whole part joined to nothing before it by a sign (`9.575…`, `v1.4…`; not `10.0.0.1555…` or `2024-03-15.…`).
 */
function isDecimalPart(text: string, at: number): boolean {
  if (!/[.,]/.test(text.charAt(at - 1)) || !isDigit(text.charAt(at - 2))) return false;
  let whole = at - 2;
  while (isDigit(text.charAt(whole - 1))) whole--;
  return !/[.,:/-]/.test(text.charAt(whole - 1));
}

/**
 * Whether the run of digits `[start, end)` stands alone: before it the start, a blank or `_`, or a sign after a blank
 * (`(`, `#`); after it the end, a blank or `_` and no digit, or a sign and no letter or digit (`.`, `)`). A blank
 * next to a redaction placeholder (`⟦ip 1⟧/8555…` as the second reading reads it, its glue a blank) glues.
 */
function standsAlone(text: string, start: number, end: number): boolean {
  const before = text.charAt(start - 1);
  const ahead = text.charAt(start - 2);
  const after = text.charAt(end);
  const next = text.charAt(end + 1);
  const aloneBefore = before === '' || (BLANK_OR_UNDERSCORE.test(before) ? ahead !== '⟧' : !LETTER_OR_DIGIT.test(before) && (ahead === '' || /\s/.test(ahead)));
  const aloneAfter =
    after === '' || (BLANK_OR_UNDERSCORE.test(after) ? !isDigit(next) && next !== '⟦' : !LETTER_OR_DIGIT.test(after) && !LETTER_OR_DIGIT.test(next));
  return aloneBefore && aloneAfter;
}
/**
 * The groups the second reading reads: the recogniser's separators, and also a dot, slash or underscore used throughout
 * (`4111.1111.1111.1111`, `4111/1111/1111/1111`): forms the recogniser does not take for a card, which must not leave
 * for a model either (issue 27 review).
 */
const GUARD_SEPARATOR = /[ \u00A0\u202F\u2009._/-]/;
const GUARD_PRINTED = /^(?:\d{4}([ \u00A0\u202F\u2009._/-])\d{4}\1\d{4}\1\d{4}|\d{4}([ \u00A0\u202F\u2009._/-])\d{6}\2\d{5})$/;

/**
 * The second reading of redacted text (issue 27): card numbers wherever they stand, whatever is glued to them —
 * letters, a decimal point, a `+`, the digits of another value (`alice@example.com4111111111111111`, an IBAN's digits
 * run into a card's, `1.4111111111111`). At the start of every run of digits: the run itself when it has 12–19 digits,
 * its first and last 15 and 16 digits when longer, and a card written in groups in its printed form from the run's
 * last four digits (`2024-03-153714-496353-98431`). Not a
 * recogniser (an order number of 20 digits may hold a valid card by chance): redaction stops a request on what it
 * finds, and says so.
 */
export function cardsAnywhere(text: string): RawMatch[] {
  const matches: RawMatch[] = [];
  RUN_START_RE.lastIndex = 0;
  for (let start = RUN_START_RE.exec(text); start !== null; start = RUN_START_RE.exec(text)) {
    const at = start.index;
    const run = digitsAt(text, at);
    // Stryker disable next-line ArrayDeclaration: equivalent — a non-span slices to '', which no card is.
    const spans: Array<[number, number]> = [];
    // A decimal part (after a digit and a decimal point or comma) is a number's, read whole only at 15 or 16 digits
    // (as the recogniser reads it, `PRINTED`); a run standing alone (`standsAlone`: between blanks, `_` or a sign
    // and a blank) is one number, not the stretches inside it (a 24-digit counter is no card): only a run glued to
    // something else (letters, or another value's digits: an IBAN's digits run into a card's, a date, an address) is
    // read in its first and last 15 and 16 digits too (issue 27 review).
    const decimalPart = isDecimalPart(text, at);
    const stretches = !decimalPart && !standsAlone(text, at, at + run.length);
    // Stryker disable next-line ConditionalExpression: equivalent — fewer than 12 digits are no valid card (the shortest issuer length).
    if (run.length >= 12 && (!decimalPart || run.length === 15 || run.length === 16)) spans.push([at, at + run.length]);
    for (const length of [15, 16]) {
      if (run.length > length && stretches) spans.push([at, at + length], [at + run.length - length, at + run.length]);
    }
    // In groups: from the run's last four digits (the whole run, or a group glued to the digits before it).
    const group = at + run.length - 4;
    // Stryker disable next-line ConditionalExpression,LogicalOperator,MethodExpression: equivalent — a shortcut: GUARD_PRINTED itself needs four digits and a separator there.
    if (run.length >= 4 && GUARD_SEPARATOR.test(text.charAt(group + 4))) {
      // Only a form that fits in the text: at its end, a slice of 19 would be the 17-character form again, past the end.
      for (const end of [group + 19, group + 17]) if (end <= text.length && GUARD_PRINTED.test(text.slice(group, end))) spans.push([group, end]);
    }
    for (const [from, to] of spans) {
      const digits = text.slice(from, to).replace(/\D/g, '');
      // Stryker disable next-line ConditionalExpression: equivalent — a shortcut: no issuer has more than 19 digits.
      if (digits.length <= 19 && isValidCardNumber(digits)) matches.push(rawMatch('card', text, from, to, digits));
    }
  }
  return matches;
}

/** Where a group of four digits ends at a separator: a printed card may start there. */
const GROUP_START_RE = /(?=\d{4}[^\p{L}\p{N}])/gu;
const DIGIT_AT = /^\d$/;
const SIX = 6;
/** Groups of `sizes` digits, the first separator captured and every later one the same, each maybe followed by a wrap. */
function printedForm(sizes: readonly string[], tail: string): RegExp {
  const [first, ...rest] = sizes;
  return new RegExp(`\\d{${first!}}(${ANY_SEPARATOR})${WRAP}${rest.map((size) => `\\d{${size}}`).join(`\\1${WRAP}`)}${tail}`, 'uy');
}
/**
 * After a short last group (of a 19-digit or 14-digit card): no digit — it is a whole group, not the head of a longer
 * one (`… 4738 0330 5389`: an expiry and a code after a card) — or an expiry glued to it (`3056 930902 590412/27`,
 * `…||11910130`, `… 30710 28`), also of a month and a year of this century (`590412/2027`, `5904122027`: review
 * rev27p; a month of 01–12 and `20` tell an expiry from figures glued to the group).
 */
const SHORT_LAST = '(?=\\d{1,2}[^\\p{L}\\p{N}]{1,3}\\d{2}(?!\\d)|\\d{4}(?!\\d)|(?:0[1-9]|1[0-2])(?:[^\\p{L}\\p{N}]{1,3})?20\\d{2}(?!\\d)|(?!\\d))';
/**
 * The printed forms of a card (4-4-4-4 and 4-4-4-4 with a fifth group of one to three, 4-6-5, 4-6-4), with one and the
 * same separator of any kind between every two groups, longest first.
 */
const PRINTED_ANY = [
  printedForm(['4', '4', '4', '4', '1,3'], SHORT_LAST),
  printedForm(['4', '4', '4', '4'], ''),
  printedForm(['4', '6', '5'], ''),
  printedForm(['4', '6', '4'], SHORT_LAST),
];
/** The forms with a group of six inside, which a list of six-digit numbers in one separator holds (`itemOfList`). */
const SIX_INSIDE = new Map([
  [PRINTED_ANY[2], 5],
  [PRINTED_ANY[3], 4],
]);

/**
 * Whether a 4-6-5 or 4-6-4 find `[start, end)` is read across the items of a list of six-digit numbers: its first group
 * the tail of a six-digit run and its last group the head of one (`Orders 981898, 805922, 224575, 716213`: order numbers,
 * read as `1898, 805922, 22457`). A card glued to digits on one side only is no such find (`card 3714:496353:9843112:27`:
 * an expiry glued to its last group, review rev27m), nor one whose glued runs are of other sizes
 * (`#853784#767982#96097491#03/25`), nor a 4-4-4-4 card, whose groups inside are of four.
 */
function itemOfList(text: string, start: number, end: number, last: number): boolean {
  let before = start;
  while (DIGIT_AT.test(text.charAt(before - 1))) before--;
  let after = end;
  while (DIGIT_AT.test(text.charAt(after))) after++;
  return start + 4 - before === SIX && after - (end - last) === SIX;
}

/**
 * The fourth reading of redaction (issue 27, reviews rev27j, rev27k and rev27m): card numbers printed in groups with
 * one and the same separator of one to four characters that are no letter or digit between every two groups, whatever
 * they are (`4111||1111||1111||1111`, `4111· 1111· …`, `4111, 1111, …`, `"4111", "1111", …`, brackets, signs NFKC
 * makes two of), maybe wrapped after a separator, and whatever is glued before the first group or after the last
 * (`2024-03-154111:1111:…`, `…,111112-27`: the card's digits are read from the first group's last four and up to its
 * own length) — but not across the items of a list (`itemOfList`). Not a recogniser: a list of four-digit numbers in
 * one separator holds a valid card number by chance (about one window of four in 22, measured over random groups of
 * 1000–9999), and redaction stops a request on it.
 */
export function cardsInGroups(text: string): RawMatch[] {
  const matches: RawMatch[] = [];
  for (const start of text.matchAll(GROUP_START_RE)) {
    for (const form of PRINTED_ANY) {
      form.lastIndex = start.index;
      const printed = form.exec(text);
      if (printed === null) continue;
      const end = start.index + printed[0].length;
      const last = SIX_INSIDE.get(form);
      if (last !== undefined && itemOfList(text, start.index, end, last)) continue;
      const digits = printed[0].replace(/\D/g, '');
      if (isValidCardNumber(digits)) {
        matches.push(rawMatch('card', text, start.index, end, digits));
        break;
      }
    }
  }
  return matches;
}
