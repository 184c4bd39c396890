import { describe, expect, it } from 'vitest';
import { DEFAULT_REDACT_KINDS, escapeBrackets, Redactor, toOriginal } from '../../../src/core/facts/redact.js';
import { recognise } from '../../../src/core/facts/recognisers/index.js';

// Canary values: each one valid for its recogniser, and each must never survive redaction.
const CARD = '4111 1111 1111 1111';
const CARD_DIGITS = '4111111111111111';
const IBAN = 'IE29 AIBK 9311 5212 3456 78';
const EMAIL = 'jane.canary@example.ie';
const PHONE = '+353 1 234 5678';
const IP = '203.0.113.77';

const redactor = (kinds = DEFAULT_REDACT_KINDS, region: string | null = 'IE') => new Redactor({ kinds, region, regions: [] });

describe('Redactor.redact', () => {
  it('replaces every value of the default kinds by a placeholder, numbered per kind, and counts them', () => {
    const r = redactor();
    const out = r.redact(`Pay ${IBAN} with card ${CARD}; mail ${EMAIL} or call ${PHONE}. Server ${IP}.`);
    expect(out.text).toBe(`Pay ⟦iban 1⟧ with card ⟦card 1⟧; mail ⟦email 1⟧ or call ⟦phone 1⟧. Server ${IP}.`);
    for (const value of [CARD, IBAN, EMAIL, PHONE]) expect(out.text).not.toContain(value);
    expect(r.counts()).toEqual({ iban: 1, card: 1, email: 1, phone: 1 });
    expect(r.map()).toEqual({ '⟦iban 1⟧': IBAN, '⟦card 1⟧': CARD, '⟦email 1⟧': EMAIL, '⟦phone 1⟧': PHONE });
  });

  it('replaces a card grouped with no-break or narrow no-break spaces (pasted from a web page or a PDF) as the same value', () => {
    const r = redactor();
    const out = r.redact(`card ${CARD} then 4111\u00A01111\u00A01111\u00A01111 then 4111\u202F1111\u202F1111\u202F1111`);
    expect(out.text).toBe('card ⟦card 1⟧ then ⟦card 1⟧ then ⟦card 1⟧');
    expect(out.text).not.toMatch(/\d{4}/);
  });

  it('redacts ip only when configured', () => {
    const r = redactor(['ip']);
    expect(r.redact(`Server ${IP}, card ${CARD}`).text).toBe(`Server ⟦ip 1⟧, card ${CARD}`);
  });

  it('gives the same value the same placeholder throughout one request, even written another way, and another value the next number', () => {
    const r = redactor();
    const first = r.redact(`card ${CARD} and again ${CARD}`);
    const second = r.redact(`card ${CARD_DIGITS}; other card 5555 5555 5555 4444`);
    expect(first.text).toBe('card ⟦card 1⟧ and again ⟦card 1⟧');
    expect(second.text).toBe('card ⟦card 1⟧; other card ⟦card 2⟧');
    expect(r.counts()).toEqual({ card: 2 });
  });

  it('makes one span of overlapping finds: an IBAN whose digits also read as a phone number', () => {
    const text = `IBAN ${IBAN} ok`;
    // The premise: in DE, libphonenumber reads the IBAN's tail as a German phone number.
    const phones = recognise('phone', text, { region: 'DE', regions: [] });
    expect(phones.length).toBeGreaterThan(0);
    const r = redactor(DEFAULT_REDACT_KINDS, 'DE');
    const out = r.redact(text);
    expect(out.text).toBe('IBAN ⟦iban 1⟧ ok');
    expect(r.counts()).toEqual({ iban: 1 });
  });

  it('finds a value split across a line break, and keeps the break in the value', () => {
    const text = 'card 4111 1111\n1111 1111 ok';
    const r = redactor();
    const out = r.redact(text);
    expect(out.text).toBe('card ⟦card 1⟧ ok');
    expect(r.map()).toEqual({ '⟦card 1⟧': '4111 1111\n1111 1111' });
    const crlf = redactor();
    expect(crlf.redact(`IBAN IE29 AIBK 9311\r\n   5212 3456 78 end`).text).toBe('IBAN ⟦iban 1⟧ end');
    expect(crlf.map()).toEqual({ '⟦iban 1⟧': 'IE29 AIBK 9311\r\n   5212 3456 78' });
  });

  it('escapes placeholder-looking text in the input, so a memory cannot forge a placeholder', () => {
    const r = redactor();
    const out = r.redact(`forged ⟦card 1⟧ and 〚email 1〛, real ${CARD}`);
    expect(out.text).toBe('forged [card 1] and [email 1], real ⟦card 1⟧');
    expect(out.text.match(/⟦/g)).toHaveLength(1);
    expect(escapeBrackets('a⟦b⟧c〚d〛')).toBe('a[b]c[d]');
  });
});

describe('Redactor.redact with a cut (a memory clipped for the prompt)', () => {
  it('leaves out a value the cut would split, whole, and gives values past the cut no placeholder', () => {
    const text = `mail ${EMAIL}, card ${CARD} and iban ${IBAN}`;
    const r = redactor();
    const cut = text.indexOf(CARD) + 7; // inside the card number
    const out = r.redact(text, { cutAt: cut });
    expect(out.text).toBe('mail ⟦email 1⟧, card ');
    expect(r.counts()).toEqual({ email: 1 });
    expect(redactor().redact(text, { cutAt: text.indexOf(' and') }).text).toBe('mail ⟦email 1⟧, card ⟦card 1⟧');
  });
});

describe('Redactor.restore', () => {
  const issued = () => {
    const r = redactor();
    r.redact(`card ${CARD}, mail ${EMAIL}, forged ⟦card 3⟧ written [card 2]`);
    return r;
  };

  it('puts the values back into every string of an answer', () => {
    const restored = issued().restore({ candidates: [{ claim: 'Pay with ⟦card 1⟧, write to ⟦email 1⟧', sources: ['m1'], tags: ['⟦email 1⟧'] }] });
    expect(restored).toEqual({ ok: true, value: { candidates: [{ claim: `Pay with ${CARD}, write to ${EMAIL}`, sources: ['m1'], tags: [EMAIL] }] } });
  });

  it('refuses a placeholder never issued, a corrected one, a mangled one and a lone bracket', () => {
    const r = issued();
    for (const bad of [
      'uses ⟦card 9⟧',
      'uses ⟦card 3⟧',
      'uses ⟦Card 1⟧',
      'uses ⟦card1⟧',
      'uses ⟦ card 1 ⟧',
      'uses ⟦card 1',
      'uses card 1⟧',
      'uses 〚card 1〛',
      'uses [card 1]',
      'uses [Email 1]',
      'uses ［card 1］',
      'uses 【card 1】',
      'uses ⟨card 1⟩',
      'uses {card 1}',
      'uses <email 1>',
    ]) {
      expect(r.restoreText(bad), bad).toEqual({ ok: false });
    }
    expect(r.restore({ candidates: [{ claim: 'fine', tags: ['⟦phone 1⟧'] }] })).toEqual({ ok: false });
  });

  it('keeps an ASCII look-alike that was in the text sent (a memory that really says [card 2])', () => {
    expect(issued().restoreText('the note says [card 2]')).toEqual({ ok: true, value: 'the note says [card 2]' });
    const r = issued();
    r.redact('a template: refund to 【card 2】');
    expect(r.restoreText('the template says 【card 2】')).toEqual({ ok: true, value: 'the template says 【card 2】' });
  });

  it('restores from a stored map (a handoff), checking look-alikes against the prompt that was sent', () => {
    const r = issued();
    const again = Redactor.fromMap(r.map(), 'prompt with [card 2]');
    expect(again.restoreText('⟦card 1⟧ / [card 2]')).toEqual({ ok: true, value: `${CARD} / [card 2]` });
    expect(again.restoreText('⟦card 2⟧')).toEqual({ ok: false });
    expect(again.counts()).toEqual({ card: 1, email: 1 });
    expect(Redactor.fromMap({}).restoreText('⟦card 1⟧')).toEqual({ ok: false });
  });

  it('round-trips planted values in random text: nothing leaks, and the restored text is the original', () => {
    const values = [CARD, IBAN, EMAIL, PHONE, '5555 5555 5555 4444', 'ops@example.com', 'DE89 3704 0044 0532 0130 00'];
    const words = ['deploy', 'the', 'billing', 'cron', 'moved', 'to', 'Tuesday;', 'ask', 'Ana', 'about', 'it.', 'ok', '—', 'Ünïcödé', '日本', '🙂'];
    let seed = 17;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 40; round++) {
      const r = redactor();
      const parts: string[] = [];
      // Planted values never touch each other: two card numbers run together read as one digit run, which no
      // recogniser validates (docs/redaction.md, "What it does not catch").
      for (let i = 0; i < 30; i++)
        parts.push(next(6) === 0 && !values.includes(parts.at(-1) ?? '') ? values[next(values.length)]! : words[next(words.length)]!);
      const text = parts.join(next(2) === 0 ? ' ' : '\n');
      const out = r.redact(text);
      for (const value of values) expect(out.text).not.toContain(value);
      expect(r.restoreText(out.text)).toEqual({ ok: true, value: text });
    }
  });
});

describe('toOriginal', () => {
  it('maps a span of the redacted text to the exact span of the original, and refuses one cutting through a placeholder', () => {
    const original = `Office: 4 Grand Canal Square, Dublin 2, tel ${PHONE}, D02 X525. Bye`;
    const r = redactor();
    const out = r.redact(original);
    expect(out.text).toBe('Office: 4 Grand Canal Square, Dublin 2, tel ⟦phone 1⟧, D02 X525. Bye');
    const whole = 'Grand Canal Square, Dublin 2, tel ⟦phone 1⟧, D02 X525';
    const start = out.text.indexOf(whole);
    const span = toOriginal(out, start, start + whole.length)!;
    expect(original.slice(span.start, span.end)).toBe(`Grand Canal Square, Dublin 2, tel ${PHONE}, D02 X525`);
    const before = out.text.indexOf('Dublin');
    expect(original.slice(...Object.values(toOriginal(out, before, before + 8)!))).toBe('Dublin 2');
    const after = out.text.indexOf('D02');
    expect(original.slice(...Object.values(toOriginal(out, after, after + 8)!))).toBe('D02 X525');
    const inside = out.text.indexOf('phone');
    expect(toOriginal(out, start, inside)).toBeUndefined();
    expect(toOriginal(out, inside, out.text.length)).toBeUndefined();
  });
});
