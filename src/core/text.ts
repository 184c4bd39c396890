/**
 * Text crossing the edge of the program: bytes read in (strict UTF-8), and stored or model-derived text on its way to
 * a terminal (the one text guard, docs/output.md). Nothing else decides which characters are safe to show.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { UsageError } from './errors.js';

/** What the guard shows in place of a control or invisible format character. */
export const MARKER = '\uFFFD';

/**
 * C0 and C1 control characters other than tab and line feed. ESC, BEL, CSI and friends start terminal escape sequences
 * (clear the screen, retitle the window, rewrite what a reviewer sees); a bare CR lets later text overwrite a line.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/gu;

/**
 * Unicode's Bidi_Control characters: embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the
 * LRM, RLM and ALM marks. An RLO (U+202E) makes the text after it read backwards, so stored text could show the
 * reviewer something other than what it says.
 */
const BIDI_CONTROL = /\p{Bidi_Control}/gu;

/**
 * Other invisible format characters (Unicode's Cf) that hide text or change how it reads without showing themselves:
 * the soft hyphen, zero-width space, word joiner and invisible operators, the deprecated format controls, the BOM,
 * interlinear annotation marks, and the like. Kept: ZWNJ and ZWJ (emoji sequences and several scripts need them), the
 * prepended concatenation marks that draw visibly with their digits, and the Egyptian hieroglyph format controls.
 */
const INVISIBLE_FORMAT = /[\u00AD\u180E\u200B\u2060-\u2064\u206A-\u206F\uFEFF\uFFF9-\uFFFB\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0001}]/gu;

/**
 * Unicode tag characters (U+E0020–U+E007F) are invisible and can carry a whole hidden ASCII message; they are kept
 * only where they belong, in an emoji tag sequence after a black flag (🏴 + tags + cancel tag: the flags of England,
 * Scotland and Wales).
 */
const STRAY_TAG = /(?<!\u{1F3F4}[\u{E0020}-\u{E007E}]*)[\u{E0020}-\u{E007F}]/gu;

/** True when `text` holds a C0/C1 control character other than tab and line feed, or a bidi control character. */
export function hasControlCharacters(text: string): boolean {
  CONTROL.lastIndex = 0;
  BIDI_CONTROL.lastIndex = 0;
  return CONTROL.test(text) || BIDI_CONTROL.test(text);
}

/**
 * True when the text guard would show a marker for some character of `text`: a C0/C1 control (tab, line feed and CR
 * included), a bidi control, an invisible format character or a stray tag character. For names that must read as
 * what they are (agent ids): one that holds such a character can look like another.
 */
export function hasHiddenCharacters(text: string): boolean {
  return [/\p{Cc}/u, BIDI_CONTROL, INVISIBLE_FORMAT, STRAY_TAG].some((pattern) => {
    pattern.lastIndex = 0;
    return pattern.test(text);
  });
}

export interface SafeTextOptions {
  /**
   * `keep` (default): line breaks stay, CRLF and a bare CR both becoming a line feed. `join`: one line — every run of
   * whitespace (line breaks included) becomes one space, and the ends are trimmed.
   */
  lines?: 'keep' | 'join';
  /** What a tab becomes (default: it stays a tab). The review screen measures columns, so it uses spaces. */
  tab?: string;
}

/**
 * The one text guard: makes stored or model-derived text (memory content, claims, tags, model ids, agent ids, file
 * names) safe to print on a terminal. C0/C1 control characters other than tab and newline, bidi controls, and
 * invisible format characters each become one visible U+FFFD (�), so text can neither drive the terminal nor hide or
 * reorder what a reader sees. Every text renderer and the review screen pass such text through this.
 */
export function safeText(text: string, options: SafeTextOptions = {}): string {
  let out = text.replace(/\r\n?/g, '\n');
  if (options.tab !== undefined) out = out.replaceAll('\t', options.tab);
  out = out.replace(CONTROL, MARKER).replace(BIDI_CONTROL, MARKER).replace(INVISIBLE_FORMAT, MARKER).replace(STRAY_TAG, MARKER);
  return options.lines === 'join' ? out.replace(/\s+/g, ' ').trim() : out;
}

/**
 * Characters that JSON.stringify leaves raw but a terminal would act on (C1 controls such as the 8-bit CSI, bidi
 * controls) or a JavaScript parser would split lines on (U+2028, U+2029): written as `\uXXXX` escapes, which JSON
 * parsers read back as the very same characters.
 */
const JSON_UNSAFE = /[\u007F-\u009F\p{Bidi_Control}\u2028\u2029]/gu;

/** A JSON document as text on one line, terminal-safe and lossless: every `--json` document and exported line (docs/output.md). */
export function jsonText(value: unknown): string {
  return JSON.stringify(value).replace(JSON_UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// Items of an array written whole go out this many to a piece.
const JSON_BATCH = 256;

/**
 * `jsonText(value)` in pieces, for a large document: an object's members and an array's items are written one at a
 * time down to `depth` levels (each piece below that is one `jsonText`), so the whole document is never one string.
 * Joined, the pieces are exactly `jsonText(value)` for plain data (objects, arrays, strings, numbers, booleans, null).
 */
export function* jsonTextPieces(value: unknown, depth = 2): Generator<string> {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') {
    // As JSON.stringify inside an array (an object's member of this kind is skipped before it gets here).
    yield 'null';
    return;
  }
  if (depth <= 0 || typeof value !== 'object' || value === null || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    yield jsonText(value);
    return;
  }
  if (Array.isArray(value)) {
    yield '[';
    if (depth === 1) {
      // Items written whole: a batch at a time, each batch one `jsonText` of its items with the brackets taken off.
      for (let from = 0; from < value.length; from += JSON_BATCH) yield `${from > 0 ? ',' : ''}${jsonText(value.slice(from, from + JSON_BATCH)).slice(1, -1)}`;
    } else {
      for (const [index, item] of value.entries()) {
        if (index > 0) yield ',';
        yield* jsonTextPieces(item, depth - 1);
      }
    }
    yield ']';
    return;
  }
  yield '{';
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    yield `${first ? '' : ','}${jsonText(key)}:`;
    first = false;
    yield* jsonTextPieces(item, depth - 1);
  }
  yield '}';
}

/**
 * True when `text` is well-formed Unicode: it holds no lone surrogate (an unpaired U+D800–U+DFFF). JSON escapes such
 * as `"\ud800"` can put one in a string, but no UTF-8 can encode it: stored, it would become bytes that are not UTF-8
 * at all, and an export would no longer read back. Every text that enters hippo from JSON (an imported line, a model's
 * answer) and every memory written passes this one check (docs/design.md §10).
 */
export function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** The first string inside `value` (a parsed JSON value) that is not well-formed, as a path like `tags.1`; else undefined. */
export function illFormedField(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return isWellFormed(value) ? undefined : path || '(root)';
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = illFormedField(item, path ? `${path}.${index}` : String(index));
      if (found !== undefined) return found;
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      // A key is shown only when it is itself well-formed (it names the field in the message).
      if (!isWellFormed(key)) return path || '(root)';
      const found = illFormedField(item, path ? `${path}.${key}` : key);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The words for a lone surrogate, after "holds": one phrase for every place that refuses one. */
export const LONE_SURROGATE = 'a lone surrogate (an unpaired \\ud800–\\udfff escape), which is not Unicode text and cannot be stored as UTF-8';

/** Refuses text holding a lone surrogate: exit 2, code `lone_surrogate`, naming `what` (never quoting the text). */
export function requireWellFormed(text: string, what: string): string {
  if (!isWellFormed(text)) throw new UsageError('lone_surrogate', `${what} holds ${LONE_SURROGATE}`, { details: { field: what } });
  return text;
}

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
  code?: string;
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
    private readonly options: { limit?: ReadLimit; chunkBytes?: number } = {},
  ) {
    this.fd = openText(path, options.limit ?? DEFAULT_READ_LIMIT);
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

function unreadable(path: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  return new UsageError('unreadable_file', `${path}: cannot read (${code})`, { details: { path } });
}

function fileKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isFIFO()) return 'a named pipe';
  return 'not a file';
}
