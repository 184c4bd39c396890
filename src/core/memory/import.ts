import { readdirSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { z } from 'zod';
import { ExitCode, HippoError, InterruptedError, UsageError } from '../errors.js';
import { buildMemory, validateThread, type NewMemory } from './memory.js';
import { DURABILITIES, type Memory } from '../records.js';
import { checkNewAgents } from '../agent-ids.js';
import type { Store, StoreOps } from '../store/port.js';
import { readUtf8File, Utf8FileChunks } from '../read-text.js';
import { MARKER, safeText } from '../text-guard.js';
import { illFormedField, LONE_SURROGATE } from '../well-formed.js';

export const IMPORTABLE_EXTENSIONS = ['.jsonl', '.md', '.markdown', '.txt'] as const;

export interface FileImportResult {
  path: string;
  imported: number;
  /** Lines whose id already exists in the database: skipped, never overwritten. */
  existing: number;
  /** Memories whose normalised content equals one already stored for that agent (imported, and reported). */
  duplicates: number;
  error?: { code: string; message: string };
}

export interface ImportResult {
  /** A dry run: the counts say what would have been imported, skipped or refused; nothing was written. */
  dryRun?: boolean;
  imported: number;
  existing: number;
  duplicates: number;
  files: FileImportResult[];
}

export interface ImportOptions {
  agentId: string;
  /**
   * Checked between files and, inside a file's transaction, between chunks of CHUNK_MEMORIES: an abort stops within a
   * file too, its transaction rolled back (InterruptedError, exit 130, `details` saying what landed).
   */
  signal?: AbortSignal;
  /** Called after each file with the files done so far. */
  onFile?: (done: number, total: number, file: FileImportResult) => void;
  /** Called as the import goes, with the bytes of the files read and written so far and their total (a progress bar). */
  onProgress?: (doneBytes: number, totalBytes: number) => void;
  /**
   * Count what would be imported, skipped (an id already stored) or refused, and write nothing: each file's
   * transaction runs whole, checks included, then is rolled back.
   */
  dryRun?: boolean;
  /**
   * Where the memories' threads come from besides a line's own `thread` (docs/design.md §6): `thread` puts every
   * memory of every file in that thread; `perFile` makes each file one thread, named by its path. Without either, only
   * a line's `thread` field and a conversation's turns (JSONL lines with a `role` or `speaker`) are threaded.
   */
  threads?: ThreadRule;
}

/** How an import threads what does not name its own thread (ImportOptions.threads). */
export interface ThreadRule {
  /** Every memory into this thread. */
  thread?: string;
  /** Each file one thread, named by its path. */
  perFile?: boolean;
}

/** Thrown at the end of a dry run's file transaction to roll it back, carrying what the file would have done. */
class DryRunRollback extends Error {
  constructor(readonly counts: InsertState['counts']) {
    super('dry run: rolled back');
  }
}

/** Memories parsed and inserted per step of a file's transaction: between steps an interruption is noticed. */
export const CHUNK_MEMORIES = 2000;

/**
 * One JSONL line: a memory object as `memory export` writes it. `agent` is read as another spelling of `agentId`
 * (docs/decisions.md "Import"); other unknown fields are ignored.
 */
const jsonlMemory = z.object({
  id: z.string().optional(),
  agentId: z.string().optional(),
  agent: z.string().optional(),
  content: z.string(),
  durability: z.enum(DURABILITIES).optional(),
  tags: z.array(z.string()).optional(),
  subject: z.string().nullable().optional(),
  source: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  expiresAt: z.string().nullable().optional(),
  archivedAt: z.string().nullable().optional(),
  archivedReason: z.string().nullable().optional(),
  derivedFrom: z.array(z.string()).optional(),
  promotedFrom: z.string().nullable().optional(),
  lastReflectedAt: z.string().nullable().optional(),
  retrievalCount: z.number().int().nonnegative().optional(),
  lastRetrievedAt: z.string().nullable().optional(),
  thread: z.string().nullable().optional(),
  // A turn of a conversation (a chat export's message): who said it. Read only to know the line is a turn; any JSON
  // value is accepted, as for any other field hippo does not keep.
  role: z.unknown().optional(),
  speaker: z.unknown().optional(),
});

/** Whether a JSONL line is a turn of a conversation: it names who said it (`role` or `speaker`, a non-blank string). */
function isTurn(line: { role?: unknown; speaker?: unknown }): boolean {
  return [line.role, line.speaker].some((who) => typeof who === 'string' && who.trim() !== '');
}

/**
 * The thread of an imported JSONL line (docs/design.md §6, docs/decisions.md "Issue 30 point 6"): the line's own
 * `thread` (null: none); else the import's thread (`rule.thread`) or its file's (`rule.perFile`), as the user asked;
 * else, for a turn of a conversation (a `role` or `speaker`), the file it came from — one file is one conversation, in
 * line order; else none. A file is not a conversation: a plain list of notes is not threaded.
 */
function importThread(line: { thread?: string | null; role?: unknown; speaker?: unknown }, path: string, rule: ThreadRule): string | null {
  if (line.thread !== undefined) return line.thread;
  return textThread(path, rule) ?? (isTurn(line) ? fileThread(path) : null);
}

/** The thread of a text or Markdown file's paragraph: only what the import was asked for (a file is not a conversation). */
function textThread(path: string, rule: ThreadRule): string | null {
  if (rule.thread !== undefined) return rule.thread;
  return rule.perFile ? fileThread(path) : null;
}

/**
 * The thread a file's memories share: its path, with any character a thread name may not hold (a newline, a bidi or
 * other hidden character, which a file name may carry) shown as U+FFFD, so such a file still imports as one thread.
 */
export function fileThread(path: string): string {
  return safeText(path).replace(/\p{Cc}/gu, MARKER);
}

/** Expands directories (recursively, sorted) into the importable files below them; named files are kept as given. */
export function collectImportFiles(paths: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && (IMPORTABLE_EXTENSIONS as readonly string[]).includes(extname(entry.name).toLowerCase())) files.push(full);
    }
  };
  for (const path of paths) {
    const absolute = resolve(path);
    let isDirectory: boolean;
    try {
      isDirectory = statSync(absolute).isDirectory();
    } catch {
      throw new UsageError('file_not_found', `no such file or directory: ${path}`);
    }
    if (isDirectory) walk(absolute);
    else files.push(absolute);
  }
  return files;
}

function lineError(path: string, line: number, error: unknown): HippoError {
  const reason = error instanceof HippoError ? error.message : error instanceof Error ? error.message : String(error);
  return new UsageError('bad_import_line', `${path}:${line}: ${reason}; nothing from this file was imported`, {
    details: { path, line },
  });
}

/** Parses a whole file into memories; any bad line fails the file (naming file:line). */
export function parseImportFile(path: string, text: string, agentId: string, now: Date, rule: ThreadRule = {}): Memory[] {
  const memories: Memory[] = [];
  for (const chunk of parseChunks(path, text, agentId, now, Number.POSITIVE_INFINITY, rule)) memories.push(...chunk.memories);
  return memories;
}

/** A chunk of parsed memories, and how far into the text (characters) it reached. */
interface ParsedChunk {
  memories: Memory[];
  /** The line each memory starts on (1-based), for errors found once the whole file is read. */
  lines: number[];
  offset: number;
  /** Whether a line of the chunk gave its memory's id (an exported memory): only such ids can repeat in a file. */
  givenIds: boolean;
}

/**
 * A file's memories in chunks of up to `size` for the import: a JSONL file streamed from disk (`streamJsonl`), a text
 * or Markdown file (paragraphs: small by nature) read whole. The file is opened (and checked: a regular file, its
 * size) now, so an unreadable file fails before a transaction starts.
 */
function fileChunks(path: string, agentId: string, now: Date, size: number, rule: ThreadRule): { chunks: Iterable<ParsedChunk>; close(): void } {
  // Only regular files: a named pipe or a device is refused by what it is, whatever its name says (a pipe with no
  // writer would read as an empty file and "import" nothing).
  if (extname(path).toLowerCase() === '.jsonl') {
    const pieces = new Utf8FileChunks(path, { regularOnly: true, chunkBytes: 4 * 1024 * 1024 });
    return { chunks: streamJsonl(pieces, agentId, now, size, rule), close: () => pieces.close() };
  }
  return { chunks: parseChunks(path, readUtf8File(path, { regularOnly: true }), agentId, now, size, rule), close: () => undefined };
}

/** The file's memories in chunks of up to `size`, as its lines are read; a bad line throws (naming file:line). */
function* parseChunks(path: string, text: string, agentId: string, now: Date, size: number, rule: ThreadRule): Generator<ParsedChunk> {
  const extension = extname(path).toLowerCase();
  if (extension === '.jsonl') {
    yield* parseJsonl(path, text, agentId, now, size, rule);
    return;
  }
  if (extension === '.md' || extension === '.markdown' || extension === '.txt') {
    yield* parseParagraphs(path, text, agentId, now, size, rule);
    return;
  }
  throw new UsageError('unsupported_file', `${path}: unsupported file type; import .jsonl, .md or .txt files, or a directory`);
}

/**
 * A JSONL file's memories in chunks of up to `size`, read from the file a piece at a time (Utf8FileChunks): only the
 * current piece and chunk are held, so a big file's import takes the same memory as a small one's. `offset` is in
 * characters read so far. A bad line throws (naming file:line), as `parseJsonl` does.
 */
function* streamJsonl(pieces: Utf8FileChunks, agentId: string, now: Date, size: number, rule: ThreadRule): Generator<ParsedChunk> {
  const path = pieces.path;
  let memories: Memory[] = [];
  let lines: number[] = [];
  let givenIds = false;
  let rest = '';
  let lineNumber = 0;
  let offset = 0;
  let first = true;
  const take = (raw: string): void => {
    lineNumber++;
    const line = raw.trim();
    if (line === '') return;
    const { memory, givenId } = parseJsonlLine(path, lineNumber, line, agentId, now, rule);
    memories.push(memory);
    lines.push(lineNumber);
    givenIds ||= givenId;
  };
  try {
    for (let piece of pieces) {
      // A byte-order mark is dropped, as readUtf8File does.
      if (first && piece.charCodeAt(0) === 0xfeff) piece = piece.slice(1);
      first = false;
      offset += piece.length;
      let text = rest + piece;
      let start = 0;
      for (;;) {
        const newline = text.indexOf('\n', start);
        if (newline < 0) break;
        take(text.slice(start, newline));
        start = newline + 1;
        if (memories.length >= size) {
          yield { memories, lines, offset: offset - (text.length - start), givenIds };
          memories = [];
          lines = [];
          givenIds = false;
        }
      }
      rest = text.slice(start);
      text = '';
    }
  } finally {
    pieces.close();
  }
  // The last line, with no newline after it.
  take(rest);
  yield { memories, lines, offset, givenIds };
}

function* parseJsonl(path: string, text: string, agentId: string, now: Date, size: number, rule: ThreadRule): Generator<ParsedChunk> {
  let memories: Memory[] = [];
  let lines: number[] = [];
  let givenIds = false;
  let start = 0;
  for (let index = 0; start <= text.length; index++) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (line !== '') {
      const { memory, givenId } = parseJsonlLine(path, index + 1, line, agentId, now, rule);
      memories.push(memory);
      lines.push(index + 1);
      givenIds ||= givenId;
    }
    if (memories.length >= size) {
      yield { memories, lines, offset: Math.min(start, text.length), givenIds };
      memories = [];
      lines = [];
      givenIds = false;
    }
    if (newline < 0) break;
  }
  yield { memories, lines, offset: text.length, givenIds };
}

function parseJsonlLine(path: string, lineNumber: number, line: string, agentId: string, now: Date, rule: ThreadRule): { memory: Memory; givenId: boolean } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw lineError(path, lineNumber, 'not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw lineError(path, lineNumber, 'not a JSON object');
  const parsed = jsonlMemory.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw lineError(path, lineNumber, `field "${issue?.path.join('.') || '?'}": ${issue?.message ?? 'invalid'}`);
  }
  // JSON can spell a lone surrogate ("\ud800"), which no UTF-8 can store: refused, naming the field (only the fields
  // kept are looked at, so the name is one of ours, never a key from the file).
  // `role` and `speaker` are not kept (they only say the line is a turn), so they are not looked at either.
  const { role, speaker, ...kept } = parsed.data;
  const illFormed = illFormedField(kept);
  if (illFormed !== undefined) throw lineError(path, lineNumber, `field "${illFormed}" holds ${LONE_SURROGATE}`);
  const { agent, ...fields } = kept;
  if (agent !== undefined && fields.agentId !== undefined && agent.normalize('NFC') !== fields.agentId.normalize('NFC')) {
    throw lineError(path, lineNumber, `fields "agent" and "agentId" name different agents`);
  }
  const record: NewMemory = { ...fields, agentId: fields.agentId ?? agent ?? agentId, thread: importThread({ ...fields, role, speaker }, path, rule) };
  try {
    return { memory: buildMemory(record, now), givenId: parsed.data.id !== undefined };
  } catch (error) {
    throw lineError(path, lineNumber, error);
  }
}

/** An ATX markdown heading line (`# Week 49`, `## Monday`): its level and text. */
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;

/**
 * The markdown headings above the paragraph being read (docs/decisions.md, issue 30): a heading is not a memory of its
 * own; it is the subject of every paragraph of its section, nested ones joined (`Week 49 / Monday`).
 */
class Sections {
  private readonly open: { level: number; text: string }[] = [];

  /** Takes the heading lines that start a paragraph into the open sections; returns the rest of it. */
  take(paragraph: readonly string[]): readonly string[] {
    let index = 0;
    for (; index < paragraph.length; index++) {
      const match = HEADING.exec(paragraph[index]!);
      if (!match || match[2]!.trim() === '') break;
      const level = match[1]!.length;
      while (this.open.length > 0 && this.open[this.open.length - 1]!.level >= level) this.open.pop();
      this.open.push({ level, text: match[2]!.trim() });
    }
    return paragraph.slice(index);
  }

  subject(): string | undefined {
    return this.open.length === 0 ? undefined : this.open.map((section) => section.text).join(' / ');
  }
}

function* parseParagraphs(path: string, text: string, agentId: string, now: Date, size: number, rule: ThreadRule): Generator<ParsedChunk> {
  const thread = textThread(path, rule);
  let memories: Memory[] = [];
  let starts: number[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  let startLine = 0;
  let offset = 0;
  const sections = new Sections();
  const flush = (): void => {
    const content = sections.take(paragraph).join('\n').trim();
    if (content !== '') {
      try {
        memories.push(buildMemory({ agentId, content, source: path, thread, subject: sections.subject() }, now));
        starts.push(startLine);
      } catch (error) {
        throw lineError(path, startLine, error);
      }
    }
    paragraph = [];
  };
  for (const [index, line] of lines.entries()) {
    offset += line.length + 1;
    if (line.trim() === '') flush();
    else {
      if (paragraph.length === 0) startLine = index + 1;
      paragraph.push(line);
    }
    if (memories.length >= size) {
      yield { memories, lines: starts, offset: Math.min(offset, text.length), givenIds: false };
      memories = [];
      starts = [];
    }
  }
  flush();
  yield { memories, lines: starts, offset: text.length, givenIds: false };
}

/** The first memory of each id, in file order (a later line repeating an id is skipped, as the store would). */
function firstOfEachId(memories: readonly Memory[]): Memory[] {
  const seen = new Set<string>();
  return memories.filter((memory) => !seen.has(memory.id) && seen.add(memory.id));
}

/**
 * The memories in thread order (docs/design.md §6): by createdAt, and in file order among equal times (a stable
 * sort). Inserted in this order, every chunk of a big file joins its threads at their end, where the store computes
 * the new memories' search context from the thread's last few (instead of re-reading the thread for each chunk); a
 * thread reads the same whatever order the rows were inserted in.
 */
export function threadOrder(memories: readonly Memory[]): readonly Memory[] {
  let sorted = true;
  for (let index = 1; index < memories.length && sorted; index++) sorted = memories[index - 1]!.createdAt <= memories[index]!.createdAt;
  if (sorted) return memories;
  return [...memories].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}

/** The import's thread rule, checked: one thread for everything or one per file, not both; a thread name that is one. */
function threadRule(rule: ThreadRule = {}): ThreadRule {
  if (rule.thread !== undefined && rule.perFile) {
    throw new UsageError('usage', 'give one thread for every file or one thread per file, not both', { details: { option: 'thread' } });
  }
  return rule.thread === undefined ? { perFile: rule.perFile === true } : { thread: validateThread(rule.thread) };
}

/** Lets the event loop run (a signal handler, a progress bar) between steps of synchronous work. */
const breathe = () => new Promise((resolve) => setImmediate(resolve));

/** The size of a file for progress (0 when it cannot be read: the import then reports that file's error). */
function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** What an interruption says landed: the files before this one, whole; nothing of this one or after. */
function interrupted(result: ImportResult, done: number, total: number, current?: string): InterruptedError {
  const during = current === undefined ? '' : `; nothing from ${current} (its transaction was rolled back)`;
  return new InterruptedError(`interrupted: ${result.imported} memories from ${done} of ${total} files were imported${during}, nothing from the rest`, {
    ...result,
  });
}

/**
 * Imports files, one transaction per file: a bad line fails that file whole and leaves the others unaffected; a full
 * disk or a busy database stops the import. Inside its transaction a file is read, checked and inserted a chunk at a
 * time (each chunk in thread order; a JSONL file is streamed, so memory does not grow with it); between chunks (and files) the event loop runs, so Ctrl-C (the signal) stops it within the file it is in: that
 * file's transaction is rolled back, the files before it stay whole, and the InterruptedError says what landed.
 * Returns what happened to each file.
 */
export async function importFiles(store: Store, files: readonly string[], options: ImportOptions): Promise<ImportResult> {
  const rule = threadRule(options.threads);
  const result: ImportResult = { ...(options.dryRun ? { dryRun: true } : {}), imported: 0, existing: 0, duplicates: 0, files: [] };
  const sizes = files.map(sizeOf);
  const totalBytes = sizes.reduce((total, size) => total + size, 0);
  let doneBytes = 0;
  // The agents whose memories the import inserted, for the store's housekeeping after the last file (`settleLoad`).
  const loadedAgents = new Set<string>();
  for (const [index, path] of files.entries()) {
    await breathe();
    if (options.signal?.aborted) throw interrupted(result, index, files.length);
    const fileResult: FileImportResult = { path, imported: 0, existing: 0, duplicates: 0 };
    try {
      const file = fileChunks(path, options.agentId, store.clock(), CHUNK_MEMORIES, rule);
      const size = sizes[index]!;
      const report = (fraction: number) => options.onProgress?.(doneBytes + Math.round(size * Math.min(1, fraction)), totalBytes);
      Object.assign(
        fileResult,
        await store
          .transaction(async (tx) => {
            // The file is read, checked and inserted a chunk at a time inside the file's one transaction: a bad line
            // anywhere fails the file whole (the transaction rolls back what earlier chunks wrote), and the import holds
            // one chunk at a time, whatever the file's size (docs/store.md, "Import").
            const state = newInsertState();
            const lineage = newLineageState();
            const checkedAgents = new Set<string>();
            for (const chunk of file.chunks) {
              // Lineage stays within an agent: a derivedFrom naming another agent's memory fails the file (file:line).
              await checkLineage(tx, path, chunk.memories, chunk.lines, lineage);
              // And a promotedFrom naming another agent's candidate.
              await checkPromotedFrom(tx, path, chunk.memories, chunk.lines);
              // A new agent that looks like an existing one fails the file too (file:line of its first memory).
              await checkFileAgents(tx, path, chunk.memories, chunk.lines, checkedAgents);
              // Inserted in thread order, so each chunk joins its threads at their end (docs/store.md, "Import"). A
              // line repeating an id earlier in the file is skipped like an id the store holds (the first one wins): in
              // its chunk here, across chunks by the store, which holds the earlier chunks already.
              const unique = chunk.givenIds ? firstOfEachId(chunk.memories) : chunk.memories;
              state.counts.existing += chunk.memories.length - unique.length;
              await insertNew(tx, threadOrder(unique), state, chunk.givenIds);
              for (const memory of unique) loadedAgents.add(memory.agentId);
              report(size === 0 ? 1 : chunk.offset / size);
              // The only awaits inside the transaction besides the store: a tick for the signal and the progress bar.
              await breathe();
              if (options.signal?.aborted) throw interrupted(result, index, files.length, path);
            }
            if (options.dryRun) throw new DryRunRollback(state.counts);
            return state.counts;
          })
          .finally(() => file.close()),
      );
    } catch (error) {
      if (error instanceof DryRunRollback) Object.assign(fileResult, error.counts);
      else if (error instanceof InterruptedError) throw error;
      // Unreadable, not UTF-8, or a bad line: this file fails alone.
      else if (error instanceof HippoError && error.exitCode === ExitCode.usage) {
        fileResult.error = { code: error.code, message: error.message };
        fileResult.imported = 0;
        fileResult.existing = 0;
        fileResult.duplicates = 0;
      } else if (error instanceof HippoError) {
        // A full disk or a busy database fails every later file too: stop, saying what already landed.
        throw new HippoError(
          error.code,
          `${error.message} while importing ${path}; ${result.imported} memories from ${index} earlier files were imported, nothing from this one`,
          error.exitCode,
          // The cause's details stay (an unavailable store's `reason`), beside what landed.
          { details: { ...error.details, ...result } },
        );
      } else throw error;
    }
    doneBytes += sizes[index]!;
    options.onProgress?.(doneBytes, totalBytes);
    result.imported += fileResult.imported;
    result.existing += fileResult.existing;
    result.duplicates += fileResult.duplicates;
    result.files.push(fileResult);
    options.onFile?.(index + 1, files.length, fileResult);
  }
  // What landed has committed: the engine's housekeeping of the partitions it filled (PostgreSQL: VACUUM (ANALYZE) of
  // those mostly unvacuumed, so the search's index-only count reads no heap page; docs/postgres.md). Best effort.
  if (!options.dryRun && result.imported > 0) await store.settleLoad([...loadedAgents].sort());
  return result;
}

/**
 * What the lineage check of a file's chunks keeps between them: the `derivedFrom` ids that named no memory when their
 * line was checked (a later line of the file may give that id), with the agent and line that named them. Only such
 * forward references are kept, so it stays small.
 */
interface LineageState {
  pending: Map<string, { agentId: string; line: number }[]>;
}

const newLineageState = (): LineageState => ({ pending: new Map() });

/**
 * Refuses (file:line, nothing from the file) a line whose `derivedFrom` names a memory of another agent — one in the
 * store, or one the same file gives to another agent — as `rem ingest` refuses sources that are not the agent's: an
 * insight's lineage never crosses agents. An id found nowhere (its memory forgotten since the export) is kept: it
 * points at nothing, and names nobody's memory (docs/decisions.md, "Issue 27"). Called for each chunk of a file before
 * it is inserted: the file's earlier chunks are in the store by then (in the file's transaction), an id given later in
 * the file is checked when its line comes (`state`).
 */
async function checkLineage(tx: StoreOps, path: string, memories: readonly Memory[], lines: readonly number[], state: LineageState): Promise<void> {
  // An id an earlier line named before any line gave it: the first line giving it decides whose memory it is.
  if (state.pending.size > 0) {
    for (const memory of memories) {
      const waiting = state.pending.get(memory.id);
      if (!waiting) continue;
      state.pending.delete(memory.id);
      const foreign = waiting.find((ref) => ref.agentId !== memory.agentId);
      // The id is a stored or imported memory id here (mem_ + ULID), so naming it prints nothing from outside.
      if (foreign) throw lineError(path, foreign.line, `field "derivedFrom" names ${memory.id}, which is not a memory of agent "${foreign.agentId}"`);
    }
  }
  const refs = new Set<string>();
  for (const memory of memories) for (const ref of memory.derivedFrom) refs.add(ref);
  if (refs.size === 0) return;
  const stored = await tx.memories.existingIds([...refs]);
  const owned = new Set<string>();
  const wanted = new Map<string, Set<string>>();
  for (const memory of memories) {
    for (const ref of memory.derivedFrom) {
      if (!stored.has(ref)) continue;
      let ids = wanted.get(memory.agentId);
      if (!ids) wanted.set(memory.agentId, (ids = new Set()));
      ids.add(ref);
    }
  }
  for (const [agentId, ids] of wanted) for (const found of await tx.memories.getMany(agentId, [...ids])) owned.add(`${agentId}\u0000${found.id}`);
  // A line's id that the store already holds is skipped at insert: the store's row is the one that counts.
  const inChunk = new Map<string, string>();
  for (const memory of memories) if (!stored.has(memory.id) && !inChunk.has(memory.id)) inChunk.set(memory.id, memory.agentId);
  for (const [index, memory] of memories.entries()) {
    for (const ref of memory.derivedFrom) {
      if (!stored.has(ref) && !inChunk.has(ref)) {
        // Not (yet) anyone's: a later line may give it.
        const waiting = state.pending.get(ref) ?? [];
        waiting.push({ agentId: memory.agentId, line: lines[index]! });
        state.pending.set(ref, waiting);
        continue;
      }
      const foreign = stored.has(ref) ? !owned.has(`${memory.agentId}\u0000${ref}`) : inChunk.get(ref) !== memory.agentId;
      if (foreign) {
        // `ref` is a stored or imported memory id here (mem_ + ULID), so naming it prints nothing from outside.
        throw lineError(path, lines[index]!, `field "derivedFrom" names ${ref}, which is not a memory of agent "${memory.agentId}"`);
      }
    }
  }
}

/**
 * Refuses (file:line, nothing from the file) a line whose `promotedFrom` names a candidate of another agent: a
 * memory is promoted from its own agent's candidate only. A candidate id the store does not hold is kept, as a
 * `derivedFrom` id found nowhere (an export imported into a fresh store).
 */
async function checkPromotedFrom(tx: StoreOps, path: string, memories: readonly Memory[], lines: readonly number[]): Promise<void> {
  const refs = [...new Set(memories.flatMap((memory) => (memory.promotedFrom === null ? [] : [memory.promotedFrom])))];
  if (refs.length === 0) return;
  const owners = await tx.candidates.agentsOf(refs);
  for (const [index, memory] of memories.entries()) {
    const owner = memory.promotedFrom === null ? undefined : owners.get(memory.promotedFrom);
    if (owner !== undefined && owner !== memory.agentId) {
      // The id is a stored candidate's (cand_ + ULID), so naming it prints nothing from outside.
      throw lineError(path, lines[index]!, `field "promotedFrom" names ${memory.promotedFrom}, which is not a candidate of agent "${memory.agentId}"`);
    }
  }
}

/** `checkNewAgents` for the agents of a file's lines: a refusal names the first line of the look-alike agent. */
async function checkFileAgents(tx: StoreOps, path: string, memories: readonly Memory[], lines: readonly number[], checked: Set<string>): Promise<void> {
  const first = new Map<string, number>();
  for (const [index, memory] of memories.entries()) if (!checked.has(memory.agentId) && !first.has(memory.agentId)) first.set(memory.agentId, lines[index]!);
  if (first.size === 0) return;
  for (const agentId of first.keys()) checked.add(agentId);
  try {
    await checkNewAgents(tx, first.keys());
  } catch (error) {
    if (!(error instanceof UsageError) || error.code !== 'confusable_agent') throw error;
    const line = first.get(String(error.details?.agentId)) ?? 1;
    throw new UsageError('confusable_agent', `${path}:${line}: ${error.message}; nothing from this file was imported`, {
      details: { ...error.details, path, line },
    });
  }
}

/** What a file's chunks share: the counts. */
interface InsertState {
  counts: Pick<FileImportResult, 'imported' | 'existing' | 'duplicates'>;
}

const newInsertState = (): InsertState => ({ counts: { imported: 0, existing: 0, duplicates: 0 } });

/**
 * Inserts the memories whose id is new; existing ids are skipped and counted. Duplicates (text already stored for
 * that agent — earlier chunks of the file included — or repeated within the chunk) are counted among the inserted
 * ones only. Call inside the file's transaction.
 */
async function insertNew(tx: StoreOps, memories: readonly Memory[], state: InsertState, givenIds: boolean): Promise<void> {
  // Ids made here are new ULIDs: only a chunk whose lines gave ids asks the store which it holds (a question over
  // every agent, so its cost follows the store).
  const existing = givenIds ? await tx.memories.existingIds(memories.map((memory) => memory.id)) : new Set<string>();
  const fresh = existing.size === 0 ? memories : memories.filter((memory) => !existing.has(memory.id));
  const hashesByAgent = new Map<string, Set<string>>();
  for (const memory of fresh) {
    let hashes = hashesByAgent.get(memory.agentId);
    if (!hashes) hashesByAgent.set(memory.agentId, (hashes = new Set()));
    hashes.add(memory.contentHash);
  }
  const stored = new Set<string>();
  for (const [agentId, hashes] of hashesByAgent) {
    for (const hash of await tx.memories.existingHashes(agentId, [...hashes])) stored.add(`${agentId}\u0000${hash}`);
  }
  // Texts repeated within this chunk; an earlier chunk's are in the store by now (the file's transaction holds them).
  const seen = new Set<string>();
  for (const memory of fresh) {
    const key = `${memory.agentId}\u0000${memory.contentHash}`;
    if (seen.has(key) || stored.has(key)) state.counts.duplicates++;
    seen.add(key);
  }
  const imported = await tx.memories.insertMany(fresh);
  state.counts.imported += imported;
  state.counts.existing += memories.length - imported;
}

/**
 * `memory import`: the importable files under `paths` (see `collectImportFiles`), imported with `importFiles` into the
 * store `store()` opens once there is something to import.
 * `onStart` learns how many files there are, and their bytes, before the first is read (for a progress bar).
 */
export async function importPaths(
  store: () => Promise<Store>,
  paths: readonly string[],
  options: ImportOptions & { onStart?: (files: number, totalBytes: number) => void },
): Promise<ImportResult> {
  threadRule(options.threads); // a bad thread name creates no database either
  const files = collectImportFiles(paths);
  if (files.length === 0) throw new UsageError('nothing_to_import', 'no .jsonl, .md or .txt files found in the given paths');
  const opened = await store(); // only now: a mistyped path creates no database
  options.onStart?.(
    files.length,
    files.reduce((total, file) => total + sizeOf(file), 0),
  );
  return importFiles(opened, files, options);
}
