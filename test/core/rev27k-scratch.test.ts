import { describe, expect, it } from 'vitest';
import { skeletonOf } from '../../src/core/agent-ids.js';
import { redacts, sends } from '../helpers/redaction-leaks.js';
import { validateAgentId } from '../../src/core/memory/memory.js';

/**
 * Review rev27k of 2a6d66a, af8fb10 and ccd3ff8 (issue 27, defects 1 and 7): open cases as it.fails (each passes once
 * the case is held; then `.fails` comes off). Plain `it` since: the four agent-id pairs (the skeleton reads blanks of
 * any kind as one space), the `=` card with no placeholder and the phone number with figures in colons (the sign copy
 * runs without a placeholder, and counts a card only when one sign parts all its groups). Found with seeded generators (reviewer's scripts, seed 27/28) comparing this
 * build with the one before the fourth reading.
 */

describe('rev27k: cards and IBANs the fourth reading still lets out', () => {
  it('a card in `=` groups glued to an expiry word, with no other value in the text (the sign copy runs only with a placeholder)', () => {
    // With `jane@example.com ` before it the request stops; alone, all 16 digits go out.
    expect(sends('card 4111=1111=1111=1111exp 12/27', '4111111111111111')).toBe(false);
  });

  it('an IBAN in colon groups glued to a date, next to a placeholder (the IBAN reading has no sign copy)', () => {
    // In blanks (`15.03.2024DE89 3704 …`) the request stops.
    expect(sends('jane@example.com 15.03.2024DE89:3704:0044:0532:0130:00', '89370400440532013000')).toBe(false);
  });

  it('a card in `· ` groups (a sign and a blank) glued to letters, next to a placeholder', () => {
    // `4111 1111 1111 1111exp` stops; the sign copy reads a sign only between two digits.
    expect(sends('jane@example.com 4111· 1111· 1111· 1111exp 12/27', '4111111111111111')).toBe(false);
  });

  it('a card with two signs between its groups (`||`, `··`), next to a placeholder', () => {
    expect(sends('jane@example.com 4111||1111||1111||1111', '4111111111111111')).toBe(false);
    expect(sends('jane@example.com 4111··1111··1111··1111', '4111111111111111')).toBe(false);
  });

  it('a card in comma groups with an expiry glued to it: a phone reading takes the last group and the rest goes out', () => {
    // Sent: `card 4111,1111,1111,⟦phone 1⟧` (12 digits of the card).
    expect(sends('card 4111,1111,1111,111112-27', '4111111111111111')).toBe(false);
  });
  it('a card parted by our own brackets or by a sign NFKC makes two (U+FE30), glued to letters, next to a placeholder', () => {
    // Sent as `⟦email 1⟧ 4111[1111[1111[1111exp`: SIGN_BETWEEN_DIGITS leaves `⟦` `⟧` out; U+FE30 reads as `..`.
    expect(sends('jane@example.com 4111\u27e61111\u27e61111\u27e61111exp', '4111111111111111')).toBe(false);
    expect(sends('jane@example.com 4111\ufe301111\ufe301111\ufe301111exp', '4111111111111111')).toBe(false);
  });
});

describe('rev27k: ordinary figures the fourth reading stops that the build before it sent', () => {
  it('a DE phone number followed by figures in colons (a chance card over its last digits and theirs)', () => {
    // Sent as `⟦phone 1⟧:8017:7554` before 2a6d66a; now stopped (card). Measured: 35 of 400 such texts, 0 before.
    expect(redacts('030 12345678 6386:8017:7554', 'DE').stopped).toBe(false);
  });

  it.fails('a phone number followed by three groups of four figures in blanks', () => {
    // `⟦phone 1⟧ 1249 7375 1165` was sent before 2a6d66a; the fourth reading reads `5678 1249 7375 1165` as a card.
    expect(redacts('+31 6 12345678 1249 7375 1165', 'NL').stopped).toBe(false);
  });
});

describe('rev27k: agent ids that show alike past validateAgentId and the skeleton', () => {
  const lookAlike = async (a: string, b: string): Promise<boolean> => {
    const skeleton = await skeletonOf();
    let x: string;
    let y: string;
    try {
      x = validateAgentId(a);
      y = validateAgentId(b);
    } catch {
      return true; // one is refused: held
    }
    return x === y || skeleton(x) === skeleton(y);
  };

  it('`ops` and `ops` + U+2800 (Braille pattern blank: not white space to trim, not default-ignorable)', async () => {
    expect(await lookAlike('ops', 'ops\u2800')).toBe(true);
  });

  it('`ops agent` and `ops` + U+2800 + `agent`', async () => {
    expect(await lookAlike('ops agent', 'ops\u2800agent')).toBe(true);
  });

  it('`ops` and U+2800 + `ops` (a Braille blank at the start is not trimmed either)', async () => {
    expect(await lookAlike('ops', '\u2800ops')).toBe(true);
  });

  it('`ops  x` (two spaces) and `ops` + U+3000 + `x` (an ideographic space: two cells wide in a terminal)', async () => {
    expect(await lookAlike('ops  x', 'ops\u3000x')).toBe(true);
  });
});
