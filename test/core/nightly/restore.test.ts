import Database from 'better-sqlite3';
import { copyFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../../src/core/ids.js';
import { addMemory } from '../../../src/core/memory/memory.js';
import { applyRestore, planRestore, resolveSnapshot } from '../../../src/core/nightly/restore.js';
import { takeSnapshot } from '../../../src/core/nightly/snapshot.js';
import { APPLICATION_ID, MIGRATIONS, migrationSql, SCHEMA_VERSION } from '../../../src/core/store/sqlite/migrations.js';
import { tempStore } from '../../helpers/store.js';
import { ALL_RUNS } from '../../helpers/rows.js';

let store: Awaited<ReturnType<typeof tempStore>>;
beforeEach(async () => {
  store = await tempStore();
  await addMemory(store, { agentId: 'ops', content: 'The billing cron runs at 02:30 UTC.' });
});
afterEach(() => store.done());

const caught = async (fn: () => unknown) => {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
};

/** A hippo database at schema 1 (before the nightly migration), as an older hippo wrote it. */
function schemaOneSnapshot(path: string, memoryId: string): void {
  const db = new Database(path);
  db.exec(migrationSql(MIGRATIONS[0]!));
  db.pragma(`application_id = ${APPLICATION_ID}`);
  db.pragma('user_version = 1');
  db.prepare(
    "INSERT INTO memories (id, agent_id, content, created_at, updated_at, content_hash) VALUES (?, 'ops', 'From an older hippo.', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'x')",
  ).run(memoryId);
  db.close();
}

describe('restore: finding and opening a snapshot', () => {
  it('finds a snapshot by file name, by the run that took it, or by path; anything else is exit 3', async () => {
    const runId = newId('run');
    const snapshot = await takeSnapshot(store, runId);
    expect(resolveSnapshot(store, snapshot.name)).toBe(snapshot.path);
    expect(resolveSnapshot(store, runId)).toBe(snapshot.path);
    const elsewhere = join(store.dir, 'copy.db');
    copyFileSync(snapshot.path, elsewhere);
    expect(resolveSnapshot(store, elsewhere)).toBe(elsewhere);
    for (const ref of [newId('run'), 'nope.db', `20260101T000000Z-${newId('run')}.db`]) {
      expect(await caught(() => resolveSnapshot(store, ref))).toMatchObject({ code: 'snapshot_not_found', exitCode: 3 });
    }
  });

  it("refuses the live database, a foreign file and a newer hippo's snapshot (exit 2), changing nothing", async () => {
    expect(await caught(() => planRestore(store, store.path, null))).toMatchObject({ code: 'snapshot_is_database', exitCode: 2 });
    const text = join(store.dir, 'notes.txt');
    writeFileSync(text, 'not a database at all, just some text that is long enough to have a header');
    expect(await caught(() => planRestore(store, text, null))).toMatchObject({ code: 'not_a_hippo_snapshot', exitCode: 2 });
    const foreign = join(store.dir, 'foreign.db');
    new Database(foreign).exec('CREATE TABLE t (x)');
    expect(await caught(() => planRestore(store, foreign, null))).toMatchObject({ code: 'not_a_hippo_snapshot', exitCode: 2 });
    const newer = join(store.dir, 'newer.db');
    copyFileSync((await takeSnapshot(store, newId('run'))).path, newer);
    const raw = new Database(newer);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    await expect(applyRestore(store, newer, { agentId: null })).rejects.toMatchObject({ code: 'snapshot_too_new', exitCode: 2 });
    expect(store.db.prepare(`SELECT count(*) FROM ${ALL_RUNS} WHERE kind = 'rem restore'`).pluck().get()).toBe(0);
  });

  it('calls a hippo snapshot cut short damaged (exit 2: bad input), not "not a snapshot"', async () => {
    for (let index = 0; index < 300; index++) store.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(`k${index}`, 'v'.repeat(400));
    const truncated = join(store.dir, 'truncated.db');
    copyFileSync((await takeSnapshot(store, newId('run'))).path, truncated);
    truncateSync(truncated, 20_000);
    expect(await caught(() => planRestore(store, truncated, null))).toMatchObject({ code: 'snapshot_damaged', exitCode: 2 });
  });

  it("migrates an older hippo's snapshot in a temporary copy, never in place, and restores from it", async () => {
    const old = join(store.dir, 'old.db');
    const oldId = newId('mem');
    schemaOneSnapshot(old, oldId);
    expect((await planRestore(store, old, 'ops')).tables[0]).toMatchObject({ table: 'memories', added: 1, removed: 1 });
    const result = await applyRestore(store, old, { agentId: 'ops' });
    expect(result.run.status).toBe('completed');
    expect(store.db.prepare("SELECT id FROM memories WHERE agent_id = 'ops'").pluck().all()).toEqual([oldId]);
    const after = new Database(old, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(1);
    after.close();
  });
});
