/**
 * The one text guard (docs/output.md), through the built CLI: text from the store or from a model — a model id, a tag,
 * a claim, memory content — never reaches the terminal with an escape sequence or a bidi control in it. Each case
 * printed the character raw before the guard was applied everywhere.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addMemory } from '../../src/core/memory/memory.js';
import { openSqliteStore } from '../../src/core/store/sqlite/adapter.js';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';
import { reply, startModelServer, type ModelServer } from '../helpers/model-server.js';

type Result = Awaited<ReturnType<Sandbox['hippo']>>;

/** An OSC 0 sequence: a terminal that receives it raw retitles its window to "pwned". */
const TITLE = '\u001b]0;pwned\u0007';
const EVIL_MODEL = `evil-model${TITLE}`;
/** U+202E RIGHT-TO-LEFT OVERRIDE: the rest of the line is drawn backwards ("exe.pdf" reads "fdp.exe"). */
const RLO = '\u202E';
const SHOWN_TITLE = '\uFFFD]0;pwned\uFFFD';

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const TERMINAL_ACTIVE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\p{Bidi_Control}]/u;

/** Every control character and bidi control a terminal would act on, in what a command printed. */
function raw(output: string): string[] {
  return [...output].filter((char) => TERMINAL_ACTIVE.test(char)).map((char) => `U+${char.codePointAt(0)!.toString(16)}`);
}

/** Text-mode output (stdout and stderr) holds nothing raw. */
function expectGuarded(result: Result): string {
  expect(result.exitCode, String(result.stderr)).toBe(0);
  const output = `${String(result.stdout)}\n${String(result.stderr)}`;
  expect(raw(output)).toEqual([]);
  return output;
}

let box: Sandbox;
let server: ModelServer;

beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

beforeEach(async () => {
  box = sandbox();
  server.requests.length = 0;
  server.respondWith(reply.json({ ok: true }));
  const store = await openSqliteStore({ path: box.db });
  await addMemory(store, { agentId: 'ops', content: 'Deploy of api v2.14 failed on Friday: a migration held a lock.' });
  await addMemory(store, { agentId: 'ops', content: `Invoice attached: invoice-2024${RLO}fdp.exe from billing`, tags: ['billing'] });
  await store.close();
});
afterEach(() => box.cleanup());

const modelEnv = () => ({ HIPPO_MODEL: 'ollama:test-model', HIPPO_BASE_URL: server.baseUrl('ollama'), HIPPO_AGENT: 'ops' });
const ops = { env: { HIPPO_AGENT: 'ops' } };

describe('a model id with an escape sequence in it', () => {
  it('reported by the server: rem rapid, rem runs show and rem show print it with the sequence made visible', async () => {
    server.respondWith(reply.json({ candidates: [{ claim: 'Migrations take locks.', sources: ['m2'] }] }, { model: EVIL_MODEL }));
    const rapid = expectGuarded(await box.hippo(['rem', 'rapid'], { env: modelEnv() }));
    expect(rapid).toContain(`model evil-model${SHOWN_TITLE}`);

    const [run] = json<{ runs: { id: string; model: string }[] }>(await box.hippo(['rem', 'runs', '--json'], ops)).runs;
    expect(run!.model).toBe(EVIL_MODEL); // stored as reported: --json is exact
    expect(expectGuarded(await box.hippo(['rem', 'runs', 'show', run!.id], ops))).toContain(`evil-model${SHOWN_TITLE}`);

    const [candidate] = json<{ candidates: { id: string }[] }>(await box.hippo(['rem', 'candidates', '--json'], ops)).candidates;
    expect(expectGuarded(await box.hippo(['rem', 'show', candidate!.id], ops))).toContain(`evil-model${SHOWN_TITLE}`);
  });

  it('reported by the server to model check', async () => {
    server.respondWith(reply.json({ ok: true }, { model: EVIL_MODEL }));
    const check = expectGuarded(await box.hippo(['model', 'check'], { env: modelEnv() }));
    expect(check).toContain(`model reported: evil-model${SHOWN_TITLE}`);
  });

  it('given with rem ingest --generated-by: rem show and rem runs show', async () => {
    const { handoff } = json<{ handoff: { id: string } }>(await box.hippo(['rem', 'rapid', '--prompt-only', '--json', '--scope', 'all'], ops));
    const answer = join(box.dir, 'answer.json');
    writeFileSync(answer, JSON.stringify({ candidates: [{ claim: 'Invoices arrive from billing.', sources: ['m1'] }] }));
    const ingested = await box.hippo(['rem', 'ingest', handoff.id, answer, '--generated-by', EVIL_MODEL, '--json'], ops);
    const { run, candidates } = json<{ run: { id: string }; candidates: { id: string; generatedBy: string }[] }>(ingested);
    expect(candidates[0]!.generatedBy).toBe(EVIL_MODEL);
    expect(expectGuarded(await box.hippo(['rem', 'show', candidates[0]!.id], ops))).toContain(`evil-model${SHOWN_TITLE}`);
    expect(expectGuarded(await box.hippo(['rem', 'runs', 'show', run.id], ops))).toContain(`evil-model${SHOWN_TITLE}`);
  });
});

describe('stored text', () => {
  it('memory list shows a tag holding an escape sequence with the sequence made visible', async () => {
    expect((await box.hippo(['memory', 'add', 'Tagged note', '--tag', `ops${TITLE}`], ops)).exitCode).toBe(0);
    expect(expectGuarded(await box.hippo(['memory', 'list'], ops))).toContain(`  ops${SHOWN_TITLE}  `);
  });

  it('memory list, memory show and search show a right-to-left override as a visible marker', async () => {
    const [invoice] = json<{ memories: { id: string }[] }>(await box.hippo(['memory', 'list', '--tag', 'billing', '--json'], ops)).memories;
    expect(expectGuarded(await box.hippo(['memory', 'list'], ops))).toContain('invoice-2024\uFFFDfdp.exe');
    expect(expectGuarded(await box.hippo(['memory', 'show', invoice!.id], ops))).toContain('invoice-2024\uFFFDfdp.exe');
    expect(expectGuarded(await box.hippo(['search', 'invoice'], ops))).toMatch(/\*\*invoice\*\*-2024\uFFFDfdp\.exe/i);
  });

  it('search: stored private-use characters cannot fake a highlight (only the match is marked)', async () => {
    expect((await box.hippo(['memory', 'add', 'zebra \uE001\uE000 tail \uE000stripe\uE001'], ops)).exitCode).toBe(0);
    const shown = expectGuarded(await box.hippo(['search', 'zebra'], ops));
    expect(shown).toContain('  **zebra** \uE001\uE000 tail \uE000stripe\uE001\n');
    expect(shown.split('**')).toHaveLength(3);
  });

  it('rem candidates and rem show show a right-to-left override in a claim (stored before validation refused them)', async () => {
    const { handoff } = json<{ handoff: { id: string } }>(await box.hippo(['rem', 'rapid', '--prompt-only', '--json', '--scope', 'all'], ops));
    const ingested = await box.hippo(['rem', 'ingest', handoff.id, '--json'], {
      ...ops,
      input: JSON.stringify({ candidates: [{ claim: 'Pay the invoice from billing.', sources: ['m1'] }] }),
    });
    const [candidate] = json<{ candidates: { id: string }[] }>(ingested).candidates;
    const store = await openSqliteStore({ path: box.db });
    store.db.prepare('UPDATE candidates SET claim = ? WHERE id = ?').run(`Pay invoice-2024${RLO}fdp.exe at once`, candidate!.id);
    await store.close();
    expect(expectGuarded(await box.hippo(['rem', 'candidates'], ops))).toContain('Pay invoice-2024\uFFFDfdp.exe at once');
    const shown = expectGuarded(await box.hippo(['rem', 'show', candidate!.id], ops));
    expect(shown).toContain('Pay invoice-2024\uFFFDfdp.exe at once');
    expect(shown).toContain('invoice-2024\uFFFDfdp.exe from billing'); // the cited memory, in full
  });

  it('--json stays exact: the same characters, written as \\u escapes a terminal does not act on', async () => {
    const result = await box.hippo(['memory', 'list', '--tag', 'billing', '--json'], ops);
    expect(raw(String(result.stdout))).toEqual([]);
    expect(String(result.stdout)).toContain('\\u202e');
    expect(json<{ memories: { content: string }[] }>(result).memories[0]!.content).toContain(`2024${RLO}fdp`);
  });
});

describe('validation', () => {
  it.each([
    ['a claim', { claim: `Pay invoice-2024${RLO}fdp.exe`, sources: ['m1'] }],
    ['a tag', { claim: 'Pay the invoice.', sources: ['m1'], tags: [`billing\u2067`] }],
  ])('refuses an answer with a bidi control in %s (control_characters, exit 6, nothing staged)', async (_where, candidate) => {
    server.respondWith(reply.json({ candidates: [candidate] }));
    const result = await box.hippo(['rem', 'rapid', '--json', '--scope', 'all'], { env: modelEnv() });
    expect(result.exitCode).toBe(6);
    const { error } = json<{ error: { code: string; details?: { reason?: string } } }>(result);
    expect([error.code, error.details?.reason]).toContain('control_characters');
    expect(json<{ candidates: unknown[] }>(await box.hippo(['rem', 'candidates', '--status', 'all', '--json'], ops)).candidates).toEqual([]);
  });

  it('refuses an agent id with a right-to-left override (it would show as another agent): bad_agent, exit 2, nothing added', async () => {
    for (const via of [{ args: ['--agent', `ag${RLO}tneg`] }, { args: [], env: { HIPPO_AGENT: `ops${RLO}` } }]) {
      const result = await box.hippo(['memory', 'add', 'a note', '--json', ...via.args], { env: via.env ?? {} });
      expect(result.exitCode).toBe(2);
      expect(json<{ error: { code: string } }>(result).error.code).toBe('bad_agent');
    }
    const store = await openSqliteStore({ path: box.db });
    expect(store.db.prepare('SELECT DISTINCT agent_id FROM memories').pluck().all()).toEqual(['ops']);
    await store.close();
  });
});
