import { findPhoneNumbersInText, type PhoneNumber } from 'libphonenumber-js/max';
import { asRegion } from '../region.js';
import { rawMatch } from '../text.js';
import type { RawMatch, RecogniserOptions } from '../types.js';

/**
 * E.164, plus `;ext=N` (RFC 3966) when the number has an extension: two extensions of one switchboard are two
 * different ways to reach someone, so they must not merge into one fact.
 */
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

/**
 * Phone numbers by libphonenumber-js text search with the full (`max`) metadata, keeping only valid numbers. With
 * no usable default region only numbers written in international form (`+…`) are found.
 */
export function recognisePhones(text: string, opts: RecogniserOptions = {}): RawMatch[] {
  const defaultCountry = asRegion(opts.region);
  const found = findPhoneNumbersInText(text, defaultCountry === undefined ? {} : { defaultCountry });
  return found
    .filter((hit) => hit.number.isValid())
    .map((hit) => {
      const start = trimUnbalancedOpener(text, hit.startsAt, hit.endsAt);
      return rawMatch('phone', text, start, hit.endsAt, normalizePhone(hit.number));
    });
}
