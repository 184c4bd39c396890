import { describe, expect, it } from 'vitest';
import { parsePhoneNumber } from 'libphonenumber-js/max';
import { groupingFit } from '../../../src/core/facts/recognisers/phone.js';
import { KINDS, recognise, recogniseCards, recognisePhones } from '../../../src/core/facts/index.js';
import { recogniserOf } from '../../../src/core/facts/recognisers/index.js';
import { find, texts, values } from './helpers.js';

describe('phone recogniser', () => {
  it('normalises national and international forms of one number to the same E.164 value', () => {
    expect(values('phone', 'Office: +353 1 234 5678, home 01 234 5678', { region: 'IE' })).toEqual(['+35312345678', '+35312345678']);
  });

  it('finds only international numbers without a region (null or unsupported) and an empty candidate list', () => {
    const text = 'Office: +353 1 234 5678, home 01 234 5678';
    expect(texts('phone', text, { region: null, regions: [] })).toEqual(['+353 1 234 5678']);
    expect(texts('phone', text, { region: 'XX', regions: [] })).toEqual(['+353 1 234 5678']);
  });

  it('uses the region for national numbers', () => {
    expect(texts('phone', 'My US number is (415) 555-0132', { region: 'US' })).toEqual(['(415) 555-0132']);
    // With no home region, a NANP number is also a Mexican one: nothing tells them apart in a bare line.
    expect(texts('phone', '(415) 555-0132', { region: null })).toEqual([]);
  });

  it('rejects invalid numbers: wrong length, unassigned ranges', () => {
    expect(texts('phone', '1111111111', { region: 'US' })).toEqual([]);
    expect(texts('phone', '532123456 53212345678', { region: 'TR' })).toEqual([]);
    expect(texts('phone', 'call +353 1 234', { region: null })).toEqual([]);
    // Valid numbers in the same places are found.
    expect(texts('phone', 'call +353 1 234 5678', { region: null })).toEqual(['+353 1 234 5678']);
    expect(texts('phone', '2133734253', { region: 'US' })).toEqual(['2133734253']);
  });

  it('finds a phone number written right before a card number, and the card too, each once (issue 27)', () => {
    for (const [phone, region] of [
      ['+44 20 7946 0958', 'IE'],
      ['+353 1 234 5678', 'IE'],
      ['087 123 4567', 'IE'],
      ['(415) 555-0132', 'US'],
    ] as const) {
      // Every length of a card written in one run too: 13 (an old Visa), 12 (a Maestro), 19 (a Visa) — issue 27 variations.
      for (const card of ['4111 1111 1111 1111', '5555555555554444', '3714 496353 98431', '4222222222222', '501800000009', '4111111111111111110']) {
        const text = `${phone} ${card}`;
        expect(texts('phone', text, { region }), text).toEqual([phone]);
        expect(texts('card', text), text).toEqual([card]);
        expect(texts('phone', `${phone} and ${card}`, { region }), text).toEqual([phone]);
      }
    }
    // A run of groups that holds no card: an international number is read up to the blank (its calling code says
    // where it ends), a national one runs on into the groups and is no phone number.
    expect(texts('phone', '+44 20 7946 0958 4111 1111 1111 1112', { region: 'IE' })).toEqual(['+44 20 7946 0958']);
    expect(texts('phone', '087 123 4567 4111 1111 1111 1112', { region: 'IE' })).toEqual([]);
  });

  it('reads a number in international form up to a blank when another number follows it (issue 27 variations)', () => {
    for (const after of ['192.168.0.1', '10.0.0.1/8', '2024-03-15', '15.03.2024', '15 March 2024', '2001:db8::1', '12 500']) {
      for (const [phone, gap] of [
        ['+44 20 7946 0958', ' '],
        ['+353 1 234 5678', '\t'],
        ['+1 415 555 0132', ' / '],
        ['+44 20 7946 0958', '\u00A0'],
      ]) {
        const text = `Call ${phone}${gap}${after} today`;
        expect(
          find('phone', text, { region: 'IE' }).map((match) => [match.start, match.text]),
          text,
        ).toEqual([[5, phone]]);
      }
    }
    // The whole run when it is one valid number; nothing when no part of it up to a blank is valid.
    expect(texts('phone', '+49 30 1234 5678 9', { region: 'DE' })).toEqual(['+49 30 1234 5678 9']);
    expect(texts('phone', '+44 20 12 34', { region: 'IE' })).toEqual([]);
    // A national number followed by another number stays one run (no calling code says where it ends).
    expect(texts('phone', '087 123 4567 2024-03-15', { region: 'IE' })).toEqual([]);
  });

  it('reads a number in international form up to any separator when another number is glued on (issue 27 review)', () => {
    for (const [glued, phone] of [
      ['+353 1 234 5678-2024-03-15', '+353 1 234 5678'],
      ['+353 1 234 5678.192.168.0.1', '+353 1 234 5678'],
      ['+44 20 7946 0958/2024/03/15', '+44 20 7946 0958'],
      ['+44 20 7946 0958-12', '+44 20 7946 0958'],
      // Glued by a sign no window holds: the window is the number alone.
      ['+353 1 234 5678_192.168.0.1', '+353 1 234 5678'],
      ['+353 1 234 5678:192.168.0.1', '+353 1 234 5678'],
    ]) {
      const text = `Call ${glued} to confirm.`;
      expect(
        find('phone', text, { region: 'IE' }).map((match) => [match.start, match.text, match.check ?? 'validated']),
        text,
      ).toEqual([[5, phone, 'validated']]);
    }
    // No part of the run up to a separator is valid: nothing.
    expect(texts('phone', 'Call +44 20-12-34 now', { region: 'IE' })).toEqual([]);
  });

  it('reads a national number after another number and a sign on its own, as at home (issue 27 review)', () => {
    for (const before of ['2024;', '2024, ', '2024: ', '12,', '7; ']) {
      const text = `Ref ${before}087 123 4567 for the van.`;
      expect(
        find('phone', text, { region: 'IE' }).map((match) => [match.start, match.text, match.normalized]),
        text,
      ).toEqual([[4 + before.length, '087 123 4567', '+353871234567']]);
    }
    // Not without a home region, and not a number the home region does not validate.
    expect(texts('phone', 'Ref 2024;087 123 4567 for the van.')).toEqual([]);
    expect(texts('phone', 'Ref 2024;087 123 45 for the van.', { region: 'IE', regions: [] })).toEqual([]);
    // Not after a letter and a sign (`ab;`), nor after a sign alone: those are read as before.
    expect(texts('phone', 'Ref ab;087 123 4567 for the van.', { region: 'IE' })).toEqual(['087 123 4567']);
    // The vetoes still apply: a date, a number glued to `#`.
    expect(texts('phone', 'Ref 2024;15.03.2024 ok', { region: 'DE' })).toEqual([]);
  });

  it('reads around the card numbers its caller hands over, so a caller asking for cards and phones recognises cards once (issue 28)', () => {
    const text = 'Call +44 20 7946 0958 4111 1111 1111 1111 or (415) 555-0132 5555555555554444 today';
    const cards = recogniseCards(text);
    expect(cards.map((card) => card.text)).toEqual(['4111 1111 1111 1111', '5555555555554444']);
    const read = (found: readonly { start: number; end: number }[]) => recognisePhones(text, { region: 'US' }, found).map((match) => match.text);
    expect(read(cards)).toEqual(['+44 20 7946 0958', '(415) 555-0132']);
    expect(recognisePhones(text, { region: 'US' })).toEqual(recognisePhones(text, { region: 'US' }, cards));
    // The spans handed over are the ones read around: with none, the national phone runs into its card and is too
    // long (the international one is read up to the blank before its card all the same).
    expect(read([])).toEqual(['+44 20 7946 0958']);
    expect(read([cards[1]!])).toEqual(['+44 20 7946 0958', '(415) 555-0132']);
  });

  it('a text read for several kinds at once finds for each kind what it finds alone, whichever kind is asked first', () => {
    const text = [
      'Card 4111 1111 1111 1111, desk +44 20 7946 0958 4242 4242 4242 4242; IBAN IE29 AIBK 9311 5212 3456 78.',
      'Mobile 087 123 4567 3714 496353 98431 and ops@example.ie, 10.0.0.1 on 2024-03-15.',
    ].join('\n');
    for (const order of [KINDS, [...KINDS].reverse()]) {
      const read = recogniserOf(text, { region: 'IE' });
      for (const kind of order) expect(read(kind), kind).toEqual(recognise(kind, text, { region: 'IE' }));
    }
    expect(texts('phone', text, { region: 'IE' })).toEqual(['+44 20 7946 0958', '087 123 4567']);
    expect(texts('card', text)).toEqual(['4111 1111 1111 1111', '4242 4242 4242 4242', '3714 496353 98431']);
  });

  it('rejects numbers run into letters', () => {
    expect(texts('phone', '2133734253a', { region: 'US' })).toEqual([]);
    expect(texts('phone', 'The UUID is CA801c26f98cd16e231354125ad046e40b.', { region: 'FR' })).toEqual([]);
    expect(texts('phone', '2133734253 a', { region: 'US' })).toEqual(['2133734253']);
  });

  it('keeps an extension in the span and in the normalised value', () => {
    expect(values('phone', 'Call +7 (800) 555-35-35 ext. 123 now', { region: null })).toEqual(['+78005553535;ext=123']);
  });

  it('does not absorb a bracket that wraps the whole number', () => {
    expect(texts('phone', 'ring (+353 1 234 5678) or [01 234 5678]', { region: 'IE' })).toEqual(['+353 1 234 5678', '01 234 5678']);
    expect(texts('phone', 'US (415) 555-0132', { region: 'US' })).toEqual(['(415) 555-0132']);
  });

  it('matches full-width digits, with the span as written and the value in ASCII', () => {
    const text = 'Call ０１ ２３４ ５６７８ now';
    expect(texts('phone', text, { region: 'IE' })).toEqual(['０１ ２３４ ５６７８']);
    expect(values('phone', text, { region: 'IE' })).toEqual(['+35312345678']);
  });

  it('is not fooled by a timestamp', () => {
    expect(texts('phone', '2012-01-02 08:00', { region: 'US' })).toEqual([]);
    expect(texts('phone', '201-201-0208', { region: 'US' })).toEqual(['201-201-0208']);
  });

  it('trims an unbalanced opening bracket of any kind, with the spaces after it', () => {
    for (const opener of ['(', '[', '{', '（', '［']) {
      expect(texts('phone', `call ${opener} +353 1 234 5678 now`, { region: null }), opener).toEqual(['+353 1 234 5678']);
    }
  });

  it('reads a national number of another region when exactly one candidate region reads it as written', () => {
    expect(find('phone', 'Lisbon desk: 21 123 4567', { region: null }).map((m) => [m.normalized, m.check, m.region])).toEqual([
      ['+351211234567', 'validated', 'PT'],
    ]);
    expect(values('phone', 'Lisbon desk: 21 123 4567', { region: null, regions: ['GB'] })).toEqual([]);
  });

  it('drops a national number valid in several candidate regions unless a label narrows it', () => {
    expect(values('phone', 'Ola treffes på 40 61 23 45.', { region: null })).toEqual([]);
    expect(values('phone', 'Telefono: 312 345 6789', { region: null })).toEqual(['+393123456789']);
    expect(find('phone', 'Telefono: 312 345 6789', { region: null })[0]).toMatchObject({ check: 'labelled', region: 'IT' });
  });

  it('chooses among candidate regions by the places the passage names', () => {
    const read = (text: string) => find('phone', text, { region: null }).map((m) => [m.text, m.normalized, m.check, m.region]);
    // 07400 123456 is a British mobile and a German fixed line, both written as there.
    expect(read('Anna 07400 123456')).toEqual([]);
    expect(read('Thanks,\nJames\n07400 123456 | james@whitfield.co.uk')).toEqual([['07400 123456', '+447400123456', 'validated', 'GB']]);
    expect(read('Viele Grüße\nJonas\n07400 123456 · j.weber@weber-bau.de')).toEqual([['07400 123456', '+497400123456', 'validated', 'DE']]);
    expect(read('Zentrale +49 89 1234567, Jonas 07400 123456')).toEqual([
      ['+49 89 1234567', '+49891234567', 'validated', 'DE'],
      ['07400 123456', '+497400123456', 'validated', 'DE'],
    ]);
    expect(read('IBAN DE89 3704 0044 0532 0130 00\nJonas 07400 123456')).toEqual([['07400 123456', '+497400123456', 'validated', 'DE']]);
    expect(read('Our office in Germany: 07400 123456')).toEqual([['07400 123456', '+497400123456', 'validated', 'DE']]);
    // A place decides even a number grouped loosely (fit 1), where neither the language nor the grouping would.
    expect(read('Thanks,\nJames\n07400 123 456 | james@weber-bau.de')).toEqual([['07400 123 456', '+497400123456', 'validated', 'DE']]);
    expect(read('Thanks,\nJames\n07400 123 456')).toEqual([]);
    expect(read('Office: 10 Downing Street, London, SW1A 2AA, 07400 123456')).toEqual([['07400 123456', '+447400123456', 'validated', 'GB']]);
    // Only the paragraph counts: a blank line ends it.
    expect(read('james@whitfield.co.uk\n\nAnna 07400 123456')).toEqual([]);
    // A postcode format several countries share narrows the rest: 078 123 45 67 is Swiss, Swedish, Dutch, …
    expect(read('Bahnhofstrasse 21\n8001 Zürich\n078 123 45 67')).toEqual([['078 123 45 67', '+41781234567', 'validated', 'CH']]);
    expect(read('Bahnhofstrasse 21\n078 123 45 67')).toEqual([]);
  });

  it('chooses by the passage’s language, English only among the readings that fit the grouping best', () => {
    const read = (text: string) => values('phone', text, { region: null });
    expect(read('Hallo Tom, kannst du bitte morgen früh zurückrufen? Die Nummer ist 07400 123456.')).toEqual(['+497400123456']);
    expect(read('Hi Tom, could you ring her back tomorrow morning? The number is 07400 123456.')).toEqual(['+447400123456']);
    // Swedish, though Swiss grouping (078 123 45 67) fits best; Dutch, though French grouping fits best.
    expect(read('Hej Anders, kan du ringa tillbaka till Erik i morgon bitti? Numret är 078 123 45 67.')).toEqual(['+46781234567']);
    expect(read('Hoi Tom, kun je Sanne morgenochtend even terugbellen? Het nummer is 06 12 34 56 78.')).toEqual(['+31612345678']);
    // Norwegian and Danish share most of their function words: not twice as Norwegian, so no choice.
    expect(read('Ola treffes på 40 61 23 45 etter klokken ni, og hun har det travelt i dag.')).toEqual([]);
    // The bounds, on 07400 123456 (a British mobile, a German fixed line): a language needs a score of 2 (`nicht`,
    // `auch`: 1 each), and twice the rival number's (`the`: 1; `of`, shared with Dutch: 0.5).
    expect(read('Jonas nicht 07400 123456')).toEqual([]);
    expect(read('Jonas nicht auch 07400 123456')).toEqual(['+497400123456']);
    expect(read('nicht auch the 07400 123456')).toEqual(['+497400123456']);
    expect(read('nicht auch the of 07400 123456')).toEqual([]);
    // Swiss as written (078 123 45 67); the one English-speaking reading (ZA) only joins groups.
    expect(read('Anna is at 078 123 45 67 until Friday, and she has the keys with her.')).toEqual([]);
  });

  it('chooses the one number written in its region’s digit groups when every rival only joins or splits them', () => {
    expect(values('phone', 'Marie 06 12 34 56 78', { region: null })).toEqual(['+33612345678']);
    expect(values('phone', 'Julie 0450 00 12 74', { region: null })).toEqual(['+32450001274']);
    expect(values('phone', 'Erik 070-123 45 67', { region: null })).toEqual(['+46701234567']);
    // Two readings written as there: no choice.
    expect(values('phone', 'Ola 40 61 23 45', { region: null })).toEqual([]);
  });

  it('reads a labelled number where the label’s language is written when it is possible there and written as well', () => {
    for (const region of [null, 'US']) {
      expect(
        find('phone', 'Ring 07700 900 123', { region }).map((m) => [m.normalized, m.check, m.region]),
        String(region),
      ).toEqual([['+447700900123', 'labelled', 'GB']]);
    }
    // A number written as a German one: the English label does not make it British.
    expect(find('phone', 'Phone: 0211 234567', { region: null }).map((m) => [m.normalized, m.check, m.region])).toEqual([['+49211234567', 'validated', 'DE']]);
    // Without a label a merely possible number is never taken: libphonenumber's German reading stands.
    expect(values('phone', 'Anna is at 07700 900 123', { region: 'US' })).toEqual(['+497700900123']);
  });

  it('reads a labelled window as possible at home only when home writes it as well as a region that validates it', () => {
    // 085 012 3456: an Irish, Italian, Dutch or South African number, never +1 085….
    expect(values('phone', 'Phone: 085 012 3456', { region: 'US' })).toEqual([]);
    // An Indian number grouped oddly (valid in IN, fit 0) is not a merely possible New Zealand one.
    expect(values('phone', 'Phone: 081 234 56789', { region: null })).toEqual([]);
    // At home in a region that validates them, the same numbers are read.
    expect(values('phone', 'Phone: 085 012 3456', { region: 'IE' })).toEqual(['+353850123456']);
    expect(values('phone', 'Phone: 081 234 56789', { region: 'IN' })).toEqual(['+918123456789']);
  });

  it('prefers the home region over the list', () => {
    expect(values('phone', 'call 312 345 6789', { region: 'US' })).toEqual(['+13123456789']);
  });

  it('keeps a possible but invalid number only with a phone label', () => {
    expect(find('phone', 'Tel: 345-899-3560x4587', { region: 'US' }).map((m) => [m.text, m.normalized, m.check])).toEqual([
      ['345-899-3560x4587', '+13458993560;ext=4587', 'labelled'],
    ]);
    expect(values('phone', 'ref 345-899-3560x4587', { region: 'US' })).toEqual([]);
  });

  it('reads no date, IP address, version or bare long run as a phone number', () => {
    for (const text of [
      'on 03.05.2021',
      'on 03.05.2021 10:30',
      'host 192.168.10.25',
      'v10.0.19041.1',
      'ts 1699999999999',
      'order #123456789',
      'order 2024-00123',
    ]) {
      expect(texts('phone', text, { region: 'DE' }), text).toEqual([]);
      expect(texts('phone', `Tel: ${text}`, { region: null }), text).toEqual([]);
    }
    // A phone number in the same places is read.
    expect(texts('phone', 'on 030 1234567', { region: 'DE' })).toEqual(['030 1234567']);
    expect(texts('phone', 'Tel: +49 30 1234567', { region: null })).toEqual(['+49 30 1234567']);
  });

  it('scores how a number is written for a region', () => {
    const fits = (written: string, region: 'GB' | 'US' | 'FR') => groupingFit(written, parsePhoneNumber(written, region));
    expect(fits('07400 123456', 'GB')).toBe(3);
    expect(fits('07400-123456', 'GB')).toBe(2);
    expect(fits('07400 123 456', 'GB')).toBe(1);
    expect(fits('07400123456', 'GB')).toBe(1);
    expect(fits('074 00123456', 'GB')).toBe(0);
    expect(fits('6 12 34 56 78', 'FR')).toBe(0);
    expect(groupingFit('(201) 555-0123', parsePhoneNumber('(201) 555-0123 x12', 'US'))).toBe(3);
  });
});

describe('phone recogniser: forms, regions recorded, and the paragraph’s international numbers', () => {
  const read = (text: string, region: string | null = null) => find('phone', text, { region }).map((m) => [m.text, m.normalized, m.check, m.region]);

  it('records the country of an international number, and keeps a merely possible one only with a label', () => {
    expect(read('Office +353 1 234 5678')).toEqual([['+353 1 234 5678', '+35312345678', 'validated', 'IE']]);
    // +44 7700 900… is the range kept for drama: possible, never valid; no country is recorded.
    expect(read('Tel: +44 7700 900123')).toEqual([['+44 7700 900123', '+447700900123', 'labelled', undefined]]);
    expect(read('see +44 7700 900123')).toEqual([]);
  });

  it('reads every extension marker at home, in the span and the value', () => {
    for (const marker of [' ext. ', ' x', ' #', ' extension ']) {
      expect(read(`Call 01 234 5678${marker}12 today`, 'IE'), marker).toEqual([[`01 234 5678${marker}12`, '+35312345678;ext=12', 'validated', 'IE']]);
    }
    expect(read('Звоните 8 (912) 345-67-89 доб. 123')).toEqual([['8 (912) 345-67-89 доб. 123', '+79123456789;ext=123', 'validated', 'RU']]);
  });

  it('takes the places of the international numbers in the window’s own paragraph only, before or after it', () => {
    const jonas = ['07400 123456', '+497400123456', 'validated', 'DE'];
    const james = ['07400 123456', '+447400123456', 'validated', 'GB'];
    const de = ['+49 89 1234567', '+49891234567', 'validated', 'DE'];
    const gb = ['+44 20 7946 0018', '+442079460018', 'validated', 'GB'];
    const fr = ['+33 1 42 68 53 00', '+33142685300', 'validated', 'FR'];
    expect(read('Jonas 07400 123456, Zentrale +49 89 1234567')).toEqual([jonas, de]);
    expect(read('+49 89 1234567\n\nJonas 07400 123456')).toEqual([de]);
    expect(read('Jonas 07400 123456\n\n+49 89 1234567')).toEqual([de]);
    expect(read('+44 20 7946 0018, +33 1 42 68 53 00\n\n+49 89 1234567\nJonas 07400 123456')).toEqual([gb, fr, de, jonas]);
    expect(read('+49 89 1234567\n\n+44 20 7946 0018\nJonas 07400 123456')).toEqual([de, gb, james]);
    expect(read('+49 89 1234567\nJonas 07400 123456\n\n+44 20 7946 0018')).toEqual([de, jonas, gb]);
  });

  it('reads a labelled national number of another region as written there, whatever the home region', () => {
    expect(read('Phone: 040 61 23 45')).toEqual([['040 61 23 45', '+4640612345', 'validated', 'SE']]);
    expect(read('Tel.: 06 12 34 56 78', 'US')).toEqual([['06 12 34 56 78', '+33612345678', 'validated', 'FR']]);
    // A bare run read abroad is an order number as often as a phone number, label or not.
    expect(read('Tel: 07400123456')).toEqual([]);
    expect(read('Tel: 6502530000')).toEqual([]);
    expect(read('6502530000', 'US')).toEqual([['6502530000', '+16502530000', 'validated', 'US']]);
  });
});

describe('phone recogniser: how a window is written decides', () => {
  const read = (text: string, region: string | null = null) => find('phone', text, { region }).map((m) => [m.text, m.normalized, m.check, m.region]);

  it('takes the one number written in its region’s groups with other separators (fit 2) over rivals that split them', () => {
    expect(read('Marie 06-12-34-56-78')).toEqual([['06-12-34-56-78', '+33612345678', 'validated', 'FR']]);
    expect(read('Marie 06.12.34.56.78')).toEqual([['06.12.34.56.78', '+33612345678', 'validated', 'FR']]);
  });

  it('reads abroad only numbers written with separators, each window on its own', () => {
    expect(read('Anna 0211 234567 and 0211 234568')).toEqual([
      ['0211 234567', '+49211234567', 'validated', 'DE'],
      ['0211 234568', '+49211234568', 'validated', 'DE'],
    ]);
    expect(read('Anna 0211234567')).toEqual([]);
    // Not valid at home (GB): the candidate regions read it.
    expect(read('Ring 030 1234567', 'GB')).toEqual([['030 1234567', '+49301234567', 'validated', 'DE']]);
  });

  it('keeps a home reading written badly for home when it is long enough and not a year and a serial, else only with a label', () => {
    // Short (6 digits): a page range without a label.
    expect(read('pages 211-227', 'DE')).toEqual([]);
    expect(read('Tel: 211-227', 'DE')).toEqual([['211-227', '+49211227', 'labelled', 'DE']]);
    // Seven digits with no national prefix (fit 0) are long enough: libphonenumber's verdict at home stands.
    expect(read('call 211-2270', 'DE')).toEqual([['211-2270', '+492112270', 'validated', 'DE']]);
    // A year and a serial, however long.
    expect(read('order 2024-0012345', 'DE')).toEqual([]);
    expect(read('Tel: 2024-0012345', 'DE')).toEqual([['2024-0012345', '+4920240012345', 'labelled', 'DE']]);
    // A bare run of up to 12 digits stays libphonenumber's verdict at home; 13 is a timestamp or a card.
    expect(read('ts 169999999999', 'DE')).toEqual([['169999999999', '+49169999999999', 'validated', 'DE']]);
    expect(read('ts 1699999999999', 'DE')).toEqual([]);
  });
});

describe('phone recogniser: the candidate list and merely possible numbers abroad', () => {
  const read = (text: string, regions: string[]) => find('phone', text, { region: null, regions }).map((m) => [m.text, m.normalized, m.check, m.region]);

  it('reads a number valid in one region of the list as that region’s, whatever the others would say', () => {
    expect(read('Phone: 085 012 3456', ['IE'])).toEqual([['085 012 3456', '+353850123456', 'validated', 'IE']]);
    expect(read('Phone: 085 012 3456', ['NZ', 'IE'])).toEqual([['085 012 3456', '+353850123456', 'validated', 'IE']]);
  });

  it('reads a labelled number valid nowhere in the list as possible where the list writes it, only with a label', () => {
    // 07700 900123: the drama range, possible in GB, valid in no region of this list.
    expect(read('Phone: 07700 900123', ['GB', 'IE'])).toEqual([['07700 900123', '+447700900123', 'labelled', 'GB']]);
    expect(read('Anna 07700 900123', ['GB', 'IE'])).toEqual([]);
  });
});

describe('phone recogniser: false positives of labelled and foreign readings', () => {
  const read = (text: string, region: string | null, regions?: string[]) =>
    find('phone', text, { region, ...(regions === undefined ? {} : { regions }) }).map((m) => [m.text, m.normalized, m.check, m.region]);

  it('keeps no labelled number that is all one digit or outside the region’s number plan', () => {
    // Possible by length (+1 and ten digits), but no NANP number starts with 0, and one digit repeated is a placeholder.
    expect(read('Phone: 0000 000000', null)).toEqual([]);
    expect(read('Phone: 0000 000000', 'US')).toEqual([]);
    expect(read('Phone: 2222 222222', 'US')).toEqual([]);
    expect(read('Phone: +1 000 000 0000', null)).toEqual([]);
    expect(read('Phone: 012 345 6789', 'US', [])).toEqual([]);
    // A real possible-only number with its label still stands (the drama range, possible in GB).
    expect(read('Phone: 07700 900123', null, ['GB', 'IE'])).toEqual([['07700 900123', '+447700900123', 'labelled', 'GB']]);
  });

  it('lets no region claim a number grouped otherwise under a label of a language not written there', () => {
    // French label, French pairs, a digit missing: valid as written only in Vienna (AT), whose groups it does not use.
    expect(read('Tél. : 01 23 45 67 8', null)).toEqual([]);
    expect(read('Tél. : 01 23 45 67 8', 'FR')).toEqual([]);
    // The whole number, French-labelled and French-grouped, stays French.
    expect(read('Tél. : 01 23 45 67 89', null)).toEqual([['01 23 45 67 89', '+33123456789', 'validated', 'FR']]);
    // Written in the region's own groups, a foreign-labelled number is still that region's.
    expect(read('Tél. : 01 2345678', null, ['AT'])).toEqual([['01 2345678', '+4312345678', 'validated', 'AT']]);
    expect(read('Tél. : 01-2345678', null, ['AT'])).toEqual([['01-2345678', '+4312345678', 'validated', 'AT']]);
    // The same grouping under a German label (written in AT), an English one (written everywhere) or one of no
    // language is Austrian; and a home reading stands whatever the label.
    expect(read('Telefon: 01 23 45 67 8', null, ['AT'])).toEqual([['01 23 45 67 8', '+4312345678', 'validated', 'AT']]);
    expect(read('Phone: 01 23 45 67 8', null, ['AT'])).toEqual([['01 23 45 67 8', '+4312345678', 'validated', 'AT']]);
    expect(read('Tel: 01 23 45 67 8', null, ['AT'])).toEqual([['01 23 45 67 8', '+4312345678', 'validated', 'AT']]);
    expect(read('Tél. : 01 23 45 67 8', 'AT')).toEqual([['01 23 45 67 8', '+4312345678', 'validated', 'AT']]);
  });

  it('keeps no labelled national run of more than 12 digits, at home or abroad', () => {
    expect(read('Tel: 0301234567890', 'DE')).toEqual([]);
    expect(read('Tel: 4930123456789', 'DE')).toEqual([]);
    expect(read('Tel: 1699999999999', 'DE')).toEqual([]);
    // A year and a serial (fit 0) needs its label up to 12 digits, and is dropped beyond.
    expect(read('Tel: 2024-00123456', 'DE')).toEqual([['2024-00123456', '+49202400123456', 'labelled', 'DE']]);
    expect(read('Tel: 2024-001234567', 'DE')).toEqual([]);
    // In international form the bound does not apply (the country code is written).
    expect(read('Phone: +49 1234 567890123', null)).toEqual([['+49 1234 567890123', '+491234567890123', 'labelled', 'DE']]);
    // Twelve digits under a label stay, and a grouped home number is libphonenumber's verdict at home, however long.
    expect(read('Tel: 030123456789', 'DE')).toEqual([['030123456789', '+4930123456789', 'validated', 'DE']]);
    expect(read('Tel: 030 1234567890', 'DE')).toEqual([['030 1234567890', '+493012345678' + '90', 'validated', 'DE']]);
  });
});

describe('phone recogniser: the order of readings, the labelled bounds, relabelling only abroad', () => {
  const read = (text: string, region: string | null, regions: string[]) =>
    find('phone', text, { region, regions }).map((m) => [m.text, m.normalized, m.check, m.region]);

  it('decides the reading covering most of the text first, whatever the list order, and nothing overlapping it after', () => {
    // `(912) 345-67-89` alone is a NANP number written loosely; with the trunk prefix 8 it is Russian.
    const russian = [['8 (912) 345-67-89', '+79123456789', 'validated', 'RU']];
    expect(read('call 8 (912) 345-67-89', null, ['US', 'RU'])).toEqual(russian);
    expect(read('call 8 (912) 345-67-89', null, ['RU', 'US'])).toEqual(russian);
    expect(read('call 8 (912) 345-67-89', 'US', ['RU'])).toEqual(russian);
  });

  it('reads a labelled possible number from seven digits', () => {
    expect(read('Tel: 123-4567', 'DE', [])).toEqual([['123-4567', '+491234567', 'labelled', 'DE']]);
    expect(read('Tel: 123-456', 'DE', [])).toEqual([]);
  });

  it('keeps a home reading under a label of another language at home (relabelling is for readings abroad)', () => {
    expect(read('Ring 07700 900 123', 'DE', ['GB'])).toEqual([['07700 900 123', '+497700900123', 'validated', 'DE']]);
    expect(read('Ring 07700 900 123', null, ['DE', 'GB'])).toEqual([['07700 900 123', '+447700900123', 'labelled', 'GB']]);
  });
});

describe('phone recogniser: windows, groups and the home pass', () => {
  const read = (text: string, region: string | null = null, regions?: string[]) =>
    recognisePhones(text, { region, ...(regions === undefined ? {} : { regions }) }).map((m) => [m.text, m.normalized, m.check, m.region]);

  it('reads each international number once, not again as a labelled window, and in text order', () => {
    expect(read('Tel: +353 1 234 5678, Tel: +44 20 7946 0018')).toEqual([
      ['+353 1 234 5678', '+35312345678', 'validated', 'IE'],
      ['+44 20 7946 0018', '+442079460018', 'validated', 'GB'],
    ]);
    expect(read('home 01 234 5678, office +353 1 234 5679', 'IE')).toEqual([
      ['01 234 5678', '+35312345678', 'validated', 'IE'],
      ['+353 1 234 5679', '+35312345679', 'validated', 'IE'],
    ]);
  });

  it('reads an international number with its calling code in brackets, spaces inside or not', () => {
    expect(read('ring (+353) 1 234 5678')).toEqual([['(+353) 1 234 5678', '+35312345678', 'validated', 'IE']]);
    expect(read('ring ( +44 ) 20 7946 0018')).toEqual([['( +44 ) 20 7946 0018', '+442079460018', 'validated', 'GB']]);
  });

  it('reads no number glued to a # (an order number) or run into letters, at home or abroad', () => {
    for (const region of [null, 'FR']) {
      expect(read('order #06 12 34 56 78', region), String(region)).toEqual([]);
      expect(read('ref 06 12 34 56 78ab', region), String(region)).toEqual([]);
    }
    expect(read('ref 06 12 34 56 78', 'FR')).toEqual([['06 12 34 56 78', '+33612345678', 'validated', 'FR']]);
  });

  it('keeps a home number followed by a colon and digits when it is no date and hour', () => {
    expect(read('call 01 234 5678:30', 'IE')).toEqual([['01 234 5678', '+35312345678', 'validated', 'IE']]);
    // A date and hour ends the text: libphonenumber's verdict at home stands, whatever times stand before it.
    expect(read('Meeting 10:30; note 2012-01-02 08', 'US')).toEqual([['2012-01-02 08', '+12012010208', 'validated', 'US']]);
  });

  it('reads a number libphonenumber finds inside a window, with its own span', () => {
    expect(read('Liste 1. 06 12 34 56 78')).toEqual([['06 12 34 56 78', '+33612345678', 'validated', 'FR']]);
  });

  it('reads no dotted version with a one-digit part under a label, at home', () => {
    for (const region of ['DE', 'GB']) {
      expect(read('Tel: 10.0.19041.1', region), region).toEqual([]);
      expect(read('Tel: 1.2.345.6789', region), region).toEqual([]);
      // A phone number under the same label is read.
      expect(read('Tel: +49 30 1234567', region), region).toEqual([['+49 30 1234567', '+49301234567', 'validated', 'DE']]);
    }
  });

  it('asks the list about a home reading written badly for home, and takes the region that writes it as written', () => {
    // Valid in DE but grouped otherwise there (fit 0); France writes it exactly so.
    expect(read('Marie 06 12 34 56 78', 'DE')).toEqual([['06 12 34 56 78', '+33612345678', 'validated', 'FR']]);
  });

  it('reads windows of 6 to 12 digits abroad', () => {
    expect(read('Anna 644 583', null, ['PL'])).toEqual([['644 583', '+48644583', 'validated', 'PL']]);
    expect(read('Anna 030 12345678 9', null, ['DE'])).toEqual([['030 12345678 9', '+4930123456789', 'validated', 'DE']]);
  });

  it('chooses a home number no window starts at (after an underscore) on its own, before the windows after it', () => {
    expect(read('call _012345678, or 01 234 5679', 'IE')).toEqual([
      ['012345678', '+35312345678', 'validated', 'IE'],
      ['01 234 5679', '+35312345679', 'validated', 'IE'],
    ]);
    // Glued to a word by the underscore, it is an identifier (issue 28).
    expect(read('call_01 234 5678, or 01 234 5679', 'IE')).toEqual([['01 234 5679', '+35312345679', 'validated', 'IE']]);
  });

  it('records no region for an international number no country claims', () => {
    const [match] = recognisePhones('Tel: +44 7700 900123', { region: null });
    expect(match).toMatchObject({ check: 'labelled', normalized: '+447700900123' });
    expect(match).not.toHaveProperty('region');
  });

  it('scores a grouping that splits the last group and another one as not written for the region', () => {
    expect(groupingFit('07 400 123 456', parsePhoneNumber('07400 123456', 'GB'))).toBe(0);
    expect(groupingFit('0740 0123456', parsePhoneNumber('07400 123456', 'GB'))).toBe(0);
    expect(groupingFit('07400 12 34 56', parsePhoneNumber('07400 123456', 'GB'))).toBe(1);
  });
});

describe('phone recogniser: vetoes and forms of issue 28', () => {
  const read = (text: string, region: string | null = null) => find('phone', text, { region }).map((m) => [m.text, m.normalized, m.check]);

  it('reads no number labelled as another kind unless it is valid, written as a phone and claimed by nothing else', () => {
    for (const [text, region] of [
      ['SSN: 078-05-1120', 'US'],
      ['His social security number is 078-05-1120.', null],
      ['EIN 12-3456789', 'US'],
      ['Kundennummer: 4471 2210', 'DE'],
      ['Credit note 2026-0142 for £120', null],
      ['PO Box 4471 2210', 'US'],
      ['Rechnungsnummer 2024 00017', 'DE'],
      ['Facture n° 2026-0142', 'FR'],
      ['Steuernummer 143/815/08152', 'DE'],
      // Valid and written in German groups, but the shape of a ZIP+4 code: the label's kind claims it.
      ['ZIP code 02139-4307', 'US'],
      // An international dialling prefix is no `+`: under a word of another kind, it is not read.
      ['Order 0049 30 1234567', 'US'],
      // Read abroad when a home region is known: a French SIREN in 3-3-3 groups is no Polish number, a Norwegian
      // organisation number no Portuguese one, a British NHS number no American one.
      ['SIREN 732 829 320', 'FR'],
      ['Org.nr. 923 609 016', 'NO'],
      ['NHS number: 943 476 5919', 'GB'],
    ] as const) {
      expect(read(text, region), text).toEqual([]);
    }
    // With no home region the shapes still claim a number read abroad in its region's groups (German 02139-4307).
    expect(read('ZIP code 02139-4307')).toEqual([]);
    // At home, a valid number not in the region's groups is the other kind's (030 1234567 split otherwise).
    expect(read('Kundennummer: 030 12 34 567', 'DE')).toEqual([]);
    expect(read('Kundennummer: 03012 34567', 'DE')).toEqual([]);
    // Valid, in the region's own groups or in international form: a phone whatever the word before it.
    expect(read('Order: (212) 555-0147', 'US')).toEqual([['(212) 555-0147', '+12125550147', 'validated']]);
    expect(read('Kundenkonto: 030 1234567', 'DE')).toEqual([['030 1234567', '+49301234567', 'validated']]);
    // The region's groups with other separators (fit 2) are a phone's grouping too.
    expect(read('Kundenkonto: 030-1234567', 'DE')).toEqual([['030-1234567', '+49301234567', 'validated']]);
    // With no home region, a reading abroad in its region's groups still stands.
    expect(read('Order: (212) 555-0147')).toEqual([['(212) 555-0147', '+12125550147', 'validated']]);
    expect(read('Order: 0041 44 668 18 00')).toEqual([]);
    expect(read('Reference: +44 20 7946 0958')).toEqual([['+44 20 7946 0958', '+442079460958', 'validated']]);
    // A phone word between them: the word of another kind is not right before the number.
    expect(read('Ticket 4471 – Handy 0171 2345678')).toEqual([['0171 2345678', '+491712345678', 'validated']]);
    expect(read('Invoice queries: call 020 7946 0958', 'GB')).toEqual([['020 7946 0958', '+442079460958', 'validated']]);
    // Two numbers in one run after such a word are judged one by one: the bare one is not written as a phone.
    expect(read('Order: (212) 555-0147 / 2125550148', 'US')).toEqual([['(212) 555-0147', '+12125550147', 'validated']]);
    expect(read('Order: 2125550148 / (212) 555-0147', 'US')).toEqual([['(212) 555-0147', '+12125550147', 'validated']]);
    expect(read('Notes: (212) 555-0147 / 2125550148', 'US')).toEqual([
      ['(212) 555-0147', '+12125550147', 'validated'],
      ['2125550148', '+12125550148', 'validated'],
    ]);
  });

  it('reads no digits that open a street line, but a phone beside a street', () => {
    for (const [text, region] of [
      ['Meet me at 88120 4471 Elm St Suite 12.', 'US'],
      ['Meet me at 88120 4471 Elm St Suite 12.', null],
      ['Nouveau bureau : 12503 2207 Rue Sainte-Catherine Ouest', 'CA'],
      ['Morada: 1100 2207 Rua Augusta', null],
      ['Anlieferung über 4471 2210 Industriestraße', null],
      ['Leverans till 4471 2210 Drottninggatan', null],
      ['Unit 4, 2207 1930 Pacific Hwy, Sydney', 'AU'],
      ['New depot: 4471 2210 Harbour Rd', 'GB'],
      ['Office at 4471 2210 W 5th Ave', null],
      ['Office at 4471 2210 W 125th St', null],
      // A street type written first with its dot.
      ['Dostawa: 4471 2210 ul. Marszałkowska', 'PL'],
      ['Entrega: 4471 2210 Avda. Diagonal', null],
    ] as const) {
      expect(read(text, region), text).toEqual([]);
    }
    expect(read('Tél. : 01 42 68 53 00 — 12 rue de Rivoli', 'FR')).toEqual([['01 42 68 53 00', '+33142685300', 'validated']]);
    expect(read('Call 020 7946 0958 about the Harbour Road flat.', 'GB')).toEqual([['020 7946 0958', '+442079460958', 'validated']]);
    expect(read('Tel. 030 1234567\nHauptstraße 12', 'DE')).toEqual([['030 1234567', '+49301234567', 'validated']]);
    // A plain street type first is no street line without a name before it; a word in lower case ends the name.
    expect(read('Call 020 7946 0958 Way too late, I know.', 'GB')).toEqual([['020 7946 0958', '+442079460958', 'validated']]);
    expect(read('Call 020 7946 0958 Tom said road works', 'GB')).toEqual([['020 7946 0958', '+442079460958', 'validated']]);
    // The street words must follow the number in its clause, within four words.
    expect(read('Call 020 7946 0958, Harbour Road office', 'GB')).toEqual([['020 7946 0958', '+442079460958', 'validated']]);
    expect(read('Call 020 7946 0958 Sales Team Old Kent Road', 'GB')).toEqual([['020 7946 0958', '+442079460958', 'validated']]);
  });

  it('reads the number before a comma and digits without them (no extension without a marker)', () => {
    expect(read('Phone: 0412 345 678, 18 George St', 'AU')).toEqual([['0412 345 678', '+61412345678', 'validated']]);
    expect(read('Coordinates 48.8566, 2.3522 mark the spot.', 'DE')).toEqual([]);
  });

  it('reads no ZIP+4 code after a US state as a phone', () => {
    expect(read('77 Massachusetts Ave, Cambridge, MA 02139-4307')).toEqual([]);
    expect(read('Mountain View, CA 94043-1351', 'US')).toEqual([]);
    // Without the state before it, the rule does not apply.
    expect(read('Ring 02139-4307', 'DE')).toEqual([['02139-4307', '+4921394307', 'validated']]);
    expect(read('Ring 02139-4307 MA', 'DE')).toEqual([['02139-4307', '+4921394307', 'validated']]);
  });

  it('reads no digits with letters glued on, but a phone label glued to a phone', () => {
    for (const [text, region] of [
      ['Credit note CN-2026-0142', 'US'],
      ['Credit note CN-2026-0142', null],
      ['Please pay INV-2024-00017 by Friday.', 'DE'],
      ['Ship against PO#4471-2210 only.', 'US'],
      ['Case SR-415-555-0132 is open.', 'US'],
      ['Seriennummer SN_0301234567', 'DE'],
      ['Ref: AB/020 7946 0958', 'GB'],
      ['Zending NL-0201234567-B is onderweg.', 'NL'],
      ['Lot 7#0301234567', 'DE'],
      ['Lot 7_0301234567', 'DE'],
    ] as const) {
      expect(read(text, region), text).toEqual([]);
    }
    // Glued after only: a dash and letters end an identifier; a slash and digits are a second ending, not letters.
    expect(read('Zending 0201234567-B is onderweg.', 'NL')).toEqual([]);
    expect(read('Zending 0201234567 is onderweg.', 'NL')).toEqual([['0201234567', '+31201234567', 'validated']]);
    expect(read('Tel 212-555-0147/8 for sales', 'US')).toEqual([['212-555-0147', '+12125550147', 'validated']]);
    expect(read('Tel.030 1234567', 'DE')).toEqual([['030 1234567', '+49301234567', 'validated']]);
    expect(read('Tel:+44 20 7946 0958')).toEqual([['+44 20 7946 0958', '+442079460958', 'validated']]);
    expect(read('INV-2024-00017 questions? Call 212-555-0147.', 'US')).toEqual([['212-555-0147', '+12125550147', 'validated']]);
    // A dash and digits after a number is a German extension (Durchwahl), not a code.
    expect(read('Zentrale 030 1234567-12', 'DE')).toEqual([['030 1234567-12', '+4930123456712', 'validated']]);
  });

  it('reads the trunk digit in brackets after the calling code', () => {
    expect(read('Zentrale: +41 (0)44 668 18 00')).toEqual([['+41 (0)44 668 18 00', '+41446681800', 'validated']]);
    expect(read('Phone +44 (0)20 7946 0958', 'US')).toEqual([['+44 (0)20 7946 0958', '+442079460958', 'validated']]);
    expect(read('Phone +44 (0)20 7946 095')).toEqual([]);
  });

  it('reads an international dialling prefix written instead of +, whatever the home region, when the number is valid', () => {
    for (const region of [null, 'US', 'GB']) {
      expect(read('Zurich office: 0041 44 668 18 00', region), String(region)).toEqual([['0041 44 668 18 00', '+41446681800', 'validated']]);
    }
    expect(read('From the US dial 011 44 20 7946 0958.')).toEqual([['011 44 20 7946 0958', '+442079460958', 'validated']]);
    expect(read('New York: 001-212-555-0147')).toEqual([['001-212-555-0147', '+12125550147', 'validated']]);
    expect(find('phone', 'New York: 001-212-555-0147', { region: null })[0]).toMatchObject({ region: 'US' });
    // Not valid after the prefix, a bare run, or a prefix with no country code after it.
    expect(read('Zurich office: 0041 44 668')).toEqual([]);
    expect(read('Code 001-212-555 on the form.')).toEqual([]);
    expect(read('Batch 0041446681800')).toEqual([]);
    expect(read('Batch 00 044 668 18 00')).toEqual([]);
    // Letters glued to it: an identifier.
    expect(read('Order AB-0041 44 668 18 00')).toEqual([]);
    // A dialled number that does not cover its window is not stretched over it (the second ending after the slash).
    expect(read('Zurich: 0041 44 668 18 00 / 01').filter(([text]) => text!.includes('/'))).toEqual([]);
  });

  it('reads every extension form on a valid number, ;ext= included, and none on an invalid one', () => {
    expect(read('Support: 415-555-0132;ext=12', 'US')).toEqual([['415-555-0132;ext=12', '+14155550132;ext=12', 'validated']]);
    expect(read('Call (415)555-0132x12 today.', 'US')).toEqual([['(415)555-0132x12', '+14155550132;ext=12', 'validated']]);
    expect(read('Support: 415-555-0132 #12', 'US')).toEqual([['415-555-0132 #12', '+14155550132;ext=12', 'validated']]);
    expect(read('Desk: (415) 555-0132 x204', 'US')).toEqual([['(415) 555-0132 x204', '+14155550132;ext=204', 'validated']]);
    // With a German home region the NANP number is not read as a German one with an extension.
    expect(read('Support: 415-555-0132;ext=12', 'DE')).toEqual([]);
    expect(read('Desk: (415) 555-013 x204', 'US')).toEqual([]);
  });

  it('reads a labelled national number in the region its paragraph names, and leaves it when none is named', () => {
    expect(read('Niederlassung Schweiz\nTelefon: 044 668 18 00')).toEqual([['044 668 18 00', '+41446681800', 'validated']]);
    expect(read('Phone: 020 7946 0958 · info@harbour-lettings.co.uk')).toEqual([['020 7946 0958', '+442079460958', 'validated']]);
    expect(read('Phone: 020 7946 0958')).toEqual([]);
  });
});
