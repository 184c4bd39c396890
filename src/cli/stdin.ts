import { UsageError, type ErrorCode } from '../core/errors.js';
import { decodeUtf8, DEFAULT_READ_LIMIT, inputTooLarge, overLimit, readUtf8File, type ReadLimit } from '../core/read-text.js';

/**
 * Reads stdin as strict UTF-8 (non-UTF-8 input is refused, never mangled), with a bound: once more than `limit` allows
 * has come, the read stops and the command says so (docs/design.md §10), instead of buffering gigabytes first.
 */
export async function readStdin(limit: ReadLimit = DEFAULT_READ_LIMIT): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).byteLength;
    // Leaving the loop destroys stdin: the writer gets a broken pipe instead of filling our memory.
    if (overLimit(size, limit)) throw inputTooLarge('stdin', limit);
    chunks.push(chunk as Buffer);
  }
  return decodeUtf8(Buffer.concat(chunks), 'stdin');
}

/**
 * Stdin, when something is piped in: on a terminal nobody is typing the input, so the command stops with `message`
 * (exit 2) instead of waiting for it.
 */
export async function pipedStdin(code: ErrorCode, message: string, limit?: ReadLimit): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError(code, message);
  return readStdin(limit);
}

/** A file as strict UTF-8, or piped stdin for `-` or no file at all; either read within `limit`. */
export async function fileOrStdin(file: string | undefined, noInput: { code: ErrorCode; message: string }, limit?: ReadLimit): Promise<string> {
  return file === undefined || file === '-' ? pipedStdin(noInput.code, noInput.message, limit) : readUtf8File(file, { limit });
}
