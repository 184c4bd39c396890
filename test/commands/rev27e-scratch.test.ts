/**
 * Issue 27 review (rev27e): a hostile reviewer's variations on the last round's normal form and glue masking, through the
 * real parts — the built CLI, a store, and a stand-in model server on 127.0.0.1 played as a hosted model at a
 * non-loopback base URL (`models.hosted.test`, resolved by a preloaded hook), so the default policy (`auto`) redacts.
 * A text holding a validated value (a Luhn-valid card, an IBAN with valid check digits, a phone number valid in the
 * region) must have it replaced or stop the request (exit 9), never send a recognisable part of it, never exit 1.
 * The cases the review found open (sent, exit 0) were fixed in the redaction normal form and the grouped reading
 * (src/core/facts/grouped.ts) and moved to HELD.
 */
import { describe, expect, it } from 'vitest';
import { engineSandbox } from '../helpers/cli.js';
import { digitsOf, hostedEnv, notSent, type Part } from '../helpers/hosted-model.js';
import { reply, startModelServer } from '../helpers/model-server.js';

const CARD = '411111111111'; // 12 digits of 4111 1111 1111 1111 (Visa test number, Luhn-valid)
const IBAN = '931152123456'; // 12 digits of IE29 AIBK 9311 5212 3456 78 (valid check digits)
const MOBILE = '871234567'; // 087 123 4567, an Irish mobile number (valid in IE)

// HELD: replaced or stopped (exit 9), never sent.
const HELD: ReadonlyArray<readonly [string, Part]> = [
  // The new normal forms together: full width + zero-width space + en dash.
  [
    'Card \uff14\uff11\uff11\uff11\u200b\u2013\uff11\uff11\uff11\uff11\u2013\u200b\uff11\uff11\uff11\uff11\u2013\uff11\uff11\uff11\uff11 done.',
    { digits: CARD },
  ],
  // Lower case IBAN; a vertical tab, a paragraph separator between a card's groups.
  ['Rent ie29 aibk 9311 5212 3456 78 monthly.', { digits: IBAN }],
  ['Card 4111\u000b1111\u000b1111\u000b1111 VT.', { digits: CARD }],
  // RTL override around a card and a mark after it; a user-written placeholder right before a real value.
  ['Card \u202e4111 1111 1111 1111\u202c and 4111 1111 1111 1111\u200f rtl.', { digits: CARD }],
  ['Pay \u27e6card 1\u27e74111111111111111 and \u301acard 2\u301b5555555555554444.', { digits: '555555555544' }],
  // Emails glued by signs outside the glue list: stopped.
  ['Mail jane@example.ie*jane2@example.org!jane3@example.net x.', { text: 'example.org' }],
  // A memory clipped at 2 000 characters in the middle of a value: the part before the cut is not sent either.
  [`${'x'.repeat(1990)} 4111 1111 1111 1111`, { digits: '41111111' }],
  // Invisible characters the normal form kept (fixed: controls left out, Hangul fillers and the Braille blank read as
  // blanks, a combining mark after any non-letter left out; unit cases in test/core/facts/redact-rev27e.test.ts).
  ['Card 4111\u00001111\u00001111\u00001111 NULs.', { digits: CARD }],
  ['Call 087\u0000123\u00004567 NULs.', { digits: MOBILE }],
  ['Card 4111\u001b1111\u007f1111\u009f1111\u0080 controls.', { digits: CARD }],
  ['Card 4111\u31641111\u31641111\u31641111 Hangul fillers.', { digits: CARD }],
  ['Card 4111\u28001111\u28001111\u28001111 Braille blanks.', { digits: CARD }],
  ['Card 4111-\u03011111-\u03011111-\u03011111 accents after dashes.', { digits: CARD }],
  // Fixed by the grouped reading (src/core/facts/grouped.ts): a national number at the start or end of a run of groups
  // (replaced), and card / IBAN / phone groups parted by any one sign or in groups of any size (replaced).
  // A national number followed by another number after one blank: the phone recogniser reads one run and refuses it,
  // and the third reading blanks only a date or an IPv4 address after it. Natural text; the whole number goes out.
  ['Call 087 123 4567 12 times.', { digits: MOBILE }],
  ['Call 087 123 4567 087 765 4321 now.', { digits: MOBILE }],
  // A number and a blank before it: the same (`Room 12 087 123 4567`). Held: `Tel 01 234 5678 2 lines`, `+353 87 123 4567 12`.
  ['Room 12 087 123 4567 ask.', { digits: MOBILE }],
  ['Call 415 555 2671 415 555 2672 both.', { digits: '4155552671', region: 'US' }],
  // Card groups parted by signs neither the card reading nor the second reading's printed groups (space, dash, dot,
  // slash, underscore) take. Also sent, same cause (not run here, to keep the file quick): bullets before each group
  // `•4111 •1111 …`, U+2019, `, ` `:` `|` `+` `=` `*`, U+30FB, U+22C5, U+066C, U+FF0C, `(4111) 1111-1111-1111`, and
  // Amex `3782·822463·10005`.
  ['Card 4111\u00b71111\u00b71111\u00b71111 middle dots.', { digits: CARD }],
  ["Card 4111'1111'1111'1111 apostrophes (Swiss grouping).", { digits: CARD }],
  ['Card 4111,1111,1111,1111 commas.', { digits: CARD }],
  // Other groupings than 4-4-4-4 / 4-6-5 (also sent: pairs `41 11 11 …`, single digits).
  ['Card 411 111 111 111 1111 in threes.', { digits: CARD }],
  // IBANs and phone numbers with the same signs between their groups (also sent: `IE29,AIBK,…`, `+353·1·234·5678`).
  ['IBAN IE29\u00b7AIBK\u00b79311\u00b75212\u00b73456\u00b778 middle dots.', { digits: IBAN }],
  ['Call 087\u00b7123\u00b74567 middle dots.', { digits: MOBILE }],
  // The same through --prompt-only (a handoff: auto redacts), and on PostgreSQL.
  ['Card 4111\u00b71111\u00b71111\u00b71111 middle dots, handed off.', { digits: CARD, promptOnly: true }],
  ['Call 087 123 4567 12 times, on PostgreSQL.', { digits: MOBILE, engine: 'postgres' }],
  // More of the signs and groupings the review listed.
  ['Card \u20224111 \u20221111 \u20221111 \u20221111 bullets.', { digits: CARD }],
  ['Card 4111\u20191111\u20191111\u20191111, 4111|1111|1111|1111, 4111 : 1111 : 1111 : 1111 and 4111*1111*1111*1111.', { digits: CARD }],
  ['Card (4111) 1111-1111-1111 and 41 11 11 11 11 11 11 11 pairs.', { digits: CARD }],
  ['Amex 3782\u00b7822463\u00b710005 dots.', { digits: '378282246310005' }],
  ['IBAN IE29,AIBK,9311,5212,3456,78 and +353\u00b71\u00b7234\u00b75678.', { digits: IBAN }],
  // Tags, subject and thread name are not in the prompt.
  ['Note about billing.', { digits: CARD, add: ['--tag', '4111111111111111', '--subject', 'card 4111 1111 1111 1111', '--thread', 'IE29AIBK93115212345678'] }],
];

describe.concurrent('rev27e: hostile variations on the normal form and glue masking, to a hosted model', () => {
  it.each(HELD.map(([text, part], index) => [index, text, part] as const))(
    'held %i: %j is replaced or stops the request',
    (index, text, part) => notSent(200 + index, text, part),
    120_000,
  );
});

// The address fallback (`extract address --ai`) sends its passages through the same redactor: the same forms go out.
describe('rev27e: the address fallback to a hosted model', () => {
  it('held: a card in middle dots and a phone number before "12" are replaced in the passage', async () => {
    const server = await startModelServer();
    const box = await engineSandbox('sqlite');
    try {
      server.respondWith(reply.json({ addresses: [] }));
      const text = 'Jane lives at Flat 2, 14 Harbour Road, Howth; card 4111\u00b71111\u00b71111\u00b71111, call 087 123 4567 12 times.';
      const result = await box.hippo(['extract', 'address', '--ai', '--json'], { env: hostedEnv(server, 'fb'), input: text });
      expect([0, 9], String(result.stderr)).toContain(result.exitCode);
      expect(server.requests.length).toBeGreaterThan(0); // the passage went out (an address with no postcode)
      for (const request of server.requests) {
        const sent = ((request.body?.messages ?? []) as { content: string }[]).map((message) => message.content).join('\n');
        expect(digitsOf(sent)).not.toContain(CARD);
        expect(digitsOf(sent)).not.toContain(MOBILE);
      }
    } finally {
      await box.dispose();
      await server.close();
    }
  }, 60_000);
});

// Defect 4's IPv6 and IPv4 spellings: what `model check --offline` calls the destination (loopback: no redaction under
// auto). Also checked by hand: `localhost.`, `[::]`, `0.0.0.0`, `[64:ff9b::127.0.0.1]` are remote. The loopback ones are 127.0.0.0/8 or ::1 in a spelling the URL standard reads (docs/redaction.md, Policy).
const LOOPBACK: ReadonlyArray<readonly [string, 'loopback' | 'remote']> = [
  ['[::1]', 'loopback'],
  ['[0:0:0:0:0:0:0:1]', 'loopback'],
  ['[::ffff:127.0.0.1]', 'loopback'],
  ['127.1', 'loopback'],
  ['0x7f.1', 'loopback'],
  ['2130706433', 'loopback'],
  ['foo.localhost', 'remote'],
  ['[::127.0.0.1]', 'remote'],
];

describe.concurrent('rev27e: loopback spellings (defect 4)', () => {
  it.each(LOOPBACK)(
    '%s is %s',
    async (host, destination) => {
      const box = await engineSandbox('sqlite');
      try {
        const result = await box.hippo(['model', 'check', '--offline', '--json'], {
          env: { HIPPO_MODEL: 'openai:m', HIPPO_API_KEY: 'sk-test-0123456789abcdef', HIPPO_BASE_URL: `http://${host}:11434/v1` },
        });
        expect(result.exitCode, String(result.stderr)).toBe(0);
        expect((JSON.parse(String(result.stdout)) as { redaction: { destination: string } }).redaction.destination).toBe(destination);
      } finally {
        await box.dispose();
      }
    },
    60_000,
  );
});

// Defect 2 and 3 through the environment: a password in HIPPO_DB or a base URL is never printed (usage error,
// did-you-mean, --json error, an unreachable server, model check).
const PASSWORD = 'S3cretPW-rev27e';
const PATHS: ReadonlyArray<readonly [string, string[], Record<string, string>]> = [
  ['a typo with HIPPO_DB', ['memry', 'list', '--json'], { HIPPO_DB: `postgres://hippo:${PASSWORD}@127.0.0.1:1/x` }],
  ['an unreachable HIPPO_DB', ['memory', 'list', '--json'], { HIPPO_DB: `postgres://hippo:${PASSWORD}@127.0.0.1:1/x` }],
  ['a password holding @ in --db', ['memory', 'list', '--db', `postgres://hippo:${PASSWORD}@x@127.0.0.1:1/x`], {}],
  [
    'a base URL with credentials in HIPPO_BASE_URL',
    ['model', 'check', '--offline', '--json'],
    { HIPPO_MODEL: 'openai:m', HIPPO_BASE_URL: `http://u:${PASSWORD}@127.0.0.1:1/v1` },
  ],
];

describe.concurrent('rev27e: passwords through the environment (defects 2, 3)', () => {
  it.each(PATHS)(
    '%s: never printed, exit 2 or 8',
    async (_name, args, env) => {
      const box = await engineSandbox('sqlite');
      try {
        const result = await box.hippo(args, { env });
        expect([2, 8]).toContain(result.exitCode);
        expect(`${String(result.stdout)}${String(result.stderr)}`).not.toContain(PASSWORD.slice(0, 6));
      } finally {
        await box.dispose();
      }
    },
    60_000,
  );
});
