/**
 * Each SQLite store keeps its snapshots in a folder of its own (`snapshots/<file name>/` beside it), so two stores in
 * one directory never list, thin, restore or purge each other's; an older hippo's shared `snapshots/` folder is
 * adopted only when one hippo store lives in the directory (docs/nightly.md, "Where snapshots live").
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addMemory } from '../../src/core/memory/memory.js';
import { openSqliteStore } from '../../src/core/store/sqlite/adapter.js';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';

// Each test runs the built CLI a dozen times: on a loaded machine that outlasts the default minute.
vi.setConfig({ testTimeout: 180_000 });

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

const SECRET = 'sk-live-folder4242';
const data = () => join(box.dir, 'data');
const legacy = () => join(data(), 'snapshots');
const storeA = () => join(data(), 'a.db');
const storeB = () => join(data(), 'b.db');
const THIN = ['--keep-last', '0', '--keep-hourly', '0', '--keep-daily', '0', '--keep-weekly', '0'];

interface Unattributed {
  dir: string;
  count: number;
  stores: string[];
  target: string;
}
interface Listing {
  snapshots: { name: string; path: string; runId: string }[];
  unattributed: Unattributed | null;
}
interface Night {
  run: { id: string };
  snapshot: { path: string; name: string; pruned: string[]; unchanged: boolean };
  unattributedSnapshots: Unattributed | null;
}

async function seed(path: string, content: string): Promise<void> {
  const store = await openSqliteStore({ path });
  await addMemory(store, { agentId: 'ops', content });
  await store.close();
}
const run = (db: string, args: string[]) => box.hippo([...args, '--db', db], { env: { HIPPO_AGENT: 'ops' } });
async function night(db: string, extra: string[] = []): Promise<Night> {
  const result = await run(db, ['rem', 'nightly', 'run-once', '--json', ...extra]);
  expect(result.exitCode, String(result.stderr)).toBe(0);
  return json<Night>(result);
}
async function listing(db: string): Promise<Listing & { stderr: string }> {
  const result = await run(db, ['rem', 'snapshots', '--json']);
  expect(result.exitCode, String(result.stderr)).toBe(0);
  return { ...json<Listing>(result), stderr: String(result.stderr) };
}
/** A copy of `from` under the name an older night would have given it (a time long past). */
function plantOld(from: string, dir: string, day: number): string {
  mkdirSync(dir, { recursive: true });
  const name = `202001${String(day).padStart(2, '0')}T000000Z-run_${'0'.repeat(24)}${String(day).padStart(2, '0')}.db`;
  copyFileSync(from, join(dir, name));
  return name;
}
const holds = (path: string, text: string) => readFileSync(path).includes(Buffer.from(text));
const files = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);

describe('snapshot folders', () => {
  it('two stores in one directory each list, thin, restore and purge only their own snapshots', async () => {
    await seed(storeA(), `a: the key is ${SECRET}`);
    await seed(storeB(), `b: the key is ${SECRET}`);
    const nightA = await night(storeA());
    const nightB = await night(storeB());
    // b's first night takes a snapshot of its own: a's, with the same change counter, is no stand-in for it.
    expect(nightB.snapshot.unchanged).toBe(false);
    const [listedA, listedB] = [await listing(storeA()), await listing(storeB())];
    expect(listedA.snapshots.map((snapshot) => snapshot.runId)).toEqual([nightA.run.id]);
    expect(listedB.snapshots.map((snapshot) => snapshot.runId)).toEqual([nightB.run.id]);
    expect(dirname(nightA.snapshot.path)).toBe(join(legacy(), 'a.db'));
    expect(dirname(nightB.snapshot.path)).toBe(join(legacy(), 'b.db'));
    expect([listedA.unattributed, listedB.unattributed]).toEqual([null, null]);

    // b has older snapshots that a's thinning (the newest 3 only) would prune were they in a's folder.
    const folderB = dirname(nightB.snapshot.path);
    for (const day of [1, 2, 3]) plantOld(nightB.snapshot.path, folderB, day);
    const before = files(folderB);
    expect(before).toHaveLength(4);
    const thinned = await night(storeA(), THIN);
    expect(thinned.snapshot.pruned).toEqual([]);
    expect(files(folderB)).toEqual(before);

    // A restore by b's run id is no snapshot of a's.
    const foreign = await run(storeA(), ['rem', 'restore', nightB.run.id, '--json']);
    expect(foreign.exitCode, String(foreign.stdout)).toBe(3);
    expect(json<{ error: { code: string } }>(foreign).error.code).toBe('snapshot_not_found');
    expect((await run(storeA(), ['rem', 'restore', nightA.run.id, '--json'])).exitCode).toBe(0);

    // a's purge rewrites a's snapshot only: b's (and b itself) still hold b's copy of the text.
    const purged = await run(storeA(), ['memory', 'forget', '--match', SECRET, '--purge-snapshots', '--yes', '--json']);
    expect(purged.exitCode, String(purged.stderr)).toBe(0);
    expect(json<{ snapshotsRewritten: string[] }>(purged).snapshotsRewritten).toEqual([nightA.snapshot.name]);
    expect(holds(nightA.snapshot.path, SECRET)).toBe(false);
    for (const name of files(folderB)) expect(holds(join(folderB, name), SECRET), name).toBe(true);
    expect(holds(storeB(), SECRET)).toBe(true);
  });

  it('the only hippo store in a directory adopts the old shared folder: moved into its own, names kept', async () => {
    await seed(storeA(), 'a note');
    // A SQLite file that is not a hippo store and a text file do not count as stores.
    const plain = new Database(join(data(), 'other.sqlite'));
    plain.exec('CREATE TABLE t (x)');
    plain.close();
    writeFileSync(join(data(), 'notes.txt'), 'hello');
    const taken = await night(storeA());
    // The layout an older hippo left: its snapshots straight in snapshots/, and a leftover of an interrupted one.
    renameSync(taken.snapshot.path, join(legacy(), taken.snapshot.name));
    rmSync(join(legacy(), 'a.db'), { recursive: true, force: true });
    const older = plantOld(join(legacy(), taken.snapshot.name), legacy(), 5);
    writeFileSync(join(legacy(), `.${older}.partial`), 'half');

    const listed = await listing(storeA());
    expect(listed.snapshots.map((snapshot) => [snapshot.name, snapshot.path])).toEqual([
      [taken.snapshot.name, join(legacy(), 'a.db', taken.snapshot.name)],
      [older, join(legacy(), 'a.db', older)],
    ]);
    expect(listed.unattributed).toBeNull();
    expect(listed.stderr).not.toContain('shared folder');
    expect(files(legacy())).toEqual(['a.db']);
    expect(files(join(legacy(), 'a.db'))).toEqual([older, taken.snapshot.name].sort());
    // Adopted snapshots are the store's own from now on: restored by name.
    expect((await run(storeA(), ['rem', 'restore', older, '--json'])).exitCode).toBe(0);
  });

  it('with several hippo stores in the directory the old folder is left alone and reported, never thinned or purged', async () => {
    await seed(storeA(), `a: the key is ${SECRET}`);
    await seed(storeB(), 'b note');
    const taken = await night(storeA());
    renameSync(taken.snapshot.path, join(legacy(), taken.snapshot.name));
    rmSync(join(legacy(), 'a.db'), { recursive: true, force: true });
    const flat = join(legacy(), taken.snapshot.name);
    for (const day of [1, 2, 3]) plantOld(flat, legacy(), day);
    const old = files(legacy());
    expect(old).toHaveLength(4);
    const expected: Unattributed = { dir: legacy(), count: 4, stores: ['a.db', 'b.db'], target: join(legacy(), 'a.db') };

    const listed = await listing(storeA());
    expect(listed.snapshots).toEqual([]);
    expect(listed.unattributed).toEqual(expected);
    expect(listed.stderr).toContain(`4 snapshots from an older hippo are still in the shared folder ${legacy()}`);
    expect(listed.stderr).toContain('a.db, b.db');
    expect(listed.stderr).toContain(`mv ${join(legacy(), '<name>')} ${join(legacy(), 'a.db')}/`);
    expect((await listing(storeB())).unattributed).toEqual({ ...expected, target: join(legacy(), 'b.db') });

    // The night thins its own folder only, and says so again.
    const thinned = await night(storeA(), THIN);
    expect(thinned.unattributedSnapshots).toEqual(expected);
    expect(files(legacy())).toEqual([...old, 'a.db'].sort());
    expect(files(join(legacy(), 'a.db'))).toEqual([basename(thinned.snapshot.path)]);

    // Not restored by name; not purged (and forget says they were not checked).
    expect((await run(storeA(), ['rem', 'restore', taken.snapshot.name, '--json'])).exitCode).toBe(3);
    const dry = await run(storeA(), ['memory', 'forget', '--match', SECRET, '--dry-run', '--json']);
    expect(json<{ unattributedSnapshots: Unattributed | null }>(dry).unattributedSnapshots).toEqual(expected);
    const purged = await run(storeA(), ['memory', 'forget', '--match', SECRET, '--purge-snapshots', '--yes', '--json']);
    expect(purged.exitCode, String(purged.stderr)).toBe(0);
    expect(String(purged.stderr)).toContain('not listed, thinned, restored by name or purged here');
    for (const name of old) expect(holds(join(legacy(), name), SECRET), name).toBe(true);

    // Moved by hand, they are a's, and the note is gone.
    for (const name of old) renameSync(join(legacy(), name), join(legacy(), 'a.db', name));
    const sorted = await listing(storeA());
    expect(sorted.unattributed).toBeNull();
    expect(sorted.stderr).not.toContain('shared folder');
    expect(sorted.snapshots).toHaveLength(5);
  });
});
