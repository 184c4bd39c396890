import Database from 'better-sqlite3';
import { closeSync, copyFileSync, openSync, readFileSync, statSync, truncateSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../../../src/core/ids.js';
import { addMemory } from '../../../../src/core/memory/memory.js';
import { takeSnapshot } from '../../../../src/core/nightly/snapshot.js';
import { checkTables, headerIsWhole, sameBytes } from '../../../../src/core/store/sqlite/snapshots.js';
import { fixedClock, tempStore } from '../../../helpers/store.js';

let store: Awaited<ReturnType<typeof tempStore>>;
const clock = fixedClock('2026-11-02T03:30:00.000Z');
beforeEach(async () => {
  store = await tempStore(clock);
  for (let index = 0; index < 400; index++)
    await addMemory(store, { agentId: 'ops', content: `note ${index}: ${'the billing cron moved to 02:30 UTC. '.repeat(12)}`, thread: 'standup' });
});
afterEach(() => store.done());

const rows = (db: Database.Database) => db.prepare('SELECT * FROM memories ORDER BY rowid').all();

/** Whether `copy` reads back as `source` by the snapshot's own comparison. */
async function same(source: string, copy: string): Promise<boolean> {
  const [a, b] = await Promise.all([open(source, 'r'), open(copy, 'r')]);
  try {
    return await sameBytes(a, b);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}

describe('the SQLite snapshot copy', () => {
  it('is the database file byte for byte but for the journal bytes of its header, and opens as one file', async () => {
    const snapshot = await takeSnapshot(store, newId('run'));
    const live = readFileSync(store.path);
    const copy = readFileSync(snapshot.path);
    expect(copy.length).toBe(live.length);
    expect([copy[18], copy[19], live[18], live[19]]).toEqual([1, 1, 2, 2]);
    copy[18] = copy[19] = 2;
    expect(copy.equals(live)).toBe(true);
    expect(headerIsWhole(snapshot.path)).toBe(true);
    const db = new Database(snapshot.path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(db.pragma('quick_check', { simple: true })).toBe('ok');
    expect(rows(db)).toEqual(rows(store.db));
    db.close();
  });

  it("its read-back comparison catches a flipped page, a truncated copy and a half-written one, not the header's journal bytes", async () => {
    const snapshot = await takeSnapshot(store, newId('run'));
    const db = join(store.dir, 'live-copy.db');
    // The live file as it was copied (no WAL since), against the snapshot.
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(store.path, db);
    expect(await same(db, snapshot.path)).toBe(true);
    const pages = statSync(snapshot.path).size / 4096;
    const flipped = join(store.dir, 'flipped.db');
    copyFileSync(snapshot.path, flipped);
    const fd = openSync(flipped, 'r+');
    writeSync(fd, Buffer.from([0x5a]), 0, 1, Math.floor(pages / 2) * 4096 + 1000);
    closeSync(fd);
    expect(await same(db, flipped)).toBe(false);
    const truncated = join(store.dir, 'truncated.db');
    copyFileSync(snapshot.path, truncated);
    truncateSync(truncated, (pages - 1) * 4096);
    expect(await same(db, truncated)).toBe(false);
    // Half-written: the right length (a file extended first), the end never written.
    const half = join(store.dir, 'half.db');
    copyFileSync(snapshot.path, half);
    const hfd = openSync(half, 'r+');
    writeSync(hfd, Buffer.alloc(Math.floor(pages / 2) * 4096), 0, Math.floor(pages / 2) * 4096, Math.ceil(pages / 2) * 4096);
    closeSync(hfd);
    expect(statSync(half).size).toBe(statSync(snapshot.path).size);
    expect(await same(db, half)).toBe(false);
  });

  it('its check finds a damaged b-tree page in the live database, and reports constraint violations as such', () => {
    const copy = join(store.dir, 'damaged.db');
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(store.path, copy);
    const probe = new Database(copy);
    const page = probe.prepare("SELECT pageno FROM dbstat WHERE name = 'memories_thread' ORDER BY pageno LIMIT 1").pluck().get() as number;
    probe.close();
    const fd = openSync(copy, 'r+');
    writeSync(fd, Buffer.from([0xff]), 0, 1, (page - 1) * 4096);
    closeSync(fd);
    const damaged = new Database(copy, { readonly: true });
    expect(checkTables(damaged).ok).toBe(false);
    damaged.close();
    store.db.pragma('ignore_check_constraints = ON');
    store.db.prepare("UPDATE memories SET expires_at = '2027-01-01T00:00:00.000Z', durability = 'persistent' WHERE rowid = 1").run();
    store.db.pragma('ignore_check_constraints = OFF');
    expect(checkTables(store.db)).toEqual({ ok: true, violations: ['CHECK constraint failed in memories'] });
  });

  it("reads through a memory map only while it checks: the connection's mmap_size is as it was after a snapshot, taken or interrupted", async () => {
    expect(store.db.pragma('mmap_size', { simple: true })).toBe(0);
    await takeSnapshot(store, newId('run'));
    expect(store.db.pragma('mmap_size', { simple: true })).toBe(0);
    store.db.pragma('mmap_size = 65536');
    const aborted = new AbortController();
    aborted.abort();
    await expect(takeSnapshot(store, newId('run'), { signal: aborted.signal })).rejects.toThrow();
    expect(store.db.pragma('mmap_size', { simple: true })).toBe(65536);
    await takeSnapshot(store, newId('run'));
    expect(store.db.pragma('mmap_size', { simple: true })).toBe(65536);
  });

  it('while another process holds a read of the WAL (the file cannot be held still) is taken with the online backup, whole', async () => {
    await addMemory(store, { agentId: 'ops', content: 'written last, still in the WAL' });
    const reader = new Database(store.path, { readonly: true });
    try {
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM memories').get();
      const snapshot = await takeSnapshot(store, newId('run'));
      const db = new Database(snapshot.path, { readonly: true });
      expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
      expect(rows(db)).toEqual(rows(store.db));
      db.close();
      expect(headerIsWhole(snapshot.path)).toBe(true);
    } finally {
      reader.close();
    }
  });
});
