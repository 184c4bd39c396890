import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

describe('a database locked by another process', () => {
  it('waits the busy timeout, then fails with exit 1 "database is busy", losing nothing', async () => {
    expect((await box.hippo(['memory', 'add', 'first'])).exitCode).toBe(0);
    const holder = new Database(box.db);
    holder.pragma('busy_timeout = 0');
    holder.exec('BEGIN IMMEDIATE');
    try {
      const result = await box.hippo(['memory', 'add', 'second', '--json'], { env: { HIPPO_BUSY_TIMEOUT_MS: '300' } });
      expect(result.exitCode).toBe(1);
      const { error } = json<{ error: { code: string; message: string } }>(result);
      expect(error.code).toBe('database_busy');
      expect(error.message).toContain('database is busy');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const listed = json<{ memories: { content: string }[] }>(await box.hippo(['memory', 'list', '--json']));
    expect(listed.memories.map((memory) => memory.content)).toEqual(['first']);
    expect((await box.hippo(['memory', 'add', 'second'])).exitCode).toBe(0);
  });
});

/** A tiny tmpfs needs root; elsewhere the test says why it did not run. */
function mountTinyDisk(dir: string, size: string): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a full disk during import', () => {
  it('rolls the file back whole and says so (exit 1), keeping earlier files and the database intact', async (context) => {
    const disk = join(box.dir, 'tiny');
    if (!mountTinyDisk(disk, '400k')) {
      context.skip('cannot mount a tmpfs here (needs root); the full-disk test did not run');
      return;
    }
    try {
      const db = join(disk, 'hippo.db');
      const small = join(box.dir, 'a-small.jsonl');
      const big = join(box.dir, 'b-big.jsonl');
      writeFileSync(small, Array.from({ length: 20 }, (_, index) => JSON.stringify({ content: `small note ${index}` })).join('\n'));
      writeFileSync(big, Array.from({ length: 4000 }, (_, index) => JSON.stringify({ content: `big note ${index} ${'lorem ipsum '.repeat(20)}` })).join('\n'));
      const result = await box.hippo(['memory', 'import', small, big, '--db', db, '--json']);
      expect(result.exitCode).toBe(1);
      const { error } = json<{ error: { code: string; message: string } }>(result);
      expect(error.code).toBe('disk_full');
      expect(error.message).toContain('20 memories from 1 earlier files were imported, nothing from this one');
      const check = new Database(db, { readonly: true });
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(check.prepare('SELECT count(*) FROM memories').pluck().get()).toBe(20);
      check.close();
    } finally {
      execFileSync('umount', [disk]);
    }
  });
});
