/**
 * Issue 27 review (rev27f): a hostile reviewer's variations on the last round's grouped reading (digit groups parted by
 * any one sign, groups of any size, a national number split off a run) and the normal form (controls, fillers, marks),
 * through the real parts — the built CLI, a store, and a stand-in model server on 127.0.0.1 played as a hosted model at
 * a non-loopback base URL (`models.hosted.test`, resolved by a preloaded hook), so the default policy (`auto`) redacts.
 *
 * A validated value (a Luhn-valid card with a known issuer, an IBAN with valid check digits, a phone number valid in
 * the region) must be replaced or stop the request (exit 9). The cases the review left open (`it.fails`) are closed by
 * the digit skeleton (src/core/facts/skeleton.ts) and held below (`WAS_OPEN`); so is the ordinary text the grouped
 * reading replaced or stopped (`WAS_OVER`, asserting it goes out as written).
 */
import { describe, expect, it } from 'vitest';
import { notSent, sendToHosted as send, type Part } from '../helpers/hosted-model.js';

/** Ordinary text: sent as written (exit 0, one request, every fragment in it unchanged). */
async function sentAsWritten(index: number, text: string, fragments: readonly string[]): Promise<void> {
  const { exitCode, sent, output } = await send(index, text);
  expect(exitCode, `${text}: ${output}`).toBe(0);
  const message = sent[1] ?? '';
  for (const fragment of fragments) expect(message, fragment).toContain(fragment);
}

const CARD = '4111111111111111'; // Visa test number, Luhn-valid
const MC = '5555555555554444'; // Mastercard test number, Luhn-valid
const IBAN = '29931152123456'; // digits of IE29 AIBK 9311 5212 3456 78 (valid check digits)
const MOBILE = '871234567'; // 087 123 4567, an Irish mobile number (valid in IE)

// Sent (exit 0) before the digit skeleton; replaced since (rev27f). Each assertion fails on the value's digits
// reaching the stand-in.
const WAS_OPEN: ReadonlyArray<readonly [string, string, Part]> = [
  // The reported case: the middle `1111-1111` is taken as a phone number, and `4111` and `1111` go out around it
  // (8 of the card's 16 digits, its first and last four).
  ['mixed blank and dash: first and last four digits', 'Card 4111 1111-1111 1111 now.', { text: '4111' }],
  // The same with a dash in both halves: `4111-1111` (8 digits) goes out.
  ['dash pairs parted by a blank', 'Card 4111-1111 1111-1111 now.', { text: '4111-1111' }],
  // Mixed separators with no phone in the middle: the whole Mastercard number goes out.
  ['mixed blank and middle dot', 'Card 5555 5555\u00b75555 4444 now.', { digits: MC }],
  // Group sizes the printed-groups rule does not take: the whole card goes out.
  ['groups 3-4-4-5', 'Card 411 1111 1111 11111 now.', { digits: CARD }],
  ['groups 8-4-4', 'Card 41111111 1111 1111 now.', { digits: CARD }],
  ['groups 2-2-4-4-4 in middle dots', 'Card 41\u00b711\u00b71111\u00b71111\u00b71111 now.', { digits: CARD }],
  // A value wrapped at a line break right after its separator sign (a hyphenated wrap): the whole value goes out.
  ['IBAN in dashes wrapped after a dash', 'IBAN IE29-AIBK-9311-\n5212-3456-78 monthly.', { digits: IBAN }],
  ['IBAN in middle dots wrapped after a dot', 'IBAN IE29\u00b7AIBK\u00b79311\u00b7\n5212\u00b73456\u00b778 monthly.', { digits: IBAN }],
  ['card in middle dots wrapped after a dot', 'Card 4111\u00b71111\u00b7\n1111\u00b71111 now.', { digits: CARD }],
  ['card in dashes wrapped after a dash: the first eight digits', 'Card 4111-1111-\n1111-1111 now.', { text: '4111-1111' }],
  // A phone number whose groups mix two separators: the whole number goes out.
  ['phone in a middle dot and a blank', 'Call 087\u00b7123 4567 now.', { digits: MOBILE }],
  ['US phone in a middle dot and a blank', 'Call 415\u00b7555 2671 now.', { digits: '4155552671', region: 'US' }],
  // A phone number at the start of a run parted by one sign, with a number after it in the same sign: the run is not
  // split at a sign (only at blanks), and the whole run is no number.
  ['national phone then a count in middle dots', 'Call 087\u00b7123\u00b74567\u00b712 times.', { digits: MOBILE }],
  ['international phone then a count in middle dots', 'Call +353\u00b787\u00b7123\u00b74567\u00b712 times.', { digits: MOBILE }],
  ['a count then a phone in middle dots', 'Room 12\u00b7087\u00b7123\u00b74567 ask.', { digits: MOBILE }],
];

describe.concurrent('rev27f: grouped-reading edges once sent to a hosted model, now replaced', () => {
  it.each(WAS_OPEN.map(([name, text, part], index) => [name, index, text, part] as const))(
    'held: %s',
    (_name, index, text, part) => notSent(300 + index, text, part),
    120_000,
  );
});

// HELD: replaced or stopped, never sent.
const HELD: ReadonlyArray<readonly [string, Part]> = [
  ['4111\u00b71111\u00b71111\u00b71111', { digits: CARD }],
  ['4111\u00b71111\u00b71111\u00b71111\u00b75555\u00b75555\u00b75555\u00b74444', { digits: '555555555544' }],
  ['Card 4111 1111 1111 1111 5555 5555 5555 4444 both.', { digits: '555555555544' }],
  ['12\u00b74111\u00b71111\u00b71111\u00b71111 and 5555\u00b75555\u00b75555\u00b74444\u00b712', { digits: '555555555544' }],
  ['Card \u00b74111\u00b71111\u00b71111\u00b71111\u00b7 and 4111 1111 1111 1111 1111 twice.', { digits: CARD }],
  ['Card 4111\u066b1111\u066b1111\u066b1111 and 4111\u07f81111\u07f81111\u07f81111.', { digits: CARD }],
  ['Card 4111 1111\n1111 1111 and 4111\n1111\n1111\n1111 wrapped.', { digits: CARD }],
  ['IBAN IE29 AIBK\u00b79311 5212\u00b73456 78 and IE29 AIBK 9311\n5212 3456 78.', { digits: IBAN }],
  ['Amex 378 282 246 310 005 and 3782 822463 10005.', { digits: '378282246310005' }],
  ['Call (087) 123\u00b74567 and 087.123 4567 and 087 123 4567, 12 times.', { digits: MOBILE }],
  // Two separators in one phone number, one of them the phone recogniser's own: stopped (the second reading).
  ['Call 087/123\u00b74567 or 087\u2013123\u00b74567 now.', { digits: MOBILE }],
  // The shape in signs: an IBAN or a phone number and a card sharing one separator run.
  [
    'IE29\u00b7AIBK\u00b79311\u00b75212\u00b73456\u00b778\u00b74111\u00b71111\u00b71111\u00b71111 and IE29,AIBK,9311,5212,3456,78,5555,5555,5555,4444',
    { digits: '555555555544' },
  ],
  ['087\u00b7123\u00b74567\u00b74111\u00b71111\u00b71111\u00b71111 and 4111 1111 1111 1111 087 123 4567 x', { digits: MOBILE }],
];

describe.concurrent('rev27f: grouped-reading edges that hold', () => {
  it.each(HELD.map(([text, part], index) => [index, text, part] as const))(
    'held %i: %j is replaced or stops the request',
    (index, text, part) => notSent(400 + index, text, part),
    120_000,
  );

  it('held: ordinary numbers go out as written', async () => {
    const fragments = [
      'Version 1.2.3 and 10.4.12.1',
      'Date 15.03.2024, 15/03/2024, 2024-03-15',
      'Time 10:30:00 and 23:59',
      'IP 192.168.1.10, 2001:db8::1 and fe80::1:2:3:4',
      "Money 1'234'567.50 CHF, 1,234,567.50 and 1.234.567,50 EUR",
      'Order 1234-5678-9012 shipped',
      'CSV 12,34,56,78,90,12,34,56,78,90,11',
      'ISBN 978-3-16-148410-0 and 978 0 306 40615 7',
      'Coords 53.3498, -6.2603',
      'Steps 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20',
    ];
    await sentAsWritten(450, `${fragments.join('; ')}.`, fragments);
  }, 120_000);

  it('held: 64 KB of single digits in bars and of four-digit groups is no crash (clipped for the prompt)', async () => {
    const bars = Array.from({ length: 32_000 }, (_, i) => String(i % 10)).join('|');
    const fours = Array.from({ length: 13_000 }, (_, i) => String(1000 + (i % 9000))).join(' ');
    for (const [index, text] of [bars, fours].entries()) {
      const { exitCode, output } = await send(460 + index, text, { promptOnly: true });
      expect([0, 9], output.slice(0, 400)).toContain(exitCode);
    }
  }, 120_000);
});

// The cost of the grouped reading: ordinary lists of numbers that got a placeholder, or stopped the request (exit 9),
// before the digit skeleton's ordinary numbers (rev27f); sent as written since.
const WAS_OVER: ReadonlyArray<readonly [string, string, string]> = [
  // A list of consecutive invoice numbers: a card in its first six groups, then the request stops.
  ['consecutive invoice numbers (stopped the request)', 'Invoices 4495 4496 4497 4498 4499 4500 4501 4502 paid.', '4495 4496 4497 4498 4499 4500 4501 4502'],
  ['a list of three-digit numbers (stopped the request)', 'Rooms 883 123 467 157 753 160 500 877 free.', '883 123 467 157 753 160 500 877'],
  // (A CSV row of four-digit numbers holding a valid card, `Sales 6281,4595,6163,3136,1776,6321,5725`, was here: since
  // rev27g a comma list of groups of four is ordinary only when it counts, so the card in it is replaced again — a card
  // inside such a list went out. test/core/facts/redact-skeleton.test.ts holds the rate.)
  ['a row of two-digit scores (got a card)', 'Scores 25, 67, 54, 38, 74, 17, 76, 37, 36, 55 today.', '25, 67, 54, 38, 74, 17, 76, 37, 36, 55'],
  [
    'a range in en dashes (got a phone)',
    'Range 1\u20132\u20133\u20134\u20135\u20136\u20137\u20138\u20139 steps.',
    '1\u20132\u20133\u20134\u20135\u20136\u20137\u20138\u20139',
  ],
  ['two Swiss amounts (got a phone)', "Total CHF 1'186.65 884'593.36 due.", "1'186.65 884'593.36"],
];

describe.concurrent('rev27f: ordinary numbers once replaced or stopped, now sent as written', () => {
  it.each(WAS_OVER.map(([name, text, fragment], index) => [name, index, text, fragment] as const))(
    'held: %s',
    (_name, index, text, fragment) => sentAsWritten(500 + index, text, [fragment]),
    120_000,
  );
});
