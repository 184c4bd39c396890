import { describe, expect, it } from 'vitest';
import { createLineIndex, extractFacts, type Fact, type Passage } from '../../../src/core/facts/index.js';
import { KINDS } from '../../../src/core/facts/kinds.js';
import { extractFactsFromPieces, type TextPieces } from '../../../src/core/facts/stream.js';

const kinds = KINDS;

// Facts of every kind a recogniser finds, with labels, repeats (one e-mail in every note) and a few non-Latin-1
// characters, so the text is held two bytes a character.
const note = (index: number) =>
  [
    `Note ${index} — Mobile: +353 86 ${String(100 + (index % 900)).padStart(3, '0')} ${String(1000 + index).padStart(4, '0')}, or write to ops@example.ie;`,
    `refund IBAN IE29 AIBK 9311 5212 3456 78 on 2021-05-0${1 + (index % 9)}, cost €${index},00, see https://status.example.com/i/${index}`,
    `host 10.20.0.${index % 250} and 2001:db8:${(index % 4096).toString(16)}::/48; card 4242 4242 4242 4242.`,
    `Office: 12 Grafton Street, Dublin 2, D02 XY45\r\nnext`,
  ].join(' ');

/** The text cut into pieces of the given sizes, in turn (the last size repeats). */
function piecesOf(text: string, sizes: readonly number[]): string[] {
  const pieces: string[] = [];
  for (let at = 0, turn = 0; at < text.length; turn++) {
    const size = sizes[Math.min(turn, sizes.length - 1)] ?? 1;
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

function firstPlaces(passages: readonly Passage[], facts: readonly Fact[]) {
  const indexes = new Map(passages.map((passage) => [passage.source, createLineIndex(passage.text)]));
  return facts.map((fact) => indexes.get(fact.occurrences[0]!.source)!(fact.occurrences[0]!.start));
}

describe('extractFactsFromPieces: extractFacts over text read a piece at a time (docs/decisions.md, "Extraction in windows, held as facts")', () => {
  for (const separator of ['\n', ' ']) {
    it(`finds exactly what extractFacts finds over the whole text, whatever the window and the pieces (notes joined by ${JSON.stringify(separator)})`, () => {
      const text = Array.from({ length: 40 }, (_, index) => note(index)).join(separator);
      const passages = [{ source: 'notes', text }];
      for (const windowChars of [500, 1000, 4000, text.length]) {
        const whole = extractFacts(passages, { kinds, region: 'IE', windowChars });
        expect(whole.length).toBeGreaterThan(150);
        for (const sizes of [[text.length], [1, 2, 3, 997], [4096], [7, 13, 8191]]) {
          const streamed = extractFactsFromPieces([{ source: 'notes', pieces: piecesOf(text, sizes) }], { kinds, region: 'IE', windowChars });
          expect(streamed.facts).toEqual(whole);
          // The line and column of each first occurrence, as the table counts them over the whole text.
          expect(streamed.facts.map((fact) => streamed.firstAt?.get(fact))).toEqual(firstPlaces(passages, whole));
        }
      }
    });
  }

  it('finds a fact that straddles a window edge once, whole, at its offsets in the whole text', () => {
    const email = 'straddle.me@example.ie';
    // No line end near the edge, so the first window owns exactly 1000 characters: the e-mail starts before it and ends after.
    const text = `${'word '.repeat(197)}Mail ${email} is the one.\n${'x'.repeat(2000)}\n`;
    const start = text.indexOf(email);
    expect(start).toBeLessThan(1000);
    expect(start + email.length).toBeGreaterThan(1000);
    const { facts } = extractFactsFromPieces([{ source: 'long', pieces: piecesOf(text, [999, 2]) }], { kinds: ['email'], region: 'IE', windowChars: 1000 });
    expect(facts).toEqual([
      expect.objectContaining({ value: email, occurrences: [expect.objectContaining({ start, end: start + email.length, text: email })] }),
    ]);
  });

  it("blanks out the values of the window before when labelling (a date's month is a plain word)", () => {
    // The edge falls between the two dates: the first ends at 1000, the second starts in the next window, and its
    // label is found only once the first date is blanked out of the line before it.
    const text = `${'word '.repeat(196)}ab Dates: 5 May 2021, 6 June 2021 end.\n${'x'.repeat(2000)}\n`;
    expect(text.indexOf(', 6 June')).toBe(1000);
    const whole = extractFacts([{ source: 't', text }], { kinds: ['date'], region: 'IE', windowChars: text.length });
    const label = 'word word word word word word ab Dates';
    expect(whole.map((fact) => [fact.value, fact.label])).toEqual([
      ['5 May 2021', label],
      ['6 June 2021', label],
    ]);
    const streamed = extractFactsFromPieces([{ source: 't', pieces: piecesOf(text, [512]) }], { kinds: ['date'], region: 'IE', windowChars: 1000 });
    expect(streamed.facts).toEqual(whole);
  });

  it('reads several sources in turn, a source named twice listing an occurrence once, and caps per kind after grouping', () => {
    const a = Array.from({ length: 12 }, (_, index) => note(index)).join('\n');
    const b = Array.from({ length: 12 }, (_, index) => note(index + 100)).join('\n');
    const passages: Passage[] = [
      { source: 'a', text: a },
      { source: 'b', text: b },
      { source: 'a', text: a },
    ];
    const texts: TextPieces[] = passages.map((passage) => ({ source: passage.source, pieces: piecesOf(passage.text, [333]) }));
    for (const limit of [undefined, 3]) {
      const whole = extractFacts(passages, { kinds, region: 'IE', windowChars: 700, limit });
      const streamed = extractFactsFromPieces(
        texts.map((text) => ({ ...text, pieces: [...text.pieces] })),
        { kinds, region: 'IE', windowChars: 700, limit },
      );
      expect(streamed.facts).toEqual(whole);
    }
  });

  it('counts lines as the table does: \\r\\n, \\n and a lone \\r each end one, also where a window or a piece cuts between \\r and \\n', () => {
    const text = ['a@example.ie', 'b@example.ie\r', '\nc@example.ie\r', 'd@example.ie'].join('\r\n').repeat(40);
    const passages = [{ source: 't', text }];
    const whole = extractFacts(passages, { kinds: ['email'], region: 'IE', windowChars: 100 });
    for (const sizes of [[1], [14, 15], [text.length]]) {
      const streamed = extractFactsFromPieces([{ source: 't', pieces: piecesOf(text, sizes) }], { kinds: ['email'], region: 'IE', windowChars: 100 });
      expect(streamed.facts).toEqual(whole);
      expect(streamed.facts.map((fact) => streamed.firstAt?.get(fact))).toEqual(firstPlaces(passages, whole));
    }
  });

  it('matches extractFacts where a later occurrence brings the label, read with and without a home region and candidate lists', () => {
    // The same numbers and addresses again and again, first bare and later labelled (the fact takes the first label
    // it sees), national numbers of several regions read with no home region, and values that touch the window edges.
    const line = (index: number) =>
      [
        index % 3 === 0 ? 'Ring 030 901820 today' : 'Tel.: 030 901820',
        index % 2 === 0 ? 'call 0612345678' : 'Mobile: 06 12 34 56 78',
        `mail ${index % 5}@example.de`,
        index % 4 === 0 ? 'Card: 4242 4242 4242 4242' : 'use 4242 4242 4242 4242',
        `Lindenstraße ${index % 7}, 80331 München`,
        `at 192.0.2.${index % 9} on 2024-0${1 + (index % 9)}-1${index % 9}`,
      ].join('; ');
    const joined = Array.from({ length: 60 }, (_, index) => line(index)).join('\n');
    for (const options of [{ region: 'DE' }, { regions: ['DE', 'FR', 'NL'] }, { region: 'FR', regions: ['DE'] }] as const) {
      for (const windowChars of [150, 333, 1000]) {
        const whole = extractFacts([{ source: 's', text: joined }], { kinds, windowChars, ...options });
        expect(whole.some((fact) => fact.occurrences.length > 1 && fact.label !== '')).toBe(true);
        for (const sizes of [[joined.length], [5, 77, 301]]) {
          const streamed = extractFactsFromPieces([{ source: 's', pieces: piecesOf(joined, sizes) }], { kinds, windowChars, ...options });
          expect(streamed.facts).toEqual(whole);
        }
      }
    }
  });

  it('an empty text has no facts; lineCols: false keeps no places', () => {
    expect(extractFactsFromPieces([{ source: 'empty', pieces: [] }], { kinds, region: 'IE' }).facts).toEqual([]);
    const streamed = extractFactsFromPieces([{ source: 'n', pieces: [note(1)] }], { kinds, region: 'IE', lineCols: false });
    expect(streamed.facts).toEqual(extractFacts([{ source: 'n', text: note(1) }], { kinds, region: 'IE' }));
    expect(streamed.firstAt).toBeUndefined();
  });
});
