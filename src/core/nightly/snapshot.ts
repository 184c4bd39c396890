/**
 * Snapshots (docs/design.md §7 step 3) are files in the store's snapshot directory (SQLite: `snapshots/<file name>/`
 * beside the database, so every store keeps its own, two in one directory too; docs/nightly.md), named `<UTC timestamp>-<run id><suffix>`: the engine writes each
 * under a hidden temporary name, checks it, makes it durable, and only then gives it that name, so a file with such a
 * name is always complete and was verified when written, and a half-written one (a crash, a full disk) never has it.
 * Listing and retention are here; the file names (built and parsed) and folders are store/snapshot-files.ts's; writing and checking the
 * files is the adapter's (store.snapshots).
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ExitCode, HippoError } from '../errors.js';
import { requireCount } from '../limits.js';
import type { RunKind } from '../records.js';
import type { Store, UnattributedSnapshots } from '../store/port.js';
import { parseSnapshotName, snapshotFileName, sqliteSnapshotDir } from '../store/snapshot-files.js';

/** Retention never removes the newest few, however old (or damaged) they are. */
export const KEEP_NEWEST = 3;
const DAY_MS = 86_400_000;

/**
 * Retention as a thinning policy (docs/nightly.md, "Retention"): besides the newest KEEP_NEWEST, keep the newest
 * `keepLast` snapshots, the newest snapshot of each of the last `keepHourly` hours that have one, of the last
 * `keepDaily` days, and of the last `keepWeekly` ISO weeks (UTC); `maxAgeDays`, when set, also removes anything older
 * than that many days. Everything else is pruned. A snapshot whose header says it is not whole fills no slot.
 */
export interface RetentionPolicy {
  keepLast: number;
  keepHourly: number;
  keepDaily: number;
  keepWeekly: number;
  /** Never keep a snapshot older than this many days (the newest 3 excepted); unset: no age limit. */
  maxAgeDays?: number;
}

/** At most 3 + 24 + 7 + 4 = 38 snapshots, usually far fewer (one snapshot fills an hour, a day and a week slot at once). */
export const DEFAULT_RETENTION: RetentionPolicy = { keepLast: 3, keepHourly: 24, keepDaily: 7, keepWeekly: 4 };

/** The largest value any retention count may take. */
export const MAX_RETENTION_COUNT = 10_000;

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
  /**
   * Nothing a restore puts back changed since the newest whole snapshot: no file was written, and this is that
   * snapshot (its name, path, time and run).
   */
  unchanged: boolean;
  durationMs: number;
  /** Constraint violations the check found (the snapshot is still whole and usable). */
  violations: string[];
  /** Leftover temporary files of earlier, interrupted snapshots that were removed first. */
  removedPartials: number;
}

/** The store's snapshot directory; given a SQLite file's path, that file's (store/snapshot-files.ts). */
export function snapshotDir(store: Store | string): string {
  return typeof store === 'string' ? sqliteSnapshotDir(store) : store.snapshots.dir;
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
 * the temporary files of snapshots an earlier crash left behind). With `skipUnchanged`, nothing is written when the
 * rows a restore puts back are exactly those of the newest whole snapshot (`unchanged`: that snapshot is returned).
 * Throws HippoError (exit 1) on any failure, having removed its own temporary file: `snapshot_verify_failed` (with
 * `details.live`), `disk_full`, `snapshot_failed`.
 */
export async function takeSnapshot(store: Store, runId: string, options: { signal?: AbortSignal; skipUnchanged?: boolean } = {}): Promise<TakenSnapshot> {
  const started = Date.now();
  const name = snapshotFileName(store.clock(), runId, store.snapshots.suffix);
  const basis = options.skipUnchanged ? await newestWholeSnapshot(store) : undefined;
  const taken = await store.snapshots.take(name, { signal: options.signal, ...(basis ? { unlessSameAs: basis.path } : {}) });
  const shown = taken.unchanged && basis ? basis : { name, ...parseSnapshotName(name, store.snapshots.suffix)!, runId };
  return {
    name: shown.name,
    path: taken.path,
    createdAt: shown.createdAt,
    runId: shown.runId,
    sizeBytes: taken.sizeBytes,
    unchanged: taken.unchanged,
    durationMs: Date.now() - started,
    violations: taken.violations,
    removedPartials: taken.removedPartials,
  };
}

/** The UTC hour, day and ISO week (its Monday) a snapshot was taken in, as bucket keys. */
function buckets(createdAt: string): { hourly: string; daily: string; weekly: string } {
  const time = new Date(createdAt);
  const monday = new Date(time.getTime() - ((time.getUTCDay() + 6) % 7) * DAY_MS);
  return { hourly: createdAt.slice(0, 13), daily: createdAt.slice(0, 10), weekly: monday.toISOString().slice(0, 10) };
}

/** Checks a policy's numbers (a library caller's too): whole, from 0 to MAX_RETENTION_COUNT (`maxAgeDays` ≥ 1). */
export function checkRetention(policy: RetentionPolicy): RetentionPolicy {
  for (const [option, value] of Object.entries(policy) as [keyof RetentionPolicy, number | undefined][]) {
    if (value === undefined) continue;
    requireCount(value, option, { min: option === 'maxAgeDays' ? 1 : 0, max: option === 'maxAgeDays' ? 36_500 : MAX_RETENTION_COUNT });
  }
  return policy;
}

export interface RetentionPlan {
  keep: string[];
  prune: string[];
}

/**
 * Which snapshots a policy keeps (pure: `snapshots` newest first, each with whether its header says it is whole).
 * The newest KEEP_NEWEST always; then the slots of `keepLast` and of each bucket kind, filled newest first by whole
 * snapshots only; `maxAgeDays` takes back anything older (the newest KEEP_NEWEST excepted).
 */
export function planRetention(snapshots: readonly (Snapshot & { whole: boolean })[], policy: RetentionPolicy, now: Date): RetentionPlan {
  checkRetention(policy);
  const keep = new Set<string>(snapshots.slice(0, KEEP_NEWEST).map((snapshot) => snapshot.name));
  const whole = snapshots.filter((snapshot) => snapshot.whole);
  for (const snapshot of whole.slice(0, policy.keepLast)) keep.add(snapshot.name);
  for (const [kind, count] of [
    ['hourly', policy.keepHourly],
    ['daily', policy.keepDaily],
    ['weekly', policy.keepWeekly],
  ] as const) {
    const seen = new Set<string>();
    for (const snapshot of whole) {
      if (seen.size >= count) break;
      const bucket = buckets(snapshot.createdAt)[kind];
      if (seen.has(bucket)) continue;
      seen.add(bucket);
      keep.add(snapshot.name);
    }
  }
  if (policy.maxAgeDays !== undefined) {
    const cutoff = now.getTime() - policy.maxAgeDays * DAY_MS;
    for (const snapshot of snapshots.slice(KEEP_NEWEST)) if (Date.parse(snapshot.createdAt) < cutoff) keep.delete(snapshot.name);
  }
  return {
    keep: snapshots.filter((snapshot) => keep.has(snapshot.name)).map((snapshot) => snapshot.name),
    prune: snapshots.filter((snapshot) => !keep.has(snapshot.name)).map((snapshot) => snapshot.name),
  };
}

/**
 * Applies the retention policy to the store's snapshots (call it holding the nightly lock): deletes what it does not
 * keep and returns the names deleted.
 */
export async function pruneSnapshots(store: Store, policy: RetentionPolicy = DEFAULT_RETENTION, now: Date = store.clock()): Promise<string[]> {
  const files = snapshotFiles(store.snapshots.dir, store.snapshots.suffix);
  const checked: (Snapshot & { whole: boolean })[] = [];
  for (const snapshot of files) checked.push({ ...snapshot, whole: (await store.snapshots.check(snapshot.path, 'header')).ok });
  const plan = planRetention(checked, policy, now);
  const byName = new Map(files.map((snapshot) => [snapshot.name, snapshot]));
  for (const name of plan.prune) rmSync(byName.get(name)!.path, { force: true });
  return plan.prune;
}

/** The newest snapshot whose header says it is whole (the basis a night compares the store with), if any. */
export async function newestWholeSnapshot(store: Store): Promise<Snapshot | undefined> {
  for (const snapshot of snapshotFiles(store.snapshots.dir, store.snapshots.suffix)) {
    if ((await store.snapshots.check(snapshot.path, 'header')).ok) return snapshot;
  }
  return undefined;
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

/** `rem snapshots`: every snapshot, newest first, and the disk they take together. */
export interface SnapshotListing {
  snapshots: ListedSnapshot[];
  /** The sum of their sizes. */
  totalBytes: number;
  /** Snapshots an older hippo left in the shared folder that are not this store's to list (null: none). */
  unattributed: UnattributedSnapshots | null;
}

export async function snapshotListing(store: Store, options: { check?: boolean } = {}): Promise<SnapshotListing> {
  const snapshots = await listSnapshots(store, options);
  return {
    snapshots,
    totalBytes: snapshots.reduce((total, snapshot) => total + snapshot.sizeBytes, 0),
    unattributed: unattributedSnapshots(store),
  };
}

/** The store's unattributed old snapshots (SQLite only), or null. */
export function unattributedSnapshots(store: Store): UnattributedSnapshots | null {
  return store.snapshots.unattributed?.() ?? null;
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
