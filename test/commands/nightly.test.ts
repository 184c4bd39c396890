import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { execa, type Result, type ResultPromise } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMemory } from '../../src/core/memory/memory.js';
import { openSqliteStore } from '../../src/core/store/sqlite/adapter.js';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';
import { reply, startModelServer, useModelServer } from '../helpers/model-server.js';
import { ALL_RUNS } from '../helpers/rows.js';

let box: Sandbox;

const server = useModelServer({ per: 'suite' });

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const ANSWER = { candidates: [{ claim: 'Migrations belong on Tuesday mornings.', sources: ['m1'] }] };

/** What each test starts from: new notes for two agents, one expired ephemeral and one long-unused standard memory. */
const seeded: Record<string, string> = {};
beforeEach(async () => {
  box = sandbox();
  server.respondWith(reply.json(ANSWER));
  const store = await openSqliteStore({ path: box.db });
  const add = async (key: string, memory: Parameters<typeof addMemory>[1]) => {
    seeded[key] = (await addMemory(store, memory)).memory.id;
  };
  await add('opsNew1', { agentId: 'ops', content: 'Deploy of api v2.14 stalled on a migration lock.', createdAt: ago(3 * HOUR) });
  await add('opsNew2', { agentId: 'ops', content: 'Decided: migrations run on Tuesday mornings.', createdAt: ago(2 * HOUR) });
  await add('opsExpired', { agentId: 'ops', content: 'Standup moved to 10:15 today only.', durability: 'ephemeral', createdAt: ago(2 * DAY) });
  await add('opsUnused', { agentId: 'ops', content: 'The old VPN endpoint is vpn1.example.net.', createdAt: ago(200 * DAY) });
  await add('otherNew', { agentId: 'other', content: 'Invoice run for Acme Foods goes out on the 3rd.', createdAt: ago(HOUR) });
  await store.close();
});
afterEach(() => box.cleanup());

const modelEnv = () => ({ HIPPO_MODEL: 'ollama:test-model', HIPPO_BASE_URL: server.baseUrl('ollama') });
const night = (args: string[] = [], env: Record<string, string> = {}) =>
  box.hippo(['rem', 'nightly', 'run-once', '--json', ...args], { env: { ...modelEnv(), ...env } });

interface RunJson {
  id: string;
  kind: string;
  agentId: string | null;
  status: string;
  counts: Record<string, number>;
  candidateIds: string[];
  errors: string[];
  snapshotPath: string | null;
  parentRunId: string | null;
  steps: Record<string, string>;
}
interface NightJson {
  run: RunJson;
  warnings: string[];
  snapshot: { path: string; pruned: string[]; unchanged: boolean } | null;
  agents: { agentId: string; runId: string | null; status: string; staged: number; error: string | null }[];
}
interface SnapshotJson {
  name: string;
  path: string;
  runId: string;
  runKind: string | null;
  integrity: string;
  sizeBytes: number;
}

/** Reads the database directly (read-only), the way a test can check what is really on disk. */
function query<T = unknown>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(box.db, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
const one = <T = unknown>(sql: string, ...params: unknown[]) => Object.values(query<Record<string, T>>(sql, ...params)[0]!)[0] as T;
const integrity = () => one<string>('PRAGMA integrity_check');
const candidateCount = () => one<number>('SELECT count(*) FROM candidates');
const snapshotsListed = async () => json<{ snapshots: SnapshotJson[] }>(await box.hippo(['rem', 'snapshots', '--json'])).snapshots;
const snapshotDir = () => join(box.dir, 'data', 'snapshots', 'hippo.db');
const nightRows = () =>
  query<{ id: string; status: string; errors: string; parent_run_id: string | null }>(
    `SELECT * FROM ${ALL_RUNS} WHERE kind = 'rem nightly run-once' ORDER BY id`,
  );
/**
 * Starts hippo with a fault point that stops it dead at `point`, proves the lock is held meanwhile (a night started
 * then exits 4 at once), then kills it with SIGKILL.
 */
async function killAt(args: string[], point: string): Promise<Result> {
  const child = box.hippo(args, { env: { ...modelEnv(), HIPPO_FAULT_POINT: point, HIPPO_FAULT_ACTION: 'hang' } }) as unknown as ResultPromise;
  await new Promise<void>((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes(`fault point reached: ${point}`)) resolve();
    });
    child.then((result) => reject(new Error(`hippo ended (exit ${result.exitCode}) before ${point}: ${String(result.stderr)}`)), reject);
  });
  expect((await night()).exitCode).toBe(4);
  child.kill('SIGKILL');
  return await child;
}
const dataDump = () => JSON.stringify(['memories', 'candidates', 'handoffs'].map((table) => query(`SELECT * FROM ${table} ORDER BY id`)));

describe('hippo rem nightly run-once', () => {
  it('snapshots, maintains, distills each agent with new memories through its own child run, and sums them on the night', async () => {
    const result = await night();
    expect(result.exitCode).toBe(0);
    const body = json<NightJson>(result);
    expect(body.run).toMatchObject({ kind: 'rem nightly run-once', agentId: null, status: 'completed', errors: [] });
    expect(body.run.counts).toMatchObject({ expired: 1, archived: 1, archivedUnused: 1, agents: 2, agentsFailed: 0, gathered: 3, staged: 2 });
    expect(body.run.candidateIds).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
    expect(body.agents.map((agent) => [agent.agentId, agent.status, agent.staged])).toEqual([
      ['ops', 'completed', 1],
      ['other', 'completed', 1],
    ]);
    const children = query<{ id: string; agent_id: string; status: string; candidate_ids: string }>(
      `SELECT * FROM ${ALL_RUNS} WHERE parent_run_id = ? ORDER BY agent_id`,
      body.run.id,
    );
    expect(children.map((child) => [child.agent_id, child.status])).toEqual([
      ['ops', 'completed'],
      ['other', 'completed'],
    ]);
    expect(children.flatMap((child) => JSON.parse(child.candidate_ids) as string[]).sort()).toEqual([...body.run.candidateIds].sort());
    expect(query('SELECT archived_reason FROM memories WHERE id IN (?, ?) ORDER BY id', seeded.opsExpired, seeded.opsUnused)).toEqual(
      expect.arrayContaining([{ archived_reason: 'expired' }, { archived_reason: 'nightly: standard, unused for 180 days' }]),
    );
    const [snapshot] = await snapshotsListed();
    expect(snapshot).toMatchObject({ runId: body.run.id, runKind: 'rem nightly run-once', integrity: 'verified', path: body.run.snapshotPath });
    // What the night saw before it changed anything is in the snapshot.
    const saved = new Database(snapshot!.path, { readonly: true });
    expect(saved.prepare('SELECT count(*) FROM memories WHERE archived_at IS NOT NULL').pluck().get()).toBe(0);
    saved.close();

    const runs = json<{ runs: RunJson[] }>(await box.hippo(['rem', 'runs', '--all-agents', '--json'])).runs;
    expect(runs.filter((run) => run.parentRunId === body.run.id)).toHaveLength(2);
    const text = await box.hippo(['rem', 'runs', '--all-agents']);
    expect(text.stdout).toContain(`(part of ${body.run.id})`);

    // Everything new was reflected on: the next night has nothing to distill and calls no model.
    const again = json<NightJson>(await night());
    expect(again.run).toMatchObject({ status: 'completed', counts: expect.objectContaining({ agents: 0, expired: 0, archived: 0 }) });
    expect(again.run.steps.distill).toBe('nothing new to distill');
    expect(server.requests).toHaveLength(2);
  });

  it('distills only --agent when given (maintenance stays store-wide)', async () => {
    const body = json<NightJson>(await night(['--agent', 'other']));
    expect(body.run).toMatchObject({ agentId: 'other', status: 'completed', counts: expect.objectContaining({ agents: 1, expired: 1, archived: 1 }) });
    expect(body.agents.map((agent) => agent.agentId)).toEqual(['other']);
    expect(server.requests).toHaveLength(1);
  });

  it('without a model still snapshots and maintains, records distillation as skipped, and exits 0', async () => {
    const result = await night([], { HIPPO_MODEL: '', HIPPO_BASE_URL: '' });
    expect(result.exitCode).toBe(0);
    const body = json<NightJson>(result);
    expect(body.run).toMatchObject({ status: 'completed', errors: [], model: null });
    expect(body.run.steps.distill).toBe('skipped: no model configured');
    expect(body.run.counts).toMatchObject({ expired: 1, archived: 1, staged: 0 });
    expect(body.agents.every((agent) => agent.status === 'skipped' && agent.error === 'model_not_configured')).toBe(true);
    // Not a failure, but said: a warning in the document and on the run row, naming the config file hippo read.
    expect(body.run.steps.warning).toBe('distillation skipped: no model configured');
    expect(body.warnings).toEqual([
      `2 agent(s) with new memories were not distilled: no model configured (HIPPO_MODEL is not set, and ${join(box.dir, 'xdg-config', 'hippo', 'config.json')} names none)`,
    ]);
    expect(existsSync(body.run.snapshotPath!)).toBe(true);
    // Nothing was reflected on, so a night with a model later still distills these memories.
    expect(one<number>('SELECT count(*) FROM memories WHERE last_reflected_at IS NOT NULL')).toBe(0);
    const text = await box.hippo(['rem', 'nightly', 'run-once'], { env: { HIPPO_MODEL: '' } });
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain('skipped (no model configured)');
    expect(text.stderr).toContain('warning: 2 agent(s) with new memories were not distilled: no model configured');
    const runs = await box.hippo(['rem', 'runs'], { env: { COLUMNS: '200' } });
    expect(runs.stdout).toContain('warning: distillation skipped: no model configured');
  });

  it('exits 7 when the model is unreachable, keeping the snapshot and the maintenance, with zero candidates', async () => {
    const gone = await startModelServer();
    const baseUrl = gone.baseUrl('ollama');
    await gone.close();
    const result = await night([], { HIPPO_BASE_URL: baseUrl });
    expect(result.exitCode).toBe(7);
    const body = json<NightJson>(result);
    expect(body.run).toMatchObject({ status: 'partial', errors: ['model_unreachable'] });
    expect(body.run.counts).toMatchObject({ expired: 1, archived: 1, agentsFailed: 2, staged: 0 });
    expect(body.run.steps.distill).toBe('failed for 2 of 2 agent(s)');
    expect(candidateCount()).toBe(0);
    expect(one<number>('SELECT count(*) FROM memories WHERE archived_at IS NOT NULL')).toBe(2);
    expect(one<number>('SELECT count(*) FROM memories WHERE last_reflected_at IS NOT NULL')).toBe(0);
    expect((await snapshotsListed()).map((snapshot) => snapshot.path)).toEqual([body.run.snapshotPath]);
    expect(result.stderr).toContain('distillation failed (model_unreachable)');
    const stored = query<{ status: string; errors: string }>(`SELECT status, errors FROM ${ALL_RUNS} WHERE id = ?`, body.run.id)[0];
    expect(stored).toEqual({ status: 'partial', errors: '["model_unreachable"]' });
  });

  it('fails only the agent whose answer was rejected (exit 7), and never records the answer', async () => {
    server.queue(reply.json({ candidates: [{ claim: 'RESPONSE-CANARY', sources: ['RESPONSE-CANARY-REF'] }] }), reply.json(ANSWER));
    const result = await night();
    expect(result.exitCode).toBe(7);
    const body = json<NightJson>(result);
    expect(body.run).toMatchObject({ status: 'partial', errors: ['source_out_of_set'], counts: expect.objectContaining({ agentsFailed: 1, staged: 1 }) });
    expect(body.agents.map((agent) => [agent.agentId, agent.status, agent.error])).toEqual([
      ['ops', 'failed', 'source_out_of_set'],
      ['other', 'completed', null],
    ]);
    expect(query('SELECT agent_id FROM candidates')).toEqual([{ agent_id: 'other' }]);
    // The failed agent's child row is the one its error carried, finished failed with the answer's reason.
    const failedChild = query<{ id: string; status: string; errors: string }>(
      `SELECT * FROM ${ALL_RUNS} WHERE parent_run_id = ? AND agent_id = ?`,
      body.run.id,
      'ops',
    );
    expect(failedChild).toEqual([expect.objectContaining({ id: body.agents[0]!.runId, status: 'failed', errors: '["source_out_of_set"]' })]);
    expect(`${String(result.stdout)}${String(result.stderr)}${JSON.stringify(query(`SELECT * FROM ${ALL_RUNS}`))}`).not.toContain('CANARY');
  });

  it('lets exactly one of two runs started together work; the other exits 4 at once and writes nothing', async () => {
    server.respondWith(reply.slow(3000, reply.json(ANSWER)));
    const [a, b] = await Promise.all([night(), night()]);
    const [winner, loser] = a.exitCode === 0 ? [a, b] : [b, a];
    expect([winner.exitCode, loser.exitCode]).toEqual([0, 4]);
    expect(json<{ error: { code: string; message: string } }>(loser).error).toMatchObject({ code: 'nightly_running' });
    expect(nightRows().filter((row) => row.parent_run_id === null)).toHaveLength(1);
    expect(await snapshotsListed()).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  describe('killed with SIGKILL at each step', () => {
    it.each([
      // point, snapshots complete before the kill, maintenance committed before the kill
      ['snapshot:copying', 0, false],
      ['maintenance:archived', 1, false],
      ['stage:after-insert', 1, true],
    ] as const)('at %s: the database stays whole, nothing half-done is visible, and the next night takes over', async (point, snapshotsBefore, maintained) => {
      // The next night takes a snapshot unless the store is as the last whole snapshot holds it (killed before any change).
      const unchanged = snapshotsBefore > 0 && !maintained;
      const before = dataDump();
      const killed = await killAt(['rem', 'nightly', 'run-once', '--json'], point);
      expect(killed.signal).toBe('SIGKILL');
      expect(integrity()).toBe('ok');
      expect(candidateCount()).toBe(0);
      expect(one<number>('SELECT count(*) FROM memories WHERE last_reflected_at IS NOT NULL')).toBe(0);
      expect(one<number>('SELECT count(*) FROM memories WHERE archived_at IS NOT NULL')).toBe(maintained ? 2 : 0);
      if (!maintained) expect(dataDump()).toBe(before);
      const listed = await snapshotsListed();
      expect(listed).toHaveLength(snapshotsBefore);
      expect(listed.every((snapshot) => snapshot.integrity === 'verified')).toBe(true);
      if (point === 'snapshot:copying') expect(readdirSync(snapshotDir()).some((name) => name.endsWith('.partial'))).toBe(true);
      const [killedRun] = nightRows().filter((row) => row.parent_run_id === null);
      expect(killedRun!.status).toBe('running');

      const next = await night();
      expect(next.exitCode).toBe(0);
      const body = json<NightJson>(next);
      expect(body.run.status).toBe('completed');
      expect(body.run.steps.lock).toMatch(/^took over a stale lock \(rem nightly run-once run_/);
      expect(body.run.counts).toMatchObject({ expired: maintained ? 0 : 1, archived: maintained ? 0 : 1, staged: 2 });
      expect(
        query<{ status: string; errors: string }>(`SELECT status, errors FROM ${ALL_RUNS} WHERE id = ? OR parent_run_id = ?`, killedRun!.id, killedRun!.id),
      ).toEqual(Array(point === 'stage:after-insert' ? 2 : 1).fill({ status: 'interrupted', errors: '["interrupted"]' }));
      expect(readdirSync(snapshotDir()).filter((name) => name.startsWith('.'))).toEqual([]);
      expect(body.snapshot).toMatchObject({ unchanged });
      expect(await snapshotsListed()).toHaveLength(unchanged ? snapshotsBefore : snapshotsBefore + 1);
      expect(integrity()).toBe('ok');
    });
  });

  it('fails on a full disk during the snapshot, doing nothing else and leaving the database untouched', async () => {
    const dir = snapshotDir();
    mkdirSync(dir, { recursive: true });
    const tiny = makeTinyOrUnwritable(dir);
    try {
      const before = dataDump();
      const result = await night();
      expect(result.exitCode).toBe(1);
      const error = json<{ error: { code: string; message: string; details: { run: RunJson } } }>(result).error;
      expect(error.code).toBe(tiny === 'tmpfs' ? 'disk_full' : 'snapshot_failed');
      expect(error.details.run).toMatchObject({ status: 'failed', errors: [error.code], snapshotPath: null });
      expect(error.details.run.steps).toMatchObject({ snapshot: 'failed' });
      expect(dataDump()).toBe(before);
      expect(server.requests).toHaveLength(0);
      if (tiny !== 'file') expect(readdirSync(dir)).toEqual([]);
      expect(integrity()).toBe('ok');
      expect(one<string>(`SELECT status FROM ${ALL_RUNS} WHERE id = ?`, error.details.run.id)).toBe('failed');
    } finally {
      releaseTinyDir(dir, tiny);
    }
    // With room again, the next night works (and the lock was released).
    expect((await night()).exitCode).toBe(0);
  });

  it('applies the 7-day youth rule and never archives a persistent memory, even with an old expires_at written directly', async () => {
    const store = await openSqliteStore({ path: box.db });
    const young = (
      await addMemory(store, {
        agentId: 'ops',
        content: 'A long-lived ephemeral note.',
        durability: 'ephemeral',
        createdAt: ago(6 * DAY),
        expiresAt: ago(-30 * DAY),
      })
    ).memory.id;
    const persistent = (
      await addMemory(store, { agentId: 'ops', content: 'Always page the on-call first.', durability: 'persistent', createdAt: ago(400 * DAY) })
    ).memory.id;
    const permanent = (
      await addMemory(store, { agentId: 'ops', content: 'The company IBAN never changes.', durability: 'permanent', createdAt: ago(400 * DAY) })
    ).memory.id;
    store.db.pragma('ignore_check_constraints = ON');
    // Two rows breaking the same CHECK: quick_check repeats its message per row, and that must still read as intact.
    store.db.prepare('UPDATE memories SET expires_at = ? WHERE id IN (?, ?)').run(ago(300 * DAY), persistent, permanent);
    await store.close();
    const body = json<NightJson>(await night([], { HIPPO_MODEL: '' }));
    expect(body.run).toMatchObject({ status: 'completed', counts: expect.objectContaining({ expired: 1, archived: 1 }) });
    expect(one<string | null>('SELECT archived_at FROM memories WHERE id = ?', permanent)).toBeNull();
    // quick_check reports the hand-written row (it breaks the schema's CHECK); the night records it and carries on.
    expect(body.run.steps.integrity).toBe('quick_check: structure ok; constraint violations: CHECK constraint failed in memories');
    expect(query('SELECT id, archived_at FROM memories WHERE id IN (?, ?) ORDER BY id', young, persistent)).toEqual(
      [young, persistent].sort().map((id) => ({ id, archived_at: null })),
    );
    expect(one<string>('SELECT archived_reason FROM memories WHERE id = ?', seeded.opsExpired)).toBe('expired');
  });

  it('stops before changing anything when the database is damaged (exit 1), saying it was the database', async () => {
    const db = new Database(box.db);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const page = db.prepare("SELECT pageno FROM dbstat WHERE name = 'memories_agent_created' ORDER BY pageno LIMIT 1").pluck().get() as number;
    db.close();
    const fd = openSync(box.db, 'r+');
    writeSync(fd, Buffer.from([0xff]), 0, 1, (page - 1) * 4096); // an impossible b-tree page type
    closeSync(fd);
    const result = await night();
    expect(result.exitCode).toBe(1);
    const error = json<{ error: { code: string; details: { run: RunJson } } }>(result).error;
    expect(error.code).toBe('snapshot_verify_failed');
    expect(error.details.run).toMatchObject({ status: 'failed', snapshotPath: null });
    expect(error.details.run.steps).toMatchObject({ integrity: 'database quick_check FAILED', snapshot: 'failed' });
    expect(one<number>('SELECT count(*) FROM memories WHERE archived_at IS NOT NULL')).toBe(0);
    expect(readdirSync(snapshotDir())).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('--dry-run shows per agent what would be expired, archived and distilled, without a snapshot, a change or a model call', async () => {
    const before = dataDump();
    const result = await night(['--dry-run']);
    expect(result.exitCode).toBe(0);
    const body = json<{
      run: RunJson;
      model: string;
      agents: { agentId: string; maintenance: Record<string, number>; distill: { gathered: number; promptChars: number } | null }[];
    }>(result);
    expect(body.run).toMatchObject({ status: 'dry-run', snapshotPath: null });
    expect(body.model).toBe('ollama:test-model');
    expect(body.agents).toEqual([
      { agentId: 'ops', maintenance: { expired: 1, archivedEphemeral: 0, archivedUnused: 1 }, distill: expect.objectContaining({ gathered: 2 }) },
      { agentId: 'other', maintenance: { expired: 0, archivedEphemeral: 0, archivedUnused: 0 }, distill: expect.objectContaining({ gathered: 1 }) },
    ]);
    expect(body.agents[0]!.distill!.promptChars).toBeGreaterThan(500);
    expect(dataDump()).toBe(before);
    expect(existsSync(snapshotDir())).toBe(false);
    expect(server.requests).toHaveLength(0);
    const text = await box.hippo(['rem', 'nightly', 'run-once', '--dry-run'], { env: modelEnv() });
    expect(text.stdout).toMatch(/ops: would expire 1 · archive 1 .*would distill 2 memories \(\d+ prompt characters\)/);
    expect(text.stdout).toContain('other: would expire 0');
  });

  it('--dry-run still reports while a night holds the write lock (its audit row is skipped, not waited for)', async () => {
    const child = box.hippo(['rem', 'nightly', 'run-once', '--json'], {
      env: { HIPPO_MODEL: '', HIPPO_FAULT_POINT: 'maintenance:archived', HIPPO_FAULT_ACTION: 'hang' },
    }) as unknown as ResultPromise;
    await new Promise<void>((resolve) => {
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('fault point reached')) resolve();
      });
    });
    try {
      const dry = await box.hippo(['rem', 'nightly', 'run-once', '--dry-run', '--json'], { env: { HIPPO_BUSY_TIMEOUT_MS: '20000' } });
      expect(dry.exitCode).toBe(0);
      const body = json<{ run: unknown; steps: Record<string, string> }>(dry);
      expect(body.run).toBeNull();
      expect(body.steps.lock).toMatch(/^held by rem nightly run-once run_\w+.*a real run would exit 4$/);
    } finally {
      child.kill('SIGKILL');
      await child.catch(() => undefined);
    }
  });

  it('pauses with rem pause or HIPPO_REM_PAUSE: a "paused" run row, exit 0, nothing else', async () => {
    const paused = await box.hippo(['rem', 'pause', '--json']);
    expect(json(paused)).toMatchObject({ paused: true, by: 'hippo rem pause' });
    const before = dataDump();
    const result = await night();
    expect(result.exitCode).toBe(0);
    expect(json<NightJson>(result).run).toMatchObject({ status: 'paused', snapshotPath: null, counts: {} });
    expect(dataDump()).toBe(before);
    expect(existsSync(snapshotDir())).toBe(false);
    expect(json(await box.hippo(['rem', 'resume', '--json']))).toEqual({ paused: false, wasPaused: true });
    const byEnv = json<NightJson>(await night([], { HIPPO_REM_PAUSE: '1' }));
    expect(byEnv.run).toMatchObject({ status: 'paused', steps: expect.objectContaining({ pause: 'paused by HIPPO_REM_PAUSE' }) });
    expect(json<NightJson>(await night()).run.status).toBe('completed');
    expect(
      nightRows()
        .map((row) => row.status)
        .filter((status) => status === 'paused'),
    ).toHaveLength(2);
  });
});

describe('hippo rem restore', () => {
  const agentRows = (file: string, agent: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return ['memories', 'candidates', 'handoffs'].map((table) => db.prepare(`SELECT * FROM ${table} WHERE agent_id = ? ORDER BY id`).all(agent));
    } finally {
      db.close();
    }
  };

  it('round-trips: a night, then changes, then --agent restore gives that agent its rows byte for byte and leaves the other agent alone', async () => {
    const first = json<NightJson>(await night());
    const snapshot = first.run.snapshotPath!;
    const before = agentRows(snapshot, 'ops');
    // The night itself changed ops (archives, reflection stamps, a candidate); now change more by hand.
    const [candidate] = json<{ candidates: { id: string }[] }>(await box.hippo(['rem', 'candidates', '--agent', 'ops', '--json'])).candidates;
    expect((await box.hippo(['rem', 'promote', candidate!.id, '--agent', 'ops', '--rationale', 'seen twice'])).exitCode).toBe(0);
    expect((await box.hippo(['memory', 'add', 'Zebrafish migration checklist lives in the wiki.', '--agent', 'ops'])).exitCode).toBe(0);
    expect((await box.hippo(['memory', 'archive', seeded.opsNew1!, '--agent', 'ops'])).exitCode).toBe(0);
    expect((await box.hippo(['rem', 'rapid', '--prompt-only', '--agent', 'ops', '--since', '365d'])).exitCode).toBe(0);
    const otherNew = json<{ memory: { id: string } }>(
      await box.hippo(['memory', 'add', 'Other agent: new note after the night.', '--agent', 'other', '--json']),
    ).memory.id;
    const otherBefore = agentRows(box.db, 'other');
    expect(agentRows(box.db, 'ops')).not.toEqual(before);

    const name = first.run.snapshotPath!.split('/').at(-1)!;
    const plan = await box.hippo(['rem', 'restore', name, '--agent', 'ops', '--json']);
    expect(plan.exitCode).toBe(0);
    const planned = json<{ applied: boolean; tables: { table: string; added: number; removed: number; changed: number }[] }>(plan);
    expect(planned.applied).toBe(false);
    // memories: the promoted one and the new one are removed; 2 archived + 2 reflected by the night are changed back.
    expect(planned.tables).toEqual([
      expect.objectContaining({ table: 'memories', added: 0, removed: 2, changed: 4 }),
      expect.objectContaining({ table: 'candidates', added: 0, removed: 1, changed: 0 }),
      expect.objectContaining({ table: 'handoffs', added: 0, removed: 1, changed: 0 }),
    ]);
    const refused = await box.hippo(['rem', 'restore', name, '--agent', 'ops', '--apply', '--json']);
    expect(refused.exitCode).toBe(2);
    expect(json<{ error: { code: string } }>(refused).error.code).toBe('confirmation_required');
    expect(agentRows(box.db, 'ops')).not.toEqual(before);

    const applied = await box.hippo(['rem', 'restore', first.run.id, '--agent', 'ops', '--apply', '--yes', '--json']);
    expect(applied.exitCode).toBe(0);
    const result = json<{ applied: boolean; run: RunJson; preRestoreSnapshot: string }>(applied);
    expect(result.run).toMatchObject({ kind: 'rem restore', agentId: 'ops', status: 'completed', snapshotPath: result.preRestoreSnapshot });
    expect(result.run.counts).toMatchObject({ memoriesRemoved: 2, memoriesChanged: 4, candidatesRemoved: 1, handoffsRemoved: 1 });
    expect(agentRows(box.db, 'ops')).toEqual(before);
    expect(agentRows(box.db, 'other')).toEqual(otherBefore);
    expect(query('SELECT id FROM memories WHERE id = ?', otherNew)).toHaveLength(1);
    // The full-text index followed: the removed memory is gone from search, the index is consistent.
    const search = json<{ results: unknown[] }>(await box.hippo(['search', 'zebrafish', '--agent', 'ops', '--json']));
    expect(search.results).toEqual([]);
    expect(json<{ results: unknown[] }>(await box.hippo(['search', 'stalled', '--agent', 'ops', '--json'])).results).toHaveLength(1);
    const db = new Database(box.db);
    db.prepare("INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)").run();
    db.close();
    expect(integrity()).toBe('ok');

    // The pre-restore snapshot undoes the restore.
    const listed = await snapshotsListed();
    expect(listed.find((snapshot) => snapshot.path === result.preRestoreSnapshot)).toMatchObject({ runKind: 'rem restore', integrity: 'verified' });
    const preRestoreOps = agentRows(result.preRestoreSnapshot, 'ops');
    expect((await box.hippo(['rem', 'restore', result.preRestoreSnapshot, '--agent', 'ops', '--apply', '--yes'])).exitCode).toBe(0);
    expect(agentRows(box.db, 'ops')).toEqual(preRestoreOps);
    // The audit log is never restored: every night and restore is still on record.
    expect(query(`SELECT status FROM ${ALL_RUNS} WHERE kind = 'rem restore'`)).toEqual([{ status: 'completed' }, { status: 'completed' }]);
  });

  it('leaves the database as it was when killed in the middle of the replacement; the next night takes over its lock', async () => {
    const first = json<NightJson>(await night());
    await box.hippo(['memory', 'add', 'Added after the night.', '--agent', 'ops']);
    const before = dataDump();
    const killed = await killAt(['rem', 'restore', first.run.id, '--agent', 'ops', '--apply', '--yes'], 'restore:replaced');
    expect(killed.signal).toBe('SIGKILL');
    expect(dataDump()).toBe(before);
    expect(integrity()).toBe('ok');
    const restoreRun = query<{ id: string; status: string }>(`SELECT id, status FROM ${ALL_RUNS} WHERE kind = 'rem restore'`)[0]!;
    expect(restoreRun.status).toBe('running');
    const next = json<NightJson>(await night());
    expect(next.run.steps.lock).toMatch(/^took over a stale lock \(rem restore run_/);
    expect(query(`SELECT status, errors FROM ${ALL_RUNS} WHERE id = ?`, restoreRun.id)).toEqual([{ status: 'interrupted', errors: '["interrupted"]' }]);
  });

  it('restores every agent without --agent', async () => {
    const first = json<NightJson>(await night());
    await box.hippo(['memory', 'add', 'Later note.', '--agent', 'other']);
    const plan = json<{ tables: { table: string; removed: number }[] }>(await box.hippo(['rem', 'restore', first.run.id, '--json']));
    expect(plan.tables[0]).toMatchObject({ table: 'memories', removed: 1 });
    expect((await box.hippo(['rem', 'restore', first.run.id, '--apply', '--yes'])).exitCode).toBe(0);
    expect(agentRows(box.db, 'ops')).toEqual(agentRows(first.run.snapshotPath!, 'ops'));
    expect(agentRows(box.db, 'other')).toEqual(agentRows(first.run.snapshotPath!, 'other'));
  });

  it('fails the restore run and changes nothing when the restored rows do not match the snapshot', async () => {
    const first = json<NightJson>(await night());
    const db = new Database(box.db);
    // Something outside hippo rewrites rows as they arrive: the verification must catch it.
    db.exec(
      "CREATE TRIGGER sabotage AFTER INSERT ON memories WHEN new.agent_id = 'ops' BEGIN UPDATE memories SET subject = 'tampered' WHERE id = new.id; END;",
    );
    db.close();
    const before = dataDump();
    const result = await box.hippo(['rem', 'restore', first.run.id, '--agent', 'ops', '--apply', '--yes', '--json']);
    expect(result.exitCode).toBe(1);
    const error = json<{ error: { code: string; details: { run: RunJson } } }>(result).error;
    expect(error.code).toBe('restore_verify_failed');
    expect(error.details.run).toMatchObject({ kind: 'rem restore', status: 'failed', errors: ['restore_verify_failed'] });
    expect(dataDump()).toBe(before);
    expect(integrity()).toBe('ok');
  });

  it('refuses an unknown snapshot (exit 3), a damaged one (exit 2: bad input, not a bug), and does not wait for a lock holder (exit 4)', async () => {
    expect((await box.hippo(['rem', 'restore', 'run_01JD0000000000000000000000'])).exitCode).toBe(3);
    const first = json<NightJson>(await night());
    const damaged = join(box.dir, 'damaged.db');
    execFileSync('cp', [first.run.snapshotPath!, damaged]);
    const raw = new Database(damaged);
    const pages = raw.pragma('page_count', { simple: true }) as number;
    raw.close();
    const bytes = Buffer.alloc(4096 * (pages - 2), 0x5a);
    const fd = openSync(damaged, 'r+');
    writeSync(fd, bytes, 0, bytes.length, 4096 * 2);
    closeSync(fd);
    const before = dataDump();
    for (const args of [[], ['--apply', '--yes']]) {
      const result = await box.hippo(['rem', 'restore', damaged, ...args, '--json']);
      expect(result.exitCode).toBe(2);
      expect(json<{ error: { code: string } }>(result).error.code).toBe('snapshot_damaged');
    }
    expect(dataDump()).toBe(before);

    const store = await openSqliteStore({ path: box.db });
    store.db.prepare("INSERT INTO settings (key, value) VALUES ('nightly.lock', ?)").run(
      JSON.stringify({
        pid: process.pid,
        hostname: hostname(),
        startedAt: new Date().toISOString(),
        runId: 'run_01JD0000000000000000000001',
        kind: 'rem nightly run-once',
      }),
    );
    await store.close();
    const locked = await box.hippo(['rem', 'restore', first.run.id, '--apply', '--yes', '--json']);
    expect(locked.exitCode).toBe(4);
    expect(dataDump()).toBe(before);
  });
});

describe('hippo rem nightly schedule and rem snapshots', () => {
  it('prints a crontab line and a systemd user timer for the resolved node, hippo and database, and installs nothing', async () => {
    const result = await box.hippo(['rem', 'nightly', 'schedule', '--json']);
    expect(result.exitCode).toBe(0);
    const body = json<{ installed: boolean; cron: string; systemd: { service: string; timer: string }; logPath: string }>(result);
    expect(body.installed).toBe(false);
    expect(body.cron).toMatch(
      /^\*\/30 \* \* \* \* XDG_CONFIG_HOME=\S+ XDG_DATA_HOME=\S+ \S*node\S* \S+\/bin\/run\.js rem nightly run-once --db \S+\/data\/hippo\.db --json >> \S+\/data\/nightly\.log 2>&1$/,
    );
    expect(body.systemd.timer).toContain('OnCalendar=*:0/30');
    const text = await box.hippo(['rem', 'nightly', 'schedule']);
    expect(text.stdout).toContain('Nothing was installed');
    expect(text.stdout).not.toMatch(/\binstalled (the|a) /i);
    expect(text.stdout).toContain(body.cron);
    expect(existsSync(join(box.dir, 'data', 'nightly.log'))).toBe(false);
  });

  it("the printed cron command works as written, in an environment as bare as cron's", async () => {
    const { cron } = json<{ cron: string }>(await box.hippo(['rem', 'nightly', 'schedule', '--json']));
    const command = cron.replace(/^(\S+ ){5}/, '');
    execFileSync('/bin/sh', ['-c', command], { env: { HOME: box.dir, LOGNAME: 'cron', PATH: '/usr/bin:/bin', SHELL: '/bin/sh' } });
    execFileSync('/bin/sh', ['-c', command], { env: { HOME: box.dir, LOGNAME: 'cron', PATH: '/usr/bin:/bin', SHELL: '/bin/sh' } });
    const lines = readFileSync(join(box.dir, 'data', 'nightly.log'), 'utf8')
      .trim()
      .split('\n');
    expect(lines.map((line) => (JSON.parse(line) as NightJson).run.status)).toEqual(['completed', 'completed']);
  });

  it('the cron line carries the config file it was printed with: run as cron would, the night finds the model there', async () => {
    // The sandbox's config lives in $XDG_CONFIG_HOME (not under $HOME/.config), as with a user who moved it.
    const set = await box.hippo(['config', 'set', 'model', 'ollama:test-model']);
    expect(set.exitCode).toBe(0);
    expect((await box.hippo(['config', 'set', 'baseUrl', server.baseUrl('ollama')])).exitCode).toBe(0);
    expect(readFileSync(join(box.dir, 'xdg-config', 'hippo', 'config.json'), 'utf8')).toContain('ollama:test-model');
    const printed = await box.hippo(['rem', 'nightly', 'schedule', '--json']);
    const { cron, environment } = json<{ cron: string; environment: Record<string, string> }>(printed);
    expect(environment).toEqual({ XDG_CONFIG_HOME: join(box.dir, 'xdg-config'), XDG_DATA_HOME: join(box.dir, 'xdg-data') });
    // The text the user pastes carries it too.
    expect((await box.hippo(['rem', 'nightly', 'schedule'])).stdout).toContain(cron);
    // The command part of the crontab line (cron turns \% back into %), in cron's bare environment.
    const command = cron.replace(/^(\S+ ){5}/, '').replaceAll('\\%', '%');
    // Not execFileSync: the stand-in model server answers from this process, which must keep running meanwhile.
    const ran = await execa('/bin/sh', ['-c', command], {
      env: { HOME: box.dir, LOGNAME: 'cron', PATH: '/usr/bin:/bin', SHELL: '/bin/sh' },
      extendEnv: false,
      reject: false,
    });
    expect(ran.exitCode).toBe(0);
    const [line] = readFileSync(join(box.dir, 'data', 'nightly.log'), 'utf8')
      .trim()
      .split('\n');
    const body = JSON.parse(line!) as NightJson;
    expect(body.run).toMatchObject({ status: 'completed', model: 'test-model' });
    expect(body.run.steps.warning).toBeUndefined();
    expect(body.warnings).toEqual([]);
    expect(body.agents.map((agent) => [agent.agentId, agent.status])).toEqual([
      ['ops', 'completed'],
      ['other', 'completed'],
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it('lists snapshots newest first with time, size, run and integrity; --check runs quick_check now', async () => {
    const first = json<NightJson>(await night([], { HIPPO_MODEL: '' }));
    const second = json<NightJson>(await night([], { HIPPO_MODEL: '' }));
    const listed = json<{ snapshots: SnapshotJson[] }>(await box.hippo(['rem', 'snapshots', '--check', '--json'])).snapshots;
    expect(listed.map((snapshot) => [snapshot.runId, snapshot.integrity])).toEqual([
      [second.run.id, 'ok'],
      [first.run.id, 'ok'],
    ]);
    expect(listed[0]!.sizeBytes).toBeGreaterThan(4096);
    const text = await box.hippo(['rem', 'snapshots']);
    expect(text.stdout).toContain(listed[0]!.name);
    expect(text.stdout).toContain('verified');
  });
});

/**
 * A snapshot directory that cannot take a snapshot: a 64 KiB tmpfs when this process may mount one (a real full
 * disk), else a directory made read-only (for root, who ignores permissions, a file in its place).
 */
function makeTinyOrUnwritable(dir: string): 'tmpfs' | 'read-only' | 'file' {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', dir], { stdio: 'ignore' });
    return 'tmpfs';
  } catch {
    if (process.getuid?.() !== 0) {
      chmodSync(dir, 0o500);
      return 'read-only';
    }
    rmSync(dir, { recursive: true });
    writeFileSync(dir, '');
    return 'file';
  }
}

function releaseTinyDir(dir: string, kind: 'tmpfs' | 'read-only' | 'file'): void {
  if (kind === 'tmpfs') execFileSync('umount', [dir]);
  if (kind === 'read-only') chmodSync(dir, 0o700);
  if (kind === 'file') rmSync(dir);
}
