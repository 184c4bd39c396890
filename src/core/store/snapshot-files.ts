/**
 * Where snapshot files live and what they are called: below both the nightly (which names, lists and thins them:
 * nightly/snapshot.ts) and the adapters (which write and check them), so neither reaches up into the other.
 *
 * A snapshot is named `<UTC timestamp>-<run id><suffix>` (`20261102T093000Z-run_….db`); the engine writes it under a
 * hidden temporary name and gives it that name only once it is complete and verified.
 */
import { basename, dirname, join } from 'node:path';

/** A snapshot's file name with this suffix (`.db`, `.jsonl.gz`): the timestamp and the run id as groups 1 and 2. */
export function snapshotNamePattern(suffix: string): RegExp {
  return new RegExp(`^(\\d{8}T\\d{6}Z)-(run_[0-9A-HJKMNP-TV-Z]{26})${suffix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

/** `20261102T093000Z-run_….db` (UTC, sortable). */
export function snapshotFileName(time: Date, runId: string, suffix = '.db'): string {
  return `${time
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z')}-${runId}${suffix}`;
}

/** The time and run id a snapshot's name carries, or undefined for a name that is not a snapshot's. */
export function parseSnapshotName(name: string, suffix: string): { createdAt: string; runId: string } | undefined {
  const match = snapshotNamePattern(suffix).exec(name);
  if (!match) return undefined;
  const stamp = match[1]!;
  const createdAt = `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}.000Z`;
  return { createdAt, runId: match[2]! };
}

/** A SQLite snapshot's name. */
export const SNAPSHOT_FILE = snapshotNamePattern('.db');

/**
 * A SQLite file's snapshot folder: `snapshots/<file name>/` beside it (file names in one directory are unique, so two
 * stores there never share a folder; PostgreSQL's is `<data dir>/snapshots/<store>/`, the same shape).
 */
export function sqliteSnapshotDir(path: string): string {
  return join(legacySnapshotDir(path), basename(path));
}

/**
 * The folder every SQLite store in a directory shared before each got its own (`snapshots/` beside the file). The
 * snapshots still in it are adopted by the one store of that directory, or left there, unattributed
 * (docs/decisions.md, "Snapshot folders").
 */
export function legacySnapshotDir(path: string): string {
  return join(dirname(path), 'snapshots');
}
