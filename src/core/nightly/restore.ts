import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ExitCode, HippoError, InterruptedError, NotFoundError, UsageError } from '../errors.js';
import { faultPoint } from '../faults.js';
import { newId } from '../ids.js';
import { withRun, type Run, type RunCounts, type RunScope } from '../rem/runs.js';
import { inTransaction, openStore, prepared, type Store } from '../store/store.js';
import { APPLICATION_ID, SCHEMA_VERSION } from '../store/migrations.js';
import { acquireLock, type HeldLock } from './lock.js';
import { checkFile, SNAPSHOT_FILE, snapshotDir, snapshotFiles, takeSnapshot } from './snapshot.js';

/**
 * `hippo rem restore` (docs/design.md §7). What a restore puts back: memories (the full-text index follows through its
 * triggers), candidates and handoffs — of one agent (`--agent`) or of every agent. What it never touches: the audit
 * log (`runs`: the nights and the restore itself stay on record) and `settings` (the lock, the pause flag). Row ids
 * and contents come back exactly; a memory keeps its internal rowid too unless another agent's memory has taken it
 * since, in which case it gets a new one (the rowid is not part of a memory's identity).
 */
export const RESTORED_TABLES = ['memories', 'candidates', 'handoffs'] as const;
export type RestoredTable = (typeof RESTORED_TABLES)[number];

export interface TableChanges {
  table: RestoredTable;
  /** Rows in the snapshot that the database lacks (restored). */
  added: number;
  /** Rows in the database that the snapshot lacks (deleted by the restore). */
  removed: number;
  /** Rows in both that differ (put back as they were). */
  changed: number;
  unchanged: number;
}

export interface RestorePlan {
  snapshot: string;
  /** Only this agent's rows; null = every agent's. */
  agentId: string | null;
  tables: TableChanges[];
}

export interface RestoreResult extends RestorePlan {
  run: Run;
  /** The database as it was just before the restore: restore it to undo this one. */
  preRestoreSnapshot: string;
}

/** A snapshot by file name, by the id of the run that took it, or by path. Exit 3 when there is none. */
export function resolveSnapshot(store: Store, ref: string): string {
  const dir = snapshotDir(store.path);
  const byName = SNAPSHOT_FILE.test(ref) ? join(dir, ref) : undefined;
  if (byName && existsSync(byName)) return byName;
  if (/^run_[0-9A-HJKMNP-TV-Z]{26}$/.test(ref)) {
    const byRun = snapshotFiles(dir).find((snapshot) => snapshot.runId === ref);
    if (byRun) return byRun.path;
  } else if (!byName && existsSync(ref) && statSync(ref).isFile()) {
    return resolve(ref);
  }
  throw new NotFoundError('snapshot_not_found', `no snapshot "${ref}"`, { details: { snapshot: ref } });
}

interface Source {
  path: string;
  dispose(): void;
}

/**
 * The snapshot as something to attach: checked to be a hippo database this hippo can read and not the live file
 * itself. A snapshot from an older schema is copied to a temporary file and migrated there (never in place).
 */
function openSource(store: Store, file: string): Source {
  if (realpathSync(file) === realpathSync(store.path)) {
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
  openStore({ path: copy }).close();
  return { path: copy, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs `fn` with the snapshot attached as schema `snapshot` (statements on it are never cached: it is detached after). */
function withAttached<T>(store: Store, path: string, fn: () => T): T {
  store.db.prepare('ATTACH DATABASE ? AS snapshot').run(path);
  try {
    return fn();
  } finally {
    store.db.prepare('DETACH DATABASE snapshot').run();
  }
}

/** The table's columns that make up a row's content (a memory's rowid is internal: its position, not its identity). */
function contentColumns(store: Store, table: RestoredTable): string[] {
  const names = prepared(store, 'SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[];
  return names.filter((name) => name !== 'rowid');
}

function scope(alias: string, agentId: string | null): string {
  return agentId === null ? '1' : `${alias}.agent_id = @agentId`;
}

function count(store: Store, sql: string, agentId: string | null): number {
  return store.db
    .prepare(sql)
    .pluck()
    .get(agentId === null ? {} : { agentId }) as number;
}

function tableChanges(store: Store, table: RestoredTable, agentId: string | null): TableChanges {
  const columns = contentColumns(store, table);
  const [m, s] = [scope('m', agentId), scope('s', agentId)];
  const added = count(
    store,
    `SELECT count(*) FROM snapshot.${table} s WHERE ${s} AND NOT EXISTS (SELECT 1 FROM main.${table} m WHERE m.id = s.id AND ${m})`,
    agentId,
  );
  const removed = count(
    store,
    `SELECT count(*) FROM main.${table} m WHERE ${m} AND NOT EXISTS (SELECT 1 FROM snapshot.${table} s WHERE s.id = m.id AND ${s})`,
    agentId,
  );
  const same = columns.map((column) => `m.${column} IS s.${column}`).join(' AND ');
  const changed = count(store, `SELECT count(*) FROM main.${table} m JOIN snapshot.${table} s ON s.id = m.id WHERE ${m} AND ${s} AND NOT (${same})`, agentId);
  const inDatabase = count(store, `SELECT count(*) FROM main.${table} m WHERE ${m}`, agentId);
  return { table, added, removed, changed, unchanged: inDatabase - removed - changed };
}

function snapshotDamaged(file: string): HippoError {
  return new HippoError(
    'snapshot_damaged',
    `${file} is damaged (it fails SQLite's integrity checks); nothing was changed — pick another snapshot`,
    ExitCode.unexpected,
    { details: { snapshot: file } },
  );
}

/** Without `--apply`: per table, what a restore would add, remove and change. Reads only. */
export function planRestore(store: Store, file: string, agentId: string | null): RestorePlan {
  const source = openSource(store, file);
  try {
    return withAttached(store, source.path, () => ({ snapshot: file, agentId, tables: RESTORED_TABLES.map((table) => tableChanges(store, table, agentId)) }));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') throw snapshotDamaged(file);
    throw error;
  } finally {
    source.dispose();
  }
}

/** Deletes the rows in scope and copies the snapshot's back (call inside the restore transaction). */
function replaceRows(store: Store, table: RestoredTable, agentId: string | null): void {
  const columns = contentColumns(store, table).join(', ');
  const params = agentId === null ? {} : { agentId };
  store.db.prepare(`DELETE FROM main.${table} AS m WHERE ${scope('m', agentId)}`).run(params);
  if (table === 'memories') {
    // Keep each memory's rowid where it is still free; the rest get new ones in a second pass, so no pass collides.
    store.db
      .prepare(
        `INSERT INTO main.memories (rowid, ${columns}) SELECT s.rowid, ${columns} FROM snapshot.memories s
         WHERE ${scope('s', agentId)} AND NOT EXISTS (SELECT 1 FROM main.memories m WHERE m.rowid = s.rowid)`,
      )
      .run(params);
    store.db
      .prepare(
        `INSERT INTO main.memories (${columns}) SELECT ${columns} FROM snapshot.memories s
         WHERE ${scope('s', agentId)} AND NOT EXISTS (SELECT 1 FROM main.memories m WHERE m.id = s.id)`,
      )
      .run(params);
    return;
  }
  store.db.prepare(`INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM snapshot.${table} s WHERE ${scope('s', agentId)}`).run(params);
}

/** Whether the rows in scope now equal the snapshot's, column for column (so their ids match too). */
function rowsMatch(store: Store, table: RestoredTable, agentId: string | null): boolean {
  const columns = contentColumns(store, table).join(', ');
  const live = `SELECT ${columns} FROM main.${table} m WHERE ${scope('m', agentId)}`;
  const saved = `SELECT ${columns} FROM snapshot.${table} s WHERE ${scope('s', agentId)}`;
  return (
    count(store, `SELECT count(*) FROM (${live} EXCEPT ${saved})`, agentId) === 0 &&
    count(store, `SELECT count(*) FROM (${saved} EXCEPT ${live})`, agentId) === 0
  );
}

function changeCounts(tables: TableChanges[]): RunCounts {
  return Object.fromEntries(
    tables.flatMap((change) => [
      [`${change.table}Added`, change.added],
      [`${change.table}Removed`, change.removed],
      [`${change.table}Changed`, change.changed],
    ]),
  );
}

/**
 * `--apply`: under the nightly lock (exit 4 while a night or another restore runs), with a `rem restore` run row:
 * a full integrity_check of the snapshot, a pre-restore snapshot of the database, then — in one transaction — the
 * rows in scope replaced and verified equal to the snapshot's. A mismatch rolls everything back and fails the run.
 */
export async function applyRestore(store: Store, file: string, options: { agentId: string | null; signal?: AbortSignal }): Promise<RestoreResult> {
  const source = openSource(store, file);
  try {
    const lock = acquireLock(store, { runId: newId('run', store.clock().getTime()), kind: 'rem restore' });
    try {
      return await restoreLocked(store, file, source, lock, options);
    } finally {
      lock.release();
    }
  } finally {
    source.dispose();
  }
}

async function restoreLocked(
  store: Store,
  file: string,
  source: Source,
  lock: HeldLock,
  options: { agentId: string | null; signal?: AbortSignal },
): Promise<RestoreResult> {
  return withRun(store, 'rem restore', options.agentId, (scope) => restoreSteps(store, file, source, lock, scope, options), {
    id: lock.holder.runId,
    signal: options.signal,
  });
}

/** A failure once the restore has begun is exit 1 under its own code (an interruption stays an interruption, exit 130). */
function restoreFailure(error: unknown, code: string, message: (original: string | undefined) => string): unknown {
  if (error instanceof InterruptedError) return error;
  const hippo = error instanceof HippoError ? error : undefined;
  return new HippoError(hippo?.code ?? code, message(hippo?.message), ExitCode.unexpected);
}

async function restoreSteps(
  store: Store,
  file: string,
  source: Source,
  lock: HeldLock,
  scope: RunScope,
  options: { agentId: string | null; signal?: AbortSignal },
): Promise<RestoreResult> {
  const { agentId } = options;
  const steps: Record<string, string> = { lock: lock.takenOver ? 'took over a stale lock' : 'acquired' };
  scope.record.steps = steps;
  if (!checkFile(source.path, 'integrity_check').ok) {
    steps.integrity = 'failed';
    throw snapshotDamaged(file);
  }
  steps.integrity = 'ok';
  let preRestore: string;
  try {
    preRestore = (await takeSnapshot(store, scope.run.id, { signal: options.signal })).path;
  } catch (error) {
    steps.preRestoreSnapshot = error instanceof InterruptedError ? 'interrupted' : 'failed';
    throw restoreFailure(error, 'snapshot_failed', (original) => `${original ?? 'the pre-restore snapshot could not be written'}; nothing was restored`);
  }
  steps.preRestoreSnapshot = 'written and verified';
  scope.record.snapshotPath = preRestore;
  try {
    return withAttached(store, source.path, () =>
      inTransaction(store, () => {
        const tables = RESTORED_TABLES.map((table) => tableChanges(store, table, agentId));
        for (const table of RESTORED_TABLES) replaceRows(store, table, agentId);
        faultPoint('restore:replaced');
        if (!RESTORED_TABLES.every((table) => rowsMatch(store, table, agentId))) {
          throw new HippoError(
            'restore_verify_failed',
            "after the restore the rows did not equal the snapshot's; everything was rolled back and nothing changed",
            ExitCode.unexpected,
          );
        }
        steps.verify = 'rows equal the snapshot';
        const finished = scope.finish({ status: 'completed', counts: changeCounts(tables), snapshotPath: preRestore, steps });
        return { snapshot: file, agentId, tables, run: finished, preRestoreSnapshot: preRestore };
      }),
    );
  } catch (error) {
    steps.replace = 'rolled back';
    throw restoreFailure(error, 'restore_failed', (original) => original ?? 'the restore failed and was rolled back; nothing changed');
  }
}
