/**
 * Snapshots on SQLite (docs/design.md §7 step 3): a verified page-for-page copy of the file with SQLite's online
 * backup, and restores from one through ATTACH. File names, listing, retention and the restore's steps are the
 * core's (src/core/nightly/); this module writes, checks and reads the files.
 */
import Database from 'better-sqlite3';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { copyFile, open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { ensureDirectory } from '../../dirs.js';
import { ExitCode, HippoError, InterruptedError, UsageError } from '../../errors.js';
import { faultPoint } from '../../faults.js';
import type {
  EraseReport,
  EraseRewriter,
  EraseSpec,
  RestoredTable,
  SnapshotCheckLevel,
  SnapshotPort,
  SnapshotSource,
  StoreOps,
  TableChangeCounts,
  TakenSnapshotFile,
  UnattributedSnapshots,
} from '../port.js';
import { legacySnapshotDir, SNAPSHOT_FILE, sqliteSnapshotDir } from '../snapshot-files.js';
import { Connection, mapSqliteError } from './connection.js';
import { eraseRows } from './erasure.js';
import { SqliteThreads } from './threads.js';
import { APPLICATION_ID, SCHEMA_VERSION } from './migrations.js';
import { openDatabase } from './open.js';

/** Leftovers of a snapshot that never finished, with SQLite's side files. */
const PARTIAL_FILE = /^\..+\.partial(?:-journal|-wal|-shm)?$/;

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
export function checkDatabase(db: Database.Database, pragma: 'quick_check' | 'integrity_check' = 'quick_check', table?: string): CheckResult {
  // With a table: that table and its indexes only (the name quoted as an identifier).
  const argument = table === undefined ? '100' : `"${table.replaceAll('"', '""')}"`;
  const messages = (db.pragma(`${pragma}(${argument})`) as Record<string, string>[]).map((row) => Object.values(row)[0]!);
  if (messages.length === 1 && messages[0] === 'ok') return { ok: true, violations: [] };
  // quick_check repeats a constraint message once per offending row: judge every message, de-duplicate for the report.
  return { ok: messages.every((message) => CONSTRAINT_MESSAGE.test(message)), violations: [...new Set(messages)] };
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

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function removePartials(dir: string): number {
  const partials = readdirSync(dir).filter((name) => PARTIAL_FILE.test(name));
  for (const name of partials) rmSync(join(dir, name), { force: true });
  return partials.length;
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

/** Bytes read at a time while comparing a snapshot with the database (larger buffers read slower on Linux). */
const COPY_CHUNK = 1024 * 1024;
/** The memory map the snapshot's check reads through; SQLite caps it at its build's limit (2 GiB here). */
const CHECK_MMAP_BYTES = 2 ** 40;
/** The longest the snapshot's checkpoint waits for other connections before falling back to the online backup. */
const CHECKPOINT_WAIT_MS = 1000;

/** Whether the database's WAL holds no frame (or there is none: the database is not in WAL mode). */
function walIsEmpty(path: string): boolean {
  try {
    return statSync(`${path}-wal`).size === 0;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * Bytes 18 and 19 of a SQLite header say which journal the file uses: 2 for WAL, 1 for a rollback journal. A copy
 * with 1 opens as one self-contained file, as `PRAGMA journal_mode = DELETE` would leave it (the WAL being empty).
 */
const JOURNAL_BYTES_OFFSET = 18;
const rollbackJournalBytes = () => Buffer.from([1, 1]);

async function readAt(file: FileHandle, buffer: Buffer, offset: number, length: number): Promise<number> {
  let done = 0;
  while (done < length) {
    const { bytesRead } = await file.read(buffer, done, length - done, offset + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}

async function writeAt(file: FileHandle, buffer: Buffer, offset: number, length: number): Promise<void> {
  for (let done = 0; done < length;) done += (await file.write(buffer, done, length - done, offset + done)).bytesWritten;
}

/**
 * Whether the copy reads back as the database: the same length and the same bytes, but for the journal bytes of the
 * header (rollbackJournalBytes). Both are read from the operating system again (its page cache, usually).
 */
export async function sameBytes(source: FileHandle, copy: FileHandle): Promise<boolean> {
  const size = (await source.stat()).size;
  if ((await copy.stat()).size !== size) return false;
  const [a, b] = [Buffer.allocUnsafe(COPY_CHUNK), Buffer.allocUnsafe(COPY_CHUNK)];
  for (let offset = 0; offset < size; offset += COPY_CHUNK) {
    const length = Math.min(COPY_CHUNK, size - offset);
    const [read, readBack] = await Promise.all([readAt(source, a, offset, length), readAt(copy, b, offset, length)]);
    if (read !== length || readBack !== length) return false;
    if (offset === 0 && length >= JOURNAL_BYTES_OFFSET + 2) rollbackJournalBytes().copy(a, JOURNAL_BYTES_OFFSET);
    if (!a.subarray(0, length).equals(b.subarray(0, length))) return false;
  }
  return true;
}

/**
 * `PRAGMA quick_check` of each ordinary table (the schema table, every table, with their indexes; FTS5's shadow tables
 * included), as one result. Unlike the whole-database quick_check it does not run FTS5's own check of its index
 * against the rows, the costliest part at scale (a restore rebuilds that index from the rows), nor look for pages
 * no b-tree uses (the copy is compared byte for byte instead).
 */
export function checkTables(db: Database.Database): CheckResult {
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY rootpage")
    .pluck()
    .all() as string[];
  const messages: string[] = [];
  for (const table of ['sqlite_schema', ...tables]) {
    const result = checkDatabase(db, 'quick_check', table);
    if (!result.ok) return { ok: false, violations: [] };
    messages.push(...result.violations);
  }
  return { ok: true, violations: [...new Set(messages)] };
}

/** A snapshot that cannot be read whole: bad input to restore or rewrite (exit 2), never a bug. */
export function snapshotDamaged(file: string): HippoError {
  return new UsageError('snapshot_damaged', `${file} is damaged (it fails SQLite's integrity checks); nothing was changed — pick another snapshot`, {
    details: { snapshot: file },
  });
}

/** The change counter a hippo database keeps (migrations.ts, 5): a snapshot holds its own copy. */
function changeCounter(db: Database.Database): number | undefined {
  try {
    const value = db.prepare('SELECT changes FROM hippo_state WHERE id = 1').pluck().get();
    return typeof value === 'number' || typeof value === 'bigint' ? Number(value) : undefined;
  } catch {
    return undefined; // a snapshot from before the counter: count it as changed
  }
}

/** A snapshot's change counter, read without changing the file; undefined when it has none or cannot be read. */
function snapshotCounter(path: string): number | undefined {
  if (!headerIsWhole(path)) return undefined;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return changeCounter(db);
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
}

/** A regular file that starts with a SQLite header carrying hippo's application id: a hippo store. */
function isHippoDatabase(path: string): boolean {
  let fd: number | undefined;
  try {
    if (!statSync(path).isFile()) return false;
    fd = openSync(path, 'r');
    const header = Buffer.alloc(72);
    return readSync(fd, header, 0, 72, 0) === 72 && header.toString('latin1', 0, 16) === SQLITE_MAGIC && header.readUInt32BE(68) === APPLICATION_ID;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The old shared `snapshots/` folder beside `path` (docs/decisions.md, "Snapshot folders"): its snapshot files are
 * moved into `target` (names kept, a rename on the same disk; with the leftovers of interrupted ones removed) when
 * `path` is the only hippo store in its directory; otherwise nothing is touched and they are reported unattributed.
 * A file that cannot be moved stays where it is and is reported too. Never throws.
 */
function adoptLegacySnapshots(path: string, target: string): UnattributedSnapshots | undefined {
  const legacy = legacySnapshotDir(path);
  const names = (): string[] => {
    try {
      return readdirSync(legacy).filter((name) => SNAPSHOT_FILE.test(name) && statSync(join(legacy, name)).isFile());
    } catch {
      return [];
    }
  };
  const found = names();
  if (found.length === 0) return undefined;
  let stores: string[];
  try {
    const self = realpathSync(path);
    const others = readdirSync(dirname(path)).filter((name) => {
      const file = join(dirname(path), name);
      return isHippoDatabase(file) && realpathSync(file) !== self;
    });
    stores = [basename(path), ...others].sort();
  } catch {
    return undefined;
  }
  if (stores.length === 1) {
    try {
      ensureDirectory(target);
      for (const name of found) {
        // A file of that name already in the store's folder is never overwritten: the old one stays, reported.
        if (existsSync(join(target, name))) continue;
        try {
          renameSync(join(legacy, name), join(target, name));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // another process moved it first
        }
      }
      removePartials(legacy);
    } catch {
      // What could not be moved is reported below as still unattributed.
    }
  }
  const left = names().length;
  return left === 0 ? undefined : { dir: legacy, count: left, stores, target };
}

export class SqliteSnapshots implements SnapshotPort {
  readonly suffix = '.db';
  /** The copy's quick_check (docs/nightly.md). */
  readonly verifiedBy = 'quick_check';
  private readonly folder: string;
  private leftover: UnattributedSnapshots | undefined;
  private settled = false;

  constructor(private readonly c: Connection) {
    // `snapshots/<file name>/` beside the database: every store keeps its own, two in one directory too.
    this.folder = sqliteSnapshotDir(c.path);
  }

  /** The store's snapshot folder; the first read adopts the old shared folder's snapshots when they are this store's. */
  get dir(): string {
    this.settle();
    return this.folder;
  }

  unattributed(): UnattributedSnapshots | undefined {
    this.settle();
    return this.leftover;
  }

  private settle(): void {
    if (this.settled) return;
    this.settled = true;
    if (this.c.path !== ':memory:') this.leftover = adoptLegacySnapshots(this.c.path, this.folder);
  }

  /**
   * An online, consistent copy of the database (SQLite's backup API, in two large steps so writers are barely
   * delayed), verified with quick_check and renamed into place with mode 0600. Throws HippoError (exit 1) on any
   * failure, having removed its own temporary file.
   */
  async take(name: string, options: { signal?: AbortSignal; unlessSameAs?: string } = {}): Promise<TakenSnapshotFile> {
    if (this.c.path === ':memory:') throw new UsageError('snapshot_in_memory', 'an in-memory store cannot be snapshotted');
    const path = join(this.dir, name);
    const temp = join(this.dir, `.${name}.partial`);
    let removedPartials = 0;
    let check: CheckResult;
    try {
      ensureDirectory(this.dir);
      removedPartials = removePartials(this.dir);
      if (options.unlessSameAs !== undefined) {
        // Unchanged: the counter the triggers bump on every write to memories, candidates and handoffs is the one the
        // snapshot holds (a rewritten snapshot holds -1, never equal). No copy is made.
        await this.c.ready();
        const live = changeCounter(this.c.db);
        const saved = snapshotCounter(options.unlessSameAs);
        if (live !== undefined && saved !== undefined && saved >= 0 && live === saved) {
          return { path: options.unlessSameAs, sizeBytes: statSync(options.unlessSameAs).size, violations: [], removedPartials, unchanged: true };
        }
      }
      closeSync(openSync(temp, 'wx', 0o600)); // 0600 from the first byte; SQLite keeps the mode of an existing file
      await this.c.ready();
      const copied = await this.copyWhole(temp, options.signal);
      if (copied !== undefined) {
        // The check ran on the live database inside the read transaction the copy was made under, and the copy read
        // back byte for byte the same: what it found is what the copy holds.
        check = copied;
        if (!check.ok) {
          throw new HippoError('snapshot_verify_failed', 'the snapshot failed PRAGMA quick_check and was discarded', ExitCode.unexpected, {
            details: { live: 'failed' },
          });
        }
      } else {
        // The file could not be held still (another process kept the WAL busy): SQLite's online backup instead.
        await this.c.db.backup(temp, {
          progress: ({ totalPages, remainingPages }) => {
            if (options.signal?.aborted) throw new InterruptedError();
            if (remainingPages < totalPages) faultPoint('snapshot:copying');
            return Math.max(1, Math.ceil(totalPages / 2));
          },
        });
        check = verifyCopy(temp);
        if (!check.ok) {
          throw new HippoError('snapshot_verify_failed', 'the snapshot failed PRAGMA quick_check and was discarded', ExitCode.unexpected, {
            details: { live: this.liveCheck() },
          });
        }
        fsyncPath(temp);
      }
      chmodSync(temp, 0o600);
      faultPoint('snapshot:verified');
      renameSync(temp, path);
      try {
        fsyncPath(this.dir);
      } catch {
        // Some platforms cannot fsync a directory; the rename itself is already atomic.
      }
    } catch (error) {
      for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(temp + suffix, { force: true });
      throw snapshotWriteError(error, this.dir);
    }
    return { path, sizeBytes: statSync(path).size, violations: check.violations, removedPartials, unchanged: false };
  }

  /**
   * The fast snapshot (docs/nightly.md, "Snapshots"): the WAL folded into the database file (a TRUNCATE checkpoint),
   * then, under a read transaction that holds the file still, the file copied as it is into `temp` (its header switched
   * from WAL to a rollback journal, so the copy is one self-contained file), fsync'd, the live database checked with
   * quick_check table by table while the fsync runs, and the copy read back and compared with the database byte for
   * byte. Returns the check, or undefined (nothing copied) when the file cannot be held still: the checkpoint could not
   * finish, or a writer added to the WAL before the read transaction began.
   */
  private async copyWhole(temp: string, signal: AbortSignal | undefined): Promise<CheckResult | undefined> {
    if (!this.checkpoint()) return undefined;
    // The check reads every page of every table once: through a memory map (as much of the file as SQLite's build
    // allows, 2 GiB) it reads them in place instead of copying each into the page cache, about twice as fast at 100 k
    // (bench/RESULTS.md). The read transaction keeps the file from shrinking under the map. Back to what it was after.
    const mapped = this.c.db.pragma('mmap_size', { simple: true }) as number;
    this.c.db.pragma(`mmap_size = ${CHECK_MMAP_BYTES}`);
    try {
      return await this.copyHeld(temp, signal);
    } finally {
      this.c.db.pragma(`mmap_size = ${mapped}`);
    }
  }

  private async copyHeld(temp: string, signal: AbortSignal | undefined): Promise<CheckResult | undefined> {
    return this.c.readTransaction(async () => {
      // The first read takes the transaction's snapshot. With the WAL empty at that instant the transaction reads the
      // database file alone, and SQLite lets no checkpoint write into the file until it ends: the file stays as it is.
      this.c.db.prepare('SELECT count(*) FROM sqlite_schema').get();
      if (!walIsEmpty(this.c.path)) return undefined;
      // The kernel copies the file on one of libuv's threads while the check reads the live database here, in the
      // same read transaction: two cores at work, and the check sees exactly what is copied.
      const copying = copyFile(this.c.path, temp);
      let check: CheckResult;
      try {
        faultPoint('snapshot:copying');
        check = checkTables(this.c.db);
      } finally {
        await copying;
      }
      if (signal?.aborted) throw new InterruptedError();
      if (!check.ok) return check;
      const target = await open(temp, 'r+');
      try {
        await writeAt(target, rollbackJournalBytes(), JOURNAL_BYTES_OFFSET, 2);
        await target.sync();
        const source = await open(this.c.path, 'r');
        try {
          if (!(await sameBytes(source, target))) {
            throw new HippoError('snapshot_verify_failed', 'the snapshot did not read back as the database was and was discarded', ExitCode.unexpected, {
              details: { live: 'ok' },
            });
          }
        } finally {
          await source.close();
        }
      } finally {
        await target.close();
      }
      return check;
    });
  }

  /** A TRUNCATE checkpoint, waiting at most CHECKPOINT_WAIT_MS for other connections: true when it finished. */
  private checkpoint(): boolean {
    const timeout = this.c.db.pragma('busy_timeout', { simple: true }) as number;
    this.c.db.pragma(`busy_timeout = ${Math.min(timeout, CHECKPOINT_WAIT_MS)}`);
    try {
      const [result] = this.c.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      return result?.busy === 0;
    } catch {
      return false;
    } finally {
      this.c.db.pragma(`busy_timeout = ${timeout}`);
    }
  }

  /** After a copy failed its check: was it the live database (the copy is page for page the same) or the copy? */
  private liveCheck(): 'ok' | 'failed' | 'unknown' {
    try {
      return checkDatabase(this.c.db).ok ? 'ok' : 'failed';
    } catch {
      return 'unknown';
    }
  }

  async check(path: string, level: SnapshotCheckLevel): Promise<{ ok: boolean; violations: string[] }> {
    if (level === 'header') return { ok: headerIsWhole(path), violations: [] };
    return checkFile(path, level === 'full' ? 'integrity_check' : 'quick_check');
  }

  async erase(path: string, spec: EraseSpec, rewriter: EraseRewriter, options: { dryRun?: boolean } = {}): Promise<EraseReport> {
    if (!headerIsWhole(path)) throw snapshotDamaged(path);
    const source = prepareSource(path, this.c.path);
    try {
      // First read-only: a snapshot holding nothing to erase is never copied or touched.
      let report: EraseReport;
      try {
        const db = new Database(source.path, { readonly: true, fileMustExist: true });
        try {
          report = eraseRows(new Connection(db, source.path), spec, rewriter, true);
        } finally {
          db.close();
        }
      } catch (error) {
        throw onSnapshot(error, path, this.c.path);
      }
      const empty = report.memories.length + report.candidatesChanged.length + report.candidatesDeleted.length + report.handoffsChanged.length === 0;
      if (options.dryRun || empty) return report;
      return await rewriteErased(path, source.path, spec, rewriter);
    } finally {
      source.dispose();
    }
  }

  async open(path: string): Promise<SnapshotSource> {
    const source = prepareSource(path, this.c.path);
    try {
      await this.c.ready();
      this.c.db.prepare('ATTACH DATABASE ? AS snapshot').run(source.path);
    } catch (error) {
      source.dispose();
      throw onSnapshot(error, path, this.c.path);
    }
    return new AttachedSnapshot(this.c, path, source);
  }
}

/**
 * Rewrites a snapshot without what an erase removes: a copy (from `from`: the snapshot, or its migrated copy) under
 * a hidden temporary name beside it, the erase run in it, its change counter set to -1 (a rewritten snapshot is never
 * taken for "unchanged"), VACUUM (the copy then holds no free page at all), quick_check, fsync, and a rename over the
 * old file. The old file's name stays; its bytes are unlinked (what the filesystem keeps of freed blocks is beyond
 * hippo: docs/decisions.md, "Forget").
 */
async function rewriteErased(path: string, from: string, spec: EraseSpec, rewriter: EraseRewriter): Promise<EraseReport> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.partial`);
  const clean = () => {
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(temp + suffix, { force: true });
  };
  try {
    clean();
    closeSync(openSync(temp, 'wx', 0o600));
    copyFileSync(from, temp);
    chmodSync(temp, 0o600);
    const db = openDatabase(temp);
    let report: EraseReport;
    let check: CheckResult;
    try {
      const connection = new Connection(db, temp);
      report = await connection.transaction(async () =>
        connection.mapped(() => {
          const erased = eraseRows(connection, spec, rewriter, false);
          db.prepare('UPDATE hippo_state SET changes = -1 WHERE id = 1').run();
          return erased;
        }),
      );
      db.pragma('journal_mode = DELETE');
      db.exec('VACUUM');
      check = checkDatabase(db);
    } finally {
      db.close();
    }
    if (!check.ok)
      throw new HippoError('snapshot_verify_failed', `the rewritten ${basename(path)} failed PRAGMA quick_check and was discarded`, ExitCode.unexpected);
    fsyncPath(temp);
    renameSync(temp, path);
    try {
      fsyncPath(dir);
    } catch {
      // Some platforms cannot fsync a directory; the rename itself is already atomic.
    }
    return report;
  } catch (error) {
    clean();
    throw snapshotWriteError(error, dir);
  }
}

interface Source {
  /** The file to attach: the snapshot, or a migrated temporary copy of it. */
  path: string;
  dispose(): void;
}

/**
 * The snapshot as something to attach: checked to be a hippo database this hippo can read and not the live file
 * itself. A snapshot from an older schema is copied to a temporary file and migrated there (never in place).
 */
function prepareSource(file: string, live: string): Source {
  if (live !== ':memory:' && realpathSync(file) === realpathSync(live)) {
    throw new UsageError('snapshot_is_database', `${file} is the database itself, not a snapshot of it`);
  }
  let version: number;
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      if (db.pragma('application_id', { simple: true }) !== APPLICATION_ID)
        throw new UsageError('not_a_hippo_snapshot', `${file} is not a hippo database snapshot; nothing was changed`);
      version = db.pragma('user_version', { simple: true }) as number;
    } finally {
      db.close();
    }
  } catch (error) {
    if (error instanceof HippoError) throw error;
    // A hippo snapshot cut short (truncated, damaged) is damage; a file that is not SQLite at all is the wrong file.
    if ((error as { code?: string }).code === 'SQLITE_CORRUPT') throw snapshotDamaged(file);
    throw new UsageError(
      'not_a_hippo_snapshot',
      `${file} cannot be read as a SQLite database (${(error as { code?: string }).code ?? 'error'}); nothing was changed`,
    );
  }
  if (version > SCHEMA_VERSION) {
    throw new UsageError(
      'snapshot_too_new',
      `${file} was written by a newer hippo (schema ${version}; this hippo knows up to ${SCHEMA_VERSION}); nothing was changed`,
    );
  }
  if (version === SCHEMA_VERSION) return { path: file, dispose: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'hippo-restore-'));
  const copy = join(dir, 'snapshot.db');
  copyFileSync(file, copy);
  openDatabase(copy).close();
  // The migration ran in WAL mode: back to one self-contained file, as a snapshot is.
  const db = new Database(copy);
  db.pragma('journal_mode = DELETE');
  db.close();
  return { path: copy, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An error met while reading a snapshot: damage to it is reported as such, not as damage to the database. */
function onSnapshot(error: unknown, file: string, live: string): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') return snapshotDamaged(file);
  return mapSqliteError(error, live);
}

function scope(alias: string, agentId: string | null): string {
  return agentId === null ? '1' : `${alias}.agent_id = @agentId`;
}

/**
 * A snapshot attached to the store's connection as schema `snapshot` (statements on it are never cached: it is
 * detached after). Every table's rows are compared and copied with the database's own columns, so ids and contents
 * come back exactly; a memory keeps its internal rowid too unless another agent's memory has taken it since, in which
 * case it gets a new one (the rowid is not part of a memory's identity).
 */
class AttachedSnapshot implements SnapshotSource {
  private closed = false;

  constructor(
    private readonly c: Connection,
    private readonly file: string,
    private readonly source: Source,
  ) {}

  /** Runs statements on the attached snapshot; a damaged snapshot is reported as such, not as a damaged database. */
  private async read<T>(work: () => T): Promise<T> {
    await this.c.ready();
    try {
      return work();
    } catch (error) {
      throw onSnapshot(error, this.file, this.c.path);
    }
  }

  private count(sql: string, agentId: string | null): number {
    return this.c.db
      .prepare(sql)
      .pluck()
      .get(agentId === null ? {} : { agentId }) as number;
  }

  /**
   * The table's columns that make up a row's content: a memory's rowid is internal (its position, not its identity),
   * and its search context is derived (re-indexed after a replace).
   */
  private contentColumns(table: RestoredTable): string[] {
    // (A store before migration 13 also had the columns context_before and context_after: never content.)
    const names = this.c.statement('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[];
    return names.filter((name) => name !== 'rowid' && name !== 'context_before' && name !== 'context_after');
  }

  async verify(): Promise<boolean> {
    return checkFile(this.source.path, 'integrity_check').ok;
  }

  async compare(_ops: StoreOps, table: RestoredTable, agentId: string | null): Promise<TableChangeCounts> {
    return this.read(() => {
      const columns = this.contentColumns(table);
      const [m, s] = [scope('m', agentId), scope('s', agentId)];
      const added = this.count(
        `SELECT count(*) FROM snapshot.${table} s WHERE ${s} AND NOT EXISTS (SELECT 1 FROM main.${table} m WHERE m.id = s.id AND ${m})`,
        agentId,
      );
      const removed = this.count(
        `SELECT count(*) FROM main.${table} m WHERE ${m} AND NOT EXISTS (SELECT 1 FROM snapshot.${table} s WHERE s.id = m.id AND ${s})`,
        agentId,
      );
      const same = columns.map((column) => `m.${column} IS s.${column}`).join(' AND ');
      const changed = this.count(
        `SELECT count(*) FROM main.${table} m JOIN snapshot.${table} s ON s.agent_id = m.agent_id AND s.id = m.id WHERE ${m} AND ${s} AND NOT (${same})`,
        agentId,
      );
      const inDatabase = this.count(`SELECT count(*) FROM main.${table} m WHERE ${m}`, agentId);
      return { table, added, removed, changed, unchanged: inDatabase - removed - changed };
    });
  }

  async replace(_tx: StoreOps, table: RestoredTable, agentId: string | null): Promise<void> {
    await this.read(() => {
      const columns = this.contentColumns(table).join(', ');
      const params = agentId === null ? {} : { agentId };
      if (table === 'memories') {
        // The scope's memories are replaced with the search triggers stood aside, then indexed once (threads.ts).
        new SqliteThreads(this.c).replace(agentId, () => this.replaceMemories(columns, agentId, params));
        return;
      }
      this.c.db.prepare(`DELETE FROM main.${table} AS m WHERE ${scope('m', agentId)}`).run(params);
      this.c.db.prepare(`INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM snapshot.${table} s WHERE ${scope('s', agentId)}`).run(params);
    });
  }

  /** The scope's memories deleted and the snapshot's put back (inside `replace`). */
  private replaceMemories(columns: string, agentId: string | null, params: { agentId?: string }): void {
    this.c.db.prepare(`DELETE FROM main.memories AS m WHERE ${scope('m', agentId)}`).run(params);
    // Keep each memory's rowid where it is still free; the rest get new ones in a second pass, so no pass collides.
    this.c.db
      .prepare(
        `INSERT INTO main.memories (rowid, ${columns}) SELECT s.rowid, ${columns} FROM snapshot.memories s
           WHERE ${scope('s', agentId)} AND NOT EXISTS (SELECT 1 FROM main.memories m WHERE m.rowid = s.rowid)`,
      )
      .run(params);
    this.c.db
      .prepare(
        `INSERT INTO main.memories (${columns}) SELECT ${columns} FROM snapshot.memories s
           WHERE ${scope('s', agentId)} AND NOT EXISTS (SELECT 1 FROM main.memories m WHERE m.id = s.id)`,
      )
      .run(params);
  }

  async matches(_ops: StoreOps, table: RestoredTable, agentId: string | null): Promise<boolean> {
    return this.read(() => {
      const columns = this.contentColumns(table).join(', ');
      const live = `SELECT ${columns} FROM main.${table} m WHERE ${scope('m', agentId)}`;
      const saved = `SELECT ${columns} FROM snapshot.${table} s WHERE ${scope('s', agentId)}`;
      return (
        this.count(`SELECT count(*) FROM (${live} EXCEPT ${saved})`, agentId) === 0 &&
        this.count(`SELECT count(*) FROM (${saved} EXCEPT ${live})`, agentId) === 0
      );
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.c.db.open) await this.c.use(() => this.c.db.prepare('DETACH DATABASE snapshot').run());
    } finally {
      this.source.dispose();
    }
  }
}
