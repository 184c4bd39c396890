import { describe, expect, it } from 'vitest';
import { DEFAULT_REDACT_KINDS, readingOf, Redactor, type RedactKind } from '../../../src/core/facts/redact.js';
import { DEFAULT_REGIONS } from '../../../src/core/facts/region.js';

/**
 * What the redactor's readings replace, stop and let through, case by case, in texts the existing redaction tests
 * did not reach (issue 27 review: a mutation run of src/core/facts/redact.ts showed which rules no test pinned down).
 * Each case asserts the text that would be sent, the map kept at home and whether the request stops.
 */
const redactor = (kinds: readonly RedactKind[] = DEFAULT_REDACT_KINDS, region: string | null = 'IE') => new Redactor({ kinds, region, regions: [] });

const redacts = (text: string, options: { cutAt?: number } = {}) => {
  const r = redactor();
  const out = r.redact(text, options);
  return { out: out.text, left: r.leftBehind().sort(), map: r.map(), counts: r.counts() };
};

/** A sentence of 101 characters: puts what follows (or precedes) it past the 96 characters a reading looks around a place. */
const PAD = 'This line only pads the text so that what follows stands well past the first ninety-six characters. ';

describe('Redactor: the second reading after a cut or next to an @ (issue 27)', () => {
  it('stops a phone number that a cut for the prompt made whole, where the whole text held no valid number', () => {
    // Whole, `087 123 4567890123` is one digit run no region validates; cut after `4567`, it is a valid number.
    expect(redacts('call 087 123 4567890123 now').out).toBe('call 087 123 4567890123 now');
    expect(redacts('call 087 123 4567890123 now').left).toEqual([]);
    const cut = redacts('call 087 123 4567890123 now', { cutAt: 17 });
    expect(cut.out).toBe('call 087 123 4567');
    expect(cut.left).toEqual(['phone']);
  });

  it('does not stop a request for an @ at either end of the text, away from any placeholder', () => {
    for (const [text, out] of [
      ['@example.org: mail jane@example.ie', '@example.org: mail ⟦email 1⟧'],
      ['mail jane@example.ie or write to support@', 'mail ⟦email 1⟧ or write to support@'],
      ['@team card 4111 1111 1111 1111 and mail jane@example.ie, cc ops@', '@team card ⟦card 1⟧ and mail ⟦email 1⟧, cc ops@'],
    ] as const) {
      const result = redacts(text);
      expect(result.out, text).toBe(out);
      expect(result.left, text).toEqual([]);
    }
  });
});

describe('Redactor: two national numbers glued by a dash, next to other values (issue 27 review)', () => {
  it('replaces both numbers whatever stands before or after them, and a third glued the same way', () => {
    for (const [text, out] of [
      ['Mail jane@example.ie, call 087 123 4567-087 765 4321 today', 'Mail ⟦email 1⟧, call ⟦phone 1⟧-⟦phone 2⟧ today'],
      ['Call 087 123 4567-087 765 4321 or mail jane@example.ie today', 'Call ⟦phone 1⟧-⟦phone 2⟧ or mail ⟦email 1⟧ today'],
      ['Call 087 123 4567-087 765 4321-086 111 2222 now', 'Call ⟦phone 1⟧-⟦phone 2⟧-⟦phone 3⟧ now'],
      ['Card 4111 1111 1111 1111-087 123 4567 on file', 'Card ⟦card 1⟧-⟦phone 1⟧ on file'],
      [
        'Mail jane@example.ie: 087 123 4567-087 765 4321, or ops@example.com: 087 123 4567-086 111 2222.',
        'Mail ⟦email 1⟧: ⟦phone 1⟧-⟦phone 2⟧, or ⟦email 2⟧: ⟦phone 1⟧-⟦phone 3⟧.',
      ],
    ] as const) {
      const result = redacts(text);
      expect(result.out, text).toBe(out);
      expect(result.left, text).toEqual([]);
    }
  });
});

describe('Redactor: values glued to a value found, read again with it masked (issue 27 review)', () => {
  it('frees a glued value even when another value in the text has nothing glued to it', () => {
    const { out, left, map } = redacts('Mail jane@example.ie.jane@example.org today, call 087 123 4567 now');
    expect(out).toBe('Mail ⟦email 1⟧.⟦email 2⟧ today, call ⟦phone 1⟧ now');
    expect(left).toEqual([]);
    expect(map).toEqual({ '⟦email 1⟧': 'jane@example.ie', '⟦email 2⟧': 'jane@example.org', '⟦phone 1⟧': '087 123 4567' });
  });

  it('gives a value freed from its neighbour the placeholder it has elsewhere in the request', () => {
    const r = redactor();
    expect(r.redact('Mail jane@example.ie.jane@example.org; again jane@example.org').text).toBe('Mail ⟦email 1⟧.⟦email 2⟧; again ⟦email 2⟧');
    expect(r.redact('Later: jane@example.org').text).toBe('Later: ⟦email 2⟧');
    expect(r.counts()).toEqual({ email: 2 });
  });

  it('covers a number and the email glued to its last digits with one placeholder, of the kind of the longer find', () => {
    // The email recogniser reads `4567_j@x.ie`; masked, the phone number reads whole and is longer.
    for (const [text, kind] of [
      ['Call 087 123 4567_j@x.ie now', 'phone'],
      ['Call +353 1 234 5678_j@x.ie now', 'phone'],
      ['Call 087 123 4567_jane.doe@example.ie now', 'email'],
    ] as const) {
      const r = redactor();
      const out = r.redact(text);
      expect(out.text, text).toBe(`Call ⟦${kind} 1⟧ now`);
      expect(r.map(), text).toEqual({ [`⟦${kind} 1⟧`]: text.slice(5, -4) });
      expect(r.leftBehind(), text).toEqual([]);
    }
  });

  it('keeps the other values of the text when it merges a number with its email, and two merges apart', () => {
    expect(redacts('Mail ops@example.com. Call 087 123 4567_jane@example.ie now').map).toEqual({
      '⟦email 1⟧': 'ops@example.com',
      '⟦email 2⟧': '087 123 4567_jane@example.ie',
    });
    const two = redacts('Call 087 123 4567_jane@example.ie or 086 765 4321_ann@example.org');
    expect(two.out).toBe('Call ⟦email 1⟧ or ⟦email 2⟧');
    expect(two.map).toEqual({ '⟦email 1⟧': '087 123 4567_jane@example.ie', '⟦email 2⟧': '086 765 4321_ann@example.org' });
    const after = redacts('Call 087 123 4567_jane@example.ie, then 086 765 4321');
    expect(after.out).toBe('Call ⟦email 1⟧, then ⟦phone 1⟧');
    expect(after.left).toEqual([]);
  });
});

describe('Redactor: the third reading in longer texts (issue 27 variations)', () => {
  it('stops a glued value with a long text after it, and lets a covered one go with a long text before it', () => {
    const glued = redacts(`alice@example.com0871234567 ${PAD}${PAD}`);
    expect(glued.out).toBe(`alice@example.com0871234567 ${PAD}${PAD}`);
    expect(glued.left).toEqual(['email', 'phone']);
    const covered = redacts(`${PAD}mail user123@example.com and jane2@example.org ok`);
    expect(covered.out).toBe(`${PAD}mail ⟦email 1⟧ and ⟦email 2⟧ ok`);
    expect(covered.left).toEqual([]);
  });

  it('sends nothing of a glued token the cut leaves out, even when the cut falls right at its start', () => {
    const text = `${'word '.repeat(30)}alice@example.com0871234567`;
    const { out, left } = redacts(text, { cutAt: 150 });
    expect(out).toBe('word '.repeat(30));
    expect(left).toEqual([]);
  });

  it('replaces a phone number before a date in a text with two such dates (rev27e: stopped before), and lets dates after plain numbers go', () => {
    const two = redacts('Call 087 123 4567 2024-03-15 or 01 234 5678 2024-03-16 today');
    expect(two.out).toBe('Call ⟦phone 1⟧ 2024-03-15 or ⟦phone 2⟧ 2024-03-16 today');
    expect(two.left).toEqual([]);
    for (const text of [
      'Room 12 2024-03-15 jane@example.ie and room 14 2024-03-16 ok',
      `Room 12 2024-03-15 jane@example.ie ${PAD}${PAD}room 14 2024-03-16 ok`,
      `Room 12 2024-03-15 ${PAD}jane@example.ie ${PAD}room 14 2024-03-16 ok`,
    ]) {
      const result = redacts(text);
      expect(result.out, text).toBe(text.replace('jane@example.ie', '⟦email 1⟧'));
      expect(result.left, text).toEqual([]);
    }
  });
});

describe('readingOf: marks, dashes and blank runs (issue 27 review)', () => {
  it('replaces a card typed in keycap digits (digit, variation selector, enclosing keycap)', () => {
    const keycaps = (digits: string) => [...digits].map((digit) => (digit === ' ' ? ' ' : `${digit}\ufe0f\u20e3`)).join('');
    const r = redactor();
    const out = r.redact(`Card ${keycaps('4111 1111 1111 1111')} ok`).text;
    expect(out).toMatch(/^Card ⟦card 1⟧\S* ok$/);
    expect(out.replace('⟦card 1⟧', '')).not.toMatch(/\d/);
    expect(r.leftBehind()).toEqual([]);
  });

  it('leaves out only the marks right after a digit: a word after a number keeps its accent, and so does a mark at the start', () => {
    expect(readingOf('Room 4 cafe\u0301\u00a0bar')?.text).toBe('Room 4 cafe\u0301 bar');
    expect(readingOf('\u0301x 4\u0301')?.text).toBe('\u0301x 4');
  });

  it('reads a dash with blanks around it as a dash only between two digits, and maps it to the whole stretch', () => {
    expect(readingOf('Part A - 2\u00a0b')?.text).toBe('Part A - 2 b');
    expect(readingOf('4 - 1\u00a0')).toEqual({ text: '4-1 ', starts: [0, 1, 4, 5], ends: [1, 4, 5, 6] });
  });

  it('keeps a run of four blanks, with one offset for each, and still maps a value found after it to its place', () => {
    expect(readingOf('x    y\u00a0')).toEqual({ text: 'x    y ', starts: [0, 1, 2, 3, 4, 5, 6], ends: [1, 2, 3, 4, 5, 6, 7] });
    const { out, map } = redacts('a    b card 4111 1111 1111 111\u200b1 now');
    expect(out).toBe('a    b card ⟦card 1⟧ now');
    expect(map).toEqual({ '⟦card 1⟧': '4111 1111 1111 111\u200b1' });
  });

  it('reads full-width digits one for one: a value after one is replaced in place, and one in full width as written', () => {
    expect(redacts('Room ４, mail jane@example.ie').out).toBe('Room ４, mail ⟦email 1⟧');
    // Found only as written (the tab kept): the normal form reads the address and the number as one run.
    expect(redacts('::ffff:10.0.0.1\t０１ ２３４ ５６７８ / x').out).toBe('::ffff:10.0.0.1\t⟦phone 1⟧ / x');
  });
});

describe('Redactor: two national numbers glued by a dash, where the dash reads as part of a short number (issue 27 review)', () => {
  it('replaces both numbers whole, not the short number read across the dash with the rest of them sent', () => {
    // `2222-085` and `2606-086` read as valid Irish numbers across the dash.
    for (const [text, first, second] of [
      ['Call 086 111 2222-085 333 4444 now', '086 111 2222', '085 333 4444'],
      ['Call 083 404 2606-086 666 4888 now', '083 404 2606', '086 666 4888'],
    ] as const) {
      const r = redactor();
      expect(r.redact(text).text, text).toBe('Call ⟦phone 1⟧-⟦phone 2⟧ now');
      expect(r.map(), text).toEqual({ '⟦phone 1⟧': first, '⟦phone 2⟧': second });
      expect(r.leftBehind(), text).toEqual([]);
    }
  });

  it('sends no digit of two valid national numbers glued by a dash, for any numbers (seeded)', () => {
    let seed = 2027;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * n);
    };
    const digits = (n: number) => Array.from({ length: n }, () => String(next(10))).join('');
    const prefixes = ['083', '085', '086', '087', '089'];
    const number = () => `${prefixes[next(prefixes.length)]} ${digits(3)} ${digits(4)}`;
    const valid = (phone: string) => redactor().redact(phone).text === '⟦phone 1⟧';
    let pairs = 0;
    while (pairs < 150) {
      const [a, b] = [number(), number()];
      if (!valid(a) || !valid(b)) continue;
      pairs++;
      const text = `Call ${a}-${b} now`;
      const r = redactor();
      const out = r.redact(text).text;
      // Replaced (each with its own placeholder, or one for what reads as one value), or the request stops.
      if (r.leftBehind().length === 0) expect(out.replace(/⟦[^⟧]*⟧/g, ''), text).not.toMatch(/\d/);
    }
  });
});

describe('Redactor: a long number cut by the edge of what the third reading reads around a place (issue 27 variations)', () => {
  // A 24-digit counter standing alone goes out as written. The stretch read around a glued token or a date after a
  // number (96 characters each side) may cut it so that 16 of its digits, a valid card number, stand at its edge:
  // that is no card. The counter is put at every distance from the place, before it and after it.
  const CARD_DIGITS = '4111111111111111';

  it('reads no value out of a counter before a glued token or a date, whatever its distance', () => {
    for (const after of [' mail user123@example.com ok', ' Room 12 2024-03-15 ok']) {
      for (let gap = 70; gap <= 100; gap++) {
        const text = `Counter 12345678${CARD_DIGITS} ${'x'.repeat(gap)}${after}`;
        const r = redactor();
        expect(r.redact(text).text, text).toBe(text.replace('user123@example.com', '⟦email 1⟧'));
        expect(r.leftBehind(), text).toEqual([]);
      }
    }
  });

  it('reads no value out of a counter after a glued token or a date, whatever its distance', () => {
    for (const before of ['mail user123@example.com ', 'Room 12 2024-03-15 ']) {
      for (let gap = 70; gap <= 100; gap++) {
        const text = `${before}${'y'.repeat(gap)} ${CARD_DIGITS}12345678 ok`;
        const r = redactor();
        expect(r.redact(text).text, text).toBe(text.replace('user123@example.com', '⟦email 1⟧'));
        expect(r.leftBehind(), text).toEqual([]);
      }
    }
  });
});

describe('Redactor: values around dates after numbers, and split across line breaks (issue 27 variations)', () => {
  it('stops a phone number after a date that follows a number, which only the reading with the date blanked finds', () => {
    const { out, left } = redacts('Room 1 2024-03-15 087 123 4567 ok');
    // The grouped reading (rev27e) replaces the number at the end of the run; the request still stops.
    expect(out).toBe('Room 1 2024-03-15 ⟦phone 1⟧ ok');
    expect(left).toEqual(['phone']);
  });

  it('replaces a phone number split across a line break at any of its gaps, with the break kept in the value', () => {
    for (const text of ['call +353 1\n234 5678 ok', 'call +353 1 234\n5678 ok', 'call 087\n123 4567 ok', 'call 087 123\r\n4567 ok']) {
      const r = redactor();
      expect(r.redact(text).text, text).toBe('call ⟦phone 1⟧ ok');
      expect(r.map()['⟦phone 1⟧'], text).toBe(text.slice(5, -3));
    }
  });
});

describe('Redactor: the stretches read with dates blanked, in longer texts (issue 27 variations)', () => {
  it('stops a phone number between two dates that each follow a number, which only a reading with both blanked finds', () => {
    const { out, left } = redacts('Room 1 2024-03-15 087 123 4567 2024-03-16 ok');
    // Since rev27f the digit skeleton replaces the number; the second reading then reads `1 2024-03-15` beside the
    // placeholder as a Dublin number, and the request still stops.
    expect(out).toBe('Room 1 2024-03-15 ⟦phone 1⟧ 2024-03-16 ok');
    expect(left).toEqual(['phone']);
  });

  it('lets an email after a date that follows a number go as its placeholder, far into a text', () => {
    const text = `${PAD}Room 12 2024-03-15 jane@example.ie wrote to us about the room and the dates`;
    const { out, left } = redacts(text);
    expect(out).toBe(text.replace('jane@example.ie', '⟦email 1⟧'));
    expect(left).toEqual([]);
  });
});

describe('Redactor: a value before a date-time whose digits are glued to a letter (rev27h)', () => {
  it('replaces the number: the group glued to the letter parts the run, and the skeleton reads the number before it', () => {
    const result = redacts('Call 01 234 5678 2024-03-15T14:30:00Z, mail jane@example.ie');
    expect(result.out).toBe('Call ⟦phone 1⟧ 2024-03-15T14:30:00Z, mail ⟦email 1⟧');
    expect(result.left).toEqual([]);
  });
});

describe('Redactor: a value the third reading finds stops the request whatever else is replaced (issue 27 variations)', () => {
  it('stops a glued value though a placeholder stands later in the text, which covers nothing of it', () => {
    for (const [text, out, kinds] of [
      ['alice@example.com0871234567, cc bob@example.org', 'alice@example.com0871234567, cc ⟦email 1⟧', ['email', 'phone']],
      // (`Call 087 123 4567 2024-03-15` is replaced since rev27e: the grouped reading takes the number before the date.)
      // (`Call 01 234 5678 2024-03-15T14:30:00Z` too since rev27h: a group glued to a letter parts a run of the digit
      // skeleton instead of leaving the whole run out; below.)
      ['https://example.com/a+353 1 234 5678x or jane@example.ie', 'https://example.com/a+353 1 234 5678x or ⟦email 1⟧', ['phone']],
    ] as const) {
      const result = redacts(text);
      expect(result.out, text).toBe(out);
      expect(result.left, text).toEqual([...kinds]);
    }
  });
});

describe('Redactor: the fourth reading, of the text as written, and a blank before a dotted number (rev27h)', () => {
  const withRegion = (text: string, region: string) => {
    const r = redactor(DEFAULT_REDACT_KINDS, region);
    const out = r.redact(text);
    return { out: out.text, left: r.leftBehind().sort() };
  };

  it('stops a request where a chance card over an IBAN’s last group and a card glued to it would send the IBAN’s first groups', () => {
    const result = withRegion('IBAN NL74 RABO 9374 1516 674111-1111-1111-1111 ok', 'IE');
    // The first reading replaces the chance card only: the IBAN's first groups are still in the text.
    expect(result.out).toBe('IBAN NL74 RABO 9374 1516 ⟦card 1⟧ ok');
    expect(result.left).toEqual(['iban']);
  });

  it('stops a request where a phone reading over a dotted card’s last group and its expiry would send the card’s first groups', () => {
    const result = withRegion('Refund FR76-1905-1823-2966-0860-2949-839. 6011.3148.4301.8366 09/27 123', 'DE');
    expect(result.out).toContain('6011.3148.4301');
    expect(result.left).toEqual(['card']);
  });

  it('stops a request where a card read over a phone number’s tail and a card’s first groups would send the card’s last groups', () => {
    const result = withRegion('Tel 089 649229355503 5362 7231 9694 12.50', 'DE');
    expect(result.out).toContain('7231 9694');
    expect(result.left).toEqual(['card']);
  });

  it('lets a text go whose placeholders cover every digit of each card and IBAN read in it as written', () => {
    for (const text of [
      'IBAN NL91 ABNA 0417 1643 00 and card 4111 1111 1111 1111',
      'Tel 030 1234 4111 1111 1111 1111',
      'Card 4111-1111-1111-1111, exp 09/27',
    ]) {
      expect(withRegion(text, 'DE').left, text).toEqual([]);
    }
  });

  it('stops a request where a card in groups parted by another sign after an IBAN would send its first groups (rev27j)', () => {
    for (const sign of ['·', '•', ':', '*', '+', "'", '=', '~']) {
      const text = `IBAN DE02 3901 5204 0003 5974 40 4242${sign}4242${sign}4242${sign}4242 09/27`;
      // The default candidate regions, as the CLI has them: a phone reading takes the last group and the expiry.
      const r = new Redactor({ kinds: DEFAULT_REDACT_KINDS, region: 'ES', regions: DEFAULT_REGIONS });
      const out = r.redact(text).text;
      expect(out, text).toContain(`4242${sign}4242${sign}4242`);
      expect(r.leftBehind(), text).toEqual(['card']);
    }
  });

  it('reads two national numbers side by side as two when the second has a sign after its area code', () => {
    expect(withRegion('Tel 0893647976 089.31829741 ok', 'DE')).toEqual({ out: 'Tel ⟦phone 1⟧ ⟦phone 2⟧ ok', left: [] });
    expect(withRegion('Tel 0893647976 089/31829741 ok', 'DE').out).not.toContain('31829741');
    // The blank before a number with no sign after its area code is no seam: one number in groups stays one find.
    expect(withRegion('Tel 089 3647 9760 ok', 'DE').out).toBe('Tel ⟦phone 1⟧ ok');
  });
});

describe('Redactor: the fourth reading in a text whose digits are decimal only in its normal form (rev27q)', () => {
  const circled = (text: string) => text.replace(/\d/g, (digit) => (digit === '0' ? '⓪' : String.fromCodePoint(0x2460 + Number(digit) - 1)));
  const superscript = (text: string) => text.replace(/\d/g, (digit) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[Number(digit)]!);

  it('stops a card or IBAN in circled or superscript digits printed in groups no recogniser reads', () => {
    for (const disguise of [circled, superscript]) {
      for (const [text, kind] of [
        ['4111||1111||1111||1111', 'card'],
        ['note 4111;\n1111;1111;1111', 'card'],
        ['DE89||3704||0044||0532||0130||00', 'iban'],
      ] as const) {
        const r = redactor();
        const out = r.redact(disguise(text)).text;
        // No recogniser reads them: the text goes as written unless the fourth reading stops it.
        expect(out, disguise(text)).toBe(disguise(text));
        expect(r.leftBehind(), disguise(text)).toEqual([kind]);
      }
    }
  });

  it('lets prose with no digit in any form go', () => {
    const r = redactor();
    expect(r.redact('Meeting moved to Friday || bring the slides · ①st draft welcome').text).toContain('Friday');
    expect(r.leftBehind()).toEqual([]);
  });
});

describe('seams: two numbers glued where no blank parts them (issue 27, review rev27j)', () => {
  const read = (text: string, region: string) => {
    const r = new Redactor({ kinds: DEFAULT_REDACT_KINDS, region, regions: DEFAULT_REGIONS });
    return { out: r.redact(text).text, stopped: r.leftBehind().length > 0 };
  };

  it('replaces a phone number after an unpaired closing bracket glued to a date, with an amount after it', () => {
    expect(read('el 2023-07-24)660 45 57 87 12.50', 'ES')).toEqual({ out: 'el 2023-07-24)⟦phone 1⟧ 12.50', stopped: false });
    // The amount's whole part goes with the number, as after a `;` (`n° 3;087 123 4567 12.50`): more is replaced, nothing sent.
    expect(read('n° 3)087 123 4567 12.50', 'IE')).toEqual({ out: 'n° 3)⟦phone 1⟧.50', stopped: false });
  });

  it('replaces a phone number whose bracketed area code has a sign before it, with an amount after it', () => {
    expect(read('call ((305)-261-1549 12.50', 'US')).toEqual({ out: 'call (⟦phone 1⟧ 12.50', stopped: false });
    expect(read('call [(305)-261-1549 12.50', 'US')).toEqual({ out: 'call [⟦phone 1⟧ 12.50', stopped: false });
  });

  it('keeps a bracket that is the number’s own whole', () => {
    expect(read('call (305)261-1549 12.50', 'US')).toEqual({ out: 'call ⟦phone 1⟧ 12.50', stopped: false });
    expect(read('ring +44 (0)20 7946 0958 12.50', 'GB')).toEqual({ out: 'ring ⟦phone 1⟧ 12.50', stopped: false });
    expect(read('ruf +49 (0)30 12345678', 'DE')).toEqual({ out: 'ruf ⟦phone 1⟧', stopped: false });
  });
});

describe('the fourth reading: rows of figures beside a wrapped card (inRowOfFigures; reviews rev27p, rev27q, rev27r)', () => {
  const stopped = (text: string) => {
    const r = redactor();
    const out = r.redact(text).text;
    // No recogniser reads these wrapped cards: the text goes as written unless the fourth reading stops it.
    expect(out, text).toBe(text);
    return r.leftBehind().length > 0;
  };

  it('stops a wrapped card with no figure beside it, or a year alone beside it in its own separator', () => {
    expect(stopped('card 4111,\n1111,1111,1111 ok')).toBe(true);
    expect(stopped('card 4111,\n1111,1111,1111, 2027 ok')).toBe(true);
    expect(stopped('In 1999, 4111,\n1111,1111,1111 ok')).toBe(true);
  });

  it('lets rows of figures go: one figure that is no year beside it, or two figures, in its own separator', () => {
    expect(stopped('Codes 9844,\n4111,\n1111,1111,1111 ok')).toBe(false);
    expect(stopped('card 4111,\n1111,1111,1111, 2027, 5555 ok')).toBe(false);
    expect(stopped('Codes 2026,2027,\n4111,\n1111,1111,1111 ok')).toBe(false);
  });

  it('counts a neighbour only in the card’s own separator, within eight characters, and not as the end of a longer number', () => {
    // Another separator: no neighbour.
    expect(stopped('Codes 9844;\n4111,\n1111,1111,1111 ok')).toBe(true);
    // The separator and six blanks and a break (eight) before, or seven blanks after (eight): a neighbour; one more: none.
    expect(stopped('Ref 3456,      \n4111,\n1111,1111,1111 ok')).toBe(false);
    expect(stopped('Ref 3456,       \n4111,\n1111,1111,1111 ok')).toBe(true);
    expect(stopped('card 4111,\n1111,1111,1111,       3456 ok')).toBe(false);
    expect(stopped('card 4111,\n1111,1111,1111,        3456 ok')).toBe(true);
    // Eight characters away, the last or first four digits of a longer number are no group of four.
    expect(stopped('Ref 123456,      \n4111,\n1111,1111,1111 ok')).toBe(true);
    expect(stopped('card 4111,\n1111,1111,1111,       123456 ok')).toBe(true);
  });
});

describe('the fourth reading: the text as written, folded one for one (review rev27p, rev27q)', () => {
  const left = (text: string) => {
    const r = redactor();
    expect(r.redact(text).text, text).toBe(text);
    return r.leftBehind();
  };

  it('reads full-width digits, letters and signs, digits outside the BMP and digits that are one ASCII digit to NFKC', () => {
    expect(left('card ４１１１||１１１１||１１１１||１１１１ ok')).toEqual(['card']);
    expect(left('IBAN ＤＥ８９||３７０４||００４４||０５３２||０１３０||００ ok')).toEqual(['iban']);
    // ` - ` between two digits is `-` in the normal form, not before a U+2028: only the text as written keeps every gap.
    expect(left('card 𝟒𝟏𝟏𝟏 - \u2028𝟏𝟏𝟏𝟏 - 𝟏𝟏𝟏𝟏 - 𝟏𝟏𝟏𝟏 ok')).toEqual(['card']);
    expect(left('card ⁴¹¹¹,¹¹¹¹,\u0085¹¹¹¹,¹¹¹¹ ok')).toEqual(['card']);
    expect(left('card ⑤⑤⑤⑤||⑤⑤⑤⑤||\f⑤⑤⑤⑤||④④④④ ok')).toEqual(['card']);
  });

  it('maps a find in the text as written without its marks back to where it stands: placeholders cover it', () => {
    // A zero-width space inside a group: read without it, and stopped.
    expect(left('card 4\u200b111||1111||1111||1111 ok')).toEqual(['card']);
    // The same card replaced where a recogniser reads it: nothing left behind, with marks and astral digits around.
    const r = redactor();
    expect(r.redact('𝟏𝟐 card 4111 1111 1111 1111 ok\u200b').text).toBe('𝟏𝟐 card ⟦card 1⟧ ok\u200b');
    expect(r.leftBehind()).toEqual([]);
  });
});
