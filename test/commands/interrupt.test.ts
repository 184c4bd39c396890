/**
 * Ctrl-C, SIGTERM and SIGHUP: the real built CLI, a stand-in model server that never answers, a real signal. The run
 * scope must finish its row `interrupted` (never left `running`), nothing may be staged, the lock must be released,
 * and the exit code is 130 for every one of them (docs/decisions.md, Interrupts).
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Result, ResultPromise } from 'execa';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addMemory } from '../../src/core/memory/memory.js';
import { openStore } from '../../src/core/store/store.js';
import { json, ROOT, sandbox, type Sandbox } from '../helpers/cli.js';
import { reply, startModelServer, type ModelServer } from '../helpers/model-server.js';
import { ALL_RUNS } from '../helpers/rows.js';

let box: Sandbox;
let server: ModelServer;

beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

beforeEach(async () => {
  box = sandbox();
  server.requests.length = 0;
  // Never answers: the only way out of the model call is the caller's abort.
  server.respondWith(reply.hang());
  const store = await openStore({ path: box.db });
  const now = Date.now();
  await addMemory(store, { agentId: 'ops', content: 'Deploy of api v2.14 stalled on a migration lock.', createdAt: new Date(now - 3_600_000).toISOString() });
  await addMemory(store, { agentId: 'ops', content: 'Decided: migrations run on Tuesday mornings.', createdAt: new Date(now - 7_200_000).toISOString() });
  await store.close();
});
afterEach(() => box.cleanup());

const env = () => ({ HIPPO_MODEL: 'ollama:test-model', HIPPO_BASE_URL: server.baseUrl('ollama'), HIPPO_AGENT: 'ops' });

function query<T>(sql: string): T[] {
  const db = new Database(box.db, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** Starts hippo, waits until its model request is in flight, then sends `signal`. */
async function interruptDuringModelCall(args: string[], signal: NodeJS.Signals): Promise<Result> {
  const child = box.hippo(args, { env: env() }) as unknown as ResultPromise;
  await Promise.race([
    server.waitForRequests(1),
    child.then((result) => {
      throw new Error(`hippo ended (exit ${result.exitCode}) before calling the model: ${String(result.stderr)}`);
    }),
  ]);
  child.kill(signal);
  return await child;
}

interface RunRow {
  id: string;
  kind: string;
  status: string;
  errors: string;
  parent_run_id: string | null;
  steps: string;
}

describe.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('%s during the model call', (signal) => {
  it('rem rapid: the run row ends interrupted, nothing is staged or stamped, exit 130 with the interrupted error', async () => {
    const result = await interruptDuringModelCall(['rem', 'rapid', '--json'], signal);
    expect(result.signal).toBeUndefined();
    expect(result.exitCode).toBe(130);
    const { error } = json<{ error: { code: string; details: { runId: string; run: { status: string } } } }>(result);
    expect(error.code).toBe('interrupted');
    expect(error.details.run.status).toBe('interrupted');
    expect(query<RunRow>(`SELECT * FROM ${ALL_RUNS}`)).toEqual([
      expect.objectContaining({ id: error.details.runId, status: 'interrupted', errors: '["interrupted"]' }),
    ]);
    expect(query('SELECT * FROM candidates')).toEqual([]);
    expect(query('SELECT id FROM memories WHERE last_reflected_at IS NOT NULL')).toEqual([]);
    expect(await server.requests[0]!.closed).toBe(true);
  });

  it('rem nightly run-once: the night and its child row end interrupted, maintenance kept, the lock released, exit 130', async () => {
    const result = await interruptDuringModelCall(['rem', 'nightly', 'run-once', '--json'], signal);
    expect(result.signal).toBeUndefined();
    expect(result.exitCode).toBe(130);
    const { error } = json<{ error: { code: string; details: { runId: string } } }>(result);
    expect(error.code).toBe('interrupted');
    const rows = query<RunRow>(`SELECT * FROM ${ALL_RUNS} ORDER BY id`);
    const night = rows.find((row) => row.parent_run_id === null)!;
    expect(night).toMatchObject({ id: error.details.runId, status: 'interrupted', errors: '["interrupted"]' });
    expect(JSON.parse(night.steps)).toMatchObject({ snapshot: 'written and verified', maintenance: 'done', distill: 'interrupted' });
    expect(rows.filter((row) => row.parent_run_id === night.id)).toEqual([expect.objectContaining({ status: 'interrupted', errors: '["interrupted"]' })]);
    expect(rows.filter((row) => row.status === 'running')).toEqual([]);
    expect(query("SELECT * FROM settings WHERE key = 'nightly.lock'")).toEqual([]);
    expect(query('SELECT * FROM candidates')).toEqual([]);
  });
});

describe('the words of an interrupt', () => {
  it('rem nightly run-once in text: "interrupted" is said once, exit 130', async () => {
    const result = await interruptDuringModelCall(['rem', 'nightly', 'run-once'], 'SIGINT');
    expect(result.exitCode).toBe(130);
    expect(String(result.stderr).match(/interrupted/gi), String(result.stderr)).toHaveLength(1);
  });
});

const STUBBORN = join(ROOT, 'test', 'fixtures', 'stubborn-model.mjs');

/**
 * The forced exit: a model command that ignores every signal keeps the work from unwinding, so after a second hippo
 * finishes the open run rows itself and leaves — still with the interrupted error, shown once.
 */
describe('an interrupt the work cannot answer in time (the forced exit)', () => {
  /** Starts `rem rapid --via` with a command that ignores SIGINT/SIGTERM/SIGHUP, and interrupts it once it runs. */
  async function interruptStubbornCommand(json: boolean): Promise<Result> {
    const started = join(box.dir, 'started');
    const via = `trap '' TERM INT HUP; '${process.execPath}' '${STUBBORN}' '${started}'; sleep 8; echo '{"candidates":[]}'`;
    const child = box.hippo(['rem', 'rapid', '--via', via, ...(json ? ['--json'] : [])], { env: { HIPPO_AGENT: 'ops' } }) as unknown as ResultPromise;
    const ended = child.then((result) => {
      throw new Error(`hippo ended (exit ${result.exitCode}) before the command started: ${String(result.stderr)}`);
    });
    await Promise.race([waitForFile(started), ended]);
    child.kill('SIGINT');
    return await child;
  }

  it('--json: one interrupted error document naming the run, the row interrupted, exit 130', async () => {
    const result = await interruptStubbornCommand(true);
    expect(result.exitCode).toBe(130);
    const { error } = json<{ error: { code: string; message: string; details: { runId: string; run: { status: string } } } }>(result);
    expect(error).toMatchObject({ code: 'interrupted', message: 'interrupted', details: { run: { status: 'interrupted' } } });
    expect(query<RunRow>(`SELECT * FROM ${ALL_RUNS}`)).toEqual([
      expect.objectContaining({ id: error.details.runId, kind: 'rem rapid', status: 'interrupted' }),
    ]);
    expect(query('SELECT * FROM candidates')).toEqual([]);
  });

  it('text: the error message once on stderr, nothing on stdout, exit 130', async () => {
    const result = await interruptStubbornCommand(false);
    expect(result.exitCode).toBe(130);
    expect(result.stdout).toBe('');
    expect(String(result.stderr).match(/^Error: interrupted$/gm)).toEqual(['Error: interrupted']);
    expect(query<RunRow>(`SELECT * FROM ${ALL_RUNS}`)).toEqual([
      expect.objectContaining({ kind: 'rem rapid', status: 'interrupted', errors: '["interrupted"]' }),
    ]);
  });
});

async function waitForFile(path: string): Promise<void> {
  while (!existsSync(path)) await new Promise((resolve) => setTimeout(resolve, 25));
}
