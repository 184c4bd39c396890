import { readdirSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { z } from 'zod';
import { ExitCode, HippoError, InterruptedError, UsageError } from './errors.js';
import { buildMemory, type NewMemory } from './memory.js';
import { DURABILITIES, type Memory } from './records.js';
import type { Store, StoreOps } from './store/port.js';
import { illFormedField, LONE_SURROGATE, readUtf8File } from './text.js';

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
  imported: number;
  existing: number;
  duplicates: number;
  files: FileImportResult[];
}

export interface ImportOptions {
  agentId: string;
  /** Checked between files (each file is one transaction): an abort stops before the next file. */
  signal?: AbortSignal;
  /** Called after each file with the files done so far (for a progress bar). */
  onFile?: (done: number, total: number, file: FileImportResult) => void;
}

/** One JSONL line: a memory object as `memory export` writes it. Unknown fields are ignored. */
const jsonlMemory = z.object({
  id: z.string().optional(),
  agentId: z.string().optional(),
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
});

/**
 * The thread of an imported memory (docs/design.md §6): the line's own `thread` (null: none); else, for a line that is
 * a stored memory coming back (it carries an `id`, as `memory export` writes it), none, as it had none; else the file
 * it came from, named by its path: one file is one thread, in line order.
 */
function importThread(line: { thread?: string | null; id?: string }, path: string): string | null {
  if (line.thread !== undefined) return line.thread;
  return line.id !== undefined ? null : path;
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

/** Parses a whole file into memories; any bad line fails the file (naming file:line) before anything is written. */
export function parseImportFile(path: string, text: string, agentId: string, now: Date): Memory[] {
  const extension = extname(path).toLowerCase();
  if (extension === '.jsonl') return parseJsonl(path, text, agentId, now);
  if (extension === '.md' || extension === '.markdown' || extension === '.txt') return parseParagraphs(path, text, agentId, now);
  throw new UsageError('unsupported_file', `${path}: unsupported file type; import .jsonl, .md or .txt files, or a directory`);
}

function parseJsonl(path: string, text: string, agentId: string, now: Date): Memory[] {
  const memories: Memory[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw lineError(path, index + 1, 'not valid JSON');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw lineError(path, index + 1, 'not a JSON object');
    const parsed = jsonlMemory.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw lineError(path, index + 1, `field "${issue?.path.join('.') || '?'}": ${issue?.message ?? 'invalid'}`);
    }
    // JSON can spell a lone surrogate ("\ud800"), which no UTF-8 can store: refused, naming the field (only the fields
    // kept are looked at, so the name is one of ours, never a key from the file).
    const illFormed = illFormedField(parsed.data);
    if (illFormed !== undefined) throw lineError(path, index + 1, `field "${illFormed}" holds ${LONE_SURROGATE}`);
    const record: NewMemory = { ...parsed.data, agentId: parsed.data.agentId ?? agentId, thread: importThread(parsed.data, path) };
    try {
      memories.push(buildMemory(record, now));
    } catch (error) {
      throw lineError(path, index + 1, error);
    }
  }
  return memories;
}

function parseParagraphs(path: string, text: string, agentId: string, now: Date): Memory[] {
  const memories: Memory[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  let startLine = 0;
  const flush = (): void => {
    const content = paragraph.join('\n').trim();
    if (content !== '') {
      try {
        memories.push(buildMemory({ agentId, content, source: path, thread: path }, now));
      } catch (error) {
        throw lineError(path, startLine, error);
      }
    }
    paragraph = [];
  };
  lines.forEach((line, index) => {
    if (line.trim() === '') {
      flush();
      return;
    }
    if (paragraph.length === 0) startLine = index + 1;
    paragraph.push(line);
  });
  flush();
  return memories;
}

/**
 * Imports files, one transaction per file: a bad line fails that file whole and leaves the others unaffected; a full
 * disk or a busy database stops the import. Between files it yields to the event loop, so Ctrl-C (the signal) stops
 * it cleanly before the next file: what landed is whole, what did not is absent. Returns what happened to each file.
 */
export async function importFiles(store: Store, files: readonly string[], options: ImportOptions): Promise<ImportResult> {
  const result: ImportResult = { imported: 0, existing: 0, duplicates: 0, files: [] };
  for (const [index, path] of files.entries()) {
    await new Promise((resolve) => setImmediate(resolve));
    if (options.signal?.aborted) {
      throw new InterruptedError(`interrupted: ${result.imported} memories from ${index} of ${files.length} files were imported, nothing from the rest`, {
        ...result,
      });
    }
    const fileResult: FileImportResult = { path, imported: 0, existing: 0, duplicates: 0 };
    try {
      const memories = parseImportFile(path, readUtf8File(path), options.agentId, store.clock());
      Object.assign(fileResult, await store.transaction((tx) => insertNew(tx, memories)));
    } catch (error) {
      // Unreadable, not UTF-8, or a bad line: this file fails alone.
      if (error instanceof HippoError && error.exitCode === ExitCode.usage) {
        fileResult.error = { code: error.code, message: error.message };
      } else if (error instanceof HippoError) {
        // A full disk or a busy database fails every later file too: stop, saying what already landed.
        throw new HippoError(
          error.code,
          `${error.message} while importing ${path}; ${result.imported} memories from ${index} earlier files were imported, nothing from this one`,
          error.exitCode,
          {
            details: { ...result },
          },
        );
      } else throw error;
      fileResult.imported = 0;
      fileResult.existing = 0;
      fileResult.duplicates = 0;
    }
    result.imported += fileResult.imported;
    result.existing += fileResult.existing;
    result.duplicates += fileResult.duplicates;
    result.files.push(fileResult);
    options.onFile?.(index + 1, files.length, fileResult);
  }
  return result;
}

/**
 * Inserts the memories whose id is new; existing ids are skipped and counted. Duplicates (text already stored for
 * that agent, or repeated within the file) are counted among the inserted ones only. Call inside a transaction.
 */
async function insertNew(tx: StoreOps, memories: readonly Memory[]): Promise<Pick<FileImportResult, 'imported' | 'existing' | 'duplicates'>> {
  const existing = await tx.memories.existingIds(memories.map((memory) => memory.id));
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
  const seen = new Set<string>();
  let duplicates = 0;
  for (const memory of fresh) {
    const key = `${memory.agentId}\u0000${memory.contentHash}`;
    if (seen.has(key) || stored.has(key)) duplicates++;
    seen.add(key);
  }
  const imported = await tx.memories.insertMany(fresh);
  return { imported, existing: memories.length - imported, duplicates };
}

/**
 * `memory import`: the importable files under `paths` (see `collectImportFiles`), imported with `importFiles` into the
 * store `store()` opens once there is something to import.
 * `onStart` learns how many files there are before the first is read (for a progress bar).
 */
export async function importPaths(
  store: () => Promise<Store>,
  paths: readonly string[],
  options: ImportOptions & { onStart?: (files: number) => void },
): Promise<ImportResult> {
  const files = collectImportFiles(paths);
  if (files.length === 0) throw new UsageError('nothing_to_import', 'no .jsonl, .md or .txt files found in the given paths');
  const opened = await store(); // only now: a mistyped path creates no database
  options.onStart?.(files.length);
  return importFiles(opened, files, options);
}
