import cardValidator from 'card-validator';
import { cardContextBefore } from '../context.js';
import { rawMatch } from '../text.js';
import type { RawMatch, RecogniserOptions } from '../types.js';

// ASCII digits only (full-width digits are not matched). Either 12–19 digits in one run, or a first group of four
// followed by groups of 2–6 with one separator (a space, a no-break, narrow no-break or thin space as text pasted from a
// web page or a PDF has, or a dash) used throughout: 4-4-4-4, 4-6-5, 4-4-4-4-3, …
// Not touching letters or digits on either side, nor after a plus sign (`+4915123456274` is a phone number), nor a decimal point or comma between digits (`0.4111…`), nor the
// same separator and another digit group (a longer grouped number is not a card followed by noise).
const CARD_RE =
  /(?<![\p{L}\p{N}\p{M}_+＋]|\p{N}[.,])(?:\d{4}([ \u00A0\u202F\u2009-])\d{2,6}(?:\1\d{2,6}){1,4}|\d{12,19})(?![\p{L}\p{N}\p{M}_]|[.,]\p{N}|\1\d)/gu;

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

/**
 * Card numbers: `validated` when the issuer and length are known and Luhn passes; `labelled` when only Luhn passes
 * (an issuer we do not know, 12–19 digits) and a card word stands right before it (`Card number:`, `Visa`, …).
 */
export function recogniseCards(text: string, _opts: RecogniserOptions = {}): RawMatch[] {
  const matches: RawMatch[] = [];
  for (const match of text.matchAll(CARD_RE)) {
    const digits = match[0].replace(/[ \u00A0\u202F\u2009-]/g, '');
    const valid = isValidCardNumber(digits);
    if (!valid && !(luhn(digits) && cardContextBefore(text, match.index))) continue;
    const card = rawMatch('card', text, match.index, match.index + match[0].length, digits);
    if (!valid) card.check = 'labelled';
    matches.push(card);
  }
  return matches;
}
