import { execa } from 'execa';
import { hostname } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../../../src/core/ids.js';
import { acquireLock, describeHolder, LOCK_STALE_AFTER_MS, processExists, type LockHolder } from '../../../../src/core/nightly/lock.js';
import { getRun, startRun } from '../../../../src/core/runs.js';
import { LOCK_KEY } from '../../../../src/core/store/sqlite/lock.js';
import { tempStore } from '../../../helpers/store.js';

let store: Awaited<ReturnType<typeof tempStore>>;
beforeEach(async () => {
  store = await tempStore();
});
afterEach(() => store.done());

const owner = () => ({ runId: newId('run'), kind: 'rem nightly run-once' as const });
const writeLock = (holder: Partial<LockHolder>) =>
  store.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
    LOCK_KEY,
    JSON.stringify({
      pid: process.pid,
      hostname: hostname(),
      startedAt: new Date().toISOString(),
      runId: newId('run'),
      kind: 'rem nightly run-once',
      ...holder,
    }),
  );

/** The pid of a process that has certainly exited. */
async function deadPid(): Promise<number> {
  const child = execa('node', ['-e', '0']);
  const pid = child.pid!;
  await child;
  expect(processExists(pid)).toBe(false);
  return pid;
}

describe('the nightly lock on SQLite: a settings row naming the holder', () => {
  it('is a row naming this process, refused to a second taker with exit 4, and free again after release', async () => {
    const lock = await acquireLock(store, owner());
    expect(await store.lock.read()).toMatchObject({ pid: process.pid, hostname: hostname(), runId: lock.holder.runId });
    let error: unknown;
    try {
      await acquireLock(store, owner());
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'nightly_running', exitCode: 4 });
    await lock.release();
    expect(await store.lock.read()).toBeNull();
    await (await acquireLock(store, owner())).release();
  });

  it('is taken over from a dead process on this host, closing the rows its run left running', async () => {
    const stale = await startRun(store, 'rem nightly run-once', null);
    const child = await startRun(store, 'rem nightly run-once', 'ops', { parentRunId: stale.id });
    const unrelated = await startRun(store, 'rem rapid', 'ops');
    writeLock({ pid: await deadPid(), runId: stale.id });
    const lock = await acquireLock(store, owner());
    expect(lock.takenOver).toMatchObject({ runId: stale.id });
    for (const id of [stale.id, child.id]) expect(await getRun(store, id)).toMatchObject({ status: 'interrupted', errors: ['interrupted'] });
    expect((await getRun(store, unrelated.id)).status).toBe('running');
    await lock.release();
  });

  it('counts a holder on another host as alive (no way to check it) until the lock is a day old', async () => {
    writeLock({ hostname: 'some-other-host', pid: 1 });
    await expect(acquireLock(store, owner())).rejects.toThrow(/holds this database's lock/);
    writeLock({ hostname: 'some-other-host', pid: 1, startedAt: new Date(Date.now() - LOCK_STALE_AFTER_MS - 1000).toISOString() });
    expect((await acquireLock(store, owner())).takenOver).toMatchObject({ hostname: 'some-other-host' });
  });

  it("takes over another host's lock dated in the future (clock skew cannot make it last forever)", async () => {
    writeLock({ hostname: 'otherhost', startedAt: new Date(Date.now() + 3 * 86_400_000).toISOString() });
    expect((await acquireLock(store, owner())).takenOver).toMatchObject({ hostname: 'otherhost' });
  });

  it('takes over a lock row it cannot read', async () => {
    store.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(LOCK_KEY, 'not json');
    const lock = await acquireLock(store, owner());
    expect((await store.lock.read())?.runId).toBe(lock.holder.runId);
    // Nothing is known of the holder it took over from, and that is what is said: no pid 0, no 1970.
    expect(lock.takenOver).toEqual({ pid: null, hostname: '', startedAt: null, runId: '', kind: 'rem nightly run-once' });
    expect(describeHolder(lock.takenOver!)).toBe('holder unknown');
  });

  it('releases only its own lock, never one taken over from it', async () => {
    const first = await acquireLock(store, owner());
    writeLock({ pid: await deadPid() });
    const second = await acquireLock(store, owner());
    await first.release();
    expect((await store.lock.read())?.runId).toBe(second.holder.runId);
  });
});
