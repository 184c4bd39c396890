/**
 * `memory export`: one JSON line per memory, in the form `memory import` reads back losslessly — to a stream, or to a
 * file that is replaced only once the export is complete.
 */
import { once } from 'node:events';
import { writeFileAtomically } from '../files.js';
import type { Memory } from '../records.js';
import { jsonText } from '../json-text.js';

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
 * Exports to a temp file (mode 0600) beside the target and renames it into place (`writeFileAtomically`), so a failure
 * never clobbers an old backup. Returns how many memories were written.
 */
export async function exportMemoriesToFile(path: string, memories: Iterable<Memory> | AsyncIterable<Memory>): Promise<number> {
  return writeFileAtomically(path, (stream) => writeMemoryLines(stream, memories));
}
