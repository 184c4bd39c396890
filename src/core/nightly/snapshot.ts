import Database from 'better-sqlite3';
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ExitCode, HippoError, InterruptedError, UsageError } from '../errors.js';
import { faultPoint } from '../faults.js';
import { prepared, type Store } from '../store/store.js';
import { APPLICATION_ID } from '../store/migrations.js';

/**
 * Snapshots (docs/design.md §7 step 3) live in `snapshots/` beside the database: for the default database that is
 * `<data dir>/snapshots/`; a `--db` elsewhere keeps its own snapshots beside it, so several stores never mix theirs.
 * A snapshot is written under a hidden temporary name, checked with `PRAGMA quick_check`, made durable, and only then
 * renamed to `<UTC timestamp>-<run id>.db`: a file with that name is always complete and was verified when written,
 * and a half-written one (a crash, a full disk) never has it.
 */
export const SNAPSHOT_FILE = /^(\d{8}T\d{6}Z)-(run_[0-9A-HJKMNP-TV-Z]{26})\.db$/;
/** Leftovers of a snapshot that never finished, with SQLite's side files. */
const PARTIAL_FILE = /^\..+\.partial(?:-journal|-wal|-shm)?$/;
/** Retention never removes the newest few, however old they are. */
export const KEEP_NEWEST = 3;
export const DEFAULT_KEEP_DAYS = 30;
const DAY_MS = 86_400_000;

export interface Snapshot {
  name: string;
  path: string;
  /** The UTC time in its name (when it was taken). */
  createdAt: string;
  /** The run that took it: a nightly run, or a restore (its pre-restore snapshot). */
  runId: string;
  sizeBytes: number;
}

export interface TakenSnapshot extends Snapshot {
  durationMs: number;
  /** Constraint violations quick_check found (the snapshot is still whole and usable). */
  violations: string[];
  /** Leftover temporary files of earlier, interrupted snapshots that were removed first. */
  removedPartials: number;
}

export function snapshotDir(dbPath: string): string {
  return join(dirname(dbPath), 'snapshots');
}

/** `20261102T093000Z-run_….db` (UTC, sortable). */
export function snapshotFileName(time: Date, runId: string): string {
  return `${time
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z')}-${runId}.db`;
}

function parseSnapshotName(name: string): { createdAt: string; runId: string } | undefined {
  const match = SNAPSHOT_FILE.exec(name);
  if (!match) return undefined;
  const stamp = match[1]!;
  const createdAt = `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}.000Z`;
  return { createdAt, runId: match[2]! };
}

/** Every usable snapshot in `dir`, newest first. Temporary and foreign files are never listed. */
export function snapshotFiles(dir: string): Snapshot[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new HippoError(
      'snapshot_dir_unreadable',
      `cannot read the snapshot directory ${dir} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      ExitCode.unexpected,
    );
  }
  return names
    .flatMap((name) => {
      const parsed = parseSnapshotName(name);
      if (!parsed) return [];
      const path = join(dir, name);
      try {
        const stats = statSync(path);
        return stats.isFile() ? [{ name, path, ...parsed, sizeBytes: stats.size }] : [];
      } catch {
        return [];
      }
    })
    .sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

/** Maps a failure while writing a snapshot to a fixed message: a full disk says so; nothing else was done. */
function snapshotWriteError(error: unknown, dir: string): HippoError {
  if (error instanceof HippoError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
    return new HippoError('disk_full', `no space left to write the snapshot in ${dir}; the night stopped before changing anything`, ExitCode.unexpected);
  }
  const why = typeof code === 'string' ? code : 'error';
  return new HippoError('snapshot_failed', `cannot write the snapshot in ${dir} (${why}); the night stopped before changing anything`, ExitCode.unexpected);
}

function removePartials(dir: string): number {
  const partials = readdirSync(dir).filter((name) => PARTIAL_FILE.test(name));
  for (const name of partials) rmSync(join(dir, name), { force: true });
  return partials.length;
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export interface CheckResult {
  /** The file is structurally sound (b-trees, pages, records): it can be read back whole. */
  ok: boolean;
  /**
   * Rows that break the schema's own constraints (a CHECK or NOT NULL, e.g. an `expires_at` written by hand on a
   * persistent memory). The file is still a faithful copy, so these are reported, not fatal. SQLite's wording, which
   * names tables and columns only, never row contents.
   */
  violations: string[];
}

/** Messages of quick_check / integrity_check about constraints rather than structure. */
const CONSTRAINT_MESSAGE = /^(CHECK constraint failed in |NULL value in |non-\w+ value in )/;

/** `PRAGMA quick_check` (or the full `integrity_check`), split into structural damage and constraint violations. */
export function checkDatabase(db: Database.Database, pragma: 'quick_check' | 'integrity_check' = 'quick_check'): CheckResult {
  const messages = (db.pragma(`${pragma}(100)`) as Record<string, string>[]).map((row) => Object.values(row)[0]!);
  if (messages.length === 1 && messages[0] === 'ok') return { ok: true, violations: [] };
  // quick_check repeats a constraint message once per offending row: judge every message, de-duplicate for the report.
  return { ok: messages.every((message) => CONSTRAINT_MESSAGE.test(message)), violations: [...new Set(messages)] };
}

/**
 * Makes the copy a self-contained single file (DELETE journal mode instead of the source's WAL) and checks it. The
 * copy is page for page the live database at one instant, so its quick_check is the live database's quick_check too.
 */
function verifyCopy(path: string): CheckResult {
  const copy = new Database(path);
  try {
    copy.pragma('journal_mode = DELETE');
    return checkDatabase(copy);
  } finally {
    copy.close();
  }
}

export class SnapshotVerifyError extends HippoError {
  constructor() {
    super('snapshot_verify_failed', 'the snapshot failed PRAGMA quick_check and was discarded', ExitCode.unexpected);
  }
}

/**
 * An online, consistent copy of the database (SQLite's backup API, in two large steps so writers are barely
 * delayed), verified and renamed into place with mode 0600. Call it holding the nightly lock: it first removes the
 * temporary files of snapshots that an earlier crash left behind. Throws HippoError (exit 1) on any failure, having
 * removed its own temporary file.
 */
export async function takeSnapshot(store: Store, runId: string, options: { signal?: AbortSignal } = {}): Promise<TakenSnapshot> {
  if (store.path === ':memory:') throw new UsageError('snapshot_in_memory', 'an in-memory store cannot be snapshotted');
  const started = Date.now();
  const dir = snapshotDir(store.path);
  const now = store.clock();
  const name = snapshotFileName(now, runId);
  const path = join(dir, name);
  const temp = join(dir, `.${name}.partial`);
  let removedPartials = 0;
  let check: CheckResult;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    removedPartials = removePartials(dir);
    closeSync(openSync(temp, 'wx', 0o600)); // 0600 from the first byte; SQLite keeps the mode of an existing file
    await store.db.backup(temp, {
      progress: ({ totalPages, remainingPages }) => {
        if (options.signal?.aborted) throw new InterruptedError();
        if (remainingPages < totalPages) faultPoint('snapshot:copying');
        return Math.max(1, Math.ceil(totalPages / 2));
      },
    });
    check = verifyCopy(temp);
    if (!check.ok) throw new SnapshotVerifyError();
    chmodSync(temp, 0o600);
    fsyncPath(temp);
    faultPoint('snapshot:verified');
    renameSync(temp, path);
    try {
      fsyncPath(dir);
    } catch {
      // Some platforms cannot fsync a directory; the rename itself is already atomic.
    }
  } catch (error) {
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(temp + suffix, { force: true });
    throw snapshotWriteError(error, dir);
  }
  const sizeBytes = statSync(path).size;
  return {
    name,
    path,
    createdAt: parseSnapshotName(name)!.createdAt,
    runId,
    sizeBytes,
    durationMs: Date.now() - started,
    violations: check.violations,
    removedPartials,
  };
}

/** Deletes snapshots taken more than `keepDays` days before `now`, never the newest KEEP_NEWEST. Returns their names. */
export function pruneSnapshots(dir: string, keepDays: number, now: Date): string[] {
  if (!Number.isInteger(keepDays) || keepDays < 0) {
    throw new UsageError('bad_keep_days', 'keepDays must be a whole number ≥ 0', { details: { option: 'keepDays' } });
  }
  const cutoff = now.getTime() - keepDays * DAY_MS;
  const expired = snapshotFiles(dir)
    .slice(KEEP_NEWEST)
    .filter((snapshot) => Date.parse(snapshot.createdAt) < cutoff);
  for (const snapshot of expired) rmSync(snapshot.path, { force: true });
  return expired.map((snapshot) => snapshot.name);
}

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/**
 * A cheap check that a snapshot is still whole: a SQLite header with hippo's application id, and a file exactly as
 * long as the page count in the header says (a truncated or overwritten file fails it). No SQLite connection is opened.
 */
export function headerIsWhole(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const header = Buffer.alloc(100);
    if (readSync(fd, header, 0, 100, 0) < 100) return false;
    if (header.toString('latin1', 0, 16) !== SQLITE_MAGIC) return false;
    const rawPageSize = header.readUInt16BE(16);
    const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
    const pages = header.readUInt32BE(28);
    const pagesValid = header.readUInt32BE(92) === header.readUInt32BE(24);
    return header.readUInt32BE(68) === APPLICATION_ID && pagesValid && pages * pageSize === statSync(path).size;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A check of a file opened read-only; a file SQLite cannot open at all is not ok. */
export function checkFile(path: string, pragma: 'quick_check' | 'integrity_check' = 'quick_check'): CheckResult {
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return checkDatabase(db, pragma);
    } finally {
      db.close();
    }
  } catch {
    return { ok: false, violations: [] };
  }
}

/**
 * `verified`: passed quick_check when it was written and its header still describes a whole file (the default, cheap
 * for any number of large snapshots); `ok`: passed a quick_check just now (`check`); `damaged`: failed either.
 */
export type SnapshotIntegrity = 'verified' | 'ok' | 'damaged';

export interface ListedSnapshot extends Snapshot {
  integrity: SnapshotIntegrity;
  /** The kind of the run that took it (`rem nightly run-once`, or `rem restore` for a pre-restore snapshot). */
  runKind: string | null;
}

export function listSnapshots(store: Store, options: { check?: boolean } = {}): ListedSnapshot[] {
  const kindOf = prepared(store, 'SELECT kind FROM runs WHERE id = ?').pluck();
  return snapshotFiles(snapshotDir(store.path)).map((snapshot) => {
    const whole = headerIsWhole(snapshot.path);
    const integrity: SnapshotIntegrity = !whole ? 'damaged' : options.check ? (checkFile(snapshot.path).ok ? 'ok' : 'damaged') : 'verified';
    return { ...snapshot, integrity, runKind: (kindOf.get(snapshot.runId) as string | undefined) ?? null };
  });
}
