import { describe, expect, it, vi } from 'vitest';
import { createLineIndex, extractFacts, labelAt, lineCol, type Fact, type Passage } from '../../../src/core/facts/index.js';

function expectGrounded(passages: readonly Passage[], facts: readonly Fact[]): void {
  const bySource = new Map(passages.map((passage) => [passage.source, passage.text]));
  for (const fact of facts) {
    expect(fact.value).toBe(fact.occurrences[0]?.text);
    for (const occurrence of fact.occurrences) {
      expect(bySource.get(occurrence.source)?.slice(occurrence.start, occurrence.end)).toBe(occurrence.text);
    }
  }
}

describe('extractFacts', () => {
  const passages: Passage[] = [
    { source: 'mem-1', text: 'Dublin office\nOffice: +353 1 234 5678\nBilling contact — billing@example.ie' },
    { source: 'mem-2', text: 'Ring 01 234 5678 (reception).\nSupport: +1 415 555 0132' },
  ];

  it('returns facts in the §5.2 shape with the value sliced from the source', () => {
    const facts = extractFacts(passages, { kinds: ['phone'], region: 'IE' });
    expectGrounded(passages, facts);
    expect(facts[0]).toEqual({
      kind: 'phone',
      value: '+353 1 234 5678',
      normalized: '+35312345678',
      label: 'Office',
      origin: 'validated',
      check: 'validated',
      region: 'IE',
      occurrences: [
        { source: 'mem-1', start: 22, end: 37, text: '+353 1 234 5678', label: 'Office' },
        { source: 'mem-2', start: 5, end: 16, text: '01 234 5678', label: '' },
      ],
    });
  });

  it('merges occurrences with the same kind and normalised value across passages', () => {
    const facts = extractFacts(passages, { kinds: ['phone'], region: 'IE' });
    expect(facts.map((fact) => [fact.normalized, fact.occurrences.length])).toEqual([
      ['+35312345678', 2],
      ['+14155550132', 1],
    ]);
  });

  it('orders facts by the rank of the first passage citing them, then by offset', () => {
    const ranked: Passage[] = [
      { source: 'b', text: 'second: jane@example.com then alice@example.com' },
      { source: 'a', text: 'bob@example.com and jane@example.com' },
    ];
    const facts = extractFacts(ranked, { kinds: ['email'] });
    expect(facts.map((fact) => fact.normalized)).toEqual(['jane@example.com', 'alice@example.com', 'bob@example.com']);
  });

  it('caps facts per kind when a limit is given, and not otherwise', () => {
    const text = Array.from({ length: 8 }, (_, i) => `u${i}@example.com`).join(' ') + ' 10.0.0.1 10.0.0.2';
    const many = [{ source: 's', text }];
    expect(extractFacts(many, { kinds: ['email', 'ip'] })).toHaveLength(10);
    const capped = extractFacts(many, { kinds: ['email', 'ip'], limit: 5 });
    expect(capped.filter((fact) => fact.kind === 'email').map((fact) => fact.value)).toEqual([
      'u0@example.com',
      'u1@example.com',
      'u2@example.com',
      'u3@example.com',
      'u4@example.com',
    ]);
    expect(capped.filter((fact) => fact.kind === 'ip')).toHaveLength(2);
  });

  it('finds nothing for address: that kind is left to the model fallback', () => {
    expect(extractFacts(passages, { kinds: ['address'] })).toEqual([]);
    expect(extractFacts(passages, { kinds: ['email'] }).length).toBeGreaterThan(0);
  });

  it('lists an occurrence once when a passage is given twice', () => {
    const facts = extractFacts([passages[0]!, passages[0]!], { kinds: ['email'] });
    expect(facts).toHaveLength(1);
    expect(facts[0]?.occurrences).toHaveLength(1);
  });

  it('takes the first non-empty occurrence label as the fact label', () => {
    const facts = extractFacts(
      [
        { source: 'x', text: 'call 01 234 5678' },
        { source: 'y', text: 'Reception: 01 234 5678' },
      ],
      { kinds: ['phone'], region: 'IE' },
    );
    expect(facts[0]?.label).toBe('Reception');
    expect(facts[0]?.occurrences.map((occurrence) => occurrence.label)).toEqual(['', 'Reception']);
  });

  it('labels every value of a list, blanking out the values before it on the line', () => {
    const text = 'Emails: ops@example.ie, https://example.ie/x, billing@example.ie\nIBANs — IE29 AIBK 9311 5212 3456 78, DE89370400440532013000';
    const facts = extractFacts([{ source: 's', text }], { kinds: ['email', 'iban'] });
    expect(facts.map((fact) => [fact.value, fact.label])).toEqual([
      ['ops@example.ie', 'Emails'],
      ['billing@example.ie', 'Emails'],
      ['IE29 AIBK 9311 5212 3456 78', 'IBANs'],
      ['DE89370400440532013000', 'IBANs'],
    ]);
  });

  it('uses the locale region when none is given, and none when region is null', () => {
    const national = [{ source: 's', text: '(415) 555-0132 and +353 1 234 5678' }];
    expect(extractFacts(national, { kinds: ['phone'], region: null }).map((fact) => fact.value)).toEqual(['+353 1 234 5678']);
    expect(() => extractFacts(national, { kinds: ['phone'] })).not.toThrow();
  });

  it('blanks out values of other kinds before a value on its line, however far into the text', () => {
    for (const pad of ['', `${'filler words. '.repeat(400)}\n`]) {
      const text = `${pad}Contact: 12 March 2024, jane@example.ie`;
      const facts = extractFacts([{ source: 's', text }], { kinds: ['email', 'date'], region: null });
      expect(facts.map((fact) => [fact.kind, fact.label])).toEqual([
        ['date', 'Contact'],
        ['email', 'Contact'],
      ]);
    }
  });

  it('puts no model key on validated facts', () => {
    for (const fact of extractFacts(passages, { kinds: ['phone', 'email'], region: 'IE' })) {
      expect(Object.keys(fact)).not.toContain('model');
    }
  });

  it('orders the facts of one passage by offset, whatever the order of the kinds asked for', () => {
    const text = 'Tel: +353 1 234 5678, mail a@example.ie, due 2021-05-01, site https://example.ie';
    const facts = extractFacts([{ source: 's', text }], { kinds: ['url', 'date', 'email', 'phone'], region: null });
    expect(facts.map((fact) => fact.kind)).toEqual(['phone', 'email', 'date', 'url']);
  });
});

describe('labelAt', () => {
  const label = (text: string, value: string): string => labelAt(text, text.indexOf(value));

  it('takes the words before a colon on the same line', () => {
    expect(label('Office: +353 1 234 5678', '+353')).toBe('Office');
    expect(label('Notes\nDublin office: +353 1 234 5678', '+353')).toBe('Dublin office');
    expect(label('- **Support line**: +1 415 555 0132', '+1')).toBe('Support line');
    expect(label('tel:+35312345678', '+353')).toBe('tel');
  });

  it('takes the words before a spaced em or en dash', () => {
    expect(label('Billing contact — jane@x.com', 'jane')).toBe('Billing contact');
    expect(label('Billing contact – jane@x.com', 'jane')).toBe('Billing contact');
  });

  it('keeps the label across a list of values but not across words', () => {
    expect(label('Phones: +1 415 555 0132, +1 415 555 0133', '+1 415 555 0133')).toBe('Phones');
    expect(label('Credit card: 4095-2609-9393-4932, my phone is 425 8829090', '425')).toBe('');
  });

  it('stops at the previous clause and cuts long labels to 40 characters on a word boundary', () => {
    expect(label('We moved. Office: +353 1 234 5678', '+353')).toBe('Office');
    expect(label('Meeting notes, main switchboard: 01 234 5678', '01')).toBe('main switchboard');
    const long = label('The number that you should ring when everything is on fire at night: 01 234 5678', '01');
    expect(long.length).toBeLessThanOrEqual(40);
    expect(long).toBe('when everything is on fire at night');
  });

  it('ignores words inside the spans it is told to blank out', () => {
    const text = 'IBANs: IE29 AIBK 9311 5212 3456 78, DE89370400440532013000';
    const spans = [{ start: 7, end: 34 }];
    expect(labelAt(text, text.indexOf('DE89'), spans)).toBe('IBANs');
    expect(labelAt(text, text.indexOf('DE89'))).toBe('');
  });

  it('treats tokens with digits, @, / or dots as values, not prose', () => {
    const text = 'Hosts: 2001:db8::1, www.example.ie, ops@example.ie (primary), 10.0.0.1';
    expect(labelAt(text, text.indexOf('10.0.0.1'))).toBe('');
    const plain = 'Hosts: 2001:db8::1, www.example.ie, ops@example.ie, 10.0.0.1';
    expect(labelAt(plain, plain.indexOf('10.0.0.1'))).toBe('Hosts');
  });

  it('returns an empty string when there is no label', () => {
    expect(label('ring 01 234 5678', '01')).toBe('');
    expect(label('See http://example.com today', 'http')).toBe('');
    expect(label('Office:\n01 234 5678', '01')).toBe('');
    expect(label('12: 01 234 5678', '01 234')).toBe('');
    // With a label word before a colon on the same line, the same numbers have one.
    expect(label('Office: 01 234 5678', '01')).toBe('Office');
  });

  it('does not take a colon inside a token (a time) for a label marker', () => {
    expect(label('Meeting at 10:30 +353 1 234 5678', '+353')).toBe('');
    expect(label('Meeting at 10: +353 1 234 5678', '+353')).toBe('Meeting at 10');
  });

  it('starts the label after a spaced dash or an earlier "label: " on the line', () => {
    expect(label('Dublin office — reception: +353 1 234 5678', '+353')).toBe('reception');
    expect(label('Billing: Office: +353 1 234 5678', '+353')).toBe('Office');
  });

  it('strips quote and list markers and emphasis, and collapses spaces', () => {
    expect(label('> - **Office**: +353 1 234 5678', '+353')).toBe('Office');
    expect(label('Office   front\tdesk phone: +353 1 234 5678', '+353')).toBe('desk phone');
    expect(label('Our  main   office: +353 1 234 5678', '+353')).toBe('Our main office');
  });

  it('keeps a label of exactly 40 characters whole', () => {
    const exact = 'Head office of Larkspur Software Limited';
    expect(exact).toHaveLength(40);
    expect(label(`${exact}: +353 1 234 5678`, '+353')).toBe(exact);
  });

  it('blanks out spans that start before the look-back window', () => {
    const text = `${'x'.repeat(300)} word: +353 1 234 5678`;
    const offset = text.indexOf('+353');
    expect(labelAt(text, offset, [{ start: 0, end: 301 }])).toBe('word');
    expect(labelAt(text, offset, [{ start: 295, end: 306 }])).toBe('');
  });

  it('takes a colon glued to the value as a marker (tel:+353…)', () => {
    expect(label('tel:+353 1 234 5678', '+353')).toBe('tel');
  });

  it('counts a word wrapped in brackets or quotes as prose', () => {
    expect(label('Card: ((see)) +353 1 234 5678', '+353')).toBe('');
    expect(label('Card: +353 1 234 5678', '+353')).toBe('Card');
  });

  it('drops the space before a spaced colon', () => {
    expect(label('Office : +353 1 234 5678', '+353')).toBe('Office');
  });

  it('ignores spans that end before the look-back window', () => {
    const text = `${'x'.repeat(300)} word: +353 1 234 5678`;
    expect(labelAt(text, text.indexOf('+353'), [{ start: 0, end: 10 }])).toBe('word');
  });
});

describe('lineCol', () => {
  it('gives 1-based line and column', () => {
    const text = 'ab\ncd\r\nef\rgh';
    expect(lineCol(text, 0)).toEqual({ line: 1, col: 1 });
    expect(lineCol(text, 1)).toEqual({ line: 1, col: 2 });
    expect(lineCol(text, 3)).toEqual({ line: 2, col: 1 });
    expect(lineCol(text, 7)).toEqual({ line: 3, col: 1 });
    expect(lineCol(text, 10)).toEqual({ line: 4, col: 1 });
  });

  it('agrees with a line index built once for many lookups', () => {
    const text = 'one\ntwo\r\nthree\rfour\n\nsix';
    const index = createLineIndex(text);
    for (let offset = 0; offset <= text.length; offset++) expect(index(offset)).toEqual(lineCol(text, offset));
    expect(index(text.indexOf('six'))).toEqual({ line: 6, col: 1 });
  });

  it('counts UTF-16 code units in the column and clamps out-of-range offsets', () => {
    expect(lineCol('😀x', 2)).toEqual({ line: 1, col: 3 });
    expect(lineCol('abc', 99)).toEqual({ line: 1, col: 4 });
    expect(lineCol('abc', -5)).toEqual({ line: 1, col: 1 });
  });
});

describe('extractFacts over a long text, a window at a time (docs/decisions.md, "Recognition in windows")', () => {
  const kinds = ['email', 'phone', 'iban', 'card', 'url', 'ip', 'date'] as const;
  const line = (index: number) =>
    [
      `Note ${index}: ring +353 1 234 ${String(5000 + index).padStart(4, '0')} or write to ops${index}@example.ie;`,
      `refund IBAN IE29 AIBK 9311 5212 3456 78 on 2021-05-0${1 + (index % 9)}, see https://status.example.com/i/${index}`,
      `host 10.20.0.${index % 250}.`,
    ].join(' ');

  it('finds a fact that straddles a window edge once, whole, at its offsets in the whole text', () => {
    const email = 'straddle.me@example.ie';
    // No line end near the edge, so the first window owns exactly 1000 characters: the e-mail starts at 990, before
    // the edge, and ends after it.
    const text = `${'word '.repeat(197)}Mail ${email} is the one.\n${'x'.repeat(2000)}\n`;
    const start = text.indexOf(email);
    expect(start).toBe(990);
    expect(start + email.length).toBeGreaterThan(1000);
    const facts = extractFacts([{ source: 'long', text }], { kinds: ['email'], region: 'IE', windowChars: 1000 });
    expect(facts).toHaveLength(1);
    expect(facts[0]?.value).toBe(email);
    expect(facts[0]?.occurrences).toEqual([expect.objectContaining({ source: 'long', start, end: start + email.length, text: email })]);
  });

  it('finds exactly what one pass over the whole text finds, whatever the window size', () => {
    // One long line (no line end to cut at, so edges fall inside values of every kind), and lines.
    for (const separator of [' ', '\n']) {
      const text = Array.from({ length: 60 }, (_, index) => line(index)).join(separator);
      const passages = [{ source: 'notes', text }];
      const whole = extractFacts(passages, { kinds, region: 'IE', windowChars: text.length });
      expect(whole.length).toBeGreaterThan(200);
      expectGrounded(passages, whole);
      for (const windowChars of [333, 1000, 4000]) {
        expect(extractFacts(passages, { kinds, region: 'IE', windowChars })).toEqual(whole);
      }
    }
  });
});

describe('the window geometry (docs/decisions.md, "Recognition in windows"), seen through a value longer than the overlap', () => {
  // With windowChars 20 the overlap is 20 too: a window reads 20 characters past the text it owns, so a web address
  // longer than that which starts in it is read only that far. Where the value is cut shows where the window ends.
  const URL = `https://example.com/${'a'.repeat(60)}`;
  const found = (text: string) =>
    extractFacts([{ source: 's', text }], { kinds: ['url'], region: null, windowChars: 20 }).map((fact) => {
      const [occurrence] = fact.occurrences;
      return [occurrence?.start, occurrence?.end];
    });

  it('reads a text no longer than a window and its overlap whole, and a longer one a window at a time', () => {
    expect(found(`${' '.repeat(10)}${URL}`)).toEqual([[10, 40]]);
    const short = `${' '.repeat(4)}${URL.slice(0, 36)}`;
    expect(short).toHaveLength(40);
    expect(found(short)).toEqual([[4, 40]]);
    expect(extractFacts([{ source: 's', text: `${' '.repeat(10)}${URL}` }], { kinds: ['url'], region: null, windowChars: 1000 })[0]?.value).toBe(URL);
  });

  it('gives a match to the window it starts in, the first one included', () => {
    expect(found(`${URL} end`)).toEqual([[0, 40]]);
  });

  it('ends a window at a line end in its second half, and not at one in its first', () => {
    // Line end at 15 (≥ 10, half a window): the first window owns [0, 16), the second [16, 36) reads to 56.
    expect(found(`${'x'.repeat(15)}\n${URL}`)).toEqual([[16, 56]]);
    // Exactly half a window in (10): still cut there; the second window owns [11, 31) and reads to 51.
    expect(found(`${'x'.repeat(10)}\n${URL}`)).toEqual([[11, 51]]);
    // Line end at 9: too early, the first window owns [0, 20) and reads to 40.
    expect(found(`${'x'.repeat(9)}\n${URL}`)).toEqual([[10, 40]]);
    // A line end right at the window's edge (20) is not looked at: the second window starts at 20 and reads to 60.
    expect(found(`${'x'.repeat(20)}\n${URL}`)).toEqual([[21, 60]]);
  });
});

describe('groupFacts and the check of a fact seen several times', () => {
  it('keeps the strongest check of its occurrences, whatever their order', () => {
    // Italian mobile number: national and labelled (no home region), then international (validated).
    const labelled = { source: 'a', text: 'Telefono: 312 345 6789' };
    const international = { source: 'b', text: 'Mobile +39 312 345 6789' };
    const check = (passages: Passage[]) => extractFacts(passages, { kinds: ['phone'], region: null }).map((fact) => [fact.normalized, fact.check]);
    expect(check([labelled])).toEqual([['+393123456789', 'labelled']]);
    expect(check([international])).toEqual([['+393123456789', 'validated']]);
    expect(check([labelled, international])).toEqual([['+393123456789', 'validated']]);
    expect(check([international, labelled])).toEqual([['+393123456789', 'validated']]);
  });

  it('calls a fact whose recogniser states no check validated, and puts no region on it', () => {
    const [fact] = extractFacts([{ source: 's', text: 'mail jane@example.ie' }], { kinds: ['email'] });
    expect(fact?.check).toBe('validated');
    expect(Object.keys(fact ?? {})).not.toContain('region');
  });

  it('reads national numbers of the locale’s region when no region is given', () => {
    const national = [{ source: 's', text: 'call (415) 555-0132 today' }];
    for (const [variable, locale, expected] of [
      ['LC_ALL', 'en_US.UTF-8', ['(415) 555-0132']],
      ['LC_ALL', 'C', []],
    ] as const) {
      vi.stubEnv('LC_MESSAGES', '');
      vi.stubEnv('LANG', '');
      vi.stubEnv(variable, locale);
      try {
        expect(extractFacts(national, { kinds: ['phone'], regions: [] }).map((fact) => fact.value)).toEqual(expected);
      } finally {
        vi.unstubAllEnvs();
      }
    }
  });
});
