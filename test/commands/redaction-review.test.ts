/**
 * Issue 27, the reviewer's variations, through the real parts: the built CLI, a store of each engine, and a stand-in
 * model server on 127.0.0.1 played as a hosted model at a non-loopback base URL (`models.hosted.test`, resolved by a
 * preloaded hook), so the default policy (`auto`) redacts. Each text holds a validated value in a form the glued-values
 * table (docs/extract.md) does not mark as sent: either it is replaced, or the request stops (exit 9) — never a crash,
 * and no recognisable part of the value in the request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { engineSandbox, type EngineSandbox, type SandboxEngine } from '../helpers/cli.js';
import { digitsOf, hostedEnv } from '../helpers/hosted-model.js';
import { reply, useModelServer } from '../helpers/model-server.js';

const server = useModelServer({ per: 'suite' });
const ENGINES: readonly SandboxEngine[] = ['sqlite', 'postgres'];

const boxes: EngineSandbox[] = [];
afterEach(async () => {
  for (const box of boxes.splice(0)) await box.dispose();
});

// [text, a recognisable part of the value: an address (as text) or digits (12 of a card, 9 of a phone, of an IBAN)]
// OPEN defects the review found (each sent through the real CLI to a non-loopback stand-in): marked `it.fails` so the
// suite stays green while they are open; a fix makes its case pass and this test fail — then move the case to FIXED.
const OPEN: ReadonlyArray<readonly [string, { text?: string; digits?: string }]> = [];
// Fixed with the review: libphonenumber's reading with a long `#` extension crashed the phone recogniser (exit 1).
const FIXED: ReadonlyArray<readonly [string, { text?: string; digits?: string }]> = [
  // Fixed after the review: an email ends at a hyphen or underscore glued after its suffix.
  ['Mail jane@example.ie-2024 about the renewal.', { text: 'jane@example.ie' }],
  ['Keys: ask _jane@example.ie_ first.', { text: 'jane@example.ie' }],
  ['Call +353 1 234 5678#0871234567 now.', { digits: '12345678' }],
  // Fixed with the review: redaction reads no-break and thin spaces as spaces and full-width digits as ASCII.
  ['Rent to IE29\u00a0AIBK\u00a09311\u00a05212\u00a03456\u00a078 monthly.', { digits: '931152123456' }],
  ['Tél. +33\u202f1\u202f42\u202f68\u202f53\u202f00 le matin.', { digits: '142685300' }],
  ['Card \uff14\uff11\uff11\uff11 \uff11\uff11\uff11\uff11 \uff11\uff11\uff11\uff11 \uff11\uff11\uff11\uff11 in full width.', { digits: '411111111111' }],
  // Fixed after the review's last round: two emails glued by a dot; `_` ends a card; an international number ends at
  // any separator before another number; a national number after a number and a sign is read at home; blank runs
  // between groups; format characters and digits of every script read in the redactor's normal form.
  ['Mail jane@example.ie.jane@example.org today.', { text: 'jane@example.org' }],
  ['Card 4111 1111 1111 1111_jane@example.ie on file.', { digits: '411111111111' }],
  ['Call +353 1 234 5678-2024-03-15 to confirm.', { digits: '12345678' }],
  ['Ref 2024;087 123 4567 for the van.', { digits: '871234567' }],
  ['Card 4111  1111  1111  1111 (copied from the PDF).', { digits: '411111111111' }],
  ['Card 4\u200b111 1111 1111 1111 with a zero-width space.', { digits: '411111111111' }],
  // Forms docs/redaction.md listed as still sent: digits of other scripts, tabs between groups. (An IP address right
  // after a phone number, glued by `.`, `_` or `:`, was already replaced: kept here so it stays so.)
  [
    'Card \u0664\u0661\u0661\u0661 \u0661\u0661\u0661\u0661 \u0661\u0661\u0661\u0661 \u0661\u0661\u0661\u0661 in Arabic-Indic digits.',
    { digits: '411111111111' },
  ],
  ['Call \u0966\u096e\u096d \u0967\u0968\u0969 \u096a\u096b\u096c\u096d in Devanagari.', { digits: '871234567' }],
  ['Call +353 1 234 5678.192.168.0.1 from the office.', { digits: '12345678' }],
  ['Call +353 1 234 5678_192.168.0.1 from the office.', { digits: '12345678' }],
  ['Call 087 123 4567:192.168.0.1 from the office.', { digits: '871234567' }],
  ['Card 4111\t1111\t1111\t1111 from the spreadsheet.', { digits: '411111111111' }],
  ['Rent IE29\tAIBK\t9311\t5212\t3456\t78 from the spreadsheet.', { digits: '931152123456' }],
];

async function check(engine: SandboxEngine, index: number, text: string, part: { text?: string; digits?: string }): Promise<void> {
  const box = await engineSandbox(engine);
  boxes.push(box);
  const agent = `rv${index}`;
  expect((await box.hippo(['memory', 'add', text, '--json'], { env: { HIPPO_AGENT: agent } })).exitCode).toBe(0);
  server.respondWith(reply.json({ candidates: [] }));
  const before = server.requests.length;
  const result = await box.hippo(['rem', 'rapid', '--json'], { env: hostedEnv(server, agent) });
  expect([0, 9], `${text}: exit ${result.exitCode} ${String(result.stdout)}${String(result.stderr)}`).toContain(result.exitCode);
  for (const request of server.requests.slice(before)) {
    const sent = request.rawBody;
    if (part.text !== undefined) expect(sent, text).not.toContain(part.text);
    if (part.digits !== undefined) expect(digitsOf(sent), text).not.toContain(part.digits);
  }
}

describe.each(ENGINES)('reviewer variations of glued and disguised values, to a hosted model (%s)', (engine) => {
  it.each(FIXED.map(([text, part], index) => [index, text, part] as const))(
    'fixed %i: %j is replaced or stops the request (exit 9), never sent, never exit 1',
    (index, text, part) => check(engine, 100 + index, text, part),
    120_000,
  );
  // None open now; a case the next review finds goes here first.
  if (OPEN.length > 0)
    it.fails.each(OPEN.map(([text, part], index) => [index, text, part] as const))(
      'open %i: %j is still sent (known defect)',
      (index, text, part) => check(engine, index, text, part),
      120_000,
    );
});
