/**
 * A `command:` model (and `rem rapid --via`) that leaves a background child behind: the child keeps hippo's stdout
 * pipe open after the shell has answered and exited, so waiting for the end of the output would wait forever. The
 * real built CLI must give up at the deadline (exit 5), kill the child, finish its run rows and release the nightly
 * lock; Ctrl-C must kill the child too (docs/decisions.md, "A model command's children").
 */
import type { Result, ResultPromise } from 'execa';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';
import { goneWithin, pidFrom } from '../helpers/process.js';

let box: Sandbox;
beforeEach(async () => {
  box = sandbox();
  for (const text of ['Deploy of api v2.14 stalled on a migration lock.', 'Decided: migrations run on Tuesday mornings.']) {
    expect((await box.hippo(['memory', 'add', text, '--agent', 'ops'])).exitCode).toBe(0);
  }
});
afterEach(() => box.cleanup());

/** Answers at once and exits, leaving `sleep 300` in the background holding stdout; its pid goes to `pidFile`. */
const orphaning = (pidFile: string) => `cat > /dev/null; sleep 300 & echo $! > '${pidFile}'; echo '{"candidates":[]}'`;
const DEADLINE = { HIPPO_MODEL_TIMEOUT_MS: '1000' };
/** Without the fix these commands never return: execa's own timeout turns that into a failed assertion. */
const HANG_GUARD = { timeout: 50_000 };

interface RunJson {
  id: string;
  kind: string;
  status: string;
  errors: string[];
}
const runs = async () => json<{ runs: RunJson[] }>(await box.hippo(['rem', 'runs', '--agent', 'ops', '--json'])).runs;

describe('a model command that leaves a background child', () => {
  it('rem rapid --via: model_timeout (exit 5) at the deadline, the child killed, the run row failed', async () => {
    const pidFile = join(box.dir, 'orphan.pid');
    const result = await box.hippo(['rem', 'rapid', '--agent', 'ops', '--json', '--via', orphaning(pidFile)], { env: DEADLINE, ...HANG_GUARD });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(5);
    const { error } = json<{ error: { code: string; details: { run: RunJson } } }>(result);
    expect(error.code).toBe('model_timeout');
    expect(error.details.run).toMatchObject({ status: 'failed', errors: ['model_timeout'] });
    expect(await goneWithin(await pidFrom(pidFile), 3_000)).toBe(true);
    expect((await runs()).map((run) => run.status)).toEqual(['failed']);
  });

  it('rem nightly run-once with HIPPO_MODEL=command:…: the night ends (exit 7), the child is killed, the next night runs', async () => {
    const pidFile = join(box.dir, 'night-orphan.pid');
    const first = await box.hippo(['rem', 'nightly', 'run-once', '--json'], {
      env: { ...DEADLINE, HIPPO_MODEL: `command:${orphaning(pidFile)}` },
      ...HANG_GUARD,
    });
    expect(first.timedOut).toBe(false);
    expect(first.exitCode).toBe(7);
    const night = json<{ run: RunJson; agents: { agentId: string; status: string; error: string | null }[] }>(first);
    expect(night.run.status).toBe('partial');
    expect(night.agents).toEqual([expect.objectContaining({ agentId: 'ops', error: 'model_timeout' })]);
    expect(await goneWithin(await pidFrom(pidFile), 3_000)).toBe(true);

    // The lock was released: the next night runs (a held lock would be exit 4).
    const second = await box.hippo(['rem', 'nightly', 'run-once', '--json'], {
      env: { ...DEADLINE, HIPPO_MODEL: `command:cat > /dev/null; echo '{"candidates":[]}'` },
      ...HANG_GUARD,
    });
    expect(second.exitCode).toBe(0);
    expect(json<{ run: RunJson }>(second).run.status).toBe('completed');
    expect((await runs()).filter((run) => run.status === 'running')).toEqual([]);
  });

  it('Ctrl-C while waiting for it: exit 130, the child killed, the run row interrupted', async () => {
    const pidFile = join(box.dir, 'interrupted-orphan.pid');
    // A long deadline: only the signal can end this call.
    const child = box.hippo(['rem', 'rapid', '--agent', 'ops', '--json', '--via', orphaning(pidFile)], {
      env: { HIPPO_MODEL_TIMEOUT_MS: '120000' },
      ...HANG_GUARD,
    }) as unknown as ResultPromise;
    const orphan = await pidFrom(pidFile);
    child.kill('SIGINT');
    const result = (await child) as Result;
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(130);
    expect(json<{ error: { code: string } }>(result).error.code).toBe('interrupted');
    expect(await goneWithin(orphan, 3_000)).toBe(true);
    expect((await runs()).map((run) => run.status)).toEqual(['interrupted']);
  });

  it('kill -9 of hippo while the command runs: the command and every child of it die with hippo (issue 27)', async () => {
    const [first, second] = [join(box.dir, 'background.pid'), join(box.dir, 'foreground.pid')];
    // The shell waits on its children: nothing ends this call but hippo's death.
    const script = `cat > /dev/null; sleep 300 & echo $! > '${first}'; sleep 300 & echo $! > '${second}'; wait`;
    const child = box.hippo(['rem', 'rapid', '--agent', 'ops', '--json', '--via', script], {
      env: { HIPPO_MODEL_TIMEOUT_MS: '120000' },
      ...HANG_GUARD,
    }) as unknown as ResultPromise;
    const pids = [await pidFrom(first), await pidFrom(second)];
    child.kill('SIGKILL');
    const result = (await child) as Result;
    expect(result.signal).toBe('SIGKILL');
    for (const pid of pids) expect(await goneWithin(pid, 5_000)).toBe(true);
  });

  it('Ctrl-C during a night waiting for it: exit 130, the child killed, every run row interrupted, the lock released', async () => {
    const pidFile = join(box.dir, 'night-interrupted-orphan.pid');
    const child = box.hippo(['rem', 'nightly', 'run-once', '--json'], {
      env: { HIPPO_MODEL_TIMEOUT_MS: '120000', HIPPO_MODEL: `command:${orphaning(pidFile)}` },
      ...HANG_GUARD,
    }) as unknown as ResultPromise;
    const orphan = await pidFrom(pidFile);
    child.kill('SIGINT');
    const result = (await child) as Result;
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(130);
    expect(json<{ error: { code: string } }>(result).error.code).toBe('interrupted');
    expect(await goneWithin(orphan, 3_000)).toBe(true);
    const statuses = (await runs()).map((run) => run.status);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 'interrupted')).toBe(true);
    const next = await box.hippo(['rem', 'nightly', 'run-once', '--json'], { env: { HIPPO_MODEL: '' }, ...HANG_GUARD });
    expect(next.exitCode).toBe(0);
  });
});
