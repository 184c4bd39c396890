import { describe, expect, it } from 'vitest';
import { VALIDATED_KINDS, extractFacts, verifyPointers, type Fact, type Passage, type ValidatedKind } from '../../../src/core/facts/index.js';
import { DEFAULT_REDACT_KINDS, REDACTABLE_KINDS, Redactor } from '../../../src/core/facts/redact.js';

/** mulberry32: a small seeded PRNG, so a failure is reproducible from the seed in the test name. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

// Valid values of every validated kind (phones valid for region IE), in several written forms.
const PLANTS: Record<ValidatedKind, readonly string[]> = {
  email: ['jane.doe@example.com', 'ops+alerts@mail.example.co.uk', 'X@Example.IE', 'a@xn--d1acufc.xn--p1ai'],
  phone: ['+353 1 234 5678', '01 234 5678', '+1 415 555 0132', '087 123 4567', '+44 20 7123 4567', '+7 (800) 555-35-35'],
  iban: ['IE29 AIBK 9311 5212 3456 78', 'DE89370400440532013000', 'GB82-WEST-1234-5698-7654-32', 'NL91 ABNA 0417 1643 00'],
  card: ['4111 1111 1111 1111', '5555555555554444', '3714-496353-98431', '4012-8888-8888-1881'],
  url: ['https://example.com/a/b?c=1', 'www.example.org', 'http://user@host.example.com:8080/x', 'ftp://files.example.net/pub'],
  ip: ['192.168.0.1', '2001:db8::1', '10.0.0.0/8', 'fe80::1%eth0', '::ffff:10.0.0.1'],
  date: ['2024-03-15', '15 March 2024', '2024-03-15T14:30:00Z', 'March 5, 2021'],
};

// Filler: letters of several scripts, combining marks, astral characters (surrogate pairs), no digits, so no
// filler word can merge with a planted value (nor a lone `x`, which libphonenumber reads as an extension mark).
const WORDS = [
  'the',
  'Office',
  'naïve',
  'Straße',
  'café',
  'e\u0301',
  '日本語',
  'привет',
  'مرحبا',
  '😀',
  '👍🏽',
  '𝒳',
  'note',
  'and',
  'Phone:',
  'IBAN:',
  'see',
  'ok',
  '—',
  '·',
  '«quoted»',
  'Zürich',
];
const BEFORE = [' ', '\n', '\r\n', '\t', ' (', ' "', ' <', ': ', ' — '];
const AFTER: Record<string, string> = { ' (': ')', ' "': '"', ' <': '>' };
const TRAILERS = [' ', '\n', ', ', '. ', '; ', '! ', '? ', '\r\n'];

interface Planted {
  kind: ValidatedKind;
  source: string;
  start: number;
  text: string;
}

function plantPassage(random: () => number, source: string): { passage: Passage; planted: Planted[] } {
  let text = pick(random, WORDS);
  const planted: Planted[] = [];
  const pieces = 3 + Math.floor(random() * 8);
  for (let i = 0; i < pieces; i++) {
    if (random() < 0.5) {
      text += ` ${pick(random, WORDS)}`;
      continue;
    }
    const kind = pick(random, VALIDATED_KINDS);
    const value = pick(random, PLANTS[kind]);
    const before = pick(random, BEFORE);
    text += before;
    planted.push({ kind, source, start: text.length, text: value });
    text += value + (AFTER[before] ?? '') + pick(random, TRAILERS) + pick(random, WORDS);
  }
  return { passage: { source, text }, planted };
}

function occurrencesOf(facts: readonly Fact[]): Array<Fact['occurrences'][number] & { kind: string }> {
  return facts.flatMap((fact) => fact.occurrences.map((occurrence) => ({ ...occurrence, kind: fact.kind })));
}

describe('property: every occurrence is an exact slice of its source, and planted facts are found', () => {
  for (const seed of [1, 2, 3, 42, 1234, 99991, 20240315, 314159]) {
    it(`seed ${seed}`, () => {
      const random = prng(seed);
      for (let round = 0; round < 25; round++) {
        const generated = Array.from({ length: 1 + Math.floor(random() * 5) }, (_, i) => plantPassage(random, `s${i}`));
        const passages = generated.map((entry) => entry.passage);
        const texts = new Map(passages.map((passage) => [passage.source, passage.text]));
        const facts = extractFacts(passages, { kinds: VALIDATED_KINDS, region: 'IE' });
        const occurrences = occurrencesOf(facts);

        for (const occurrence of occurrences) {
          expect(texts.get(occurrence.source)?.slice(occurrence.start, occurrence.end)).toBe(occurrence.text);
        }
        for (const fact of facts) expect(fact.value).toBe(fact.occurrences[0]?.text);
        for (const plant of generated.flatMap((entry) => entry.planted)) {
          const hit = occurrences.find(
            (occurrence) => occurrence.kind === plant.kind && occurrence.source === plant.source && occurrence.start === plant.start,
          );
          expect(hit?.text, `${plant.kind} ${JSON.stringify(plant.text)} in ${JSON.stringify(texts.get(plant.source))}`).toBe(plant.text);
        }
      }
    });
  }

  it('model pointers: any verified span is sliced from the passage it names', () => {
    const random = prng(7);
    for (let round = 0; round < 200; round++) {
      const passages = Array.from({ length: 3 }, (_, i) => plantPassage(random, `p${i}`).passage);
      const index = Math.floor(random() * 3);
      const text = passages[index]!.text;
      const start = Math.floor(random() * text.length);
      const end = Math.min(text.length, start + 8 + Math.floor(random() * 30));
      const pointer = { passage: index, text: text.slice(start, end) };
      const facts = verifyPointers(passages, { pointers: [pointer] }, { allowedPassageCount: 3, model: 'm' });
      for (const occurrence of occurrencesOf(facts)) {
        const source = passages.find((passage) => passage.source === occurrence.source)!;
        expect(source.text.slice(occurrence.start, occurrence.end)).toBe(occurrence.text);
        expect(pointer.text.includes(occurrence.text)).toBe(true);
        expect(occurrence.source).toBe(`p${index}`);
      }
    }
  });
});

// Issue 27: values glued to one another, with no filler between them. The grouped forms the issue names too (an IBAN
// whose last digits run into a card's groups).
const GLUED: Record<ValidatedKind, readonly string[]> = {
  ...PLANTS,
  iban: [...PLANTS.iban, 'DE89 3704 0044 0532 0130 00', 'GB82 WEST 1234 5698 7654 32'],
  card: [...PLANTS.card, '5555 5555 5555 4444', '4111-1111-1111-1111'],
};
const SEPARATORS = [' ', ',', ', ', '\n', '\t', '; ', ' / ', ''];

const isDigit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';

const isAlnum = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}]/u.test(char);

/**
 * Where a separator is sensible: none before a `+` (an international phone number) but not after a URL (which may
 * hold a `+`); a bare comma neither between two digits (that is a decimal comma) nor after a URL (a URL may hold
 * commas). Every other separator, everywhere. And none at all between a letter or digit and a letter or digit, or
 * after a URL: the two values make one token (`glued`).
 */
function sensible(left: Planted, separator: string, right: Planted, leftInToken = false): boolean {
  // A token that began with a URL runs on to the next blank.
  if (leftInToken && !/\s/.test(separator)) return false;
  if (separator === '') return (right.text.startsWith('+') && left.kind !== 'url') || glued(left, separator, right);
  if (separator === ',') return left.kind !== 'url' && !(isDigit(left.text.at(-1)) && isDigit(right.text[0]));
  return true;
}

/**
 * Two values glued into one token (docs/extract.md §Glued values): no separator, and a letter or digit on both sides
 * of the seam, or a URL that runs on into what follows it. No fact is read out of a token; redaction's second reading
 * stops a request that holds a card number or an IBAN anywhere in one.
 */
function glued(left: Planted, separator: string, right: Planted): boolean {
  return separator === '' && (left.kind === 'url' || (isAlnum(left.text.at(-1)) && isAlnum(right.text[0])));
}
const GUARDED = new Set<string>(['card', 'iban']);
/**
 * Kinds the third reading reads apart from a neighbour glued at a seam of a letter and a digit (issue 27 variations):
 * an email, and a phone number in international form or glued to an email or a URL.
 */
const APART = new Set<string>(['email', 'phone']);

const isLetter = (char: string | undefined) => char !== undefined && /\p{L}/u.test(char);
/** A seam of a letter and a digit (`alice@example.com0871234567`, `+353 1 234 5678alice@example.com`). */
const letterDigitSeam = (left: Planted, right: Planted) =>
  (isLetter(left.text.at(-1)) && isDigit(right.text[0])) || (isDigit(left.text.at(-1)) && isLetter(right.text[0]));

/**
 * The phone recogniser's open gap (src/core/facts/recognisers/phone.ts, being reworked for issue 28): a phone number
 * next to another number across a blank, comma or semicolon is read as one number or as an extension, so the phone
 * number is not found (the other value is). These phone numbers are counted, not asserted; with redaction on, the
 * second reading stops the request when a placeholder next to one makes it readable (`leftBehind`).
 */
function phoneGap(left: Planted, separator: string, right: Planted): boolean {
  if (!/^[ ,;/]*$/.test(separator.replace(/ \/ /, ' '))) return false;
  // A number in international form is read up to the blank before the next number (issue 27 variations).
  return (
    (left.kind === 'phone' && !left.text.startsWith('+') && isDigit(right.text[0])) ||
    (right.kind === 'phone' && isDigit(left.text.at(-1)) && isDigit(right.text[0]))
  );
}

describe('property: values of every kind glued together with every separator are each found exactly once (issue 27)', () => {
  for (const seed of [5, 27, 271, 2027, 424242, 8675309]) {
    it(`seed ${seed}`, () => {
      const random = prng(seed);
      let asserted = 0;
      let gaps = 0;
      let tokens = 0;
      let stopped = 0;
      for (let round = 0; round < 150; round++) {
        const values: Planted[] = [];
        let text = '';
        const count = 2 + Math.floor(random() * 4);
        const exempt = new Set<Planted>();
        const inToken = new Set<Planted>();
        // Values glued to a neighbour at another seam (letters to letters, digits to digits): the token holds them
        // whole, and only cards and IBANs are looked for anywhere in one.
        const fused = new Set<Planted>();
        while (values.length < count) {
          const kind = pick(random, VALIDATED_KINDS);
          const next: Planted = { kind, source: 's', start: 0, text: pick(random, GLUED[kind]) };
          const previous = values.at(-1);
          if (previous !== undefined) {
            const separator = pick(
              random,
              SEPARATORS.filter((candidate) => sensible(previous, candidate, next, inToken.has(previous))),
            );
            if (phoneGap(previous, separator, next)) for (const value of [previous, next]) if (value.kind === 'phone') exempt.add(value);
            if (glued(previous, separator, next)) {
              for (const value of [previous, next]) inToken.add(value);
              for (const [value, other] of [
                [previous, next],
                [next, previous],
              ] as const) {
                // A national phone number glued to letters is an identifier (issue 28), unless the letters are an
                // email's or a URL's.
                const phoneApart = value.kind !== 'phone' || value.text.startsWith('+') || other.kind === 'email' || other.kind === 'url';
                if (!letterDigitSeam(previous, next) || !phoneApart) fused.add(value);
              }
            }
            text += separator;
          }
          next.start = text.length;
          text += next.text;
          values.push(next);
        }
        const occurrences = occurrencesOf(extractFacts([{ source: 's', text }], { kinds: VALIDATED_KINDS, region: 'IE' }));
        for (const value of values) {
          if (inToken.has(value)) {
            tokens++;
            continue;
          }
          if (exempt.has(value)) {
            gaps++;
            continue;
          }
          const end = value.start + value.text.length;
          const found = occurrences.filter((occurrence) => occurrence.kind === value.kind && occurrence.start < end && occurrence.end > value.start);
          expect(
            found.map((occurrence) => [occurrence.start, occurrence.text]),
            `${value.kind} ${JSON.stringify(value.text)} in ${JSON.stringify(text)}`,
          ).toEqual([[value.start, value.text]]);
          asserted++;
        }

        // Redacted with every kind, and with the default kinds: no value of a redacted kind goes out as written, unless
        // the second reading stops the request; a card number or IBAN glued into a token neither, nor its digits.
        for (const kinds of [REDACTABLE_KINDS, DEFAULT_REDACT_KINDS]) {
          const redactor = new Redactor({ kinds, region: 'IE' });
          const sent = redactor.redact(text).text;
          if (redactor.leftBehind().length > 0) {
            stopped++;
            continue;
          }
          for (const value of values) {
            if (!(kinds as readonly string[]).includes(value.kind) || exempt.has(value)) continue;
            const guarded = (planted: Planted) => GUARDED.has(planted.kind) || (APART.has(planted.kind) && !fused.has(planted));
            if (inToken.has(value) && !guarded(value)) continue;
            // The same text glued into a token or in the phone gap elsewhere in the line is not this value.
            if ([...inToken, ...exempt].some((other) => other !== value && other.text === value.text && !guarded(other))) continue;
            const where = `${value.kind} ${JSON.stringify(value.text)} in ${JSON.stringify(text)}, kinds ${kinds.join(',')}`;
            expect(sent, where).not.toContain(value.text);
            if (GUARDED.has(value.kind)) expect(sent.replace(/[\s-]/g, ''), where).not.toContain(value.text.replace(/[\s-]/g, ''));
          }
        }
      }
      // Most values are asserted: the phone gap and glued tokens are the exception, not the rule; glued tokens occur.
      expect(asserted).toBeGreaterThan((gaps + tokens) * 2);
      expect(tokens).toBeGreaterThan(0);
      expect(stopped).toBeGreaterThan(0);
    });
  }
});
