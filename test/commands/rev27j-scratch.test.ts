/**
 * Issue 27 review (rev27j): a hostile reviewer's variations on 2a6d66a (the fourth reading), through the real parts:
 * the built CLI, a store, and a stand-in model server on 127.0.0.1 played as a hosted model at a non-loopback base URL
 * (`models.hosted.test`), so the default policy (`auto`) redacts, with the home region in HIPPO_REGION and the default
 * candidate regions, as the CLI has them. Also two gaps outside redaction (defects 7 and 9), on both engines.
 *
 * Counts come from texts generated in the library first (`new Redactor({kinds: DEFAULT_REDACT_KINDS, region, regions:
 * DEFAULT_REGIONS})`, regions IE GB US DE FR ES IT NL, seeded; a leak is no stop and 8 consecutive digits of the value,
 * or all of a shorter one, in what is sent), against this commit ("head") and /work/main 9414187 ("main"). OPEN: a
 * validated value still sent, or a look-alike still accepted (`it.fails`: the suite stays green while open; a fix
 * makes the case pass and the test fail — then move it to a held list). None of its redaction cases is open now.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { engineSandbox, json, type EngineSandbox, type SandboxEngine } from '../helpers/cli.js';
import { reviewCases, type Part } from '../helpers/hosted-model.js';

// WAS_OPEN: a card after an IBAN (defect 1's shape), its groups parted by a sign the fourth reading's printed forms do not
// take (`·`, `•`, `:`, `*`, `+`, `'`, `=`, `~`) and an expiry after it: a phone reading takes the last group and the
// expiry, and the card's first 12 digits went out. The card alone, after a phone number or after an email is replaced;
// `extract card` finds no card here. Of 80 generated texts per sign (16-digit cards, IBANs of IE GB DE FR NL compact or
// in groups, regions rotated) with ` 09/27` after the card: 12 to 26 sent per sign, the same on main (with the dot:
// 0 now, 3 on main). Without the expiry: none sent (49 to 63 of 80 stopped).
// Held since: the fourth reading also reads a copy with one such sign between two digits as a blank, so the card is
// read in its printed form and, its first groups under no placeholder, stops the request.
const WAS_OPEN: ReadonlyArray<readonly [string, string, Part]> = [
  ['ES: IBAN then a card in middle dots and expiry', 'IBAN DE02 3901 5204 0003 5974 40 4242·4242·4242·4242 09/27', { digits: '424242424242', region: 'ES' }],
  ['US: compact IBAN then a card in middle dots and expiry', 'IBAN NL47RABO0568285349 5555·5555·5555·4444 09/27', { digits: '555555555555', region: 'US' }],
  ['DE: IBAN then a card in bullets and expiry', 'IBAN DE89 3704 0044 0532 0130 00 5392•9282•0402•8077 09/27', { digits: '539292820402', region: 'DE' }],
  ['IE: IBAN then a card in colons and expiry', 'IBAN DE65730285692276091148 4303:3582:1874:0932 09/27', { digits: '430335821874', region: 'IE' }],
  // The same on PostgreSQL (the store plays no part in redaction; one case to show it).
  [
    'ES: IBAN then a card in middle dots and expiry (PostgreSQL)',
    'IBAN DE02 3901 5204 0003 5974 40 4242·4242·4242·4242 09/27',
    { digits: '424242424242', region: 'ES', engine: 'postgres' },
  ],
];

reviewCases('rev27j WAS_OPEN: cards once sent, now kept from a hosted model', 'held', WAS_OPEN, 1100);

// WAS_OPEN: a phone number with an amount after it, after a sign glued to a date or a second bracket: sent whole
// (replaced with `ok` after it instead of the amount; main the same). Held since: a closing bracket with no opening one
// before it between two digits, and a sign right before an area code in brackets, are seams (redact.ts `SEAMS`): the
// text is read again with a `;` there and the number that starts after it is replaced. Of 1 600 generated texts (a
// phone number of IE GB US DE FR ES IT NL after `2023-07-24)`, `12)`, `((`, `[(`, `{(`… with an amount, a date or a word
// after it; /tmp generator of this review): 13 sent, 264 before.
const WAS_OPEN_PHONES: ReadonlyArray<readonly [string, string, Part]> = [
  ['ES: date, a bracket, phone number, amount', 'el 2023-07-24)660 45 57 87 12.50', { digits: '660455787', region: 'ES' }],
  ['US: two brackets, phone number, amount', 'call ((305)-261-1549 12.50', { digits: '3052611549', region: 'US' }],
  ['US: two brackets, phone number, amount (PostgreSQL)', 'call ((305)-261-1549 12.50', { digits: '3052611549', region: 'US', engine: 'postgres' }],
];

reviewCases('rev27j WAS_OPEN: phone numbers once sent, now kept from a hosted model', 'held', WAS_OPEN_PHONES, 1120);

// rev27k's card and IBAN forms (test/core/rev27k-scratch.test.ts), through the CLI: held since the fourth reading reads
// cards and IBANs printed in groups with any one separator of one to three signs (`cardsInGroups`, `ibansInGroups`).
// Of the rev27k reviewer's 3 000 generated texts of those forms: 0 sent, 332 before (two signs: 198 of 247 cards and
// 120 of 160 IBANs).
const REV27K_HELD: ReadonlyArray<readonly [string, string, Part]> = [
  ['IE: email, then a card in two signs', 'jane@example.com 4111||1111||1111||1111', { digits: '4111111111111111', region: 'IE' }],
  [
    'DE: email, then an IBAN in colon groups glued to a date',
    'jane@example.com 15.03.2024DE89:3704:0044:0532:0130:00',
    { digits: '89370400440532013000', region: 'DE' },
  ],
  [
    'GB: email, then a card in a sign and a blank glued to letters',
    'jane@example.com 4111· 1111· 1111· 1111exp 12/27',
    { digits: '4111111111111111', region: 'GB' },
  ],
  ['US: a card in commas with an expiry glued to it', 'card 4111,1111,1111,111112-27', { digits: '411111111111', region: 'US' }],
  [
    'IE: email, then a card in two signs (PostgreSQL)',
    'jane@example.com 4111··1111··1111··1111',
    { digits: '4111111111111111', region: 'IE', engine: 'postgres' },
  ],
  // Reviews rev27m and rev27n: an expiry glued to a card in one sign with that sign after it (a regression of 3bccb22),
  // a wrap in a form feed, an IBAN with a variation selector after a letter, a 14-digit card with its expiry glued.
  ['US: a card in colons with an expiry glued and a colon after it', 'card 4111:1111:1111:111112:27', { digits: '411111111111', region: 'US' }],
  ['IE: a card wrapped in a form feed after a comma', 'card 4111,\f1111,1111,1111', { digits: '4111111111111111', region: 'IE' }],
  ['DE: an IBAN with a variation selector after its country code', 'IBAN DE\ufe0f89 3704 0044 0532 0130 00', { digits: '89370400440532013000', region: 'DE' }],
  ['GB: a 14-digit card with its expiry glued (PostgreSQL)', 'card 3056 930902 590412/27', { digits: '30569309025904', region: 'GB', engine: 'postgres' }],
];

reviewCases('rev27k held: cards and IBANs in any one separator, kept from a hosted model', 'held', REV27K_HELD, 1130);

const ENGINES: readonly SandboxEngine[] = ['sqlite', 'postgres'];
const boxes: EngineSandbox[] = [];
afterEach(async () => {
  for (const box of boxes.splice(0)) await box.dispose();
});

describe.each(ENGINES)('rev27j outside redaction (%s)', (engine) => {
  // Defect 7: an id with an invisible joiner or selector the agent-id check keeps (ZWJ U+200D, ZWNJ U+200C, variation
  // selectors U+FE00–FE0F and U+E0100…, CGJ U+034F, Hangul fillers U+3164 and U+115F, Khmer U+17B4) is a new agent that
  // `hippo agents` shows as `team`, next to `team`: the confusable skeleton keeps those characters, so it differs. ZWSP,
  // WJ, BOM and the soft hyphen are refused (bad_agent); Cyrillic and fullwidth look-alikes are refused (confusable).
  // Fixed since: an agent id holding any default-ignorable character is refused as bad_agent.
  it('refuses a new agent id that is an existing one with an invisible joiner inside (bad_agent)', async () => {
    const box = await engineSandbox(engine);
    boxes.push(box);
    expect((await box.hippo(['memory', 'add', 'a note', '--agent', 'team'])).exitCode).toBe(0);
    for (const lookalike of ['tea\u200dm', 'tea\u200cm', 'tea\ufe0fm', 'tea\u034fm']) {
      const result = await box.hippo(['memory', 'add', 'another note', '--agent', lookalike, '--json']);
      expect(result.exitCode, lookalike).toBe(2);
      expect(json<{ error: { code: string } }>(result).error.code).toBe('bad_agent');
    }
  }, 120_000);

  // Defect 9: a derivedFrom id found nowhere is kept (a forgotten source), and a later file of the same import gives
  // that id to another agent: ana's imported memory then names bob's memory as its source. One command, two files
  // (one transaction each); the same across two imports.
  it.fails(
    'refuses a derivedFrom that a later file of the same import gives to another agent',
    async () => {
      const box = await engineSandbox(engine);
      boxes.push(box);
      const id = 'mem_01M98ZZ2V7K3Q9W4R6T8Y0B2C4';
      const write = (name: string, line: object) => {
        const path = join(box.dir, name);
        writeFileSync(path, `${JSON.stringify(line)}\n`);
        return path;
      };
      const first = write('ana.jsonl', { content: 'an insight of ana', agentId: 'ana', derivedFrom: [id] });
      const second = write('bob.jsonl', { id, content: 'a note of bob', agentId: 'bob' });
      await box.hippo(['memory', 'import', first, second, '--json']);
      const exported = String((await box.hippo(['memory', 'export', '--agent', 'ana'])).stdout);
      // No memory of ana names bob's memory as its source.
      expect(exported).not.toContain(id);
    },
    120_000,
  );
});
