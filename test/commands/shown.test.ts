/**
 * Issue 30, point 4: a list with a default limit says what it hides — "showing 3 of 7 (use -n / --all)" on stderr in
 * text mode, `total` and `truncated` in the --json document — and `--all` shows every row; search says how many
 * matched. The counts are COUNT statements naming the agent, on both engines; run through the built CLI.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { addMemory } from '../../src/core/memory/memory.js';
import { openStore } from '../../src/core/store/store.js';
import { stageCandidates } from '../helpers/candidates.js';
import { engineSandbox, json, type EngineSandbox, type SandboxEngine } from '../helpers/cli.js';

const ENGINES: readonly SandboxEngine[] = ['sqlite', 'postgres'];
const boxes: EngineSandbox[] = [];
afterEach(async () => {
  for (const box of boxes.splice(0)) await box.dispose();
});

async function seeded(engine: SandboxEngine): Promise<EngineSandbox> {
  const box = await engineSandbox(engine);
  boxes.push(box);
  const store = await openStore({ path: box.db });
  try {
    for (let index = 0; index < 7; index++) await addMemory(store, { agentId: 'default', content: `dentist appointment number ${index}` });
    // Another agent's memories are never counted.
    for (let index = 0; index < 4; index++) await addMemory(store, { agentId: 'other', content: `dentist for the other agent ${index}` });
    await addMemory(store, { agentId: 'default', content: 'renew the passport' });
    await stageCandidates(store, [
      { claim: 'Deploys stall on Fridays because of migration locks.', sources: ['m1', 'm2'] },
      { claim: 'Migrations run on Tuesday mornings.', sources: ['m1'] },
      { claim: 'Rollbacks happen late on Fridays.', sources: ['m2'] },
    ]);
  } finally {
    await store.close();
  }
  return box;
}

describe.each(ENGINES)('lists say what they hide (%s)', (engine) => {
  it('memory list: a note on stderr, total/truncated under --json, --all shows every row', async () => {
    const box = await seeded(engine);
    const text = await box.hippo(['memory', 'list', '-n', '3']);
    expect(text.exitCode).toBe(0);
    expect(String(text.stdout).trim().split('\n')).toHaveLength(3);
    expect(text.stderr).toContain('showing 3 of 8 (use -n / --all)');

    const doc = json<{ memories: unknown[]; total: number; truncated: boolean }>(await box.hippo(['memory', 'list', '-n', '3', '--json']));
    expect(doc).toMatchObject({ total: 8, truncated: true });
    expect(doc.memories).toHaveLength(3);

    const filtered = json<{ memories: unknown[]; total: number; truncated: boolean }>(
      await box.hippo(['memory', 'list', '-n', '2', '--tag', 'nosuch', '--json']),
    );
    expect(filtered).toMatchObject({ total: 0, truncated: false });

    const all = await box.hippo(['memory', 'list', '--all']);
    expect(all.exitCode).toBe(0);
    expect(String(all.stdout).trim().split('\n')).toHaveLength(8);
    expect(all.stderr).not.toContain('showing');
    expect(json(await box.hippo(['memory', 'list', '--all', '--json']))).toMatchObject({ total: 8, truncated: false });

    // -n and --all together are a usage error.
    expect((await box.hippo(['memory', 'list', '--all', '-n', '3'])).exitCode).toBe(2);
  });

  it('rem candidates and rem runs say what they hide', async () => {
    const box = await seeded(engine);
    const candidates = await box.hippo(['rem', 'candidates', '--agent', 'ops', '-n', '2']);
    expect(candidates.exitCode).toBe(0);
    expect(candidates.stderr).toContain('showing 2 of 3 (use -n / --all)');
    expect(json(await box.hippo(['rem', 'candidates', '--agent', 'ops', '-n', '2', '--json']))).toMatchObject({ total: 3, truncated: true });
    expect(json(await box.hippo(['rem', 'candidates', '--agent', 'ops', '--all', '--json']))).toMatchObject({ total: 3, truncated: false });

    // Two runs of the audit log's own (store-wide: listed for every agent) beside any the staging wrote.
    for (let index = 0; index < 2; index++) expect((await box.hippo(['rem', 'runs', 'prune', '--older-than', '90d'])).exitCode).toBe(0);
    const runs = await box.hippo(['rem', 'runs', '--agent', 'ops', '-n', '1']);
    expect(runs.exitCode).toBe(0);
    expect(runs.stderr).toMatch(/showing 1 of [2-9] \(use -n \/ --all\)/);
    const doc = json<{ runs: unknown[]; total: number; truncated: boolean }>(await box.hippo(['rem', 'runs', '--agent', 'ops', '-n', '1', '--json']));
    expect(doc.truncated).toBe(true);
    const every = json<{ runs: unknown[]; total: number; truncated: boolean }>(await box.hippo(['rem', 'runs', '--agent', 'ops', '--all', '--json']));
    expect(every).toMatchObject({ total: doc.total, truncated: false });
    expect(every.runs).toHaveLength(doc.total);
  });

  it('search says how many matched', async () => {
    const box = await seeded(engine);
    const text = await box.hippo(['search', 'dentist', '-n', '2']);
    expect(text.exitCode).toBe(0);
    expect(text.stderr).toContain('showing 2 of 7 matches (use -n)');
    const doc = json<{ results: unknown[]; total: number }>(await box.hippo(['search', 'dentist', '-n', '2', '--json']));
    expect(doc.total).toBe(7);
    expect(doc.results).toHaveLength(2);
    const few = json<{ results: unknown[]; total: number }>(await box.hippo(['search', 'passport', '--json']));
    expect(few.total).toBe(1);
    expect((await box.hippo(['search', 'passport'])).stderr).not.toContain('showing');
  });
});
