/**
 * Text read in: files and stdin, bounded (a size limit named in the error) and decoded as strict UTF-8 (docs/design.md
 * §10).
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { UsageError, type ErrorCode } from './errors.js';

/**
 * Most bytes read from one file (or stdin) unless the caller says less: 500 MiB, under the longest string V8 can hold
 * (just under 512 Mi UTF-16 units), so a file is refused for its size, by name, rather than failing to decode.
 */
export const MAX_FILE_BYTES = 500 * 1024 * 1024;

/** How much one read may take, and how to say so when the input is larger (docs/design.md §10). */
export interface ReadLimit {
  maxBytes: number;
  /** What the limit is for, in words that end "… is at most N": "memory text", "extract's input (a file or stdin)". */
  what: string;
  /** The error code (default `input_too_large`, exit 2). */
  code?: ErrorCode;
  /** Extra bytes read past `maxBytes` and not counted in the message (stdin's one trailing newline, CRLF included). */
  slack?: number;
  /** What to do instead, after the reason. */
  fix?: string;
}

export const DEFAULT_READ_LIMIT: ReadLimit = { maxBytes: MAX_FILE_BYTES, what: 'a file read as text' };

/** `65536` → "64 KiB", `67108864` → "64 MiB", `629145600` → "600 MiB". */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

/** The input is over `limit`: exit 2 naming the source, the limit and (when known) the size. */
export function inputTooLarge(source: string, limit: ReadLimit, size?: number): UsageError {
  const sized = size === undefined ? '' : ` (${formatBytes(size)})`;
  return new UsageError(
    limit.code ?? 'input_too_large',
    `${source} is over ${formatBytes(limit.maxBytes)}${sized}: ${limit.what} is at most ${formatBytes(limit.maxBytes)}${limit.fix ? `; ${limit.fix}` : ''}`,
    { details: { source, maxBytes: limit.maxBytes, ...(size === undefined ? {} : { sizeBytes: size }) } },
  );
}

/** Whether more than `limit` allows has been read: `read` bytes so far. */
export function overLimit(read: number, limit: ReadLimit): boolean {
  return read > limit.maxBytes + (limit.slack ?? 0);
}

/**
 * Decodes strictly: text that is not valid UTF-8 is refused rather than read with replacement characters. A byte-order
 * mark is dropped unless `keepBom` (fact offsets must index the text exactly as Node reads the file).
 */
export function decodeUtf8(bytes: Uint8Array, path: string, options: { keepBom?: boolean } = {}): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STRING_TOO_LONG') throw inputTooLarge(path, DEFAULT_READ_LIMIT, bytes.byteLength);
    throw notUtf8(path);
  }
  return text.charCodeAt(0) === 0xfeff && !options.keepBom ? text.slice(1) : text;
}

/**
 * A whole file as strict UTF-8, read with a bound: a regular file larger than `limit` is refused before anything is
 * read, a pipe (`<(…)`, /dev/stdin) is read until it passes the limit; a directory, a device (/dev/zero) or a socket
 * is not a file to read text from. A file that cannot be read is a usage error naming it and the system's reason.
 */
export function readUtf8File(path: string, options: { keepBom?: boolean; limit?: ReadLimit; regularOnly?: boolean } = {}): string {
  const limit = options.limit ?? DEFAULT_READ_LIMIT;
  const fd = openText(path, limit, options.regularOnly ?? false);
  try {
    return decodeUtf8(readBounded(fd, path, limit), path, options);
  } finally {
    closeSync(fd);
  }
}

/** `path` is not a regular file (a directory, a device, a socket, a named pipe where none is read): exit 2. */
function notRegular(path: string, stats: Stats): UsageError {
  return new UsageError('not_a_regular_file', `${path} is ${fileKind(stats)}, not a regular file`, { details: { path } });
}

/**
 * Opens `path` for reading as text with the checks of `readUtf8File` (unreadable, not a regular file, over the limit
 * by its size): the descriptor, or a usage error naming the file. With `regularOnly`, a named pipe is refused like a
 * device — by what the file is, never by its name — and is not opened at all.
 */
function openText(path: string, limit: ReadLimit, regularOnly = false): number {
  let fd: number;
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    throw unreadable(path, error);
  }
  if (regularOnly && !stats.isFile()) throw notRegular(path, stats);
  try {
    // A named pipe is opened without blocking: a plain open waits for a writer that may never come, and would hang
    // the command past Ctrl-C. A pipe with no writer then reads as empty; one with a writer is read to its end.
    fd = openSync(path, stats.isFIFO() ? constants.O_RDONLY | constants.O_NONBLOCK : 'r');
  } catch (error) {
    throw unreadable(path, error);
  }
  try {
    const opened = fstatSync(fd);
    if (regularOnly ? !opened.isFile() : !opened.isFile() && !opened.isFIFO()) throw notRegular(path, opened);
    if (opened.isFile() && overLimit(opened.size, limit)) throw inputTooLarge(path, limit, opened.size);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** The next bytes of `fd` into `chunk` (0 at the end), waiting on a non-blocking pipe that has nothing in it yet. */
function readSome(fd: number, path: string, chunk: Buffer): number {
  for (;;) {
    try {
      return readSync(fd, chunk, 0, chunk.length, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
        // A non-blocking pipe with nothing in it yet: wait a moment rather than spin.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      throw unreadable(path, error);
    }
  }
}

/** Reads `fd` to its end, or throws once more than `limit` allows has come (a growing file, a pipe). */
function readBounded(fd: number, path: string, limit: ReadLimit): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(1024 * 1024);
    const read = readSome(fd, path, chunk);
    if (read === 0) return Buffer.concat(chunks, total);
    total += read;
    if (overLimit(total, limit)) throw inputTooLarge(path, limit);
    chunks.push(read === chunk.length ? chunk : chunk.subarray(0, read));
  }
}

/**
 * A file read as text a piece at a time, with the checks and errors of `readUtf8File` (a byte-order mark is kept):
 * the file is opened and checked when this is made, so a missing or over-large file is refused before anything is
 * read; the text then comes in pieces of about `chunkBytes` bytes (a character split between reads is held back for
 * the next piece), and text that is not UTF-8 is refused when it is reached. Joined, the pieces are exactly what
 * `readUtf8File(path, { keepBom: true })` returns. Close it when done (reading to the end closes it too).
 */
export class Utf8FileChunks implements Iterable<string> {
  private fd: number | undefined;
  constructor(
    readonly path: string,
    private readonly options: { limit?: ReadLimit; chunkBytes?: number; regularOnly?: boolean } = {},
  ) {
    this.fd = openText(path, options.limit ?? DEFAULT_READ_LIMIT, options.regularOnly ?? false);
  }

  *[Symbol.iterator](): Iterator<string> {
    const fd = this.fd;
    if (fd === undefined) return;
    const limit = this.options.limit ?? DEFAULT_READ_LIMIT;
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    const chunk = Buffer.allocUnsafe(this.options.chunkBytes ?? 1024 * 1024);
    let total = 0;
    try {
      for (;;) {
        const read = readSome(fd, this.path, chunk);
        total += read;
        if (overLimit(total, limit)) throw inputTooLarge(this.path, limit);
        const text = this.decode(decoder, read === 0 ? undefined : chunk.subarray(0, read));
        if (text !== '') yield text;
        if (read === 0) return;
      }
    } finally {
      this.close();
    }
  }

  private decode(decoder: InstanceType<typeof TextDecoder>, bytes: Uint8Array | undefined): string {
    try {
      return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
    } catch {
      throw notUtf8(this.path);
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

function notUtf8(path: string): UsageError {
  return new UsageError('not_utf8', `${path} is not valid UTF-8 text; convert it (e.g. iconv -t UTF-8) and try again`);
}

/** Why a file could not be read, in words (the system's code stays in `details`). */
const UNREADABLE_WORDS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EIO: 'an input/output error',
};

function unreadable(path: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  const words = UNREADABLE_WORDS[code];
  return new UsageError('unreadable_file', `${path}: ${words ?? `cannot read (${code})`}`, { details: { path, reason: code } });
}

function fileKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isFIFO()) return 'a named pipe';
  return 'not a file';
}
