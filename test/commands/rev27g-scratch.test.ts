/**
 * Issue 27 review (rev27g): a hostile reviewer's variations on the digit skeleton's ordinary-number rules
 * (src/core/facts/skeleton.ts, `ordinaryFinds`), through the real parts — the built CLI, a store, and a stand-in model
 * server on 127.0.0.1 played as a hosted model at a non-loopback base URL (`models.hosted.test`, resolved by a
 * preloaded hook), so the default policy (`auto`) redacts.
 *
 * A validated value (a Luhn-valid card with a known issuer, an IBAN with valid check digits, a phone number valid in
 * the region) must be replaced or stop the request (exit 9); ordinary text must go out as written. Cases still broken
 * are `it.fails` (the suite stays green while they are open; a fix makes the case pass and the test fail — then move
 * it to a held list). OVER: ordinary text replaced or stopped. Every value this review found sent is now held.
 */
import { describe, it } from 'vitest';
import { notSent, reviewCases, type Part } from '../helpers/hosted-model.js';

const CARD = '4111111111111111'; // Visa test number, Luhn-valid
const MC = '5555555555554444'; // Mastercard test number, Luhn-valid
const MOBILE = '871234567'; // 087 123 4567, an Irish mobile number (valid in IE)

// Sent when this review was written; replaced or stopped since (the rule for a piece of a larger number needs a decimal
// or thousands sign inside the find). Each assertion fails on the value's digits reaching the stand-in.
const WAS_OPEN: ReadonlyArray<readonly [string, string, Part]> = [
  // A card or phone number as a field of a comma row between numeric fields: "glued on both sides by a bare `,`" made
  // it the middle of a larger number and the whole card went out. A card of one group now stops the request (exit 9),
  // a phone number is replaced: only a find written as a number itself is a piece of a larger one.
  ['CSV row: id, card, expiry year, code', '42,4111111111111111,2027,123', { digits: CARD }],
  ['JSON array of numbers holding a card', '{"id":7,"cards":[1,5555555555554444,2]}', { digits: MC }],
  ['CSV row: count, phone, count (IE)', 'Jane Doe\n7,087 123 4567,12', { digits: MOBILE }],
  ['CSV row: count, phone, count (GB)', '3,020 7946 0958,4', { digits: '2079460958', region: 'GB' }],
  ['CSV row: count, phone, count (US)', '7,415-555-2671,12', { digits: '4155552671', region: 'US' }],
  // After a bare U+2019 (a thousands sign) the whole card went out; now replaced.
  ['card after 12 and a closing quote', 'Ref 12\u20194111 1111 1111 1111 ok', { digits: CARD }],
];

reviewCases('rev27g WAS_OPEN: values once declared ordinary, now kept from a hosted model', 'held', WAS_OPEN, 760);

// Sent when this review was written (exit 0); replaced since (rev27g's fix): a card or phone number read across two
// values is left out only when the other finds hold every digit of it (a card that "cut" a longer phone reading was
// dropped and 8-12 of its digits went out); two digits after a bare decimal sign at the end of a phone number are not
// its own; a number spelled digit by digit after a word for a number is replaced; and a comma or semicolon list of
// groups of four is ordinary only when it counts, as a blank one is. Each assertion fails on the value's digits
// reaching the stand-in.
const WAS_OPEN_CUT: ReadonlyArray<readonly [string, string, Part]> = [
  // Defect 1's own shape, a card after an IBAN: a phone number read across the IBAN's last groups and the card's first
  // (`… 01 5484 4970` as a Dublin number) is merged into the IBAN's span and the card, which cuts it, is declared
  // ordinary: the card's last 8-12 digits go out after `⟦iban 1⟧` (25 of 1 800 generated texts in six regions, 18 of
  // 300 in FR, IE and DE too; 0 before rev27f, which replaced the card).
  ['IE: IBAN then card (defect 1 shape)', 'IBAN GB08 WEST 0416 0611 3426 01 5484 4970 9125 5515 ok', { digits: '91255515' }],
  ['FR: IBAN, a comma, card', 'IBAN IE48 AIBK 7770 9753 0835 77, 4921 6994 7519 9094 ok', { digits: '699475199094', region: 'FR' }],
  ['FR: IBAN, a line break, card', 'IBAN GB27 WEST 3621 1872 0558 16\n4043 5034 0241 3482 ok', { digits: '503402413482', region: 'FR' }],
  ['DE: IBAN then card', 'IBAN IE06 AIBK 2957 0241 1477 69 5503 0129 7869 8120 ok', { digits: '012978698120', region: 'DE' }],
  // The issue's own shape, a card after a phone number: the skeleton reads the phone number and the card's first
  // group(s) as one longer valid number, the card "cuts" it and is declared ordinary; the card's last 8-12 digits go
  // out after `⟦phone 1⟧` (before rev27f the card was replaced). 23 of 211 generated DE texts, 17 of 207 FR, 3 of 192 IE.
  ['DE: phone number, a slash, card', 'Tel 030 29768976 / 6011 4570 3310 3181 ok', { digits: '457033103181', region: 'DE' }],
  ['DE: Berlin number then the Visa test card', 'Tel 030 1234 4111 1111 1111 1111 ok', { text: '\u27e7 1111 1111 ok', region: 'DE' }],
  ['FR: mobile number then card', 'Tel 06 54 04 33 81 6011 3228 4264 7762 ok', { digits: '322842647762', region: 'FR' }],
  ['IE: mobile number then card', 'Tel 087 088 9144 6011 4208 1932 9701 ok', { digits: '420819329701' }],
  // A card then a phone number, or a year, when the card's last group starts with 0: read as a phone number with what
  // follows; the card's first 8-12 digits go out before `⟦phone 1⟧` (19 of 193 generated FR texts).
  ['FR: card then mobile number', 'Card 5598 9738 0119 7752 06 72 79 96 90 ok', { digits: '55989738', region: 'FR' }],
  ['DE: card then its expiry year', 'Karte 6011 6395 3637 0231 2027', { digits: '601163953637', region: 'DE' }],
  ['GB: card, a comma, London number', 'Card 5338 4475 8538 0301, 020 7946 7677 ok', { digits: '533844758538', region: 'GB' }],
  // A phone number with `.12` after it: read as a number with decimals, the whole number goes out (replaced before rev27f).
  ['Dublin number followed by .12', 'Call 01 234 5678.12 now', { digits: '12345678' }],
  // Once documented as still sent: a US number spelled digit by digit after a word for a number, and a card inside a
  // longer comma list of four-digit groups that does not count.
  ['US number spelled digit by digit after "my number is"', 'my number is 4 1 5 5 5 5 2 6 7 1', { digits: '4155552671', region: 'US' }],
  ['card inside a comma list', 'Codes 4111,1111,1111,1111,2222,3333,4444 ok', { digits: CARD }],
];

reviewCases('rev27g WAS_OPEN: values once cut out of a longer reading and sent, now kept from a hosted model', 'held', WAS_OPEN_CUT, 700);

// Replaced when this review was written; sent as written since rev27g's fix (a comma with a blank among other gaps, or a
// colon before two digits, parts the items of a list: no card or phone number is read across them).
const WAS_OVER: ReadonlyArray<readonly [string, string, string, string]> = [
  // A list of shift times: a card read over `22:00, 14:56-23:00, 08:13-01` (152 of 300 generated lists; 0 before rev27f).
  ['shift times (was replaced by a card)', 'Shifts 04:17-22:00, 14:56-23:00, 08:13-01:17 agreed.', '04:17-22:00, 14:56-23:00, 08:13-01:17', 'IE'],
  ['page ranges (was replaced by a card)', 'Pages 380\u2013396, 180\u2013199, 18\u201333, 331\u2013349 read.', '380\u2013396, 180\u2013199, 18\u201333', 'GB'],
];

reviewCases('rev27g WAS_OVER: ordinary text once replaced, now sent as written', 'sent', WAS_OVER, 740);

// OVER: ordinary text replaced (a placeholder over figures) or stopped (exit 9) today.
const OVER: ReadonlyArray<readonly [string, string, string, string]> = [
  // A semicolon row with a European amount: stops the request (17 of 300 generated rows; 51 before rev27f).
  ['a semicolon row (stopped)', 'Row 2024-01-10;21996;96;3994.72;456 imported.', '2024-01-10;21996;96;3994.72;456', 'DE'],
  // Two coordinate pairs: stops the request (18 of 300; 15 before rev27f).
  ['coordinates (stopped)', 'At 80.394560, -121.563962 and 34.735463 39.842105 today.', '80.394560, -121.563962 and 34.735463 39.842105', 'FR'],
  // SKUs: read as a phone number (DE) or a card over the first few.
  ['SKUs (replaced by a card)', 'Items 368-7316, 106-4041, 160-4562 shipped.', '368-7316, 106-4041', 'DE'],
];

reviewCases('rev27g OVER: ordinary text replaced or stopped', 'over', OVER, 750);

// HELD: replaced or stopped, never sent.
const HELD: ReadonlyArray<readonly [string, Part]> = [
  // A card after a counting list of four-digit groups, and a card whose own groups count (not read as a list).
  ['Invoices 4495 4496 4497 4498 4111 1111 1111 1111 paid.', { digits: CARD }],
  ['Invoices 4028 4029 4030 4031 ok.', { digits: '4028402940304031' }],
  // A card between amounts with decimals; a card as a semicolon field; an IBAN as a comma field.
  ['Total 12.50 4111 1111 1111 1111 3.20 due.', { digits: CARD }],
  ['42;4111111111111111;2027;123', { digits: CARD }],
  ['1,IE29AIBK93115212345678,3', { digits: '29931152123456' }],
  // A card then a phone number in IE, US and DE (the card's last group does not start with 0).
  ['Card 4111 1111 1111 1111 087 123 4567 ok.', { digits: CARD }],
  ['Card 4111 1111 1111 1111 415 555 2671 ok.', { digits: CARD, region: 'US' }],
  ['Karte 4111 1111 1111 1111 030 12345678 ok.', { digits: CARD, region: 'DE' }],
  // Defect 1's reproductions, in a region where the skeleton reads phone numbers of other lengths.
  ['IE29 AIBK 9311 5212 3456 78 4111 1111 1111 1111 and DE89 3704 0044 0532 0130 00 5555 5555 5555 4444', { digits: '555555555544', region: 'FR' }],
  ['IE29 AIBK 9311 5212 3456 78 4111 1111 1111 1111', { digits: '41111111', region: 'DE' }],
  // A number spelled digit by digit with its trunk prefix.
  ['my number 0 8 7 1 2 3 4 5 6 7 thanks', { digits: MOBILE }],
];

describe.concurrent('rev27g HELD: attacks on the ordinary-number rules that hold', () => {
  it.each(HELD.map(([text, part], index) => [index, text, part] as const))(
    'held %i: %j is replaced or stops the request',
    (index, text, part) => notSent(800 + index, text, part),
    120_000,
  );
});
