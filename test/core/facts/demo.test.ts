import { describe, expect, it } from 'vitest';
import { demoNotes } from '../../../src/core/demo.js';
import { extractFacts, VALIDATED_KINDS, type Fact, type Passage } from '../../../src/core/facts/index.js';

/**
 * The whole demo corpus through every recogniser. Properties, not a frozen list: the demo data is written by hand
 * and will change, and what must hold for it holds for any realistic notes.
 */
const passages: Passage[] = demoNotes().map((note, index) => ({ source: `note-${index}`, text: note.content }));
const textOf = new Map(passages.map((passage) => [passage.source, passage.text]));

function occurrencesOf(facts: readonly Fact[], kind: Fact['kind']): string[] {
  return facts.filter((fact) => fact.kind === kind).flatMap((fact) => fact.occurrences.map((occurrence) => occurrence.text));
}

/** Every distinct match of `re` over the demo notes. */
function writtenInNotes(re: RegExp): string[] {
  return [...new Set(passages.flatMap((passage) => [...passage.text.matchAll(re)].map((match) => match[0])))];
}

describe.each([null, 'IE', 'US'])('extractFacts over the demo notes (region %s)', (region) => {
  const facts = extractFacts(passages, { kinds: VALIDATED_KINDS, region });

  it('slices every occurrence from its note', () => {
    for (const fact of facts) {
      for (const occurrence of fact.occurrences) {
        expect(textOf.get(occurrence.source)?.slice(occurrence.start, occurrence.end)).toBe(occurrence.text);
      }
    }
  });

  it('finds only written calendar dates: none before 2020, no relative phrase, no leading word', () => {
    const dates = facts.filter((fact) => fact.kind === 'date');
    expect(dates.length).toBeGreaterThan(0);
    for (const fact of dates) {
      expect(fact.normalized >= '2020-01-01', fact.normalized).toBe(true);
      for (const { text } of fact.occurrences) {
        expect(text).toMatch(/^(?:\d|[A-Z][a-z]+ \d)/);
        expect(text).toMatch(/(?<!\d)20\d\d(?!\d)/);
        expect(text).not.toMatch(/\b(?:ago|in|for|within|from|on|next|last|later|minutes?|hours?|days?|weeks?|months?)\b/i);
      }
    }
  });

  it('finds every ISO date written in the notes', () => {
    const iso = writtenInNotes(/(?<![\d-])\d{4}-\d{2}-\d{2}(?![\d-])/g);
    expect(iso.length).toBeGreaterThan(5);
    for (const date of iso) expect(occurrencesOf(facts, 'date')).toContain(date);
  });

  it('finds every international phone number and e-mail address written in the notes', () => {
    const phones = writtenInNotes(/\+\d{1,3}(?: \d{1,8})+/g);
    const emails = writtenInNotes(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g);
    expect(phones.length).toBeGreaterThan(5);
    expect(emails.length).toBeGreaterThan(5);
    for (const phone of phones) expect(occurrencesOf(facts, 'phone')).toContain(phone);
    for (const email of emails) expect(occurrencesOf(facts, 'email')).toContain(email);
    for (const fact of facts.filter((f) => f.kind === 'phone')) expect(fact.normalized).toMatch(/^\+[1-9]\d{7,14}$/);
  });

  it('finds every IBAN written after "IBAN"', () => {
    const ibans = writtenInNotes(/(?<=IBAN:? )[A-Z]{2}\d{2}[A-Z0-9 ]+?(?=[^A-Z0-9 ]|\s*$| \()/gm).map((iban) => iban.trim());
    expect(ibans.length).toBeGreaterThan(3);
    for (const iban of ibans) expect(occurrencesOf(facts, 'iban')).toContain(iban);
  });

  it('takes no version string, time or money amount for an ip, card or phone', () => {
    for (const text of occurrencesOf(facts, 'ip')) expect(text).toMatch(/^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f:]+)(?:\/\d+)?$/);
    for (const text of [...occurrencesOf(facts, 'card'), ...occurrencesOf(facts, 'phone')]) expect(text).not.toMatch(/[€£$:]/);
  });
});
