/**
 * Issue 30, points 7, 8 and 10 through the built CLI: a re-reject is refused (exit 4) naming the first decision; missing
 * arguments are listed one a line with the usage line (exit 2); did-you-mean prefers prefixes, knows -v, help and
 * flag values.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/core/store/store.js';
import { stageCandidates } from '../helpers/candidates.js';
import { engineSandbox, json, sandbox, type EngineSandbox, type SandboxEngine } from '../helpers/cli.js';

const ENGINES: readonly SandboxEngine[] = ['sqlite', 'postgres'];
const boxes: EngineSandbox[] = [];
afterEach(async () => {
  for (const box of boxes.splice(0)) await box.dispose();
});

describe.each(ENGINES)('re-rejecting a rejected candidate (%s)', (engine) => {
  it('exits 4 saying when and why it was rejected, keeps the first reason, in text and --json', async () => {
    const box = await engineSandbox(engine);
    boxes.push(box);
    const store = await openStore({ path: box.db });
    const { candidates } = await stageCandidates(store, [{ claim: 'Deploys stall on Fridays because of migration locks.', sources: ['m1', 'm2'] }]);
    await store.close();
    const id = candidates[0]!.id;
    const first = await box.hippo(['rem', 'reject', id, '--reason', 'one-off', '--reviewer', 'alice', '--agent', 'ops']);
    expect(first.exitCode).toBe(0);

    const again = await box.hippo(['rem', 'reject', id, '--reason', 'a second reason', '--agent', 'ops']);
    expect(again.exitCode).toBe(4);
    expect(again.stderr).toMatch(new RegExp(`already rejected on \\d{4}-\\d{2}-\\d{2} by alice \\(reason: one-off\\); nothing changed`));
    const doc = json<{ error: { code: string; message: string; details: Record<string, unknown> } }>(
      await box.hippo(['rem', 'reject', id, '--reason', 'a third', '--agent', 'ops', '--json']),
    );
    expect(doc.error).toMatchObject({ code: 'candidate_decided', details: { candidateId: id, status: 'rejected', reason: 'one-off', reviewer: 'alice' } });
    expect(doc.error.message).toContain('nothing changed');
    const shown = json<{ candidate: { reviewRationale: string } }>(await box.hippo(['rem', 'show', id, '--agent', 'ops', '--json']));
    expect(shown.candidate.reviewRationale).toBe('one-off');
  });
});

describe('missing arguments, did-you-mean', () => {
  const box = sandbox();
  it('lists each missing argument on its own line with the usage line, exit 2 (text and --json)', async () => {
    const text = await box.hippo(['db', 'copy']);
    expect(text.exitCode).toBe(2);
    const lines = String(text.stderr).trim().split('\n');
    expect(lines[0]).toBe('Error: missing 2 required arguments:');
    expect(lines[1]).toMatch(/^ {2}FROM {2}the store to copy/);
    expect(lines[2]).toMatch(/^ {2}TO {4}the empty store/);
    expect(lines[3]).toBe('usage: hippo db copy FROM TO [flags] (see --help)');
    const doc = json<{ error: { code: string; details: { missing: string[]; usage: string } } }>(await box.hippo(['db', 'copy', 'a.db', '--json']));
    expect(doc.error).toMatchObject({ code: 'usage', details: { missing: ['to'], usage: 'hippo db copy FROM TO [flags]' } });
    const reject = await box.hippo(['rem', 'reject', '--reason', 'x']);
    expect(reject.exitCode).toBe(2);
    expect(reject.stderr).toContain('usage: hippo rem reject IDS… [flags]');
  });

  it('suggests by prefix first, -v → --version, help of a typo, and flag values', async () => {
    const cand = await box.hippo(['rem', 'cand']);
    expect(cand.exitCode).toBe(2);
    expect(cand.stderr).toContain('did you mean: hippo rem candidates');
    expect((await box.hippo(['mem', 'list'])).stderr).toContain('did you mean: hippo memory list');
    const version = await box.hippo(['-v']);
    expect(version.exitCode).toBe(2);
    expect(version.stderr).toContain('did you mean: hippo --version');
    const help = await box.hippo(['help', 'serch']);
    expect(help.exitCode).toBe(2);
    expect(help.stderr).toContain('did you mean: hippo help search');
    expect(json(await box.hippo(['help', 'rem', 'cand', '--json']))).toMatchObject({ error: { code: 'unknown_command' } });
    const durability = await box.hippo(['memory', 'list', '--durability', 'perm']);
    expect(durability.exitCode).toBe(2);
    expect(durability.stderr).toContain('did you mean permanent?');
    const status = json<{ error: { details: { suggestion: string } } }>(await box.hippo(['rem', 'candidates', '--status', 'pend', '--json']));
    expect(status.error.details.suggestion).toBe('pending');
    box.cleanup();
  });
});
