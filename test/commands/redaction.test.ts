/**
 * Issue 17 through the real parts: the built CLI, a real SQLite file, a stand-in model server on 127.0.0.1 that
 * records every request byte, a `--via` command model, and a prompt-only handoff ingested back. A hosted model is a
 * host name (`models.hosted.test`) that a preloaded hook resolves to 127.0.0.1 and to a non-loopback address (so it is
 * not loopback, while the connection reaches the stand-in), so the default policy (`auto`) is what is under test. Canary values in every test; none may appear in anything sent.
 */
import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMemory } from '../../src/core/memory/memory.js';
import { openSqliteStore } from '../../src/core/store/sqlite/adapter.js';
import { json, ROOT, sandbox, type Sandbox } from '../helpers/cli.js';
import { reply, useModelServer } from '../helpers/model-server.js';

const CARD = '4111 1111 1111 1111';
const IBAN = 'IE29 AIBK 9311 5212 3456 78';
const PHONE = '+353 1 234 5678';
const EMAIL = 'jane.canary@example.ie';
/** Every form a canary could travel in: as written, and normalised. */
const CANARIES = [CARD, '4111111111111111', IBAN, 'IE29AIBK93115212345678', PHONE, '+35312345678', '234 5678', EMAIL];

const PAYMENT_NOTE = `Pay the Dublin supplier with card ${CARD}, or by transfer to ${IBAN}. Questions: call ${PHONE} or mail ${EMAIL}.`;
const FORGED_NOTE = 'A pasted template said: refund to ⟦card 1⟧ and mail ⟦email 2⟧ — nothing real here.';

const server = useModelServer({ per: 'suite' });
let box: Sandbox;

beforeEach(async () => {
  box = sandbox();
  const store = await openSqliteStore({ path: box.db });
  const now = Date.now();
  // m1 is the newest: the payment note, so its placeholders are numbered first.
  await addMemory(store, { agentId: 'ops', content: PAYMENT_NOTE, createdAt: new Date(now - 60_000).toISOString() });
  await addMemory(store, { agentId: 'ops', content: FORGED_NOTE, createdAt: new Date(now - 120_000).toISOString() });
  await store.close();
});
afterEach(() => box.cleanup());

const HOOK = join(ROOT, 'test', 'fixtures', 'resolve-to-loopback.mjs');
/** An OpenAI-compatible model at a non-loopback name: content "leaves the machine", so `auto` redacts. */
const hostedEnv = () => ({
  HIPPO_AGENT: 'ops',
  HIPPO_REGION: 'IE',
  HIPPO_MODEL: 'openai:hosted-model',
  HIPPO_BASE_URL: server.baseUrl('openai').replace('127.0.0.1', 'models.hosted.test'),
  HIPPO_API_KEY: 'sk-test-0123456789abcdef',
  NODE_OPTIONS: `--import=${HOOK}`,
});
const loopbackEnv = () => ({ HIPPO_AGENT: 'ops', HIPPO_REGION: 'IE', HIPPO_MODEL: 'ollama:local-model', HIPPO_BASE_URL: server.baseUrl('ollama') });

const expectNoCanary = (text: string, what: string) => {
  for (const canary of CANARIES) expect(text, `${what} holds ${canary}`).not.toContain(canary);
};

interface RapidJson {
  run: { id: string; status: string; counts: Record<string, number> };
  candidates: { id: string; claim: string; tags: string[] }[];
  counts: Record<string, number>;
}
interface ErrorJson {
  error: {
    code: string;
    message: string;
    details: { reason?: string; runId?: string; handoffId?: string; run?: { status: string; errors: string[]; counts: Record<string, number> } };
  };
}

const writeConfig = (config: Record<string, unknown>) => {
  mkdirSync(join(box.env.XDG_CONFIG_HOME!, 'hippo'), { recursive: true });
  writeFileSync(join(box.env.XDG_CONFIG_HOME!, 'hippo', 'config.json'), JSON.stringify(config));
};

const candidates = async () =>
  json<{ candidates: { claim: string; tags: string[] }[] }>(
    await box.hippo(['rem', 'candidates', '--status', 'all', '--json'], { env: { HIPPO_AGENT: 'ops' } }),
  ).candidates;

describe('a hosted model under the default policy (auto)', () => {
  it('sends no card, IBAN, phone or email in any request byte, restores them in the staged candidate, and audits the counts', async () => {
    server.respondWith(
      reply.json({
        candidates: [{ claim: 'Supplier payments go to ⟦card 1⟧ or ⟦iban 1⟧; questions to ⟦email 1⟧ (⟦phone 1⟧).', sources: ['m1'], tags: ['⟦email 1⟧'] }],
      }),
    );
    const result = await box.hippo(['rem', 'rapid', '--json'], { env: hostedEnv() });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expectNoCanary(sent.rawBody, 'the request');
    expect(sent.rawBody).toContain('⟦card 1⟧');
    expect(sent.rawBody).toContain('copy its placeholder exactly as written');
    // The forged placeholders in the second memory reached the model as plain brackets, never as ours.
    expect(sent.rawBody).toContain('refund to [card 1] and mail [email 2]');

    const body = json<RapidJson>(result);
    expect(body.candidates[0]!.claim).toBe(`Supplier payments go to ${CARD} or ${IBAN}; questions to ${EMAIL} (${PHONE}).`);
    expect(body.candidates[0]!.tags).toEqual([EMAIL]);
    expect(body.run.counts).toMatchObject({ redactedCard: 1, redactedIban: 1, redactedPhone: 1, redactedEmail: 1 });
    expect((await candidates())[0]!.claim).toContain(CARD);
    // The audit row holds numbers only.
    const run = String((await box.hippo(['rem', 'runs', 'show', body.run.id, '--json'], { env: { HIPPO_AGENT: 'ops' } })).stdout);
    expectNoCanary(run, 'the run row');
  });

  it('rejects an answer that invents ⟦card 9⟧ or "corrects" a placeholder: exit 6, unknown_placeholder, nothing staged, the run row records it', async () => {
    // ([card 1] would pass: the forged note's ⟦card 1⟧ reached the model as that text. [iban 1] did not.)
    for (const claim of ['Pay with ⟦card 9⟧.', 'Pay with [iban 1].', 'Pay with ⟦Card 1⟧.', 'Pay with ⟦card 1.']) {
      server.respondWith(reply.json({ candidates: [{ claim, sources: ['m1'] }] }));
      const result = await box.hippo(['rem', 'rapid', '--json'], { env: hostedEnv() });
      expect(result.exitCode, claim).toBe(6);
      const { error } = json<ErrorJson>(result);
      expect(error.code).toBe('model_output_invalid');
      expect(error.details.reason).toBe('unknown_placeholder');
      expect(error.message).toContain("the model's answer was rejected (unknown_placeholder)");
      expect(error.message).not.toContain(claim);
      expect(error.details.run).toMatchObject({ status: 'failed', errors: ['unknown_placeholder'], counts: { redactedCard: 1 } });
    }
    expect(await candidates()).toEqual([]);
    const text = await box.hippo(['rem', 'rapid'], { env: hostedEnv() });
    expect(text.exitCode).toBe(6);
    expect(text.stderr).toContain('unknown_placeholder');
    expectNoCanary(String(text.stderr), 'the error');
  });

  it('shows the policy and what it would replace: model check and rem rapid --dry-run (counts per kind, never values)', async () => {
    const check = await box.hippo(['model', 'check', '--offline', '--json'], { env: hostedEnv() });
    expect(json<{ redaction: unknown }>(check).redaction).toEqual({
      mode: 'auto',
      modeSource: 'default',
      kinds: ['email', 'phone', 'iban', 'card'],
      kindsSource: 'default',
      destination: 'remote',
      applies: true,
    });
    const checkText = await box.hippo(['model', 'check', '--offline', '--no-redact'], { env: hostedEnv() });
    expect(checkText.stdout).toMatch(/redaction\s+off \(never from --no-redact; the model is not on this machine\)/);

    const dry = await box.hippo(['rem', 'rapid', '--dry-run', '--json'], { env: hostedEnv() });
    expect(json<{ redaction: unknown }>(dry).redaction).toMatchObject({
      mode: 'auto',
      destination: 'remote',
      applies: true,
      counts: { card: 1, iban: 1, phone: 1, email: 1 },
    });
    const dryText = await box.hippo(['rem', 'rapid', '--dry-run'], { env: hostedEnv() });
    expect(dryText.stdout).toContain('redaction on (auto from default; the model is not on this machine): email, phone, iban, card replaced by placeholders;');
    expect(dryText.stdout).toContain('1 card');
    expectNoCanary(String(dryText.stdout) + String(dryText.stderr), 'the dry run');
    expect(server.requests).toHaveLength(0);
  });
});

describe('a model on loopback', () => {
  it('gets the text as written under auto (nothing leaves the machine), and placeholders under --redact or config "redact": "always"', async () => {
    server.respondWith(reply.json({ candidates: [] }));
    expect((await box.hippo(['rem', 'rapid', '--json'], { env: loopbackEnv() })).exitCode).toBe(0);
    expect(server.requests[0]!.rawBody).toContain(CARD);
    expect(server.requests[0]!.rawBody).toContain('refund to ⟦card 1⟧');

    expect((await box.hippo(['rem', 'rapid', '--json', '--redact', '--scope', 'all'], { env: loopbackEnv() })).exitCode).toBe(0);
    expectNoCanary(server.requests[1]!.rawBody, 'the --redact request');

    writeConfig({ redact: 'always', redactKinds: ['card'] });
    expect((await box.hippo(['rem', 'rapid', '--json', '--scope', 'all'], { env: loopbackEnv() })).exitCode).toBe(0);
    expect(server.requests[2]!.rawBody).not.toContain(CARD);
    expect(server.requests[2]!.rawBody).toContain(EMAIL);
    const check = json<{ redaction: { mode: string; modeSource: string; kinds: string[]; applies: boolean } }>(
      await box.hippo(['model', 'check', '--offline', '--json'], { env: loopbackEnv() }),
    );
    expect(check.redaction).toMatchObject({ mode: 'always', modeSource: 'config', kinds: ['card'], applies: true });
  });

  it('refuses a bad config "redact" or "redactKinds" (exit 2) before sending anything', async () => {
    writeConfig({ redact: 'sometimes' });
    const bad = await box.hippo(['rem', 'rapid', '--json'], { env: loopbackEnv() });
    expect(bad.exitCode).toBe(2);
    expect(json<ErrorJson>(bad).error.code).toBe('bad_config');
    writeConfig({ redactKinds: ['address'] });
    expect((await box.hippo(['rem', 'rapid', '--json'], { env: loopbackEnv() })).exitCode).toBe(2);
    const set = await box.hippo(['config', 'set', 'redact', 'sometimes', '--json']);
    expect(set.exitCode).toBe(2);
    expect(json<ErrorJson>(set).error.message).toContain('auto, always, never');
    expect((await box.hippo(['config', 'set', 'redactKinds', 'email', 'ip', '--json'])).exitCode).toBe(0);
    expect(server.requests).toHaveLength(0);
  });
});

describe('what counts as loopback (issue 27 defect 4)', () => {
  /** A model at `host` (an ollama server, so no key is needed on loopback), with the resolver hook preloaded. */
  const envAt = (host: string) => ({
    HIPPO_AGENT: 'ops',
    HIPPO_REGION: 'IE',
    HIPPO_MODEL: 'ollama:local-model',
    HIPPO_BASE_URL: server.baseUrl('ollama').replace('127.0.0.1', host),
    NODE_OPTIONS: `--import=${HOOK}`,
  });

  it('a *.localhost name is not loopback by its name: auto redacts when it resolves to anything but loopback', async () => {
    const check = json<{ leavesMachine: boolean; redaction: { destination: string; applies: boolean } }>(
      await box.hippo(['model', 'check', '--offline', '--json'], { env: envAt('models.hosted.localhost') }),
    );
    expect(check.leavesMachine).toBe(true);
    expect(check.redaction).toMatchObject({ mode: 'auto', destination: 'remote', applies: true });
    const dry = json<{ redaction: unknown }>(await box.hippo(['rem', 'rapid', '--dry-run', '--json'], { env: envAt('models.hosted.localhost') }));
    expect(dry.redaction).toMatchObject({ mode: 'auto', destination: 'remote', applies: true, counts: { card: 1, iban: 1, phone: 1, email: 1 } });

    server.respondWith(reply.json({ candidates: [] }));
    expect((await box.hippo(['rem', 'rapid', '--json'], { env: envAt('models.hosted.localhost') })).exitCode).toBe(0);
    expect(server.requests).toHaveLength(1);
    expectNoCanary(server.requests[0]!.rawBody, 'the request to models.hosted.localhost');
  });

  it('a name that resolves only to loopback is loopback, and the request goes to that address', async () => {
    const check = json<{ leavesMachine: boolean; egress: string; redaction: { destination: string; applies: boolean } }>(
      await box.hippo(['model', 'check', '--offline', '--json'], { env: envAt('models.pinned.test') }),
    );
    expect(check.leavesMachine).toBe(false);
    expect(check.egress).toContain('127.0.0.1');
    expect(check.redaction).toMatchObject({ mode: 'auto', destination: 'loopback', applies: false });
    server.respondWith(reply.json({ candidates: [] }));
    expect((await box.hippo(['rem', 'rapid', '--json'], { env: envAt('models.pinned.test') })).exitCode).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.host).toBe(`models.pinned.test:${new URL(server.baseUrl('ollama')).port}`);
    expect(server.requests[0]!.rawBody).toContain(CARD);
  });
});

describe('a --via command model', () => {
  it('is sent placeholders (auto: a command may send its stdin anywhere) and its placeholders are restored', async () => {
    const script = join(box.dir, 'llm.mjs');
    const seen = join(box.dir, 'seen.txt');
    writeFileSync(
      script,
      `import {writeFileSync} from 'node:fs';let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{writeFileSync(${JSON.stringify(seen)},s);` +
        `const card=s.match(/⟦card \\d+⟧/)[0];console.log(JSON.stringify({candidates:[{claim:'The supplier card is '+card+'.',sources:['m1']}]}))});`,
    );
    const result = await box.hippo(['rem', 'rapid', '--via', `node ${script}`, '--json'], { env: { HIPPO_AGENT: 'ops', HIPPO_REGION: 'IE' } });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    expectNoCanary(readFileSync(seen, 'utf8'), "the command's stdin");
    expect(json<RapidJson>(result).candidates[0]!.claim).toBe(`The supplier card is ${CARD}.`);
  });
});

describe('--prompt-only, then rem ingest', () => {
  const promptOnly = async () => {
    const result = await box.hippo(['rem', 'rapid', '--prompt-only', '--json'], { env: { HIPPO_AGENT: 'ops', HIPPO_REGION: 'IE' } });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    return {
      result,
      body: json<{ handoff: { id: string; refs: Record<string, string> }; prompt: string; redaction: { applies: boolean; counts: Record<string, number> } }>(
        result,
      ),
    };
  };

  it('prints a redacted prompt, keeps the map only on the handoff row, and ingest puts the values back', async () => {
    const { result, body } = await promptOnly();
    expectNoCanary(String(result.stdout) + String(result.stderr), 'the handoff output');
    expect(body.redaction).toMatchObject({ mode: 'auto', destination: 'handoff', applies: true, counts: { card: 1, iban: 1, phone: 1, email: 1 } });
    expect(body.prompt).toContain('⟦iban 1⟧');
    const text = await box.hippo(['rem', 'rapid', '--prompt-only'], { env: { HIPPO_AGENT: 'ops', HIPPO_REGION: 'IE' } });
    expectNoCanary(String(text.stdout) + String(text.stderr), 'the text handoff');
    expect(text.stderr).toContain('redaction on (auto from default; a prompt-only handoff may be pasted anywhere)');

    const db = new Database(box.db, { readonly: true });
    const stored = db.prepare('SELECT placeholders FROM handoffs WHERE id = ?').pluck().get(body.handoff.id) as string;
    db.close();
    expect(JSON.parse(stored)).toMatchObject({ '⟦card 1⟧': CARD, '⟦iban 1⟧': IBAN });

    const answer = JSON.stringify({ candidates: [{ claim: "Transfers go to ⟦iban 1⟧; the note's [card 1] is a template.", sources: ['m1', 'm2'] }] });
    const ingested = await box.hippo(['rem', 'ingest', body.handoff.id, '-', '--json'], { env: { HIPPO_AGENT: 'ops' }, input: answer });
    expect(ingested.exitCode, String(ingested.stderr)).toBe(0);
    const staged = json<RapidJson>(ingested);
    expect(staged.candidates[0]!.claim).toBe(`Transfers go to ${IBAN}; the note's [card 1] is a template.`);
    expect(staged.run.counts).toMatchObject({ redactedIban: 1, redactedCard: 1 });
    // Staged: the map is gone from the row.
    const after = new Database(box.db, { readonly: true });
    expect(after.prepare('SELECT placeholders FROM handoffs WHERE id = ?').pluck().get(body.handoff.id)).toBeNull();
    after.close();
  });

  it('forgetting a memory takes its text and its values off an open handoff: an ingest cannot bring them back', async () => {
    const { body } = await promptOnly();
    const paymentId = body.handoff.refs.m1!;
    const forgot = await box.hippo(['memory', 'forget', paymentId, '--yes'], { env: { HIPPO_AGENT: 'ops' } });
    expect(forgot.exitCode, String(forgot.stderr)).toBe(0);
    const db = new Database(box.db, { readonly: true });
    const row = db.prepare('SELECT prompt, placeholders FROM handoffs WHERE id = ?').get(body.handoff.id) as { prompt: string; placeholders: string };
    db.close();
    expectNoCanary(row.placeholders, 'the handoff map');
    expect(JSON.parse(row.placeholders)).toEqual({});
    expect(row.prompt).not.toContain('Dublin supplier');
    expect(row.prompt).toContain('A pasted template said');
    const answer = JSON.stringify({ candidates: [{ claim: 'Supplier payments go to ⟦card 1⟧.', sources: ['m2'] }] });
    const ingested = await box.hippo(['rem', 'ingest', body.handoff.id, '-', '--json'], { env: { HIPPO_AGENT: 'ops' }, input: answer });
    expect(ingested.exitCode).toBe(6);
    expect(json<ErrorJson>(ingested).error.details.reason).toBe('unknown_placeholder');
    expectNoCanary(String(ingested.stdout) + String(ingested.stderr), 'the ingest');
  });

  it('forget finds a memory in a candidate prompt a hosted model was sent redacted: live, in --match --dry-run, and with --purge-snapshots', async () => {
    // The candidate cites only the forged note (m2): the payment note (m1) is in its prompt with placeholders.
    server.respondWith(reply.json({ candidates: [{ claim: 'Pasted templates hold fake placeholders.', sources: ['m2'] }] }));
    const rapid = await box.hippo(['rem', 'rapid', '--json'], { env: hostedEnv() });
    expect(rapid.exitCode, String(rapid.stderr)).toBe(0);
    const candidateId = json<RapidJson>(rapid).candidates[0]!.id;
    const promptOf = () => {
      const db = new Database(box.db, { readonly: true });
      try {
        return db.prepare('SELECT prompt FROM candidates WHERE id = ?').pluck().get(candidateId) as string;
      } finally {
        db.close();
      }
    };
    const TEXT = 'Pay the Dublin supplier with card';
    expect(promptOf()).toContain(TEXT);
    expect(promptOf()).not.toContain(PAYMENT_NOTE);
    const night = await box.hippo(['rem', 'nightly', 'run-once', '--json'], { env: { HIPPO_AGENT: 'ops' } });
    expect(night.exitCode, String(night.stderr)).toBe(0);
    const snapshot = json<{ run: { snapshotPath: string } }>(night).run.snapshotPath;
    expect(readFileSync(snapshot).includes(Buffer.from(TEXT))).toBe(true);

    // The matched text is one of the values the prompt shows as a placeholder.
    const dry = await box.hippo(['memory', 'forget', '--match', '-', '--dry-run', '--json'], { env: { HIPPO_AGENT: 'ops' }, input: EMAIL });
    expect(dry.exitCode, String(dry.stderr)).toBe(0);
    const plan = json<{ memories: { id: string }[]; candidatesChanged: string[]; snapshots: { candidates: number }[] }>(dry);
    expect(plan.memories).toHaveLength(1);
    expect(plan.candidatesChanged).toEqual([candidateId]);
    expect(plan.snapshots).toEqual([expect.objectContaining({ candidates: 1 })]);

    const forgot = await box.hippo(['memory', 'forget', plan.memories[0]!.id, '--purge-snapshots', '--yes', '--json'], { env: { HIPPO_AGENT: 'ops' } });
    expect(forgot.exitCode, String(forgot.stderr)).toBe(0);
    expect(json<{ candidatesChanged: string[] }>(forgot).candidatesChanged).toEqual([candidateId]);
    expect(promptOf()).not.toContain(TEXT);
    expect(promptOf()).toContain('">[forgotten]</memory>');
    expect(promptOf()).toContain('A pasted template said');
    expect(readFileSync(box.db).includes(Buffer.from(TEXT))).toBe(false);
    expect(readFileSync(snapshot).includes(Buffer.from(TEXT))).toBe(false);
  });

  it('forget finds a memory holding look-alike brackets and no value, which a redacted prompt shows with ASCII brackets', async () => {
    await box.hippo(['memory', 'add', 'Vault combo ⟦7 8 9⟧ for the back office'], { env: { HIPPO_AGENT: 'ops' } });
    // The candidate cites only the forged note: the vault note is in its prompt as "Vault combo [7 8 9] …".
    server.respondWith(reply.json({ candidates: [{ claim: 'Pasted templates hold fake placeholders.', sources: ['m3'] }] }));
    const rapid = await box.hippo(['rem', 'rapid', '--json'], { env: hostedEnv() });
    expect(rapid.exitCode, String(rapid.stderr)).toBe(0);
    const candidateId = json<RapidJson>(rapid).candidates[0]!.id;
    const promptOf = () => {
      const db = new Database(box.db, { readonly: true });
      try {
        return db.prepare('SELECT prompt FROM candidates WHERE id = ?').pluck().get(candidateId) as string;
      } finally {
        db.close();
      }
    };
    expect(promptOf()).toContain('>Vault combo [7 8 9] for the back office</memory>'); // the premise
    const list = await box.hippo(['memory', 'list', '--json'], { env: { HIPPO_AGENT: 'ops' } });
    const vault = json<{ memories: { id: string; content: string }[] }>(list).memories.find((memory) => memory.content.startsWith('Vault'))!;

    const forgot = await box.hippo(['memory', 'forget', vault.id, '--yes', '--json'], { env: { HIPPO_AGENT: 'ops' } });
    expect(forgot.exitCode, String(forgot.stderr)).toBe(0);
    expect(json<{ candidatesChanged: string[] }>(forgot).candidatesChanged).toEqual([candidateId]);
    expect(promptOf()).not.toContain('Vault combo');
    expect(promptOf()).toContain('A pasted template said');
    expect(readFileSync(box.db).includes(Buffer.from('Vault combo'))).toBe(false);
  });

  it('rejects an answer using a placeholder a memory forged (never issued): exit 6, the handoff stays open', async () => {
    const { body } = await promptOnly();
    const forged = JSON.stringify({ candidates: [{ claim: 'Mail ⟦email 2⟧ about refunds.', sources: ['m2'] }] });
    const rejected = await box.hippo(['rem', 'ingest', body.handoff.id, '-', '--json'], { env: { HIPPO_AGENT: 'ops' }, input: forged });
    expect(rejected.exitCode).toBe(6);
    const { error } = json<ErrorJson>(rejected);
    expect(error).toMatchObject({ code: 'model_output_invalid', details: { reason: 'unknown_placeholder', handoffId: body.handoff.id } });
    expect(error.details.run).toMatchObject({ status: 'failed', errors: ['unknown_placeholder'] });
    const good = await box.hippo(['rem', 'ingest', body.handoff.id, '-', '--json'], {
      env: { HIPPO_AGENT: 'ops' },
      input: JSON.stringify({ candidates: [{ claim: 'Mail ⟦email 1⟧.', sources: ['m1'] }] }),
    });
    expect(good.exitCode).toBe(0);
    expect(json<RapidJson>(good).candidates[0]!.claim).toBe(`Mail ${EMAIL}.`);
  });

  it('refuses an answer to a handoff whose map expired with it (exit 3), and a --no-redact handoff takes the answer as written', async () => {
    const { body } = await promptOnly();
    const db = new Database(box.db);
    db.prepare('UPDATE handoffs SET expires_at = ? WHERE id = ?').run('2020-01-01T00:00:00.000Z', body.handoff.id);
    db.close();
    const late = await box.hippo(['rem', 'ingest', body.handoff.id, '-', '--json'], {
      env: { HIPPO_AGENT: 'ops' },
      input: JSON.stringify({ candidates: [{ claim: 'Pay ⟦card 1⟧.', sources: ['m1'] }] }),
    });
    expect(late.exitCode).toBe(3);
    expect(json<ErrorJson>(late).error.code).toBe('handoff_expired');

    const plain = await box.hippo(['rem', 'rapid', '--prompt-only', '--no-redact', '--json'], { env: { HIPPO_AGENT: 'ops' } });
    const handoff = json<{ handoff: { id: string }; prompt: string; redaction: { applies: boolean } }>(plain);
    expect(handoff.redaction.applies).toBe(false);
    expect(handoff.prompt).toContain(CARD);
    const asWritten = await box.hippo(['rem', 'ingest', handoff.handoff.id, '-', '--json'], {
      env: { HIPPO_AGENT: 'ops' },
      input: JSON.stringify({ candidates: [{ claim: 'The template says ⟦card 1⟧.', sources: ['m2'] }] }),
    });
    expect(asWritten.exitCode).toBe(0);
    expect(json<RapidJson>(asWritten).candidates[0]!.claim).toBe('The template says ⟦card 1⟧.');
  });
});

describe('the address fallback', () => {
  const TEXT = `Reception desk:\n18 Baggot Street Lower, Dublin 2, tel ${PHONE}\nInvoices to ${EMAIL}, card ${CARD}.\n`;

  it('sends redacted passages, verifies pointers against them, and slices the exact address span from the source', async () => {
    server.respondWith(
      reply.json({
        pointers: [
          { passage: 0, text: `18 Baggot Street Lower, Dublin 2, tel ⟦phone 1⟧` },
          // Cuts through a placeholder: refused.
          { passage: 0, text: 'Invoices to ⟦email' },
        ],
      }),
    );
    const result = await box.hippo(['extract', 'address', '--json'], { env: hostedEnv(), input: TEXT });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    expect(server.requests).toHaveLength(1);
    expectNoCanary(server.requests[0]!.rawBody, 'the fallback request');
    const { facts } = json<{ facts: { kind: string; value: string; origin: string; occurrences: { start: number; end: number; text: string }[] }[] }>(result);
    expect(facts).toHaveLength(1);
    const [fact] = facts;
    expect(fact).toMatchObject({ kind: 'address', origin: 'model', value: `18 Baggot Street Lower, Dublin 2, tel ${PHONE}` });
    const occurrence = fact!.occurrences[0]!;
    expect(TEXT.slice(occurrence.start, occurrence.end)).toBe(occurrence.text);
  });

  it('leaves out whole a value the passage budget cuts through, rather than sending its first digits', async () => {
    // One line longer than the fallback's 24 000-character budget, with the card straddling the cut.
    const long = `${'x'.repeat(23_990)} ${CARD} at 18 Baggot Street Lower, Dublin 2`;
    server.respondWith(reply.json({ pointers: [] }));
    const result = await box.hippo(['extract', 'address', '--json'], { env: hostedEnv(), input: long });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!.rawBody;
    expectNoCanary(sent, 'the fallback request');
    expect(sent).not.toContain('4111 1111');
    expect(sent).toContain('x'.repeat(100));
  });

  it('sends the passages as written to a loopback model under auto', async () => {
    server.respondWith(reply.json({ pointers: [] }));
    const result = await box.hippo(['extract', 'address', '--json'], { env: loopbackEnv(), input: TEXT });
    expect(result.exitCode).toBe(0);
    expect(server.requests[0]!.rawBody).toContain(CARD);
  });
});
