/**
 * Writing a file so that readers see the old content or the new, never half of it: into a temp file (mode 0600)
 * beside the target, renamed into place once complete. `memory export --output` and `config set`/`unset` write this
 * way (one helper; docs/decisions.md).
 */
import { once } from 'node:events';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from './errors.js';

/** The reasons a write fails that are the user's to fix (a directory, no permission, no such folder): exit 2. */
const USER_CAUSES = new Set(['EISDIR', 'EACCES', 'ENOENT', 'EPERM', 'ENOTDIR', 'EROFS']);

function cannotWrite(path: string, error: unknown): UsageError {
  return new UsageError('cannot_write_output', `cannot write ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { details: { path } });
}

/**
 * Calls `write` with a stream to a temp file beside `path` (mode 0600), then renames it over `path`. On any failure
 * the temp file is removed and `path` is left as it was. Returns what `write` returned.
 */
export async function writeFileAtomically<T>(path: string, write: (stream: NodeJS.WritableStream) => Promise<T>): Promise<T> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const stream = createWriteStream(temp, { mode: 0o600 });
  try {
    await once(stream, 'open');
  } catch (error) {
    throw cannotWrite(path, error);
  }
  try {
    const result = await write(stream);
    stream.end();
    await once(stream, 'finish');
    renameSync(temp, path);
    return result;
  } catch (error) {
    stream.destroy();
    rmSync(temp, { force: true });
    if (USER_CAUSES.has((error as NodeJS.ErrnoException).code ?? '')) throw cannotWrite(path, error);
    throw error;
  }
}
