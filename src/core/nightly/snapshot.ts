import { readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ExitCode, HippoError, UsageError } from '../errors.js';
import type { RunKind } from '../records.js';
import type { Store } from '../store/port.js';

/**
 * Snapshots (docs/design.md §7 step 3) are files in the store's snapshot directory (SQLite: `snapshots/` beside the
 * database, so a `--db` elsewhere keeps its own), named `<UTC timestamp>-<run id><suffix>`: the engine writes each
 * under a hidden temporary name, checks it, makes it durable, and only then gives it that name, so a file with such a
 * name is always complete and was verified when written, and a half-written one (a crash, a full disk) never has it.
 * Naming, listing and retention are here; writing and checking the files is the adapter's (store.snapshots).
 */
export function snapshotNamePattern(suffix: string): RegExp {
  return new RegExp(`^(\\d{8}T\\d{6}Z)-(run_[0-9A-HJKMNP-TV-Z]{26})${suffix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}
/** A SQLite snapshot's name. */
export const SNAPSHOT_FILE = snapshotNamePattern('.db');
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
  /** Constraint violations the check found (the snapshot is still whole and usable). */
  violations: string[];
  /** Leftover temporary files of earlier, interrupted snapshots that were removed first. */
  removedPartials: number;
}

/** The store's snapshot directory; given a SQLite file's path, that file's (`snapshots/` beside it). */
export function snapshotDir(store: Store | string): string {
  return typeof store === 'string' ? join(dirname(store), 'snapshots') : store.snapshots.dir;
}

/** `20261102T093000Z-run_….db` (UTC, sortable). */
export function snapshotFileName(time: Date, runId: string, suffix = '.db'): string {
  return `${time
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z')}-${runId}${suffix}`;
}

function parseSnapshotName(name: string, suffix: string): { createdAt: string; runId: string } | undefined {
  const match = snapshotNamePattern(suffix).exec(name);
  if (!match) return undefined;
  const stamp = match[1]!;
  const createdAt = `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}.000Z`;
  return { createdAt, runId: match[2]! };
}

/** Every usable snapshot in `dir`, newest first. Temporary and foreign files are never listed. */
export function snapshotFiles(dir: string, suffix = '.db'): Snapshot[] {
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
      const parsed = parseSnapshotName(name, suffix);
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

/**
 * Writes a verified snapshot of the store for `runId` (call it holding the nightly lock: the engine first removes
 * the temporary files of snapshots an earlier crash left behind). Throws HippoError (exit 1) on any failure, having
 * removed its own temporary file: `snapshot_verify_failed` (with `details.live`), `disk_full`, `snapshot_failed`.
 */
export async function takeSnapshot(store: Store, runId: string, options: { signal?: AbortSignal } = {}): Promise<TakenSnapshot> {
  const started = Date.now();
  const name = snapshotFileName(store.clock(), runId, store.snapshots.suffix);
  const taken = await store.snapshots.take(name, { signal: options.signal });
  return {
    name,
    path: taken.path,
    createdAt: parseSnapshotName(name, store.snapshots.suffix)!.createdAt,
    runId,
    sizeBytes: taken.sizeBytes,
    durationMs: Date.now() - started,
    violations: taken.violations,
    removedPartials: taken.removedPartials,
  };
}

/** Deletes snapshots taken more than `keepDays` days before `now`, never the newest KEEP_NEWEST. Returns their names. */
export function pruneSnapshots(dir: string, keepDays: number, now: Date, suffix = '.db'): string[] {
  if (!Number.isInteger(keepDays) || keepDays < 0) {
    throw new UsageError('bad_keep_days', 'keepDays must be a whole number ≥ 0', { details: { option: 'keepDays' } });
  }
  const cutoff = now.getTime() - keepDays * DAY_MS;
  const expired = snapshotFiles(dir, suffix)
    .slice(KEEP_NEWEST)
    .filter((snapshot) => Date.parse(snapshot.createdAt) < cutoff);
  for (const snapshot of expired) rmSync(snapshot.path, { force: true });
  return expired.map((snapshot) => snapshot.name);
}

/**
 * `verified`: passed its check when it was written and its header still describes a whole file (the default, cheap
 * for any number of large snapshots); `ok`: passed a quick check just now (`check`); `damaged`: failed either.
 */
export type SnapshotIntegrity = 'verified' | 'ok' | 'damaged';

export interface ListedSnapshot extends Snapshot {
  integrity: SnapshotIntegrity;
  /** The kind of the run that took it (`rem nightly run-once`, or `rem restore` for a pre-restore snapshot). */
  runKind: RunKind | null;
}

export async function listSnapshots(store: Store, options: { check?: boolean } = {}): Promise<ListedSnapshot[]> {
  const listed: ListedSnapshot[] = [];
  for (const snapshot of snapshotFiles(store.snapshots.dir, store.snapshots.suffix)) {
    const whole = (await store.snapshots.check(snapshot.path, 'header')).ok;
    const integrity: SnapshotIntegrity = !whole
      ? 'damaged'
      : options.check
        ? (await store.snapshots.check(snapshot.path, 'quick')).ok
          ? 'ok'
          : 'damaged'
        : 'verified';
    listed.push({ ...snapshot, integrity, runKind: (await store.runs.kindOf(snapshot.runId)) ?? null });
  }
  return listed;
}
