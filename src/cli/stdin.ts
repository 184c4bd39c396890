import { decodeUtf8 } from '../core/import.js';

/** Reads all of stdin as strict UTF-8 (non-UTF-8 input is refused, never mangled). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return decodeUtf8(Buffer.concat(chunks), 'stdin');
}
