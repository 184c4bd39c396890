/**
 * `warnings` in the --json documents of `search` and `extract` (docs/output.md): always present, `[]` when there is
 * nothing to say, and one plain sentence for each reason a result may be empty — a kind that needs a model without
 * one, a model call that failed, a read for an agent that has nothing while other agents do. Text mode says the same
 * on stderr. Through the built CLI, against the stand-in model server.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addMemory } from '../../src/core/memory/memory.js';
import { openSqliteStore } from '../../src/core/store/sqlite/adapter.js';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';
import { reply, startModelServer, type ModelServer } from '../helpers/model-server.js';

type Result = Awaited<ReturnType<Sandbox['hippo']>>;

let box: Sandbox;
let server: ModelServer;

beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

// No Eircode: no postcode certifies this address, so only a model could find it.
const OFFICE = 'Dublin office — reception: +353 1 234 5678, 4 Grand Canal Square, Dublin 2.';
const NEEDS_MODEL = 'address needs a model for what no postcode certifies, and no model is configured: see hippo model check';
const MODEL_OFF = 'address needs a model for what no postcode certifies, and model calls are turned off';
const TIMED_OUT = 'model fallback for address: model_timeout (the model timed out); nothing from the model, the validated facts are unchanged';

beforeEach(async () => {
  box = sandbox();
  server.requests.length = 0;
  server.respondWith(reply.json({ pointers: [] }));
  const store = await openSqliteStore({ path: box.db });
  await addMemory(store, { agentId: 'ops-agent', content: OFFICE });
  await addMemory(store, { agentId: 'ops-agent', content: 'Deploy of api v2.14 failed on Friday.' });
  await addMemory(store, { agentId: 'alice', content: 'Lunch with the Dublin team on Thursday.' });
  await store.close();
});
afterEach(() => box.cleanup());

const modelEnv = () => ({ HIPPO_MODEL: 'ollama:test-model', HIPPO_BASE_URL: server.baseUrl('ollama') });
const warningsOf = (result: Result) => json<{ warnings: string[] }>(result).warnings;
const stderrLines = (result: Result) => String(result.stderr).trim().split('\n').filter(Boolean);

function file(content: string): string {
  const path = join(box.dir, 'note.txt');
  writeFileSync(path, content);
  return path;
}

describe('warnings: [] when there is nothing to say', () => {
  it('is always present in search and extract --json', async () => {
    const found = await box.hippo(['search', 'deploy', '--agent', 'ops-agent', '--json']);
    expect(found.exitCode).toBe(0);
    expect(json(found)).toMatchObject({ facts: [], warnings: [] });
    const phones = await box.hippo(['search', 'phone of the Dublin office', '--agent', 'ops-agent', '--json']);
    expect(warningsOf(phones)).toEqual([]);
    expect(json<{ facts: unknown[] }>(phones).facts).toHaveLength(1);
    const extracted = await box.hippo(['extract', 'phone', file(OFFICE), '--json']);
    expect(extracted.exitCode).toBe(0);
    expect(Object.keys(json(extracted))).toEqual(['facts', 'warnings']);
    expect(warningsOf(extracted)).toEqual([]);
  });
});

describe('a read for an agent that has nothing, while other agents have memories', () => {
  const ELSEWHERE = 'no matches for agent default; other agents have memories: ops-agent (2), alice (1)';

  it('search says which agents have memories (--json, and on stderr in text mode)', async () => {
    const result = await box.hippo(['search', 'deploy', '--json']);
    expect(result.exitCode).toBe(0);
    expect(json(result)).toEqual({ results: [], total: 0, facts: [], warnings: [ELSEWHERE] });
    const text = await box.hippo(['search', 'deploy']);
    expect(String(text.stdout).trim()).toBe('no matches');
    expect(stderrLines(text)).toEqual([ELSEWHERE]);
  });

  it('extract --query says it too', async () => {
    const result = await box.hippo(['extract', 'phone', '--query', 'Dublin office', '--json']);
    expect(result.exitCode).toBe(0);
    expect(json(result)).toEqual({ facts: [], warnings: [ELSEWHERE] });
    const text = await box.hippo(['extract', 'phone', '--query', 'Dublin office']);
    expect(stderrLines(text)).toEqual([ELSEWHERE]);
  });

  it('names the three agents with most memories and counts the rest; archived memories do not count', async () => {
    const store = await openSqliteStore({ path: box.db });
    for (const agentId of ['bob', 'carol', 'dave']) await addMemory(store, { agentId, content: `A note of ${agentId}.` });
    store.db.prepare("UPDATE memories SET archived_at = created_at, archived_reason = 'test' WHERE agent_id = 'alice'").run();
    await store.close();
    expect(warningsOf(await box.hippo(['search', 'kubernetes', '--json', '--agent', 'erin']))).toEqual([
      'no matches for agent erin; other agents have memories: ops-agent (2), bob (1), carol (1), and 1 more',
    ]);
  });

  it('says nothing when the agent found something, or no other agent has a memory', async () => {
    expect(warningsOf(await box.hippo(['search', 'lunch', '--agent', 'alice', '--json']))).toEqual([]);
    const store = await openSqliteStore({ path: box.db });
    store.db.prepare("DELETE FROM memories WHERE agent_id != 'alice'").run();
    await store.close();
    expect(warningsOf(await box.hippo(['search', 'deploy', '--agent', 'alice', '--json']))).toEqual([]);
  });

  it('says nothing when the agent has memories of its own and only the query or filters found none', async () => {
    expect(warningsOf(await box.hippo(['search', 'kubernetes', '--agent', 'ops-agent', '--json']))).toEqual([]);
    const listed = await box.hippo(['memory', 'list', '--agent', 'ops-agent', '--since', '1m', '-t', 'nothing-tagged-so', '--json']);
    expect(json(listed)).toEqual({ memories: [], total: 0, truncated: false, warnings: [] });
    expect(String(listed.stderr)).toBe('');
  });
});

describe('a kind that needs a model', () => {
  it('search: no model configured, or model calls turned off', async () => {
    const unconfigured = await box.hippo(['search', 'address of the Dublin office', '--agent', 'ops-agent', '--json']);
    expect(unconfigured.exitCode).toBe(0);
    expect(warningsOf(unconfigured)).toEqual([NEEDS_MODEL]);
    const off = await box.hippo(['search', 'address of the Dublin office', '--agent', 'ops-agent', '--json', '--no-ai'], { env: modelEnv() });
    expect(warningsOf(off)).toEqual([MODEL_OFF]);
    expect(server.requests).toHaveLength(0);
    const text = await box.hippo(['search', 'address of the Dublin office', '--agent', 'ops-agent']);
    expect(stderrLines(text)).toEqual([NEEDS_MODEL]);
  });

  it('extract: no model configured, or model calls turned off', async () => {
    const office = file(OFFICE);
    const unconfigured = await box.hippo(['extract', 'address', office, '--json']);
    expect(json(unconfigured)).toEqual({ facts: [], warnings: [NEEDS_MODEL] });
    const off = await box.hippo(['extract', 'address', office, '--json', '--no-ai'], { env: modelEnv() });
    expect(json(off)).toEqual({ facts: [], warnings: [MODEL_OFF] });
    expect(stderrLines(await box.hippo(['extract', 'address', office, '--no-ai']))).toEqual([MODEL_OFF]);
    expect(server.requests).toHaveLength(0);
  });

  it('extract: what a postcode certifies is listed all the same, and --all asks no model and warns of none', async () => {
    const certified = file('Galway office: 12 Eyre Square, Galway, H91 FK5T.');
    const unconfigured = json<{ facts: { value: string; check: string }[]; warnings: string[] }>(await box.hippo(['extract', 'address', certified, '--json']));
    expect(unconfigured.facts.map((fact) => [fact.value, fact.check])).toEqual([['12 Eyre Square, Galway, H91 FK5T', 'postcode']]);
    expect(unconfigured.warnings).toEqual([NEEDS_MODEL]);
    const all = await box.hippo(['extract', '--all', certified, '--json'], { env: modelEnv() });
    expect(json<{ facts: { kind: string }[] }>(all).facts.map((fact) => fact.kind)).toEqual(['address']);
    expect(warningsOf(all)).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});

describe('a model call that failed', () => {
  it('extract: the model timed out', async () => {
    server.respondWith(reply.hang());
    const result = await box.hippo(['extract', 'address,phone', file(OFFICE), '--json', '--timeout', '300ms'], { env: modelEnv() });
    expect(result.exitCode).toBe(0);
    const body = json<{ facts: { kind: string }[]; warnings: string[] }>(result);
    expect(body.facts.map((fact) => fact.kind)).toEqual(['phone']);
    expect(body.warnings).toEqual([TIMED_OUT]);
  });

  it('search: the model timed out (the fact box gives it 800 ms)', async () => {
    server.respondWith(reply.hang());
    const result = await box.hippo(['search', 'address of the Dublin office', '--agent', 'ops-agent', '--json'], { env: modelEnv() });
    expect(result.exitCode).toBe(0);
    expect(warningsOf(result)).toEqual([TIMED_OUT]);
    expect(stderrLines(result)).toEqual([TIMED_OUT]);
  });
});
