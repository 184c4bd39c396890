import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
    ensureDirectory(join(dir, 'a', 'b', 'c'));
    expect(statSync(join(dir, 'a', 'b', 'c')).isDirectory()).toBe(true);
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
