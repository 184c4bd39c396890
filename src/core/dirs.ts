/**
 * Creating directories without `mkdirSync(…, { recursive: true })`: on Node 20 that call spins forever (100 % CPU,
 * only SIGKILL stops it) on a path whose missing parent can never be created, such as `/proc/x/y` — procfs answers
 * ENOENT to every mkdir and the recursion keeps retrying. So the parent chain is walked here: the nearest existing
 * ancestor must be a directory, and each missing level below it is created on its own, once.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export class DirectoryError extends Error {
  constructor(
    /** The level that could not be created, or the ancestor that is not a directory. */
    readonly path: string,
    /** An errno code (`ENOENT`, `EACCES`, `ENOTDIR`, …). */
    readonly code: string,
  ) {
    super(`cannot create the directory ${path} (${code})`);
  }
}

/**
 * Makes sure `dir` exists as a directory, creating every missing level with `mode` (existing ones are left as they
 * are). Throws DirectoryError naming the level that failed and its errno code; never loops.
 */
export function ensureDirectory(dir: string, mode = 0o700): void {
  const missing: string[] = [];
  let current = resolve(dir);
  for (;;) {
    let isDirectory: boolean | undefined;
    try {
      isDirectory = statSync(current).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw new DirectoryError(current, code ?? 'error');
    }
    if (isDirectory === true) break;
    if (isDirectory === false) throw new DirectoryError(current, 'ENOTDIR');
    const parent = dirname(current);
    if (parent === current) throw new DirectoryError(current, 'ENOENT');
    missing.push(current);
    current = parent;
  }
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level, { mode });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      // Another process made it meanwhile: fine, as long as it is a directory.
      if (code === 'EEXIST' && statSync(level).isDirectory()) continue;
      throw new DirectoryError(level, code);
    }
  }
}
