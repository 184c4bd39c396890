import { describe, expect, it } from 'vitest';
import { cardsAnywhere, cardsInGroups, luhn } from '../../../src/core/facts/recognisers/card.js';
import { find, texts, values } from './helpers.js';

describe('card recogniser', () => {
  it('finds plain, spaced and dashed numbers and normalises to digits', () => {
    const text = '4012888888881881 4012-8888-8888-1881 4012 8888 8888 1881';
    expect(texts('card', text)).toEqual(['4012888888881881', '4012-8888-8888-1881', '4012 8888 8888 1881']);
    expect(values('card', text)).toEqual(['4012888888881881', '4012888888881881', '4012888888881881']);
  });

  it('accepts issuer groupings such as Amex 4-6-5', () => {
    expect(values('card', 'amex 3714 496353 98431')).toEqual(['371449635398431']);
  });

  it('accepts UATP, which card-validator does not know', () => {
    expect(texts('card', 'my credit card: 122000000000003')).toEqual(['122000000000003']);
    // Validated on its own (prefix 1, 15 digits, Luhn), with no card word; a prefix-1 run of another length, or 15
    // digits with another prefix, are not UATP (each Luhn-valid).
    expect(find('card', 'paid with 122000000000003').map((m) => [m.text, m.check ?? 'validated'])).toEqual([['122000000000003', 'validated']]);
    expect(texts('card', 'paid with 1220000000000002 and 12200000000002 and 922000000000005')).toEqual([]);
  });

  it('rejects a failed Luhn checksum', () => {
    expect(luhn('4012888888881882')).toBe(false);
    expect(texts('card', 'my credit card number is 4012-8888-8888-1882')).toEqual([]);
    expect(texts('card', '36168002586008')).toEqual([]);
    // The same numbers with their right check digits are found.
    expect(texts('card', 'my credit card number is 4012-8888-8888-1881 and 36168002586009')).toEqual(['4012-8888-8888-1881', '36168002586009']);
  });

  it('rejects an unknown issuer or a length the issuer does not issue', () => {
    expect(texts('card', '9111111111111111 4111111111111')).toEqual([]);
    // Luhn-valid but 17 digits for Visa, which issues 16, 18 and 19.
    expect(luhn('41111111111111113')).toBe(true);
    expect(texts('card', '41111111111111113')).toEqual([]);
    // The issuer's own length is found.
    expect(texts('card', '4111111111111111')).toEqual(['4111111111111111']);
  });

  it('does not take a 13-digit Unix-milliseconds timestamp for a card', () => {
    expect(luhn('1712345678907')).toBe(true);
    expect(texts('card', 'created 1712345678907')).toEqual([]);
    expect(texts('card', '1748503543012')).toEqual([]);
    // A 13-digit Visa in the same place is found.
    expect(texts('card', 'created 4222222222222')).toEqual(['4222222222222']);
  });

  it('rejects numbers next to letters or other digits', () => {
    expect(texts('card', 'x4111111111111111 4111111111111111x 94111111111111111')).toEqual([]);
    expect(texts('card', '0.4222222222222 4111111111111111,5')).toEqual([]);
    // Apart from them, the same numbers are found.
    expect(texts('card', 'x 4111111111111111 4111111111111111 x 9 4111111111111111')).toEqual(['4111111111111111', '4111111111111111', '4111111111111111']);
  });

  it('finds a card whatever number stands before it (issue 27): an IBAN, a phone number, a year, a quantity', () => {
    const card = '4111 1111 1111 1111';
    for (const before of [
      'IE29 AIBK 9311 5212 3456 78 ',
      'DE89 3704 0044 0532 0130 00 ',
      'IE29AIBK93115212345678 ',
      'BE68 5390 0754 7034 ',
      '+353 1 234 5678 ',
      '01 234 5678 ',
      '15 March 2024 ',
      'Room 12 ',
      'qty 3 ',
      '1234 ',
      '12, ',
    ]) {
      expect(texts('card', before + card), before).toEqual([card]);
    }
    expect(texts('card', 'GB82 WEST 1234 5698 7654 32 5555 5555 5555 4444')).toEqual(['5555 5555 5555 4444']);
    expect(texts('card', 'IE29-AIBK-9311-5212-3456-78-4111-1111-1111-1111')).toEqual(['4111-1111-1111-1111']);
    expect(texts('card', 'DE89 3704 0044 0532 0130 00 3714 496353 98431')).toEqual(['3714 496353 98431']);
    // A comma between digits: a list separator next to a card in groups, a decimal comma next to a run of digits.
    expect(texts('card', 'IE29 AIBK 9311 5212 3456 78,4111 1111 1111 1111,5555 5555 5555 4444')).toEqual(['4111 1111 1111 1111', '5555 5555 5555 4444']);
    expect(texts('card', '4111111111111111,5 4111111111111111.25')).toEqual([]);
  });

  it('reads a decimal part in the printed form of a card as a card, any other decimal part as a decimal (issue 27)', () => {
    // 15–16 digits after a number's decimal point or comma: the way a card is printed, as inside a run of numbers.
    expect(texts('card', 'x 1.4111111111111111')).toEqual(['4111111111111111']);
    expect(texts('card', 'ref 7,4111111111111111')).toEqual(['4111111111111111']);
    expect(texts('card', 'fee 0.378282246310005 paid')).toEqual(['378282246310005']);
    expect(texts('card', '12.5 4111 1111 1111 1111')).toEqual(['4111 1111 1111 1111']);
    expect(texts('card', '12.5 3714 496353 98431')).toEqual(['3714 496353 98431']);
    // 13 digits (a valid Visa of the old length) and 12 (a Maestro) are not printed so: a decimal part.
    expect(texts('card', 'x 1.4222222222222 and 2,500000000000')).toEqual([]);
    expect(texts('card', 'x 4222222222222 and 500000000000')).toEqual(['4222222222222']);
    // After a blank a run of digits is a token of its own, read at every card length as after a word (issue 27
    // variations): a 13-digit Visa after a phone number or a quantity; after a decimal point it stays a decimal part.
    expect(texts('card', '+44 20 7946 0958 4222222222222')).toEqual(['4222222222222']);
    expect(texts('card', 'qty 12 4222222222222, 3 501800000009 and 7\u00A04111111111111111110')).toEqual([
      '4222222222222',
      '501800000009',
      '4111111111111111110',
    ]);
    expect(texts('card', 'x 1.4222222222222, 2-4222222222222')).toEqual([]);
    // Nor is a group of four after a decimal point the start of a shorter card (5678 9012 3456, a Maestro).
    expect(texts('card', 'v1.5678 9012 3456')).toEqual([]);
    expect(texts('card', 'v 5678 9012 3456')).toEqual(['5678 9012 3456']);
  });

  it('takes no card of 12 digits from the end of a run of 4-digit groups (a voucher code), but a 16-digit card after a 4-digit number', () => {
    expect(texts('card', 'Gift voucher code 1234 5678 9012 3456 is printed on the back.')).toEqual([]);
    expect(texts('card', 'code 1234-5678-9012-3456')).toEqual([]);
    expect(texts('card', '1234 4111 1111 1111 1111')).toEqual(['4111 1111 1111 1111']);
  });

  it('finds a card in groups after a digit and a point (issue 27 review): no decimal part is written in groups of four', () => {
    for (const before of ['IE29 AIBK 9311 5212 3456 78.', 'v1.', '0.', '+44 20 7946 0958.', 'ref 7.']) {
      expect(texts('card', before + '4111 1111 1111 1111'), before).toEqual(['4111 1111 1111 1111']);
      expect(texts('card', before + '4111-1111-1111-1111'), before).toEqual(['4111-1111-1111-1111']);
    }
  });

  it('reads no short card out of the middle of a longer number, but a printed card after other numbers is found', () => {
    // 5678 9012 3456 is a Luhn-valid 12-digit Maestro number: inside a 16-digit voucher code it is not a card.
    expect(find('card', 'Gift voucher code 1234 5678 9012 3456 is printed on the back.')).toEqual([]);
    expect(find('card', 'Room 1234 5678 9012 3456 4111 1111 1111 1111 is booked.').map((match) => match.normalized)).toEqual(['4111111111111111']);
    expect(find('card', 'Order 12 4111111111111111 paid').map((match) => match.normalized)).toEqual(['4111111111111111']);
  });

  it('finds a card whatever number follows it, and two cards in a row', () => {
    expect(texts('card', '4111 1111 1111 1111 01 234 5678')).toEqual(['4111 1111 1111 1111']);
    expect(texts('card', '4111 1111 1111 1111 2024-03-15')).toEqual(['4111 1111 1111 1111']);
    expect(texts('card', '4111 1111 1111 1111 192.168.0.1')).toEqual(['4111 1111 1111 1111']);
    expect(texts('card', '4111 1111 1111 1111 5555 5555 5555 4444')).toEqual(['4111 1111 1111 1111', '5555 5555 5555 4444']);
    // Longer runs of groups: the first valid card from the left, as long as it validates.
    expect(texts('card', '4111 1111 1111 1111 1111 1111')).toEqual(['4111 1111 1111 1111']);
    // No card starts inside an IBAN: its digits are the IBAN's.
    expect(texts('card', 'BE68 5390 0754 7034')).toEqual([]);
  });

  it('takes a card of no known issuer (labelled) only when no more groups follow it', () => {
    expect(texts('card', 'Card number: 9012 3456 7890 1238 5678')).toEqual([]);
    expect(texts('card', 'Card number: 9012 3456 7890 1238')).toEqual(['9012 3456 7890 1238']);
  });

  it('rejects irregular grouping: dashes and blanks mixed, more than three blanks, more than one dash', () => {
    expect(texts('card', '4111 1111-1111 1111')).toEqual([]);
    expect(texts('card', '4111-1111 1111-1111')).toEqual([]);
    expect(texts('card', '4111    1111    1111    1111')).toEqual([]);
    expect(texts('card', '4111--1111--1111--1111')).toEqual([]);
    expect(texts('card', '4111 1111 1111 1111 and 4111-1111-1111-1111')).toEqual(['4111 1111 1111 1111', '4111-1111-1111-1111']);
  });

  it('takes runs of one to three blanks between groups: spaces, tabs, no-break spaces, mixed (a card copied from a PDF or a table; issue 27 review)', () => {
    for (const text of [
      '4111  1111  1111  1111',
      '4111   1111   1111   1111',
      '4111\t1111\t1111\t1111',
      '4111  1111 1111 1111',
      '4111 \t1111\u00A01111 1111',
    ]) {
      expect(
        find('card', `Card ${text} (copied from the PDF).`).map((m) => [m.text, m.normalized]),
        JSON.stringify(text),
      ).toEqual([[text, '4111111111111111']]);
    }
    // Amex 4-6-5 with double spaces; a trailing group after a run of blanks is still more groups (labelled refused).
    expect(values('card', 'amex 3714  496353  98431')).toEqual(['371449635398431']);
    expect(texts('card', 'Card number: 9012 3456 7890 1238  5678')).toEqual([]);
    expect(texts('card', 'Card number: 9012 3456 7890 1238\t\t5678')).toEqual([]);
    // Inside a run of numbers, blank runs count as one blank for the printed form.
    expect(texts('card', 'IE29 AIBK 9311 5212 3456 78  4111  1111  1111  1111')).toEqual(['4111  1111  1111  1111']);
    expect(texts('card', '12 3456  1234  5678  9012')).toEqual([]);
  });

  it('ends and starts a card at an underscore like any other sign (issue 27 review)', () => {
    expect(texts('card', 'Card 4111 1111 1111 1111_jane@example.ie on file.')).toEqual(['4111 1111 1111 1111']);
    expect(texts('card', 'ref_4111111111111111_x')).toEqual(['4111111111111111']);
    expect(texts('card', 'ref_4111-1111-1111-1111 ok')).toEqual(['4111-1111-1111-1111']);
  });

  it('takes a no-break, narrow no-break or thin space as the separator (text pasted from a web page or a PDF)', () => {
    const text = 'a 4012\u00A08888\u00A08888\u00A01881 b 5500\u202F0000\u202F0000\u202F0004 c 4111\u20091111\u20091111\u20091111';
    expect(values('card', text)).toEqual(['4012888888881881', '5500000000000004', '4111111111111111']);
    // Blanks of different kinds between the groups are one grouping (issue 27 review).
    expect(texts('card', '4111\u00A01111 1111 1111')).toEqual(['4111\u00A01111 1111 1111']);
  });

  it('does not match full-width digits', () => {
    expect(texts('card', '４１１１１１１１１１１１１１１１')).toEqual([]);
    expect(texts('card', '4111111111111111')).toEqual(['4111111111111111']);
  });

  it('checks Luhn itself: UnionPay (exempted by card-validator) and UATP must pass it too', () => {
    expect(luhn('')).toBe(false);
    expect(texts('card', 'unionpay 6212345678901234')).toEqual([]);
    expect(texts('card', 'uatp 122000000000004')).toEqual([]);
    // With their right check digits, both are found.
    expect(texts('card', 'unionpay 6212345678901232 uatp 122000000000003')).toEqual(['6212345678901232', '122000000000003']);
  });

  it('accepts only UATP among 15-digit numbers no issuer knows', () => {
    expect(luhn('900000000000001')).toBe(true);
    expect(texts('card', 'ref 900000000000001')).toEqual([]);
  });

  it('accepts a 13-digit Visa, and an unknown issuer only with a card word before it (labelled)', () => {
    expect(find('card', 'old card 4222222222222 on file')[0]).toMatchObject({ normalized: '4222222222222' });
    expect(find('card', 'old card 4222222222222 on file')[0]?.check).toBeUndefined();
    expect(find('card', 'Card number: 9012 3456 7890 1238').map((m) => [m.text, m.check])).toEqual([['9012 3456 7890 1238', 'labelled']]);
    expect(texts('card', 'Tracking 9012 3456 7890 1238')).toEqual([]);
    expect(texts('card', 'Card number: 9012 3456 7890 1239')).toEqual([]);
    expect(texts('card', 'call +4915123456274')).toEqual([]);
  });
});

describe('cardsAnywhere: the second reading of redacted text (issue 27)', () => {
  const spans = (text: string) => cardsAnywhere(text).map((match) => [match.kind, match.text, match.start, match.end, match.normalized]);

  it('finds a card run into letters, digits or a decimal point, in the first or last 15 or 16 digits of a longer run', () => {
    expect(spans('alice@example.com4111111111111111')).toEqual([['card', '4111111111111111', 17, 33, '4111111111111111']]);
    expect(spans('v1.4111111111111111')).toEqual([['card', '4111111111111111', 3, 19, '4111111111111111']]);
    expect(spans('orderX12344111111111111111')).toEqual([['card', '4111111111111111', 10, 26, '4111111111111111']]);
    expect(spans('id999378282246310005')).toEqual([['card', '378282246310005', 5, 20, '378282246310005']]);
    // Both ends of one run are read: each reading that is a valid card is reported.
    expect(spans('ref 41111111111111111234x')).toEqual([
      ['card', '111111111111234', 9, 24, '111111111111234'],
      ['card', '4111111111111111', 4, 20, '4111111111111111'],
    ]);
  });

  it('reads no stretch inside a bare run of digits, and no decimal part but a 15- or 16-digit one (issue 27 review)', () => {
    // The same runs glued to no letter: one number each (a counter, an order number), not a card.
    for (const text of ['order 12344111111111111111', 'id 999378282246310005', 'ref 41111111111111111234', 'order_41111111111111111234_x']) {
      expect(spans(text), text).toEqual([]);
    }
    // A decimal part of 13, 17 or 18 digits is a decimal part (`1.4222222222222` is sent as written).
    for (const text of ['x 1.4222222222222', 'Measured 9.57597412873363574', 'and 0,452522723041048902 in', 'y 2.41111111111111112']) {
      expect(spans(text), text).toEqual([]);
    }
    expect(spans('x 1.4111111111111111')).toEqual([['card', '4111111111111111', 4, 20, '4111111111111111']]);
  });

  it('reads a whole run of 12 to 19 digits once, a 12-digit Maestro and a 19-digit Visa included', () => {
    expect(spans('x 4111111111111111 y')).toEqual([['card', '4111111111111111', 2, 18, '4111111111111111']]);
    expect(spans('maestro 501800000009')).toEqual([['card', '501800000009', 8, 20, '501800000009']]);
    expect(spans('pan 4000000000000000006 end')).toEqual([['card', '4000000000000000006', 4, 23, '4000000000000000006']]);
    expect(spans('no 1234 5678 here, nor 4111 1111 1111 1112')).toEqual([]);
  });

  it('reads a card printed in groups from the last four digits of a run, with any one separator, within the text', () => {
    expect(spans('card 4111.1111.1111.1111 ok')).toEqual([['card', '4111.1111.1111.1111', 5, 24, '4111111111111111']]);
    expect(spans('card 4111/1111/1111/1111')).toEqual([['card', '4111/1111/1111/1111', 5, 24, '4111111111111111']]);
    // Glued to a date before it, and ending the text: once, with its own span (not a 19-character slice past the end).
    expect(spans('on 2024-03-153714-496353-98431')).toEqual([['card', '3714-496353-98431', 13, 30, '371449635398431']]);
    expect(spans('on 2024-03-153714-496353-98431.')).toEqual([['card', '3714-496353-98431', 13, 30, '371449635398431']]);
  });
});

describe('cardsInGroups: the fourth reading of redaction (issue 27, reviews rev27j and rev27k)', () => {
  const spans = (text: string) => cardsInGroups(text).map((match) => [match.text, match.start, match.end, match.normalized]);

  it('reads a card printed with one and the same separator of one to three signs, whatever they are', () => {
    for (const separator of ['||', '··', '· ', ', ', ' | ', '", "', ' -- ', '⟦', '\ufe30', ':', '=', '~', ' ', '-']) {
      const written = ['4111', '1111', '1111', '1111'].join(separator);
      expect(spans(`x ${written} y`), separator).toEqual([[written, 2, 2 + written.length, '4111111111111111']]);
    }
    expect(spans('amex 3714::496353::98431')).toEqual([['3714::496353::98431', 5, 24, '371449635398431']]);
    expect(spans('diners 3056||930902||5904')).toEqual([['3056||930902||5904', 7, 25, '30569309025904']]);
    expect(spans('19: 4000·0000·0000·0000·006')).toEqual([['4000·0000·0000·0000·006', 4, 27, '4000000000000000006']]);
  });

  it('does not read groups parted by two different separators, nor a number that is not a valid card', () => {
    expect(spans('4111||1111|1111||1111')).toEqual([]);
    expect(spans('4111· 1111·1111· 1111')).toEqual([]);
    expect(spans('12345678 6386:8017:7554')).toEqual([]);
    expect(spans('4111||1111||1111||1112')).toEqual([]);
    // Letters are no separator: an identifier; nor nine signs.
    expect(spans('4111x1111x1111x1111')).toEqual([]);
    expect(spans('4111 ------- 1111 ------- 1111 ------- 1111')).toEqual([]);
  });

  it('reads a card glued to digits before its first group, or an expiry glued after its last', () => {
    expect(spans('15.03.20244111:1111:1111:1111')).toEqual([['4111:1111:1111:1111', 10, 29, '4111111111111111']]);
    expect(spans('card 4111,1111,1111,111112-27')).toEqual([['4111,1111,1111,1111', 5, 24, '4111111111111111']]);
    expect(spans('1111exp 4111··1111··1111··1111exp')).toEqual([['4111··1111··1111··1111', 8, 30, '4111111111111111']]);
  });

  it('reads a 4-6-4 or 19-digit card with an expiry of a month and a four-digit year glued to its short last group', () => {
    for (const expiry of ['12/2027', '122027', '12.2027', '12 / 2031', '01-2026']) {
      expect(
        spans(`card 3056 930902 5904${expiry} ok`).map((span) => span[0]),
        expiry,
      ).toEqual(['3056 930902 5904']);
      expect(
        spans(`card 4000·0000·0000·0000·006${expiry}`).map((span) => span[0]),
        expiry,
      ).toEqual(['4000·0000·0000·0000·006']);
    }
    // No month (13, 00) or no year of this century before it: digits glued to a group, not an expiry.
    for (const glued of ['13/2027', '002027', '12/1999', '12/20271']) expect(spans(`card 3056 930902 5904${glued} ok`), glued).toEqual([]);
  });

  it('reads a card wrapped after a separator (a line break and blanks after it)', () => {
    expect(spans('card 4111,\n1111,1111,1111')).toEqual([['4111,\n1111,1111,1111', 5, 25, '4111111111111111']]);
    expect(spans('card 4111·1111·\r\n   1111·1111')).toEqual([['4111·1111·\r\n   1111·1111', 5, 29, '4111111111111111']]);
  });

  it('reads a 4-4-4-4 card glued to digits on both sides, and a 4-6-5 one unless its glued runs make six-digit items', () => {
    expect(spans('#514729·5564·9732·81151230·059').map((span) => span[0])).toEqual(['4729·5564·9732·8115']);
    expect(spans('card #853784#767982#96097491#03/25').map((span) => span[0])).toEqual(['3784#767982#96097']);
    expect(spans('card 3714:496353:9843112:27').map((span) => span[0])).toEqual(['3714:496353:98431']);
  });

  it('reads a short last group whole, and no card across the items of a list in its own separator', () => {
    // `4994 4564 8178 4738` is the card; `4564 8178 4738 0330 538` (of `5389`) is not read.
    expect(spans('card 4994 4564 8178 4738 0330 5389').map((span) => span[0])).toEqual(['4994 4564 8178 4738']);
    // Six-digit order numbers in `, `: `1898, 805922, 22457` is a valid card by chance, read across three items.
    expect(spans('Orders 981898, 805922, 224575, 716213, 919553')).toEqual([]);
    expect(spans('Orders 555397, 929030, 236938, 880577, 673783')).toEqual([]);
    // The same digits with a separator of their own after the last group: not a list item.
    expect(spans('x 1898, 805922, 224575-27').map((span) => span[0])).toEqual(['1898, 805922, 22457']);
  });
});
