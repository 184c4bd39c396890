/**
 * Issue 13, defects 6 and 7 and the snapshots that do not eat the disk, through the built CLI: bad input is exit 2 (not
 * 1), a read on a path with no store is exit 3 and creates nothing, and a night with nothing new takes no snapshot.
 */
import Database from 'better-sqlite3';
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import type { ResultPromise } from 'execa';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addMemory } from '../../src/core/memory/memory.js';
import { openSqliteStore } from '../../src/core/store/sqlite/adapter.js';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';

// Each test runs the built CLI a dozen times or more: on a loaded machine that outlasts the default minute.
vi.setConfig({ testTimeout: 180_000 });

let box: Sandbox;
beforeEach(async () => {
  box = sandbox();
  const store = await openSqliteStore({ path: box.db });
  await addMemory(store, { agentId: 'ops', content: 'Deploys stall on the migration lock.' });
  await store.close();
});
afterEach(() => box.cleanup());

const errorOf = (result: { stdout: unknown }) => json<{ error: { code: string; message: string } }>(result as never).error;
const HUGE = '99999999999999999999';

describe('exit-code classes (defect 6)', () => {
  it.each([
    [['search', 'deploy', '--agent', 'ops', '--limit', HUGE]],
    [['memory', 'list', '--agent', 'ops', '--limit', HUGE]],
    [['rem', 'candidates', '--agent', 'ops', '--limit', HUGE]],
    [['rem', 'runs', '--limit', HUGE]],
    [['rem', 'nightly', 'run-once', '--keep-last', HUGE]],
    [['rem', 'nightly', 'run-once', '--keep-days', '0']],
  ])('%j is bad input: exit 2, not 1', async (args) => {
    const result = await box.hippo([...args, '--json']);
    expect(result.exitCode, String(result.stderr)).toBe(2);
    expect(errorOf(result).message).toMatch(/must be a whole number/);
  });

  it.each([[['memory', 'add', 'x']], [['search', 'x']], [['memory', 'list']]])('--db /dev/null on %j: exit 2, not "disk I/O error"', async (args) => {
    const result = await box.hippo([...args, '--db', '/dev/null', '--json']);
    expect([result.exitCode, errorOf(result).code]).toEqual([2, 'not_a_database']);
  });

  it('a path under /proc that can never be created: exit 2 at once (no endless mkdir)', async () => {
    const result = await box.hippo(['memory', 'add', 'x', '--db', '/proc/hippo-nowhere/deep/x.db', '--json'], { timeout: 30_000 });
    expect([result.exitCode, errorOf(result).code]).toEqual([2, 'cannot_create_database']);
  });
});

describe('read-only commands create no store (defect 7)', () => {
  it.each([
    [['search', 'foo', '--agent', 'ops']],
    [['memory', 'list', '--agent', 'ops']],
    [['memory', 'show', 'mem_01JD0000000000000000000000', '--agent', 'ops']],
    [['memory', 'export', '--agent', 'ops']],
    [['rem', 'candidates', '--agent', 'ops']],
    [['rem', 'runs']],
    [['rem', 'snapshots']],
    [['rem', 'nightly', 'run-once']],
  ])('%j on a typo path: exit 3 "no hippo store at PATH", no file, no directory', async (args) => {
    const typo = join(box.dir, 'nodir', 'typo.db');
    const flat = join(box.dir, 'typo.db');
    for (const path of [typo, flat]) {
      const result = await box.hippo([...args, '--db', path]);
      expect(result.exitCode, String(result.stderr)).toBe(3);
      expect(String(result.stderr)).toContain(`no hippo store at ${path}`);
    }
    expect(readdirSync(box.dir).filter((name) => name.startsWith('nodir') || name.startsWith('typo'))).toEqual([]);
  });

  it('an empty file is no store either (exit 3); a SQLite file that is not hippo’s is exit 2; both left as they were', async () => {
    const empty = join(box.dir, 'empty.db');
    writeFileSync(empty, '');
    const foreign = join(box.dir, 'foreign.db');
    const db = new Database(foreign);
    db.exec('CREATE TABLE notes (text TEXT)');
    db.close();
    const foreignBytes = readFileSync(foreign);
    const none = await box.hippo(['search', 'foo', '--agent', 'ops', '--db', empty, '--json']);
    expect([none.exitCode, errorOf(none).code]).toEqual([3, 'store_not_found']);
    // A SQLite file with tables of its own is someone else's database: bad input, and left as it was.
    const notOurs = await box.hippo(['search', 'foo', '--agent', 'ops', '--db', foreign, '--json']);
    expect([notOurs.exitCode, errorOf(notOurs).code]).toEqual([2, 'not_a_hippo_database']);
    expect(readFileSync(foreign).equals(foreignBytes)).toBe(true);
    expect(readFileSync(empty).length).toBe(0);
    expect(existsSync(`${empty}-wal`)).toBe(false);
    // memory add still creates a store where there is none.
    const added = await box.hippo(['memory', 'add', 'first', '--agent', 'ops', '--db', join(box.dir, 'new', 'hippo.db')]);
    expect(added.exitCode).toBe(0);
  });
});

describe('snapshots that do not eat the disk', () => {
  interface NightJson {
    run: { id: string; snapshotPath: string | null; steps: Record<string, string> };
    snapshot: { path: string; unchanged: boolean; pruned: string[] } | null;
  }
  const night = async (args: string[] = []) => {
    const result = await box.hippo(['rem', 'nightly', 'run-once', '--json', ...args]);
    expect(result.exitCode, String(result.stderr)).toBe(0);
    return json<NightJson>(result);
  };
  const snapshotNames = () => readdirSync(join(box.dir, 'data', 'snapshots', 'hippo.db')).filter((name) => !name.startsWith('.'));

  it('a night with nothing new takes no snapshot (recorded "unchanged"); a change brings one back', async () => {
    const first = await night();
    expect(first.snapshot).toMatchObject({ unchanged: false });
    const second = await night();
    expect(second.snapshot).toMatchObject({ unchanged: true, path: first.snapshot!.path });
    expect(second.run.steps.snapshot).toMatch(/unchanged/);
    expect(snapshotNames()).toHaveLength(1);
    const text = await box.hippo(['rem', 'nightly', 'run-once']);
    expect(String(text.stdout)).toMatch(/unchanged/);
    expect((await box.hippo(['memory', 'add', 'something new', '--agent', 'ops'])).exitCode).toBe(0);
    const third = await night();
    expect(third.snapshot).toMatchObject({ unchanged: false });
    expect(snapshotNames()).toHaveLength(2);
  });

  it('thins with the --keep-* flags (never below the newest 3) and rem snapshots shows the total size', async () => {
    for (let index = 0; index < 5; index++) {
      expect((await box.hippo(['memory', 'add', `change ${index}`, '--agent', 'ops'])).exitCode).toBe(0);
      await night(['--keep-last', '0', '--keep-hourly', '0', '--keep-daily', '0', '--keep-weekly', '0']);
    }
    expect(snapshotNames()).toHaveLength(3);
    const listing = json<{ snapshots: { sizeBytes: number }[]; totalBytes: number }>(await box.hippo(['rem', 'snapshots', '--json']));
    expect(listing.snapshots).toHaveLength(3);
    expect(listing.totalBytes).toBe(listing.snapshots.reduce((sum, snapshot) => sum + snapshot.sizeBytes, 0));
    expect(String((await box.hippo(['rem', 'snapshots'])).stdout)).toMatch(/3 snapshots, [\d.]+ [KM]i?B in total/);
  });

  it('rem nightly schedule explains the trade-off of its cadence', async () => {
    const result = await box.hippo(['rem', 'nightly', 'schedule']);
    expect(result.exitCode).toBe(0);
    const text = String(result.stdout).replaceAll(/\n#\s*/g, ' ');
    expect(text).toContain('A run with nothing new is cheap: no snapshot');
    expect(text).toMatch(/thins the snapshots to at most 38/);
    expect(json<{ cadence: string }>(await box.hippo(['rem', 'nightly', 'schedule', '--json'])).cadence).toMatch(/^Every 30 minutes\./);
  });
});

describe('an import that listens', () => {
  it('Ctrl-C inside one big file stops it: the file rolled back, what landed reported, exit 130', async () => {
    const small = join(box.dir, 'a-small.jsonl');
    writeFileSync(small, '{"content":"landed whole"}\n');
    const big = join(box.dir, 'b-big.jsonl');
    const line = (index: number) => JSON.stringify({ content: `imported note number ${index} ${'x'.repeat(40)}` });
    writeFileSync(big, `${Array.from({ length: 400_000 }, (_, index) => line(index)).join('\n')}\n`);
    const child = box.hippo(['memory', 'import', small, big, '--agent', 'ops', '--json']) as unknown as ResultPromise;
    // Wait until the process holds the big file open (the import reads it a piece at a time inside its transaction) and
    // has read on in it (rows of that file are being written), then interrupt.
    const readSoFar = () => {
      try {
        return Number(/rchar: (\d+)/.exec(readFileSync(`/proc/${child.pid}/io`, 'utf8'))![1]);
      } catch {
        return 0;
      }
    };
    const holdsBig = () => {
      try {
        return readdirSync(`/proc/${child.pid}/fd`).some((fd) => {
          try {
            return readlinkSync(`/proc/${child.pid}/fd/${fd}`) === big;
          } catch {
            return false;
          }
        });
      } catch {
        return false;
      }
    };
    let finished = false;
    void child.finally(() => (finished = true));
    while (!finished && !holdsBig()) await new Promise((resolve) => setTimeout(resolve, 20));
    const opened = readSoFar();
    const since = Date.now();
    while (!finished && readSoFar() <= opened && Date.now() - since < 2_000) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(finished).toBe(false);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode, String(result.stderr)).toBe(130);
    const error = json<{ error: { code: string; message: string; details: { imported: number } } }>(result).error;
    expect(error).toMatchObject({ code: 'interrupted', details: { imported: 1 } });
    expect(error.message).toContain(`nothing from ${big} (its transaction was rolled back)`);
    const db = new Database(box.db, { readonly: true });
    try {
      expect(db.prepare("SELECT content FROM memories WHERE agent_id = 'ops' ORDER BY content").all()).toEqual([
        { content: 'Deploys stall on the migration lock.' },
        { content: 'landed whole' },
      ]);
    } finally {
      db.close();
    }
  });
});
