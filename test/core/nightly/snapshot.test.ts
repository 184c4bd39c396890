import Database from 'better-sqlite3';
import { copyFileSync, existsSync, openSync, readdirSync, statSync, truncateSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../../src/core/ids.js';
import { addMemory } from '../../../src/core/memory/memory.js';
import { listSnapshots, planRetention, pruneSnapshots, snapshotDir, snapshotFiles, takeSnapshot } from '../../../src/core/nightly/snapshot.js';
import { SNAPSHOT_FILE, snapshotFileName } from '../../../src/core/store/snapshot-files.js';
import { headerIsWhole } from '../../../src/core/store/sqlite/snapshots.js';
import { fixedClock, tempStore } from '../../helpers/store.js';

let store: Awaited<ReturnType<typeof tempStore>>;
const clock = fixedClock('2026-11-02T03:30:00.000Z');
beforeEach(async () => {
  clock.set('2026-11-02T03:30:00.000Z');
  store = await tempStore(clock);
  for (let index = 0; index < 300; index++)
    await addMemory(store, { agentId: index % 3 ? 'ops' : 'other', content: `note ${index}: ${'the billing cron moved to 02:30 UTC. '.repeat(8)}` });
});
afterEach(() => store.done());

const rows = (db: Database.Database) => db.prepare('SELECT * FROM memories ORDER BY rowid').all();

describe('snapshots', () => {
  it('writes a verified, self-contained copy named <UTC time>-<run id>.db, mode 0600 in a 0700 directory', async () => {
    const runId = newId('run');
    const snapshot = await takeSnapshot(store, runId);
    expect(snapshot.name).toBe(`20261102T033000Z-${runId}.db`);
    expect(snapshot.name).toMatch(SNAPSHOT_FILE);
    expect(snapshot.path).toBe(join(store.dir, 'snapshots', basename(store.path), snapshot.name));
    expect(statSync(snapshot.path).mode & 0o777).toBe(0o600);
    expect(statSync(snapshotDir(store.path)).mode & 0o777).toBe(0o700);
    expect(readdirSync(snapshotDir(store.path))).toEqual([snapshot.name]);
    const copy = new Database(snapshot.path, { readonly: true });
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(rows(copy)).toEqual(rows(store.db));
    copy.close();
    expect(headerIsWhole(snapshot.path)).toBe(true);
    expect(snapshot.sizeBytes).toBe(statSync(snapshot.path).size);
  });

  it('never lists a temporary file, and removes those left by an interrupted snapshot before writing the next', async () => {
    const dir = snapshotDir(store.path);
    const first = await takeSnapshot(store, newId('run'));
    const leftover = join(dir, `.${snapshotFileName(clock(), newId('run'))}.partial`);
    copyFileSync(first.path, leftover);
    writeFileSync(`${leftover}-journal`, 'x');
    expect((await listSnapshots(store)).map((snapshot) => snapshot.name)).toEqual([first.name]);
    clock.advance(60_000);
    const second = await takeSnapshot(store, newId('run'));
    expect(second.removedPartials).toBe(2);
    expect(readdirSync(dir).sort()).toEqual([first.name, second.name].sort());
  });

  it('thins snapshots: the newest 3, the last N, one per hour, day and week; --keep-days caps their age', async () => {
    const dir = snapshotDir(store.path);
    const real = await takeSnapshot(store, newId('run'));
    const at = (hoursAgo: number) => {
      const name = snapshotFileName(new Date(clock().getTime() - hoursAgo * 3_600_000), newId('run'));
      copyFileSync(real.path, join(dir, name));
      return name;
    };
    // Now is 2026-11-02 03:30 UTC (a Monday). Two snapshots in the same hour, two on one day, a few days and weeks back.
    const sameHour = at(0.25); // 03:15, same hour as the real one
    const hourAgo = at(1); // 02:30
    const twoHours = at(2); // 01:30
    const earlierToday = at(2.5); // 01:00, same hour as twoHours
    const yesterday = [at(20), at(22)]; // 2026-11-01 07:30 and 05:30
    const lastWeek = [at(24 * 6), at(24 * 6 + 1)]; // 2026-10-27
    const monthAgo = at(24 * 30);
    const policy = { keepLast: 1, keepHourly: 3, keepDaily: 3, keepWeekly: 2 };
    const pruned = await pruneSnapshots(store, policy);
    // Kept: the newest 3 (real, sameHour, hourAgo); hourly: 03 real, 02 hourAgo, 01 twoHours; daily: 11-02 real,
    // 11-01 yesterday[0], 10-27 lastWeek[0]; weekly: this week's newest (real), last week's newest (lastWeek[0]).
    expect(pruned.sort()).toEqual([earlierToday, yesterday[1], lastWeek[1], monthAgo].sort());
    expect(readdirSync(dir).sort()).toEqual([real.name, sameHour, hourAgo, twoHours, yesterday[0], lastWeek[0]].sort());
    // An age cap takes back what the slots kept, except the newest 3.
    expect((await pruneSnapshots(store, { ...policy, maxAgeDays: 1 })).sort()).toEqual([lastWeek[0]].sort());
    expect(await pruneSnapshots(store, { keepLast: 0, keepHourly: 0, keepDaily: 0, keepWeekly: 0 })).toEqual([twoHours, yesterday[0]]);
    expect(readdirSync(dir).sort()).toEqual([real.name, sameHour, hourAgo].sort());
  });

  it('a damaged snapshot fills no slot (but the newest 3 stay whatever they are)', () => {
    const snapshot = (name: string, createdAt: string, whole = true) => ({ name, path: name, createdAt, runId: 'run_x', sizeBytes: 1, whole });
    const list = [
      snapshot('d', '2026-11-02T03:00:00.000Z', false),
      snapshot('c', '2026-11-02T02:00:00.000Z'),
      snapshot('b', '2026-11-02T01:00:00.000Z'),
      snapshot('a', '2026-11-01T01:00:00.000Z', false),
      snapshot('z', '2026-10-31T01:00:00.000Z'),
    ];
    expect(planRetention(list, { keepLast: 0, keepHourly: 0, keepDaily: 2, keepWeekly: 0 }, clock())).toEqual({ keep: ['d', 'c', 'b', 'z'], prune: ['a'] });
    expect(() => planRetention(list, { keepLast: -1, keepHourly: 0, keepDaily: 0, keepWeekly: 0 }, clock())).toThrow(/keepLast must be a whole number/);
  });

  it('skips the snapshot when nothing a restore puts back changed since the newest one, and takes one after any change', async () => {
    const first = await takeSnapshot(store, newId('run'), { skipUnchanged: true });
    expect(first.unchanged).toBe(false);
    clock.advance(60_000);
    // A run row is not restored: it is no change.
    const unchanged = await takeSnapshot(store, newId('run'), { skipUnchanged: true });
    expect(unchanged).toMatchObject({ unchanged: true, name: first.name, path: first.path, runId: first.runId });
    expect(readdirSync(snapshotDir(store.path))).toEqual([first.name]);
    await addMemory(store, { agentId: 'ops', content: 'a change' });
    clock.advance(60_000);
    const changed = await takeSnapshot(store, newId('run'), { skipUnchanged: true });
    expect(changed.unchanged).toBe(false);
    expect(readdirSync(snapshotDir(store.path)).sort()).toEqual([first.name, changed.name].sort());
    // A retrieval counter is a change too (a restore would put the old count back).
    const [someMemory] = await store.memories.list({ agentId: 'ops', limit: 1 });
    await store.transaction((tx) => tx.memories.recordRetrieval('ops', [someMemory!.id], clock().toISOString()));
    clock.advance(60_000);
    expect((await takeSnapshot(store, newId('run'), { skipUnchanged: true })).unchanged).toBe(false);
    // Without the option (a pre-restore snapshot) one is always written.
    clock.advance(60_000);
    expect((await takeSnapshot(store, newId('run'))).unchanged).toBe(false);
    // A damaged newest snapshot is no basis: the next whole one is compared, here equal.
    const newest = snapshotFiles(snapshotDir(store.path))[0]!;
    truncateSync(newest.path, 4096);
    clock.advance(60_000);
    expect((await takeSnapshot(store, newId('run'), { skipUnchanged: true })).unchanged).toBe(true);
  });

  it('reports a truncated snapshot as damaged at once, and a corrupted page as damaged under --check', async () => {
    const truncated = await takeSnapshot(store, newId('run'));
    clock.advance(60_000);
    const corrupted = await takeSnapshot(store, newId('run'));
    clock.advance(60_000);
    const good = await takeSnapshot(store, newId('run'));
    truncateSync(truncated.path, statSync(truncated.path).size - 4096);
    const fd = openSync(corrupted.path, 'r+');
    for (let page = 2; page < statSync(corrupted.path).size / 4096; page++) writeSync(fd, Buffer.alloc(64, 0xa5), 0, 64, page * 4096);
    closeSync(fd);
    const integrity = async (check: boolean) =>
      Object.fromEntries((await listSnapshots(store, { check })).map((snapshot) => [snapshot.name, snapshot.integrity]));
    expect(await integrity(false)).toEqual({ [good.name]: 'verified', [corrupted.name]: 'verified', [truncated.name]: 'damaged' });
    expect(await integrity(true)).toEqual({ [good.name]: 'ok', [corrupted.name]: 'damaged', [truncated.name]: 'damaged' });
    expect(existsSync(`${corrupted.path}-wal`)).toBe(false);
  });
});
