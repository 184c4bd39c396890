import { UsageError } from '../core/errors.js';
import { decodeUtf8, readUtf8File } from '../core/text.js';

/** Reads all of stdin as strict UTF-8 (non-UTF-8 input is refused, never mangled). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return decodeUtf8(Buffer.concat(chunks), 'stdin');
}

/**
 * Stdin, when something is piped in: on a terminal nobody is typing the input, so the command stops with `message`
 * (exit 2) instead of waiting for it.
 */
export async function pipedStdin(code: string, message: string): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError(code, message);
  return readStdin();
}

/** A file as strict UTF-8, or piped stdin for `-` or no file at all. */
export async function fileOrStdin(file: string | undefined, noInput: { code: string; message: string }): Promise<string> {
  return file === undefined || file === '-' ? pipedStdin(noInput.code, noInput.message) : readUtf8File(file);
}
