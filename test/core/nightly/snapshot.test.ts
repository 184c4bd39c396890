import Database from 'better-sqlite3';
import { copyFileSync, existsSync, openSync, readdirSync, statSync, truncateSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../../src/core/ids.js';
import { addMemory } from '../../../src/core/memory.js';
import { listSnapshots, pruneSnapshots, SNAPSHOT_FILE, snapshotDir, snapshotFileName, takeSnapshot } from '../../../src/core/nightly/snapshot.js';
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
    expect(snapshot.path).toBe(join(store.dir, 'snapshots', snapshot.name));
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

  it('prunes snapshots older than keep-days but never the newest 3', async () => {
    const dir = snapshotDir(store.path);
    const real = await takeSnapshot(store, newId('run'));
    const at = (daysAgo: number) => {
      const name = snapshotFileName(new Date(clock().getTime() - daysAgo * 86_400_000), newId('run'));
      copyFileSync(real.path, join(dir, name));
      return name;
    };
    const old = [at(40), at(50), at(60), at(70)];
    const recent = at(10);
    // The newest 3 are the real one, the 10-day-old one and the 40-day-old one: that one stays, old as it is.
    expect(pruneSnapshots(dir, 30, clock()).sort()).toEqual([old[1], old[2], old[3]].sort());
    expect(readdirSync(dir).sort()).toEqual([real.name, recent, old[0]].sort());
    const newer = at(5);
    expect(pruneSnapshots(dir, 30, clock())).toEqual([old[0]]);
    expect(pruneSnapshots(dir, 0, clock())).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual([real.name, newer, recent].sort());
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
