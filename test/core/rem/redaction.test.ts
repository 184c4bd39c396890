import { describe, expect, it } from 'vitest';
import { AnswerRejectedError } from '../../../src/core/model/answer-problem.js';
import type { Memory } from '../../../src/core/records.js';
import { clip, TRUNCATION_MARKER, type GatheredMemory } from '../../../src/core/rem/gather.js';
import { preparePrompt, restoreAnswer } from '../../../src/core/rem/distill.js';
import { buildPrompt, scrubPrompt, showsRedacted } from '../../../src/core/rem/prompt.js';

const CARD = '4111 1111 1111 1111';
const EMAIL = 'jane.canary@example.ie';

function gathered(content: string, ref = 'm1'): GatheredMemory {
  const memory = { id: `mem_${ref}`, createdAt: '2026-11-02T09:30:00.000Z', content } as Memory;
  return { ref, memory, ...clip(content) };
}

describe('preparePrompt (docs/redaction.md)', () => {
  it('under auto sends a loopback model the prompt as written: the same bytes as buildPrompt', async () => {
    const memories = [gathered(`card ${CARD}, mail ${EMAIL}, template ⟦card 1⟧`)];
    const prepared = await preparePrompt(memories, { focus: 'lessons', maxCandidates: 10, redact: 'auto', destination: 'loopback' });
    expect(prepared.prompt).toBe(buildPrompt({ focus: 'lessons', memories, maxCandidates: 10 }));
    expect(prepared.redactor).toBeUndefined();
    expect(prepared.report).toMatchObject({ mode: 'auto', destination: 'loopback', applies: false, counts: {} });
  });

  it('redacts for every other destination under auto, and counts per kind', async () => {
    for (const destination of ['remote', 'command', 'handoff'] as const) {
      const prepared = await preparePrompt([gathered(`card ${CARD}, mail ${EMAIL}`)], { focus: 'lessons', maxCandidates: 10, destination });
      expect(prepared.prompt).not.toContain(CARD);
      expect(prepared.prompt).not.toContain(EMAIL);
      expect(prepared.report).toMatchObject({ applies: true, counts: { card: 1, email: 1 } });
    }
  });

  it('never sends part of a value that the 2 000-character clip would cut in two', async () => {
    const filler = 'x'.repeat(1990);
    const content = `${filler} ${CARD} and more text after the card number`;
    const item = gathered(content);
    expect(item.truncated).toBe(true);
    expect(item.text).toContain('4111 111'); // the premise: the clip alone would send a part of the card
    const prepared = await preparePrompt([item], { focus: 'lessons', maxCandidates: 10, redact: 'always', destination: 'loopback' });
    expect(prepared.prompt).not.toContain('4111');
    expect(prepared.prompt).toContain(`${filler} ${TRUNCATION_MARKER}</memory>`);
    expect(prepared.report.counts).toEqual({});
  });

  it('restoreAnswer puts issued values back and rejects an unissued placeholder as unknown_placeholder', async () => {
    const prepared = await preparePrompt([gathered(`card ${CARD}`)], { focus: 'lessons', maxCandidates: 10, destination: 'remote' });
    expect(restoreAnswer(prepared.redactor, { candidates: [{ claim: 'Use ⟦card 1⟧.', sources: ['m1'] }] })).toEqual({
      candidates: [{ claim: `Use ${CARD}.`, sources: ['m1'] }],
    });
    let error: unknown;
    try {
      restoreAnswer(prepared.redactor, { candidates: [{ claim: 'Use ⟦card 2⟧.', sources: ['m1'] }] });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AnswerRejectedError);
    expect((error as AnswerRejectedError).rejection.reason).toBe('unknown_placeholder');
    expect((error as AnswerRejectedError).message).not.toContain('card 2');
    // With no redaction, an answer is taken as written.
    expect(restoreAnswer(undefined, { claim: '⟦card 2⟧' })).toEqual({ claim: '⟦card 2⟧' });
  });
});

describe('showsRedacted / scrubPrompt: finding a memory in a redacted prompt (forget, docs/decisions.md "Forget")', () => {
  const NOTE = `Refund Jane: card ${CARD}, receipt to ${EMAIL}, then close the ticket.`;
  const OTHER = 'Refund Tom: card 5500 0000 0000 0004, then close the ticket.';
  const LONG = `${'y'.repeat(1990)} ${CARD} and the rest of a long note`;

  it('finds a memory shown with placeholders, clipped or not, and no other memory', async () => {
    const items = [gathered(NOTE, 'm1'), gathered(OTHER, 'm2'), gathered(LONG, 'm3'), gathered(`${EMAIL}`, 'm4')];
    const { prompt } = await preparePrompt(items, { focus: 'lessons', maxCandidates: 10, destination: 'remote' });
    expect(prompt).not.toContain(CARD);
    const bodies = [...prompt.matchAll(/<memory ref="(m\d)"[^>]*>([^<]*)<\/memory>/g)].map((m) => [m[1], m[2]!.replace(/&amp;/g, '&')] as const);
    const shows = (content: string) => bodies.filter(([, body]) => showsRedacted(body, content)).map(([ref]) => ref);
    expect(shows(NOTE)).toEqual(['m1']);
    expect(shows(OTHER)).toEqual(['m2']);
    expect(shows(LONG)).toEqual(['m3']);
    // A memory that is one value only is shown as a placeholder only: nothing of its text is there to find.
    expect(shows(EMAIL)).toEqual([]);
    expect(shows('Refund Jane: card 12, receipt to nobody, then close the ticket.')).toEqual([]);

    const scrubbed = scrubPrompt(prompt, new Set(), undefined, '[forgotten]', [NOTE]);
    expect(scrubbed).not.toContain('Refund Jane');
    expect(scrubbed).toContain('<memory ref="m1" date="2026-11-02">[forgotten]</memory>');
    expect(scrubbed).toContain('Refund Tom');
    // Plain matching (what forget did before) misses it.
    expect(scrubPrompt(prompt, new Set([clip(NOTE).text]), undefined, '[forgotten]')).toBe(prompt);
  });

  it('matches a placeholder only to a run its kind could be', () => {
    expect(showsRedacted('mail ⟦email 1⟧ now', 'mail a@b.ie now')).toBe(true);
    expect(showsRedacted('mail ⟦email 1⟧ now', 'mail a b now')).toBe(false);
    expect(showsRedacted('call ⟦phone 1⟧ now', 'call 01 234 now')).toBe(true);
    expect(showsRedacted('call ⟦phone 1⟧ now', 'call Bob now')).toBe(false);
    expect(showsRedacted('call ⟦phone 1⟧', 'call me now')).toBe(false);
    expect(showsRedacted('⟦phone 1⟧ and ⟦email 1⟧', '01 234 and a@b.ie')).toBe(true);
  });
});
