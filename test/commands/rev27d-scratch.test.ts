/**
 * Issue 27 review (rev27d): a hostile reviewer's variations through the real parts — the built CLI, a SQLite store, and
 * a stand-in model server on 127.0.0.1 played as a hosted model at a non-loopback base URL (`models.hosted.test`,
 * resolved by a preloaded hook), so the default policy (`auto`) redacts. A text holding a validated value must have it
 * replaced or stop the request (exit 9), never send a recognisable part of it, never exit 1; ordinary text must go out
 * as written (exit 0). Cases still broken are `it.fails` (the suite stays green while they are open; a fix makes the
 * case pass and the test fail — then move it to HELD).
 */
import { describe, expect, it } from 'vitest';
import { notSent, sendToHosted, type Part } from '../helpers/hosted-model.js';

/** Ordinary text: sent (exit 0), as written (no placeholder stands in it). */
async function sentAsWritten(index: number, text: string): Promise<void> {
  const { exitCode, sent, output } = await sendToHosted(index, text);
  expect(exitCode, `${text}: ${output}`).toBe(0);
  expect(sent.length).toBeGreaterThan(0);
  expect(sent.some((body) => body.includes(text))).toBe(true);
}

// Held: replaced or stopped, never sent.
const HELD: ReadonlyArray<readonly [string, Part]> = [
  ['Card 4111\u20281111\u20281111\u20281111 with line separators.', { digits: '411111111111' }],
  ['Card 4111\u00ad1111\u00ad1111\u00ad1111 with soft hyphens.', { digits: '411111111111' }],
  ['Card 4111\u200f1111\u200f1111\u200f1111 with RTL marks.', { digits: '411111111111' }],
  ['Card 4111\u00a0\t1111\u2009 1111 1111 mixed blanks.', { digits: '411111111111' }],
  ['Card 4111    1111    1111    1111 four blanks.', { digits: '411111111111' }],
  ['Card 4111 \u0661\u0661\u0661\u0661 \uff11111 1111 mixed scripts.', { digits: '411111111111' }],
  [
    'Card \ud835\udfd2\ud835\udfcf\ud835\udfcf\ud835\udfcf \ud835\udfcf\ud835\udfcf\ud835\udfcf\ud835\udfcf \ud835\udfcf\ud835\udfcf\ud835\udfcf\ud835\udfcf \ud835\udfcf\ud835\udfcf\ud835\udfcf\ud835\udfcf bold.',
    { digits: '411111111111' },
  ],
  [
    'Mail \uff4a\uff41\uff4e\uff45\uff20\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45\uff0e\uff49\uff45 in full width.',
    { text: '\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45' },
  ],
  ['Mail jane\u200b@example.ie with a zero-width space.', { text: 'example.ie' }],
  ['See https://x.example/pay?card=4111111111111111&x=1 now.', { digits: '411111111111' }],
  ['{"card":"4111111111111111","phone":"+35312345678"}', { digits: '12345678' }],
  ['Code `4111 1111 1111 1111` and **IE29 AIBK 9311 5212 3456 78**.', { digits: '931152123456' }],
  ['card=4111111111111111;phone=+35312345678;iban=IE29AIBK93115212345678', { digits: '12345678' }],
  ['x 4111111111111111_j.doe+tag@example.ie y', { text: 'doe+tag@example.ie' }],
  ['x 087 123 4567.42.jane+x@example.ie y', { text: 'jane+x@example.ie' }],
  ['Call 087 123 4567, 087 765 4321 either.', { digits: '877654321' }],
  ['Call 415 555 2671, 415 555 2672 either.', { digits: '4155552672', region: 'US' }],
  ['IBAN IE29 AIBK 9311 5212 3456 78_ for rent.', { digits: '931152123456' }],
  ['IBAN GB82 WEST 1234 5698 7654 32|4111 1111 1111 1111 x', { digits: '411111111111' }],
  // Sent before the rev27d fix (the IBANs in odd groups now stop the request, exit 9).
  // IBANs in groups by dots, with a blank after the country code, or in threes.
  ['IBAN DE89.3704.0044.0532.0130.00 for rent.', { digits: '370400440532' }],
  ['IBAN DE 89 3704 0044 0532 0130 00 for rent.', { digits: '370400440532' }],
  ['IBAN DE893 704 004 405 320 130 00 for rent.', { digits: '704004405320' }],
  // A national number after a value glued by `#`, `+`, `$`, `%` (the glue list read `_ - . , ; : / | ~ =` only).
  ['Card 4111 1111 1111 1111#087 123 4567 on file.', { digits: '871234567' }],
  ['Mail jane@example.ie+087 123 4567 today.', { digits: '871234567' }],
  ['Rent IE29AIBK93115212345678#087 123 4567 monthly.', { digits: '871234567' }],
  ['Card 4111111111111111++353 1 234 5678 on file.', { digits: '12345678' }],
  ['Jane: +353 1 234 5678%4111 1111 1111 1111 on file.', { digits: '12345678' }],
  ['Jane: 087 123 4567$IE29AIBK93115212345678 on file.', { digits: '871234567' }],
  ['Call 4111111111111111#415-555-2671 in the US.', { digits: '4155552671', region: 'US' }],
  // Two national numbers glued by a hyphen: the second went out.
  ['Call 087 123 4567-087 765 4321 either.', { digits: '877654321' }],
  // Dashes other than ASCII `-` between a card's groups (a word processor's en dash), and a spaced dash.
  ['Card 4111\u20131111\u20131111\u20131111 from the letter.', { digits: '411111111111' }],
  ['Card 4111\u22121111\u22121111\u22121111 with minus signs.', { digits: '411111111111' }],
  ['Card 4111 - 1111 - 1111 - 1111 spaced.', { digits: '411111111111' }], // Characters that are not \p{Cf} but invisible: variation selector, combining grapheme joiner, a combining accent, NEL.
  ['Card 4111\ufe0f1111\ufe0f1111\ufe0f1111 with VS16.', { digits: '411111111111' }],
  ['Card 4111\u034f1111\u034f1111\u034f1111 with CGJ.', { digits: '411111111111' }],
  ['Card 4\u0301111 1111 1111 1111 with an accent.', { digits: '411111111111' }],
  ['Card 4111\u00851111\u00851111\u00851111 with NEL.', { digits: '411111111111' }],
];
// Ordinary text that goes out as written.
const ORDINARY: readonly string[] = [
  'Meeting on 2024-03-15 at 10:30, order 123456789, version 1.2.3, price 1,234.56 EUR.',
  'Invoice INV-2024-000123 due 2024/04/01; ISBN 978-0-306-40615-7; IP 192.168.0.1.',
  'Timestamp 2024-03-15T10:30:00Z and 1710498600000; UUID 123e4567-e89b-12d3-a456-426614174000.',
  // Stopped for ever (exit 9) before the issue 27 review fix: long decimals and a long counter hold no card.
  'Measured 9.57597412873363574 and 0.452522723041048902 in the lab.',
  'Counter 585178128657070499962283 in the log.',
];

describe('rev27d: hostile variations to a hosted model (sqlite)', () => {
  it.each(HELD.map(([text, part], index) => [index, text, part] as const))('held %i: %j', (index, text, part) => notSent(100 + index, text, part), 120_000);
  it.each(ORDINARY.map((text, index) => [index, text] as const))(
    'ordinary %i: %j goes out as written',
    (index, text) => sentAsWritten(200 + index, text),
    120_000,
  );
});
