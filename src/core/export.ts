/**
 * `memory export`: one JSON line per memory, in the form `memory import` reads back losslessly — to a stream, or to a
 * file that is replaced only once the export is complete.
 */
import { once } from 'node:events';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from './errors.js';
import type { Memory } from './records.js';
import { jsonText } from './text.js';

/** Writes one JSON line per memory, waiting for the stream to drain (a slow pipe must not cut the export short). */
export async function writeMemoryLines(stream: NodeJS.WritableStream, memories: Iterable<Memory> | AsyncIterable<Memory>): Promise<number> {
  let count = 0;
  for await (const memory of memories) {
    if (!stream.write(`${jsonText(memory)}\n`)) await once(stream, 'drain');
    count++;
  }
  return count;
}

/**
 * Exports to a temp file (mode 0600) beside the target and renames it into place, so a failure never clobbers an old
 * backup. Returns how many memories were written.
 */
export async function exportMemoriesToFile(path: string, memories: Iterable<Memory> | AsyncIterable<Memory>): Promise<number> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const stream = createWriteStream(temp, { mode: 0o600 });
  try {
    await once(stream, 'open');
  } catch (error) {
    throw new UsageError('cannot_write_output', `cannot write ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const count = await writeMemoryLines(stream, memories);
    stream.end();
    await once(stream, 'finish');
    renameSync(temp, path);
    return count;
  } catch (error) {
    stream.destroy();
    rmSync(temp, { force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EISDIR' || code === 'EACCES' || code === 'ENOENT') throw new UsageError('cannot_write_output', `cannot write ${path} (${code})`);
    throw error;
  }
}
