import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirectoryError, ensureDirectory } from '../../src/core/dirs.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hippo-dirs-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ensureDirectory (no recursive mkdir)', () => {
  it('creates every missing level with the mode given and leaves existing ones alone', () => {
    ensureDirectory(join(dir, 'a', 'b', 'c'));
    for (const level of ['a', 'a/b', 'a/b/c']) expect(statSync(join(dir, level)).mode & 0o777).toBe(0o700);
    // Existing levels keep their mode and what they hold; only the missing ones below are made, with the mode given.
    chmodSync(join(dir, 'a'), 0o755);
    chmodSync(join(dir, 'a', 'b'), 0o750);
    writeFileSync(join(dir, 'a', 'b', 'kept.txt'), 'kept');
    const before = statSync(join(dir, 'a', 'b')).ino;
    ensureDirectory(join(dir, 'a', 'b', 'c', 'd'), 0o711);
    expect(statSync(join(dir, 'a')).mode & 0o777).toBe(0o755);
    expect(statSync(join(dir, 'a', 'b')).mode & 0o777).toBe(0o750);
    expect(statSync(join(dir, 'a', 'b', 'c')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'a', 'b', 'c', 'd')).mode & 0o777).toBe(0o711);
    expect(statSync(join(dir, 'a', 'b')).ino).toBe(before);
    expect(readFileSync(join(dir, 'a', 'b', 'kept.txt'), 'utf8')).toBe('kept');
    expect(readdirSync(join(dir, 'a', 'b')).sort()).toEqual(['c', 'kept.txt']);
    // All there already: nothing changes.
    ensureDirectory(join(dir, 'a', 'b'));
    expect(statSync(join(dir, 'a', 'b')).mode & 0o777).toBe(0o750);
  });

  it('refuses a path below a file (ENOTDIR), creating nothing', () => {
    writeFileSync(join(dir, 'file'), '');
    expect(() => ensureDirectory(join(dir, 'file', 'x', 'y'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    expect(() => ensureDirectory(join(dir, 'file'))).toThrow(expect.objectContaining({ path: join(dir, 'file'), code: 'ENOTDIR' }));
  });

  it('gives up at once on a level procfs will never create, instead of spinning', () => {
    const error = (() => {
      try {
        ensureDirectory('/proc/hippo-nowhere/deep/er');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(DirectoryError);
    expect(error).toMatchObject({ path: '/proc/hippo-nowhere', code: 'ENOENT' });
  });
});
