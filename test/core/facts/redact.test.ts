import { describe, expect, it } from 'vitest';
import { asciiDigit, DEFAULT_REDACT_KINDS, escapeBrackets, guardCopy, readingOf, Redactor, toOriginal } from '../../../src/core/facts/redact.js';
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

describe('Redactor: the second reading, with the placeholders in place (issue 27)', () => {
  it('finds the card after an IBAN on the first reading, and leaves nothing for the second', () => {
    const r = redactor();
    const out = r.redact(`IE29 AIBK 9311 5212 3456 78 ${CARD} and DE89 3704 0044 0532 0130 00 5555 5555 5555 4444`);
    expect(out.text).toBe('⟦iban 1⟧ ⟦card 1⟧ and ⟦iban 2⟧ ⟦card 2⟧');
    expect(r.leftBehind()).toEqual([]);
  });

  it('names the kind of a value the first reading missed: a cut that leaves a valid IBAN where the whole text had none', () => {
    const r = redactor();
    // Whole, `DE89370400440532013000XY` runs into letters (no IBAN); cut before the letters, it is a valid IBAN.
    const out = r.redact('IBAN DE89370400440532013000XY', { cutAt: 27 });
    expect(out.text).toBe('IBAN DE89370400440532013000');
    expect(r.leftBehind()).toEqual(['iban']);
  });

  it('reads each placeholder as a boundary with a blank inside: nothing in a placeholder is a value, a value glued to one is', () => {
    const r = redactor(['card', 'iban', 'email']);
    r.redact(`${EMAIL} 1 ${EMAIL}`);
    expect(r.leftBehind()).toEqual([]);
    // Nothing changed in the text: no second reading needed, nothing left.
    const plain = redactor();
    expect(plain.redact('no values here, card 1234').text).toBe('no values here, card 1234');
    expect(plain.leftBehind()).toEqual([]);
  });
});

describe('Redactor: the second reading finds cards and IBANs glued to anything (issue 27, docs/extract.md §Glued values)', () => {
  it('replaces a card written in groups with a dot, slash or underscore (issue 27 review: stopped; rev27e: the grouped reading replaces it)', () => {
    for (const text of ['pay 4111.1111.1111.1111 now', 'pay 4111/1111/1111/1111 now', 'pay 4111_1111_1111_1111 now', 'amex 3714.496353.98431']) {
      const r = redactor();
      expect(r.redact(text).text, text).toBe(text.replace(/ [\d./_]+/, ' ⟦card 1⟧'));
      expect(r.leftBehind(), text).toEqual([]);
    }
    // Not a card: a date, a version, numbers of other lengths.
    for (const text of ['on 2024.03.15', 'v4111.1111.1111', 'ids 4111/1111/1111/1112']) {
      const r = redactor();
      r.redact(text);
      expect(r.leftBehind(), text).toEqual([]);
    }
  });

  it('stops a card or IBAN glued to letters, digits or a decimal point, which the first reading does not take', () => {
    // Each glued text, the kinds its second reading names, and the same values apart (the first reading replaces them).
    for (const [text, kinds, apart] of [
      // The email before the card is read apart from it too (issue 27 variations).
      ['alice@example.com4111111111111111', ['card', 'email'], 'alice@example.com 4111111111111111'],
      ['alice@example.com4111 1111 1111 1111 paid', ['card', 'email'], 'alice@example.com 4111 1111 1111 1111 paid'],
      ['pay 4111111111111111,5 now', ['card'], 'pay 4111111111111111, 5 now'],
      ['DE893704004405320130004111111111111111', ['card', 'iban'], 'DE89370400440532013000 4111111111111111'],
      ['IE29AIBK931152123456784111111111111111', ['card', 'iban'], 'IE29AIBK93115212345678 4111111111111111'],
      ['ref:alice@example.comDE89370400440532013000', ['iban'], 'ref:alice@example.com DE89370400440532013000'],
      ['mail alice@example.comDE89 3704 0044 0532 0130 00 now', ['iban'], 'mail alice@example.com DE89 3704 0044 0532 0130 00 now'],
      ['4111111111111111DE89370400440532013000', ['card', 'iban'], '4111111111111111 DE89370400440532013000'],
    ] as const) {
      const r = redactor();
      r.redact(text);
      expect(r.leftBehind().sort(), text).toEqual([...kinds]);
      const again = redactor();
      expect(again.redact(apart).text, apart).not.toMatch(/\d{4}/);
      expect(again.leftBehind(), apart).toEqual([]);
    }
  });

  it('leaves long numbers that hold no valid card or IBAN alone, and reads only the kinds it redacts', () => {
    for (const text of ['order 12345678901234567890 shipped', 'v1.2.3 build 20240315123456', 'ticket AB12345678901234 open']) {
      const r = redactor();
      expect(r.redact(text).text).toBe(text);
      expect(r.leftBehind(), text).toEqual([]);
    }
    // Redacting emails only: the email glued to the card is named, the card and the IBAN are not looked for.
    const emailOnly = redactor(['email']);
    emailOnly.redact('alice@example.com4111111111111111 and DE893704004405320130004111111111111111');
    expect(emailOnly.leftBehind()).toEqual(['email']);
    const cardOnly = redactor(['card']);
    cardOnly.redact('alice@example.com0871234567 and +442079460958abc');
    expect(cardOnly.leftBehind()).toEqual([]);
  });
});

describe('Redactor: the third reading reads values glued into one token apart (issue 27 variations)', () => {
  it('stops an email or phone number glued to another value at a seam of a letter and a digit, or to a date or address', () => {
    // Each glued text and the kinds its readings name; none of them went out whole or in part before.
    for (const [text, kinds] of [
      ['alice@example.com0871234567', ['email', 'phone']],
      ['mail alice@example.com087 123 4567 today', ['email', 'phone']],
      ['ops+alerts@mail.example.co.uk01 234 5678', ['email', 'phone']],
      ['www.example.org01 234 5678', ['phone']],
      ['https://example.com/a+353 1 234 5678x', ['phone']],
      ['+442079460958abc', ['phone']],
      ['ring +353871234567x now', ['phone']],
      ['a@xn--d1acufc.xn--p1ai2024-03-15T14:30:00Z', ['email']],
      ['jane.doe@example.comjane@example.org', ['email']],
      // (`01 234 5678 2024-03-15T14:30:00Z` is replaced since rev27h: the `15T14` glued to a letter parts the run, and the
      // skeleton reads the number before the date; redact-readings.test.ts.)
    ] as const) {
      const r = redactor();
      r.redact(text);
      expect(r.leftBehind().sort(), text).toEqual([...kinds]);
    }
  });

  it('replaces a national number at the start of a run before a date or an address (rev27e: stopped before)', () => {
    for (const [text, out] of [
      ['087 123 4567 2024-03-15', '⟦phone 1⟧ 2024-03-15'],
      ['01 234 5678 192.168.0.1 up', '⟦phone 1⟧ 192.168.0.1 up'],
    ] as const) {
      const r = redactor();
      expect(r.redact(text).text, text).toBe(out);
      expect(r.leftBehind(), text).toEqual([]);
    }
  });

  it('sends values that a placeholder covers, and tokens that hold no value read apart', () => {
    for (const text of [
      'mail user123@example.com and jane2@example.org, 2 apples',
      '0871234567alice@example.com',
      'id 550e8400-e29b-41d4-a716-446655440000 and sha 3f5e8a2087123456789abcdef0 at v1.2.3',
      'see https://example.com/page2 and www.example.org/a1b2',
      'Call +44 20 7946 0958 2024-03-15 today',
      'on 2024-03-15 at 192.168.0.1',
      'call0871234567 or ABC0871234567',
    ]) {
      const r = redactor();
      r.redact(text);
      expect(r.leftBehind(), text).toEqual([]);
    }
  });

  it('reads only what is sent: a glued value past the cut stops nothing', () => {
    const text = `${'word '.repeat(40)}alice@example.com0871234567`;
    const r = redactor();
    expect(r.redact(text, { cutAt: 150 }).text).toBe(text.slice(0, 150));
    expect(r.leftBehind()).toEqual([]);
    const whole = redactor();
    whole.redact(text);
    expect(whole.leftBehind()).toEqual(['email', 'phone']);
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

describe('Redactor: values split across line breaks, in longer texts', () => {
  const pad = (word: string) => `${word} `.repeat(100);

  it('finds a split value with more than a window of text on either side, and one at the very end of the text', () => {
    const text = `${pad('x')}card 4111 1111\n1111 1111 ok ${pad('y')}`;
    const r = redactor();
    const out = r.redact(text);
    expect(out.text).toBe(`${pad('x')}card ⟦card 1⟧ ok ${pad('y')}`);
    expect(r.restoreText(out.text)).toEqual({ ok: true, value: text });
    const last = redactor();
    expect(last.redact('card 4111 1111\n1111 1111').text).toBe('card ⟦card 1⟧');
    expect(last.map()).toEqual({ '⟦card 1⟧': '4111 1111\n1111 1111' });
  });

  it('finds a value split across the second of two nearby line breaks', () => {
    const text = `line one\n${pad('z').slice(0, 100)}card 4111 1111\n1111 1111 ok`;
    const out = redactor().redact(text);
    expect(out.text).toBe(`line one\n${pad('z').slice(0, 100)}card ⟦card 1⟧ ok`);
  });

  it('takes from the text read across a break only values that cross it: a card word on the line before does not label a number', () => {
    // Read across the break, `Card number: 9012…` would be a labelled card (an unknown issuer needs its card word on
    // the same line); the number does not cross the break, so it is not taken from that reading.
    expect(redactor().redact('Card number: 9012 3456 7890 1238 ok').text).toBe('Card number: ⟦card 1⟧ ok');
    for (const text of ['Card number:\n9012 3456 7890 1238 ok', 'Card number:\n9012 3456 7890 1238\nmore']) {
      expect(redactor().redact(text).text).toBe(text);
    }
  });
});

describe('Redactor: overlapping finds merged into one span', () => {
  // In DE, libphonenumber reads `9311 5212 3456 78 x12` (the IBAN's tail and an extension after it) as a phone number.
  const MERGED = 'IE29 AIBK 9311 5212 3456 78 x12';

  it('covers the union of the finds, of the kind of the longest, and restores exactly what was written', () => {
    const text = `IBAN ${MERGED} ok`;
    expect(recognise('phone', text, { region: 'DE', regions: [] }).map((match) => match.text)).toEqual(['9311 5212 3456 78 x12']);
    const r = redactor(DEFAULT_REDACT_KINDS, 'DE');
    const out = r.redact(text);
    expect(out.text).toBe('IBAN ⟦iban 1⟧ ok');
    expect(r.map()).toEqual({ '⟦iban 1⟧': MERGED });
    expect(r.restoreText(out.text)).toEqual({ ok: true, value: text });
  });

  it('keys a merged span by its text: the same IBAN written alone gets its own placeholder, so each restores as written', () => {
    const text = `IBAN ${MERGED} ok; again IE29AIBK93115212345678 and again ${MERGED}.`;
    const r = redactor(DEFAULT_REDACT_KINDS, 'DE');
    const out = r.redact(text);
    expect(out.text).toBe('IBAN ⟦iban 1⟧ ok; again ⟦iban 2⟧ and again ⟦iban 1⟧.');
    expect(r.map()).toEqual({ '⟦iban 1⟧': MERGED, '⟦iban 2⟧': 'IE29AIBK93115212345678' });
    expect(r.restoreText(out.text)).toEqual({ ok: true, value: text });
  });

  it('gives two merged spans written differently two placeholders', () => {
    const other = 'IE29 AIBK 9311 5212 3456 78 x34';
    const text = `IBAN ${MERGED} and ${other}`;
    const r = redactor(DEFAULT_REDACT_KINDS, 'DE');
    expect(r.redact(text).text).toBe('IBAN ⟦iban 1⟧ and ⟦iban 2⟧');
    expect(r.map()).toEqual({ '⟦iban 1⟧': MERGED, '⟦iban 2⟧': other });
  });
});

describe('Redactor: finds of one value merged', () => {
  it('takes the kind of the longest find, whichever starts first', () => {
    // In NL, an address's local part is a mobile number: a shorter find of another kind at the same start.
    const text = 'Mail 0612345678@example.com yesterday';
    expect(recognise('phone', text, { region: 'NL', regions: [] }).map((match) => match.text)).toEqual(['0612345678']);
    const r = redactor(DEFAULT_REDACT_KINDS, 'NL');
    expect(r.redact(text).text).toBe('Mail ⟦email 1⟧ yesterday');
    expect(r.counts()).toEqual({ email: 1 });
    // (A card's first group is no phone number since issue 27: the phone recogniser reads around card numbers.)
    expect(recognise('phone', 'Paid with the company card 4111 1111 1111 1111 yesterday', { region: 'LU', regions: [] })).toEqual([]);
  });

  it('keeps two values that only touch as two', () => {
    const r = redactor();
    expect(r.redact(`mail ${EMAIL}${PHONE} ok`).text).toBe('mail ⟦email 1⟧⟦phone 1⟧ ok');
    expect(r.map()).toEqual({ '⟦email 1⟧': EMAIL, '⟦phone 1⟧': PHONE });
  });

  it('keys a number found on one line and, longer, across the break by its text: the same number on one line restores as written', () => {
    // In DE, `030 123456` is a number on its own, and `030 123456 78` read across the line break is a longer one.
    const text = 'Tel 030 123456\n78 ok; again 030 123456 78.';
    const r = redactor(DEFAULT_REDACT_KINDS, 'DE');
    const out = r.redact(text);
    expect(out.text).toBe('Tel ⟦phone 1⟧ ok; again ⟦phone 2⟧.');
    expect(r.map()).toEqual({ '⟦phone 1⟧': '030 123456\n78', '⟦phone 2⟧': '030 123456 78' });
    expect(r.restoreText(out.text)).toEqual({ ok: true, value: text });
    // In IE, `1 234 5678` on the second line is a number too, ending where the whole one read across the break does.
    const split = `Tel +353\n1 234 5678 ok; again ${PHONE}.`;
    const ie = redactor();
    expect(ie.redact(split).text).toBe('Tel ⟦phone 1⟧ ok; again ⟦phone 2⟧.');
    expect(ie.map()).toEqual({ '⟦phone 1⟧': '+353\n1 234 5678', '⟦phone 2⟧': PHONE });
    expect(ie.restoreText(ie.redact(split).text)).toEqual({ ok: true, value: split });
  });
});

describe('Redactor options and accessors', () => {
  it('reads national phone numbers in its home region and candidate regions, and none without either', () => {
    // A Budapest number: valid in HU, which is not one of the default candidate regions.
    const text = 'call 06 1 234 5678 now';
    expect(new Redactor({ kinds: ['phone'], region: 'HU', regions: [] }).redact(text).text).toBe('call ⟦phone 1⟧ now');
    expect(new Redactor({ kinds: ['phone'], regions: ['HU'] }).redact(text).text).toBe('call ⟦phone 1⟧ now');
    expect(new Redactor({ kinds: ['phone'], regions: [] }).redact(text).text).toBe(text);
  });

  it('names the first placeholder issued, and none before any', () => {
    const r = redactor();
    expect(r.firstPlaceholder()).toBeUndefined();
    r.redact(`mail ${EMAIL}, card ${CARD}`);
    expect(r.firstPlaceholder()).toBe('⟦email 1⟧');
  });

  it('leaves a value that starts exactly at the cut out, with the text before it', () => {
    const text = `mail ${EMAIL} end`;
    const r = redactor();
    expect(r.redact(text, { cutAt: text.indexOf(EMAIL) }).text).toBe('mail ');
    expect(r.counts()).toEqual({});
  });
});

describe('Redactor.restore of any JSON value', () => {
  it('keeps numbers, booleans and null as they are, in objects and arrays', () => {
    const r = redactor();
    r.redact(`card ${CARD}`);
    expect(r.restore(null)).toEqual({ ok: true, value: null });
    expect(r.restore(42)).toEqual({ ok: true, value: 42 });
    expect(r.restore({ n: 1, yes: true, none: null, list: [2, false, '⟦card 1⟧'] })).toEqual({
      ok: true,
      value: { n: 1, yes: true, none: null, list: [2, false, CARD] },
    });
  });
});

describe('Redactor.fromMap', () => {
  it('takes only keys that are placeholders of a redactable kind, numbered from 1', () => {
    const r = Redactor.fromMap({
      '⟦card 12⟧': CARD,
      '⟦date 1⟧': '2024-01-01',
      'x⟦email 1⟧': EMAIL,
      '⟦email 1⟧x': EMAIL,
      '⟦phone 0⟧': PHONE,
      junk: 'value',
    });
    expect(r.counts()).toEqual({ card: 12 });
    expect(r.restoreText('paid with ⟦card 12⟧')).toEqual({ ok: true, value: `paid with ${CARD}` });
    for (const bad of ['⟦date 1⟧', '⟦email 1⟧', '⟦phone 0⟧']) expect(r.restoreText(bad), bad).toEqual({ ok: false });
  });

  it('only restores: new text goes through it unredacted', () => {
    const r = Redactor.fromMap({ '⟦card 1⟧': CARD });
    expect(r.redact(`card ${CARD}, mail ${EMAIL}`).text).toBe(`card ${CARD}, mail ${EMAIL}`);
  });
});

describe('toOriginal at a placeholder’s edges', () => {
  it('maps a span that is exactly a placeholder to exactly its value, and spans that end or start at one', () => {
    const original = `call ${PHONE} or mail ${EMAIL}`;
    const out = redactor().redact(original);
    expect(out.text).toBe('call ⟦phone 1⟧ or mail ⟦email 1⟧');
    const at = out.text.indexOf('⟦phone 1⟧');
    const end = at + '⟦phone 1⟧'.length;
    const slice = (span: { start: number; end: number } | undefined) => original.slice(span!.start, span!.end);
    expect(slice(toOriginal(out, at, end))).toBe(PHONE);
    expect(slice(toOriginal(out, 0, at))).toBe('call ');
    expect(slice(toOriginal(out, end, out.text.length))).toBe(` or mail ${EMAIL}`);
    expect(slice(toOriginal(out, 0, out.text.length))).toBe(original);
  });
});

/** Every decimal digit of a text as ASCII (any script), the rest left out. */
const digitsIn = (text: string): string => [...text.replace(/⟦[^⟧]*⟧/g, '')].map((char) => (/\p{Nd}/u.test(char) ? asciiDigit(char) : '')).join('');

describe('Redactor: values disguised or glued as the issue 27 review sent them (replaced, not sent)', () => {
  const redacts = (text: string, region: string | null = 'IE') => {
    const r = redactor(DEFAULT_REDACT_KINDS, region);
    const out = r.redact(text);
    return { out: out.text, spans: out.spans, left: r.leftBehind(), map: r.map(), counts: r.counts() };
  };

  it('replaces two emails glued by a dot, each with its own placeholder', () => {
    const { out, left, map } = redacts('Mail jane@example.ie.jane@example.org today.');
    expect(out).toBe('Mail ⟦email 1⟧.⟦email 2⟧ today.');
    expect(left).toEqual([]);
    expect(map).toEqual({ '⟦email 1⟧': 'jane@example.ie', '⟦email 2⟧': 'jane@example.org' });
  });

  it('replaces a card glued to an email by an underscore, and a phone glued so, whole', () => {
    for (const [text, kind] of [
      ['Card 4111 1111 1111 1111_jane@example.ie on file.', 'email'],
      ['Call 087 123 4567_jane@example.ie now', 'email'],
      ['Call +353 1 234 5678_jane@example.ie now', 'email'],
      ['+353 1 234 5678alice@example.com', 'email'],
      ['Call +44 20 7946 0958alice@example.com', 'email'],
    ] as const) {
      const { out, left, spans } = redacts(text);
      expect(out.replace(/⟦[^⟧]*⟧/g, ''), text).not.toMatch(/\d|jane|alice/);
      expect(left, text).toEqual([]);
      expect(
        spans.map((span) => span.placeholder),
        text,
      ).toEqual([`⟦${kind} 1⟧`]);
    }
  });

  it('replaces a phone number glued to a date by a hyphen, or after a number and a semicolon or comma', () => {
    expect(redacts('Call +353 1 234 5678-2024-03-15 to confirm.').out).toBe('Call ⟦phone 1⟧-2024-03-15 to confirm.');
    expect(redacts('Ref 2024;087 123 4567 for the van.').out).toBe('Ref 2024;⟦phone 1⟧ for the van.');
    expect(redacts('Ref 2024, 087 123 4567 for the van.').out).toBe('Ref 2024, ⟦phone 1⟧ for the van.');
  });

  it('replaces a phone number followed by an IP address after a dot, underscore or colon', () => {
    for (const sign of ['.', '_', ':']) {
      for (const phone of ['+353 1 234 5678', '087 123 4567']) {
        const text = `Call ${phone}${sign}192.168.0.1 now`;
        expect(redacts(text).out, text).toBe(`Call ⟦phone 1⟧${sign}192.168.0.1 now`);
      }
    }
  });

  it('replaces values with runs of blanks or tabs between their groups', () => {
    for (const [text, kind] of [
      ['Card 4111  1111  1111  1111 (copied from the PDF).', 'card'],
      ['Card 4111\t1111\t1111\t1111 ok', 'card'],
      ['Rent IE29  AIBK  9311  5212  3456  78 ok', 'iban'],
      ['Rent IE29\tAIBK\t9311\t5212\t3456\t78 ok', 'iban'],
      ['Call +353  1  234  5678 ok', 'phone'],
      ['Call 087\t123\t4567 ok', 'phone'],
    ] as const) {
      const { out, left } = redacts(text);
      expect(out, text).toMatch(new RegExp(`^\\S+ ⟦${kind} 1⟧ `));
      expect(digitsIn(out), text).toBe('');
      expect(left, text).toEqual([]);
    }
  });

  it('replaces values with format characters inside (zero-width space, joiner, soft hyphen, BOM), covering them', () => {
    for (const [text, kind, value] of [
      ['Card 4\u200b111 1111 1111 1111 with a zero-width space.', 'card', '4\u200b111 1111 1111 1111'],
      ['Card 4111\u20601111\u20601111\u20601111 ok', 'card', '4111\u20601111\u20601111\u20601111'],
      ['Rent IE29 AIBK 9311 5212 3456 7\u00ad8 ok', 'iban', 'IE29 AIBK 9311 5212 3456 7\u00ad8'],
      ['Call +353\u200b 1 234 5678 ok', 'phone', '+353\u200b 1 234 5678'],
      ['Mail ja\ufeffne@example.ie ok', 'email', 'ja\ufeffne@example.ie'],
    ] as const) {
      const { out, map, left } = redacts(text);
      expect(out, text).toMatch(new RegExp(`^\\S+ ⟦${kind} 1⟧ `));
      expect(map[`⟦${kind} 1⟧`], text).toBe(value);
      expect(left, text).toEqual([]);
    }
  });

  it('replaces values written in digits of other scripts, and in full-width letters', () => {
    for (const [text, kind] of [
      ['Card ٤١١١ ١١١١ ١١١١ ١١١١ ok', 'card'],
      ['Card ۴۱۱۱ ۱۱۱۱ ۱۱۱۱ ۱۱۱۱ ok', 'card'],
      ['Card ४१११ ११११ ११११ ११११ ok', 'card'],
      ['Card 𝟒𝟏𝟏𝟏 𝟏𝟏𝟏𝟏 𝟏𝟏𝟏𝟏 𝟏𝟏𝟏𝟏 ok', 'card'],
      ['Call ०८७ १२३ ४५६७ ok', 'phone'],
      ['Call +३५३ १ २३४ ५६७८ ok', 'phone'],
      ['Rent IE२९ AIBK ९३११ ५२१२ ३४५६ ७८ ok', 'iban'],
      ['Mail ｊａｎｅ＠ｅｘａｍｐｌｅ．ｉｅ ok', 'email'],
    ] as const) {
      const { out, left } = redacts(text);
      expect(out, text).toBe(`${text.split(' ')[0]} ⟦${kind} 1⟧ ok`);
      expect(left, text).toEqual([]);
    }
  });

  it('reads a value in either form: the text as written, and its normal form', () => {
    // Found only as written (an IPv6 address and a tab before a national number), and only in the normal form.
    expect(redacts('::ffff:10.0.0.1\t01 234 5678 / x').out).toBe('::ffff:10.0.0.1\t⟦phone 1⟧ / x');
    expect(redacts('pay 4111 1111 1111 111\u200b1 now').out).toBe('pay ⟦card 1⟧ now');
  });

  it('masks at most a few rounds, and only when a value has something glued to it', () => {
    // A chain of glued values, each freed by the one before it.
    expect(redacts('a@x.ie.b@y.ie.c@z.com.d@w.org').out).toBe('⟦email 1⟧.⟦email 2⟧.⟦email 3⟧.⟦email 4⟧');
    // Nothing glued: the sentence's full stop after a value is no glue.
    expect(redacts('Mail jane@example.ie. Then call 087 123 4567.').out).toBe('Mail ⟦email 1⟧. Then call ⟦phone 1⟧.');
  });
});

describe('readingOf and asciiDigit: the redactor normal form (issue 27 review)', () => {
  it('maps decimal digits of every script to ASCII', () => {
    expect(['0', '٤', '۴', '४', '৪', '௪', '๔', '４', '𝟒', '𝟜', '᠔'].map(asciiDigit)).toEqual(['0', '4', '4', '4', '4', '4', '4', '4', '4', '4', '4']);
    expect(['٠', '٩', '०', '९', '𝟎', '𝟗', '𝟘', '𝟡'].map(asciiDigit)).toEqual(['0', '9', '0', '9', '0', '9', '0', '9']);
  });

  it('is undefined for plain text, and maps every unit of the normal form to the span it stands for', () => {
    expect(readingOf('Card 4111 1111 1111 1111.\nNext line')).toBeUndefined();
    expect(readingOf('a\tb')).toEqual({ text: 'a b', starts: [0, 1, 2], ends: [1, 2, 3] });
    expect(readingOf('a  b')).toEqual({ text: 'a b', starts: [0, 1, 3], ends: [1, 3, 4] });
    expect(readingOf('a \t b')).toEqual({ text: 'a b', starts: [0, 1, 4], ends: [1, 4, 5] });
    // Four blanks stay four (a phone number is read up to three).
    expect(readingOf('a    b')).toBeUndefined();
    expect(readingOf('a\u200bb')).toEqual({ text: 'ab', starts: [0, 2], ends: [1, 3] });
    expect(readingOf('𝟒1')).toEqual({ text: '41', starts: [0, 2], ends: [2, 3] });
    expect(readingOf('ﬁ٤')).toEqual({ text: 'fi4', starts: [0, 0, 1], ends: [1, 1, 2] });
    expect(readingOf('x\u00a0y')).toEqual({ text: 'x y', starts: [0, 1, 2], ends: [1, 2, 3] });
    expect(readingOf('café')).toBeUndefined();
  });

  it('guards with glue read as blanks: a sign against a placeholder, a semicolon between two characters', () => {
    expect(guardCopy('⟦  ⟧.jane@example.org')).toBe('⟦ ⟧ jane@example.org');
    expect(guardCopy('x_⟦  ⟧_y')).toBe('x ⟦ ⟧ y');
    expect(guardCopy('2024;087 123 4567; done')).toBe('2024 087 123 4567; done');
    expect(guardCopy('4\u200b111\t1111')).toBe('4111 1111');
    expect(guardCopy('plain text')).toBe('plain text');
  });

  it('stops a card the first reading cannot take: four blanks between groups', () => {
    const r = redactor();
    const out = r.redact('Card 4111    1111    1111    1111 ok');
    expect(out.text).toBe('Card 4111    1111    1111    1111 ok');
    expect(r.leftBehind()).toEqual(['card']);
  });
});

describe('Redactor: ordinary long numbers go out, cards glued to any sign do not (issue 27 review, property-style)', () => {
  // A seeded generator: the same numbers on every run.
  let seed = 27;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(next() * 10))).join('');
  const isCard = (run: string) => new Redactor({ kinds: ['card'], regions: [] }).redact(`x ${run} y`).text !== `x ${run} y`;

  it('sends decimals of 17 and 18 places and bare counters of 20 to 40 digits as written', () => {
    const texts: string[] = [];
    for (let i = 0; i < 200; i++) texts.push(`Measured ${digits(1)}.${digits(17 + (i % 2))} and 0.${digits(18)} in the lab.`);
    for (let i = 0; i < 300; i++) texts.push(`Counter ${String(1 + Math.floor(next() * 9))}${digits(19 + (i % 21))} in the log.`);
    for (let i = 0; i < 200; i++) {
      const run = digits(13 + (i % 7));
      // A run of 13-19 digits that is itself a valid card number is one, glued or not.
      if (!isCard(run)) texts.push(`order_${run}_x`);
    }
    for (const text of texts) {
      const r = redactor();
      expect(r.redact(text).text, text).toBe(text);
      expect(r.leftBehind(), text).toEqual([]);
    }
  });

  it('replaces a valid card glued to any sign or letter, or stops the request; never sends it', () => {
    const card = () => {
      const body = `4${digits(14)}`;
      for (let check = 0; check < 10; check++) if (isCard(`${body}${check}`)) return `${body}${check}`;
      throw new Error('no check digit');
    };
    const replaced: string[] = [];
    for (const sign of [...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~', 'a', 'Z']) {
      const value = card();
      const text = `x${sign}${value}${sign}y`;
      const r = redactor();
      const out = r.redact(text).text;
      expect(out.includes(value) && r.leftBehind().length === 0, text).toBe(false);
      if (!out.includes(value)) replaced.push(sign);
    }
    // Every sign but the ones that make it another value (`+` a phone number, `@` an email) has it replaced.
    expect(replaced.length).toBeGreaterThanOrEqual(30);
  });
});

describe('Redactor: dashes of every kind, and values glued by # + $ % or a dash (issue 27 review, rev27d)', () => {
  it('replaces a card whose groups are parted by an en dash, minus sign, hyphen or a dash with blanks around it', () => {
    for (const text of [
      'Card 4111\u20131111\u20131111\u20131111 from the letter.',
      'Card 4111\u22121111\u22121111\u22121111 with minus signs.',
      'Card 4111\u20101111\u20101111\u20101111 with hyphens.',
      'Card 4111 - 1111 - 1111 - 1111 spaced.',
      'Card 4111 \u2014 1111 \u2014 1111 \u2014 1111 with em dashes.',
    ]) {
      const r = redactor();
      const out = r.redact(text).text;
      expect(out, text).toMatch(/^Card ⟦card 1⟧ \S/);
      expect(r.leftBehind(), text).toEqual([]);
    }
    // A range stays as written.
    const r = redactor();
    expect(r.redact('From 2020 - 2024 we met 10 \u2013 12 people.').text).toBe('From 2020 - 2024 we met 10 \u2013 12 people.');
    expect(readingOf('4111 \u2013 1111')?.text).toBe('4111-1111');
    expect(readingOf('a \u2212 b')?.text).toBe('a - b');
  });

  it('replaces a phone number glued to another value by #, +, $ or %, and two national numbers glued by a dash', () => {
    for (const [text, expected, region] of [
      ['Card 4111 1111 1111 1111#087 123 4567 on file.', 'Card ⟦card 1⟧#⟦phone 1⟧ on file.', 'IE'],
      ['Mail jane@example.ie+087 123 4567 today.', 'Mail ⟦email 1⟧+⟦phone 1⟧ today.', 'IE'],
      ['Rent IE29AIBK93115212345678#087 123 4567 monthly.', 'Rent ⟦iban 1⟧#⟦phone 1⟧ monthly.', 'IE'],
      ['Card 4111111111111111++353 1 234 5678 on file.', 'Card ⟦card 1⟧+⟦phone 1⟧ on file.', 'IE'],
      ['Jane: +353 1 234 5678%4111 1111 1111 1111 on file.', 'Jane: ⟦phone 1⟧%⟦card 1⟧ on file.', 'IE'],
      ['Jane: 087 123 4567$IE29AIBK93115212345678 on file.', 'Jane: ⟦phone 1⟧$⟦iban 1⟧ on file.', 'IE'],
      ['Call 4111111111111111#415-555-2671 in the US.', 'Call ⟦card 1⟧#⟦phone 1⟧ in the US.', 'US'],
      ['Call 087 123 4567-087 765 4321 either.', 'Call ⟦phone 1⟧-⟦phone 2⟧ either.', 'IE'],
    ] as const) {
      const r = redactor(DEFAULT_REDACT_KINDS, region);
      expect(r.redact(text).text, text).toBe(expected);
      expect(r.leftBehind(), text).toEqual([]);
    }
    // Dates, invoice numbers and ISBNs with a dash before a 0 stay as written.
    const text = 'On 2024-03-05, INV-2024-000123 and ISBN 978-0-306-40615-7.';
    const r = redactor();
    expect(r.redact(text).text).toBe(text);
    expect(r.leftBehind()).toEqual([]);
  });
});

describe('Redactor: an IBAN in groups of any size or separator stops the request (issue 27 review, rev27d)', () => {
  it('replaces an IBAN with dots, a blank after the country code, or in groups of three (stopped before rev27e)', () => {
    for (const text of [
      'IBAN DE89.3704.0044.0532.0130.00 for rent.',
      'IBAN DE 89 3704 0044 0532 0130 00 for rent.',
      'IBAN DE893 704 004 405 320 130 00 for rent.',
    ]) {
      const r = redactor();
      expect(r.redact(text).text, text).toBe('IBAN ⟦iban 1⟧ for rent.');
      expect(r.leftBehind(), text).toEqual([]);
    }
  });
});

describe('Redactor: invisible marks after a digit and NEL inside a card (issue 27 review, rev27d)', () => {
  it('replaces a card with a variation selector, a grapheme joiner, an accent on a digit or NEL between its digits', () => {
    for (const text of [
      'Card 4111\ufe0f1111\ufe0f1111\ufe0f1111 with VS16.',
      'Card 4111\u034f1111\u034f1111\u034f1111 with CGJ.',
      'Card 4\u0301111 1111 1111 1111 with an accent.',
      'Card 4111\u00851111\u00851111\u00851111 with NEL.',
    ]) {
      const r = redactor();
      expect(r.redact(text).text, text).toMatch(/^Card ⟦card 1⟧ with/);
      expect(r.leftBehind(), text).toEqual([]);
    }
    // A mark on a letter is kept (the reading of a word is not changed).
    expect(readingOf('cafe\u0301 4\u0301')?.text).toBe('cafe\u0301 4');
  });
});
