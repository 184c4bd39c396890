/**
 * Issue 27, defect 1, through the real parts on both engines: the built CLI, a store of each engine, and a stand-in
 * model server on 127.0.0.1 that records every request byte, played as a hosted model at a non-loopback base URL
 * (`models.hosted.test`, resolved by a preloaded hook), so the default policy (`auto`) redacts. Values glued to other
 * values must not leave: not as written, not normalised, not one digit group of them.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { engineSandbox, json, ROOT, type EngineSandbox, type SandboxEngine } from '../helpers/cli.js';
import { reply, useModelServer } from '../helpers/model-server.js';

const server = useModelServer({ per: 'suite' });
const ENGINES: readonly SandboxEngine[] = ['sqlite', 'postgres'];
const HOOK = join(ROOT, 'test', 'fixtures', 'resolve-to-loopback.mjs');

const boxes: EngineSandbox[] = [];
afterEach(async () => {
  for (const box of boxes.splice(0)) await box.dispose();
});

const hostedEnv = () => ({
  HIPPO_AGENT: 'ops',
  HIPPO_REGION: 'IE',
  HIPPO_MODEL: 'openai:hosted-model',
  HIPPO_BASE_URL: server.baseUrl('openai').replace('127.0.0.1', 'models.hosted.test'),
  HIPPO_API_KEY: 'sk-test-0123456789abcdef',
  NODE_OPTIONS: `--import=${HOOK}`,
});

// The reproductions, and other kinds glued to other kinds.
const GLUED = [
  'Refund IE29 AIBK 9311 5212 3456 78 4111 1111 1111 1111 today.',
  'Old account DE89 3704 0044 0532 0130 00 4012 8888 8888 1881, closed.',
  'UK: GB82 WEST 1234 5698 7654 32 5555 5555 5555 4444.',
  'Compact DE89370400440532013000 3714 496353 98431 and NL91 ABNA 0417 1643 00,4111-1111-1111-1111.',
  'Call +353 1 234 5678 or card 6011 0009 9013 9424, mail jane.canary@example.ie 3530 1113 3330 0000.',
  'On 15 March 2024 5105 1051 0510 5100 was charged; ops@example.org, 4222222222222 too.',
];
const VALUES = [
  'IE29 AIBK 9311 5212 3456 78',
  '4111 1111 1111 1111',
  'DE89 3704 0044 0532 0130 00',
  '4012 8888 8888 1881',
  'GB82 WEST 1234 5698 7654 32',
  '5555 5555 5555 4444',
  'DE89370400440532013000',
  '3714 496353 98431',
  'NL91 ABNA 0417 1643 00',
  '4111-1111-1111-1111',
  '+353 1 234 5678',
  '6011 0009 9013 9424',
  'jane.canary@example.ie',
  '3530 1113 3330 0000',
  '5105 1051 0510 5100',
  'ops@example.org',
  '4222222222222',
];
/** Every form a value could travel in: as written, compact (digits and letters only), and each group of 4+ digits. */
const forms = (value: string): string[] => {
  const compact = value.replace(/[\s-]/g, '');
  const groups = value.match(/\d{4,}/g) ?? [];
  return [value, compact, ...groups.filter((group) => !['2024'].includes(group))];
};

describe.each(ENGINES)('values glued to other values, to a hosted model (%s)', (engine) => {
  it('sends no byte of any of them under auto: a card after an IBAN, a phone or a date is found and replaced', async () => {
    const box = await engineSandbox(engine);
    boxes.push(box);
    for (const content of GLUED) {
      const added = await box.hippo(['memory', 'add', content, '--json'], { env: { HIPPO_AGENT: 'ops' } });
      expect(added.exitCode, String(added.stderr)).toBe(0);
    }
    server.respondWith(reply.json({ candidates: [{ claim: 'Refunds go to ⟦card 1⟧, not ⟦iban 1⟧.', sources: ['m1'] }] }));
    const result = await box.hippo(['rem', 'rapid', '--scope', 'all', '--json'], { env: hostedEnv() });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!.rawBody;
    for (const value of VALUES) for (const form of forms(value)) expect(sent, `the request holds ${form} (of ${value})`).not.toContain(form);
    const body = json<{ run: { counts: Record<string, number> } }>(result);
    expect(body.run.counts).toMatchObject({ redactedCard: 8, redactedIban: 4, redactedEmail: 2, redactedPhone: 1 });
  });

  it('stops the request for a card with four blanks between groups, or in slashes glued to letters, which no reading replaces: exit 9, nothing sent', async () => {
    const box = await engineSandbox(engine);
    boxes.push(box);
    // A card in dots or slashes standing on its own is replaced since rev27e (the grouped reading).
    for (const content of ['Paid with 4111    1111    1111    1111 today.', 'Old card ref5555/5555/5555/4444, closed.']) {
      expect((await box.hippo(['memory', 'add', content, '--json'], { env: { HIPPO_AGENT: 'ops' } })).exitCode).toBe(0);
    }
    server.respondWith(reply.json({ candidates: [] }));
    const result = await box.hippo(['rem', 'rapid', '--scope', 'all', '--json'], { env: hostedEnv() });
    expect(result.exitCode, String(result.stderr)).toBe(9);
    expect(json<{ error: { code: string; details: { kinds: string[] } } }>(result).error).toMatchObject({
      code: 'redaction_incomplete',
      details: { kinds: ['card'] },
    });
    expect(server.requests).toHaveLength(0);
  });

  it('replaces a phone number in international form followed by an address or a date (issue 27 variations)', async () => {
    const box = await engineSandbox(engine);
    boxes.push(box);
    // Glued to an email (issue 27 review): the email's leading digits end the phone number, and the two are one span.
    for (const content of [
      'Router: ring +44 20 7946 0958 192.168.0.1 first.',
      'Booked +353 1 234 5678 2024-03-15, confirmed.',
      'Call +353 1 234 5678alice@example.com back.',
      // A national number before a date (stopped before rev27e: the grouped reading takes the number at the run's start).
      'Desk 087 123 4567 2024-03-15 booked.',
    ]) {
      expect((await box.hippo(['memory', 'add', content, '--json'], { env: { HIPPO_AGENT: 'ops' } })).exitCode).toBe(0);
    }
    server.respondWith(reply.json({ candidates: [] }));
    const result = await box.hippo(['rem', 'rapid', '--scope', 'all', '--json'], { env: hostedEnv() });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!.rawBody;
    for (const phone of ['+44 20 7946 0958', '+353 1 234 5678', '087 123 4567']) for (const form of forms(phone)) expect(sent, form).not.toContain(form);
    expect(sent).not.toContain('alice@example.com');
    expect(sent).toContain('192.168.0.1');
    // The same phone number glued to the email is one span with it, of the longer find's kind.
    expect(json<{ run: { counts: Record<string, number> } }>(result).run.counts).toMatchObject({ redactedPhone: 3, redactedEmail: 1 });
  });

  it('stops the request for an email or phone number glued into one token with another value: exit 9, nothing sent (issue 27 variations)', async () => {
    const box = await engineSandbox(engine);
    boxes.push(box);
    const cases = [
      ['Write to alice@example.com0871234567 today.', ['email', 'phone'], ['alice@example.com', '0871234567']],
      ['Ring +442079460958abc now.', ['phone'], ['+442079460958']],
      ['Mail jane.doe@example.comjane@example.org please.', ['email'], ['jane.doe@example.com', 'jane@example.org']],
    ] as const;
    // One store, an agent per text: each request holds one glued text.
    for (const [index, [content, kinds, values]] of cases.entries()) {
      const agent = `ops${index}`;
      expect((await box.hippo(['memory', 'add', content, '--json'], { env: { HIPPO_AGENT: agent } })).exitCode).toBe(0);
      server.respondWith(reply.json({ candidates: [] }));
      // --prompt-only stops too (no handoff holds the prompt); asked once.
      for (const args of index === 0
        ? [
            ['rem', 'rapid', '--json'],
            ['rem', 'rapid', '--prompt-only', '--json'],
          ]
        : [['rem', 'rapid', '--json']]) {
        const result = await box.hippo(args, { env: { ...hostedEnv(), HIPPO_AGENT: agent } });
        expect(result.exitCode, `${content} ${args.join(' ')}: ${String(result.stderr)}`).toBe(9);
        const { error } = json<{ error: { code: string; details: { kinds: string[] } } }>(result);
        expect(error.code).toBe('redaction_incomplete');
        expect([...error.details.kinds].sort(), content).toEqual([...kinds]);
        for (const value of values) expect(String(result.stdout) + String(result.stderr)).not.toContain(value);
      }
      expect(server.requests, content).toHaveLength(0);
    }
  }, 180_000);

  it('stops the request when a value is still readable after redaction: redaction_incomplete, exit 9, nothing sent', async () => {
    const box = await engineSandbox(engine);
    boxes.push(box);
    // The memory is clipped for the prompt at 2 000 characters, right after `DE89370400440532013000`: whole, the IBAN
    // runs into letters (no IBAN, nothing replaced); the clipped text sent would end in a valid IBAN.
    const iban = 'DE89370400440532013000';
    const content = `${'word '.repeat(400).slice(0, 2000 - iban.length - 1)} ${iban}XY and more text after the cut.`;
    expect(content.indexOf(iban) + iban.length).toBe(2000);
    expect((await box.hippo(['memory', 'add', content, '--json'], { env: { HIPPO_AGENT: 'ops' } })).exitCode).toBe(0);
    server.respondWith(reply.json({ candidates: [] }));
    for (const args of [
      ['rem', 'rapid', '--json'],
      ['rem', 'rapid'],
    ]) {
      const result = await box.hippo(args, { env: hostedEnv() });
      expect(result.exitCode, String(result.stderr)).toBe(9);
      expect(String(result.stdout) + String(result.stderr)).not.toContain(iban);
      if (args.includes('--json')) {
        const { error } = json<{ error: { code: string; message: string; details: { kinds: string[] } } }>(result);
        expect(error.code).toBe('redaction_incomplete');
        expect(error.details.kinds).toEqual(['iban']);
        expect(error.message).toContain('nothing was sent');
      } else {
        expect(String(result.stderr)).toContain('nothing was sent');
      }
    }
    // --prompt-only stops too: no handoff holds the prompt.
    const handoff = await box.hippo(['rem', 'rapid', '--prompt-only', '--json'], { env: hostedEnv() });
    expect(handoff.exitCode).toBe(9);
    expect(String(handoff.stdout)).not.toContain(iban);
    expect(server.requests).toHaveLength(0);
  });
});
