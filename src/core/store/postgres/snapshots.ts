/**
 * Logical snapshots of a PostgreSQL store (port.ts `SnapshotPort`; docs/postgres.md "Logical snapshots"): every row
 * hippo owns, as gzip-compressed JSONL, with a manifest. Physical backups of the server (pg_dump, base backups) stay
 * the operator's job; these are what the nightly takes and `rem restore` puts back.
 *
 * The file (`<UTC stamp>-<run id>.jsonl.gz`) is a multi-member gzip file, readable with `zcat`:
 *
 * 1. the manifest: one JSON line padded with spaces to MANIFEST_BYTES, stored uncompressed (deflate level 0, so the
 *    member's length is fixed and it can be written last, in front of the data) — format, schema version, creation
 *    time, and per table: rows, sha256 of its row lines, and the compressed and uncompressed length of its member;
 * 2. one member per table (memories, candidates, runs, handoffs, settings): a line `{"table":"<name>"}` then one line
 *    per row, the port's object as JSON (times as ISO strings, lists and documents as JSON), in key order.
 *
 * A snapshot is written under a hidden temporary name (mode 0600 from the first byte) from one REPEATABLE READ view of
 * every table, read back whole and checked against its manifest, fsynced, and only then renamed into place: a file
 * with a snapshot's name is always complete. Checks come at three costs: `header` (the manifest, the file's length,
 * each member's gzip header and length trailer), `quick` (every member decompressed, counts and sha256 recomputed),
 * `full` (every line parsed as a row, keys in order).
 *
 * Restoring (the core drives it: nightly/restore.ts) reads the file as it goes and holds nothing open between calls:
 * `compare` and `matches` walk the snapshot's rows and the live rows side by side — both in key byte order, the file's
 * order — comparing each row's JSON line; `replace` deletes the live rows in scope and COPYs the snapshot's back, in
 * the caller's transaction. A table whose count or sha256 does not match its manifest throws `snapshot_damaged` at
 * the end of its walk, so a restore from a damaged file rolls back. Runs and settings are never restored.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, createReadStream, fsyncSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { constants as zlibConstants, createGunzip, createGzip, gunzipSync, gzipSync } from 'node:zlib';
import { ensureDirectory } from '../../dirs.js';
import { ExitCode, HippoError, InterruptedError, UsageError, type ErrorCode } from '../../errors.js';
import type { Memory } from '../../records.js';
import type {
  CandidateRecord,
  EraseReport,
  HandoffRecord,
  RestoredTable,
  SnapshotCheckLevel,
  SnapshotPort,
  SnapshotSource,
  StoreOps,
  StoreTable,
  TableChangeCounts,
} from '../port.js';
import { STORE_TABLES } from '../port.js';
import { copyIn, copyText, COPY_BATCH, cursorRows } from './bulk.js';
import { PgThreads } from './threads.js';
import { citesOrHolds, namedBy, refersToOrHolds, usableNeedles } from './erasure.js';
import { dumpSql } from './repos.js';
import type { Session, TxState } from './session.js';
import { TABLE_SPECS, type TableSpec } from '../tables.js';
import { fromRow } from './codec.js';

export const SNAPSHOT_SUFFIX = '.jsonl.gz';
export const SNAPSHOT_FORMAT = 'hippo-logical-snapshot';
/** The manifest's line is padded to this many bytes (newline included). */
export const MANIFEST_BYTES = 16_384;
/** A gzip member of stored (level 0) data: 10 header bytes, a 5-byte stored-block header, 8 trailer bytes. */
const STORED_OVERHEAD = 23;
export const HEADER_BYTES = MANIFEST_BYTES + STORED_OVERHEAD;

/** Generous limits for the big statements of a restore (the store's own timeout suits single rows, not whole tables). */
const BULK_TIMEOUT_MS = 30 * 60_000;

export interface ManifestTable {
  name: StoreTable;
  rows: number;
  /** sha256 (hex) of the table's row lines, each with its newline, in file order. */
  sha256: string;
  /** Length of the table's gzip member in the file. */
  bytes: number;
  /** Uncompressed length of the member (its header line included). */
  length: number;
}

export interface Manifest {
  format: typeof SNAPSHOT_FORMAT;
  engine: 'postgres';
  schemaVersion: number;
  createdAt: string;
  /** When `memory forget --purge-snapshots` rewrote it without erased rows (createdAt stays the time it was taken). */
  rewrittenAt?: string;
  headerBytes: number;
  tables: ManifestTable[];
}

/** The tables a restore puts back: their hashes decide whether a new snapshot holds anything new. */
const COMPARED_TABLES: readonly StoreTable[] = ['memories', 'candidates', 'handoffs'];

/** Whether two manifests hold the same rows in every table a restore puts back (same schema, counts and sha256). */
export function sameRestorableRows(a: Manifest, b: Manifest): boolean {
  if (a.schemaVersion !== b.schemaVersion) return false;
  return COMPARED_TABLES.every((name) => {
    const [x, y] = [a.tables.find((table) => table.name === name), b.tables.find((table) => table.name === name)];
    return x !== undefined && y !== undefined && x.rows === y.rows && x.sha256 === y.sha256;
  });
}

const PARTIAL_FILE = /^\..+\.partial$/;

function snapshotFailed(code: ErrorCode, message: string): HippoError {
  return new HippoError(code, message, ExitCode.unexpected);
}

function writeError(error: unknown, dir: string): HippoError {
  if (error instanceof HippoError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return snapshotFailed('disk_full', `no space left to write the snapshot in ${dir}; nothing was changed`);
  return snapshotFailed('snapshot_failed', `cannot write the snapshot in ${dir} (${typeof code === 'string' ? code : 'error'}); nothing was changed`);
}

/** A snapshot that cannot be read whole: bad input to restore or rewrite (exit 2), never a bug. */
function damaged(path: string, why: string): HippoError {
  return new UsageError('snapshot_damaged', `${path} is damaged (${why}); nothing was changed — pick another snapshot`, {
    details: { snapshot: path, problem: why },
  });
}

/** The manifest member: the JSON line padded with spaces, stored uncompressed so its length is always HEADER_BYTES. */
function manifestMember(manifest: Manifest): Buffer {
  const line = JSON.stringify(manifest);
  if (Buffer.byteLength(line) + 1 > MANIFEST_BYTES) throw snapshotFailed('snapshot_failed', 'the snapshot manifest is too large');
  const member = gzipSync(Buffer.from(line.padEnd(MANIFEST_BYTES - 1, ' ') + '\n'), { level: 0 });
  if (member.length !== HEADER_BYTES) throw snapshotFailed('snapshot_failed', 'the snapshot manifest did not encode to its fixed length');
  return member;
}

function writeAll(fd: number, buffer: Buffer, position: number): void {
  let written = 0;
  while (written < buffer.length) written += writeSync(fd, buffer, written, buffer.length - written, position + written);
}

interface MemberResult {
  rows: number;
  sha256: string;
  bytes: number;
  length: number;
}

/**
 * Writes one table as a gzip member at `position`: its header line, then its rows, streamed from the cursor. The
 * abort signal is checked between pages.
 */
async function writeMember(
  fd: number,
  position: number,
  table: StoreTable,
  rows: AsyncIterable<Record<string, unknown>>,
  signal?: AbortSignal,
): Promise<MemberResult> {
  const gzip = createGzip({ level: 6 });
  const hash = createHash('sha256');
  let bytes = 0;
  let length = 0;
  let count = 0;
  const finished = new Promise<void>((resolve, reject) => {
    gzip.on('data', (chunk: Buffer) => {
      try {
        writeAll(fd, chunk, position + bytes);
        bytes += chunk.length;
      } catch (error) {
        gzip.destroy(error as Error);
      }
    });
    gzip.once('end', resolve);
    gzip.once('error', reject);
  });
  const push = async (text: string) => {
    length += Buffer.byteLength(text);
    if (!gzip.write(text)) await once(gzip, 'drain');
  };
  try {
    await push(`${JSON.stringify({ table })}\n`);
    let pending = '';
    for await (const row of rows) {
      const line = `${JSON.stringify(row)}\n`;
      hash.update(line);
      count++;
      pending += line;
      if (pending.length >= 1 << 16) {
        if (signal?.aborted) throw new InterruptedError();
        await push(pending);
        pending = '';
      }
    }
    if (pending !== '') await push(pending);
    gzip.end();
    await finished;
  } catch (error) {
    gzip.destroy();
    throw error;
  }
  return { rows: count, sha256: hash.digest('hex'), bytes, length };
}

/** The manifest, read from the file's first member and checked for shape. Throws `damaged` / `not_a_hippo_snapshot`. */
export function readManifest(path: string): { manifest: Manifest; size: number } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError('snapshot_not_found', `there is no snapshot at ${path}`, { details: { snapshot: path } });
    throw damaged(path, `it cannot be opened: ${code ?? 'error'}`);
  }
  try {
    const size = statSync(path).size;
    const head = Buffer.alloc(Math.min(size, HEADER_BYTES));
    readSync(fd, head, 0, head.length, 0);
    if (head.length < 3 || head[0] !== 0x1f || head[1] !== 0x8b) {
      throw new UsageError('not_a_hippo_snapshot', `${path} is not a hippo logical snapshot (not gzip); nothing was changed`, { details: { snapshot: path } });
    }
    let text: string;
    try {
      text = gunzipSync(head, { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString('utf8');
    } catch {
      throw damaged(path, 'its manifest cannot be decompressed');
    }
    const newline = text.indexOf('\n');
    let manifest: Manifest;
    try {
      manifest = JSON.parse(newline < 0 ? text : text.slice(0, newline)) as Manifest;
    } catch {
      if (newline < 0 && head.length < HEADER_BYTES) throw damaged(path, 'it is cut short');
      throw new UsageError('not_a_hippo_snapshot', `${path} is not a hippo logical snapshot (no manifest); nothing was changed`, {
        details: { snapshot: path },
      });
    }
    if (manifest?.format !== SNAPSHOT_FORMAT || manifest.engine !== 'postgres') {
      throw new UsageError('not_a_hippo_snapshot', `${path} is not a hippo logical snapshot of a PostgreSQL store; nothing was changed`, {
        details: { snapshot: path },
      });
    }
    const tablesOk =
      Array.isArray(manifest.tables) &&
      manifest.tables.length === STORE_TABLES.length &&
      manifest.tables.every(
        (table, index) =>
          table.name === STORE_TABLES[index] &&
          [table.rows, table.bytes, table.length].every((value) => Number.isSafeInteger(value) && value >= 0) &&
          typeof table.sha256 === 'string' &&
          /^[0-9a-f]{64}$/.test(table.sha256),
      );
    if (!tablesOk || manifest.headerBytes !== HEADER_BYTES || !Number.isInteger(manifest.schemaVersion)) throw damaged(path, 'its manifest is not valid');
    return { manifest, size };
  } finally {
    closeSync(fd);
  }
}

/** The cheap check: the file is exactly as long as its manifest says, and every member starts and ends where it should. */
function structureProblem(path: string, manifest: Manifest, size: number): string | undefined {
  const expected = manifest.headerBytes + manifest.tables.reduce((sum, table) => sum + table.bytes, 0);
  if (size !== expected) return size < expected ? 'it is cut short' : 'it has bytes beyond its last table';
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(manifest.headerBytes);
    readSync(fd, head, 0, head.length, 0);
    try {
      gunzipSync(head);
    } catch {
      return 'its manifest fails its checksum';
    }
    let offset = manifest.headerBytes;
    for (const table of manifest.tables) {
      const start = Buffer.alloc(3);
      const end = Buffer.alloc(4);
      readSync(fd, start, 0, 3, offset);
      readSync(fd, end, 0, 4, offset + table.bytes - 4);
      if (start[0] !== 0x1f || start[1] !== 0x8b || start[2] !== 0x08) return `the ${table.name} table does not start where the manifest says`;
      if (end.readUInt32LE(0) !== table.length % 2 ** 32) return `the ${table.name} table does not end where the manifest says`;
      offset += table.bytes;
    }
  } finally {
    closeSync(fd);
  }
  return undefined;
}

/** The lines of one table's member (its header line checked and left out), decompressed as they are read. */
async function* memberLines(path: string, offset: number, table: ManifestTable): AsyncGenerator<string> {
  if (table.bytes === 0) throw damaged(path, `the ${table.name} table is empty`);
  const stream = createReadStream(path, { start: offset, end: offset + table.bytes - 1 }).pipe(createGunzip());
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let first = true;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      rest += decoder.write(chunk);
      let newline: number;
      while ((newline = rest.indexOf('\n')) >= 0) {
        const line = rest.slice(0, newline);
        rest = rest.slice(newline + 1);
        if (first) {
          first = false;
          if (line !== JSON.stringify({ table: table.name })) throw damaged(path, `the ${table.name} table's header is wrong`);
          continue;
        }
        yield line;
      }
    }
  } catch (error) {
    if (error instanceof HippoError) throw error;
    throw damaged(path, `the ${table.name} table cannot be decompressed`);
  } finally {
    stream.destroy();
  }
  rest += decoder.end();
  if (rest !== '' || first) throw damaged(path, `the ${table.name} table ends mid-line`);
}

/** A row of a snapshot: its key (the id), its line exactly as written, and the agent it belongs to. */
interface SnapshotRow {
  key: string;
  line: string;
  row: Record<string, unknown>;
}

/**
 * Reads one table's rows back in file order, checking every line parses, that keys are in strictly increasing byte
 * order (the order every comparison relies on), and at the end that the count and sha256 match the manifest: a
 * damaged table throws `snapshot_damaged`, even after rows were yielded (a restore then rolls back).
 */
async function* readTable(path: string, manifest: Manifest, name: StoreTable, options: { parse?: boolean } = {}): AsyncGenerator<SnapshotRow> {
  let offset = manifest.headerBytes;
  const spec = TABLE_SPECS[name];
  const keyProp = spec.columns.find((column) => column.name === spec.key)!.prop;
  for (const table of manifest.tables) {
    if (table.name !== name) {
      offset += table.bytes;
      continue;
    }
    const hash = createHash('sha256');
    let rows = 0;
    let previous: string | undefined;
    for await (const line of memberLines(path, offset, table)) {
      hash.update(`${line}\n`);
      rows++;
      if (options.parse === false) continue;
      let row: Record<string, unknown>;
      try {
        row = JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw damaged(path, `a line of the ${name} table is not JSON`);
      }
      const key = typeof row === 'object' && row !== null && !Array.isArray(row) ? row[keyProp] : undefined;
      if (typeof key !== 'string') throw damaged(path, `a line of the ${name} table is not a row`);
      if (previous !== undefined && byteOrder(previous, key) >= 0) throw damaged(path, `the ${name} table is not in key order`);
      previous = key;
      yield { key, line, row };
    }
    if (rows !== table.rows) throw damaged(path, `the ${name} table holds ${rows} rows, its manifest says ${table.rows}`);
    if (hash.digest('hex') !== table.sha256) throw damaged(path, `the ${name} table does not match its sha256`);
    return;
  }
}

// eslint-disable-next-line no-control-regex -- the whole ASCII range, NUL included
const ASCII = /^[\x00-\x7f]*$/;

/** Compares two strings by their UTF-8 bytes (PostgreSQL's `COLLATE "C"`, SQLite's BINARY). */
export function byteOrder(a: string, b: string): number {
  // ASCII (every id hippo makes) compares the same by code unit: no buffers needed.
  if (ASCII.test(a) && ASCII.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Checks a snapshot; `problem` says why one is not ok. `header`: the manifest and the file's structure (lengths,
 * member boundaries); `quick`: every table decompressed and its count and sha256 recomputed; `full`: every line
 * parsed as a row in key order too.
 */
export async function checkSnapshot(path: string, level: SnapshotCheckLevel): Promise<{ ok: boolean; problem?: string }> {
  try {
    const { manifest, size } = readManifest(path);
    const problem = structureProblem(path, manifest, size);
    if (problem) return { ok: false, problem };
    if (level !== 'header') {
      for (const table of STORE_TABLES) {
        for await (const row of readTable(path, manifest, table, { parse: level === 'full' })) void row;
      }
    }
    return { ok: true };
  } catch (error) {
    if (error instanceof HippoError) return { ok: false, problem: (error.details?.problem as string | undefined) ?? error.message };
    return { ok: false, problem: 'it cannot be read' };
  }
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename itself is atomic.
  }
}

export interface SnapshotDeps {
  session: Session;
  dir: string;
  schemaVersion: number;
  clock: () => Date;
  /** The transaction behind a transaction's ops (undefined for the store itself). */
  transactionOf(ops: StoreOps): TxState | undefined;
}

/** Rows of one side of a comparison, in key order. */
type Side = AsyncGenerator<{ key: string; line: string }, void, undefined>;

/**
 * Walks the snapshot's rows in scope and the live rows in scope side by side (both in key byte order) and reports
 * each key: only in the snapshot (`added` by a restore), only live (`removed`), in both (`same` or not). Stops early
 * when `visit` returns false; both walks are closed whatever happens (a live walk holds a cursor).
 */
async function mergeWalk(snapshot: Side, live: Side, visit: (kind: 'added' | 'removed' | 'same' | 'changed') => boolean): Promise<void> {
  try {
    let a = await snapshot.next();
    let b = await live.next();
    while (!a.done || !b.done) {
      let kind: 'added' | 'removed' | 'same' | 'changed';
      if (b.done || (!a.done && byteOrder(a.value.key, b.value.key) < 0)) {
        kind = 'added';
        a = await snapshot.next();
      } else if (a.done || byteOrder(a.value.key, b.value.key) > 0) {
        kind = 'removed';
        b = await live.next();
      } else {
        kind = a.value.line === b.value.line ? 'same' : 'changed';
        a = await snapshot.next();
        b = await live.next();
      }
      if (!visit(kind)) return;
    }
  } finally {
    await Promise.allSettled([snapshot.return(undefined), live.return(undefined)]);
  }
}

/**
 * A row of a snapshot written at schema `version`, as this schema's row: its properties in column order, with every
 * column added since (tables.ts `since`) holding its value for old rows.
 */
export function upgradeRow(spec: TableSpec, row: Record<string, unknown>, version: number): Record<string, unknown> {
  const upgraded: Record<string, unknown> = {};
  for (const column of spec.columns) {
    if (column.prop in row) upgraded[column.prop] = row[column.prop];
    else if (column.since && column.since.version > version) upgraded[column.prop] = structuredClone(column.since.value);
    else upgraded[column.prop] = null;
  }
  return upgraded;
}

/** A snapshot opened for restoring (port.ts `SnapshotSource`); it holds nothing open between calls. */
class LogicalSnapshot implements SnapshotSource {
  constructor(
    private readonly deps: SnapshotDeps,
    private readonly path: string,
    private readonly manifest: Manifest,
  ) {}

  async verify(): Promise<boolean> {
    return (await checkSnapshot(this.path, 'full')).ok;
  }

  /** The snapshot's rows of a table in scope (one agent's, or all), as this schema's rows (older ones upgraded). */
  private async *rows(table: RestoredTable, agentId: string | null): AsyncGenerator<{ key: string; line: string; row: Record<string, unknown> }> {
    const spec = TABLE_SPECS[table];
    const older = this.manifest.schemaVersion < this.deps.schemaVersion;
    for await (const { key, line, row } of readTable(this.path, this.manifest, table)) {
      if (agentId !== null && row.agentId !== agentId) continue;
      if (!older) {
        yield { key, line, row };
        continue;
      }
      const upgraded = upgradeRow(spec, row, this.manifest.schemaVersion);
      yield { key, line: JSON.stringify(upgraded), row: upgraded };
    }
  }

  /** The snapshot's rows of a table in scope, as lines comparable with the live side's. */
  private async *snapshotSide(table: RestoredTable, agentId: string | null): Side {
    for await (const { key, line } of this.rows(table, agentId)) yield { key, line };
  }

  /** The live rows of a table in scope, as the lines a snapshot would hold, in the same order. */
  private async *liveSide(ops: StoreOps, table: RestoredTable, agentId: string | null): Side {
    const spec = TABLE_SPECS[table];
    const sql = dumpSql(spec, agentId)!;
    const keyProp = spec.columns.find((column) => column.name === spec.key)!.prop;
    for await (const raw of cursorRows(this.deps.session, this.deps.transactionOf(ops), sql.text, sql.values)) {
      const row = fromRow<Record<string, unknown>>(spec, raw);
      yield { key: row[keyProp] as string, line: JSON.stringify(row) };
    }
  }

  async compare(ops: StoreOps, table: RestoredTable, agentId: string | null): Promise<TableChangeCounts> {
    const counts: TableChangeCounts = { table, added: 0, removed: 0, changed: 0, unchanged: 0 };
    await mergeWalk(this.snapshotSide(table, agentId), this.liveSide(ops, table, agentId), (kind) => {
      if (kind === 'same') counts.unchanged++;
      else counts[kind]++;
      return true;
    });
    return counts;
  }

  async replace(tx: StoreOps, table: RestoredTable, agentId: string | null): Promise<void> {
    const { session } = this.deps;
    const state = this.deps.transactionOf(tx) ?? session.current();
    if (!state) throw new HippoError('not_in_transaction', 'a restore replaced rows outside a transaction (a bug in hippo)', ExitCode.unexpected);
    const spec = TABLE_SPECS[table];
    // Whole tables at once: the store's statement timeout suits single rows, not a million of them.
    await session.query(`SET LOCAL statement_timeout = ${BULK_TIMEOUT_MS}`, [], state);
    await session.query(`DELETE FROM ${table} WHERE ${agentId === null ? 'TRUE' : 'agent_id = $1'}`, agentId === null ? [] : [agentId], state, {
      timeoutMs: BULK_TIMEOUT_MS,
    });
    let batch: Record<string, unknown>[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const chunks = copyText(spec, batch);
      batch = [];
      await session.withClient(state, (client) => copyIn(client, spec, chunks));
    };
    for await (const { row } of this.rows(table, agentId)) {
      batch.push(row);
      if (batch.length >= COPY_BATCH) await flush();
    }
    await flush();
    // The snapshot holds memories, not their search context: the threads in scope are re-indexed (a thread is one agent's).
    if (table === 'memories') await new PgThreads((text, values = []) => session.query(text, values, state, { timeoutMs: BULK_TIMEOUT_MS })).all(agentId);
  }

  async matches(ops: StoreOps, table: RestoredTable, agentId: string | null): Promise<boolean> {
    let equal = true;
    await mergeWalk(this.snapshotSide(table, agentId), this.liveSide(ops, table, agentId), (kind) => {
      equal = kind === 'same';
      return equal;
    });
    return equal;
  }

  async close(): Promise<void> {
    // Nothing is held between calls: each walk opens and closes the file (and its cursor) itself.
  }
}

/** A port object as a snapshot line holds it: the table's properties in column order (so equal rows give equal lines). */
function normalized(table: StoreTable, row: Record<string, unknown>): Record<string, unknown> {
  const ordered: Record<string, unknown> = {};
  for (const column of TABLE_SPECS[table].columns) ordered[column.prop] = row[column.prop] ?? null;
  return ordered;
}

/** Where the rows of each table come from, for `writeSnapshot`. */
type TableSource = (table: StoreTable) => AsyncIterable<Record<string, unknown>>;

/**
 * Writes a snapshot file at `path`: under a hidden temporary name (mode 0600 from the first byte), one member per table
 * from `produce` (which calls `write` with the rows, inside whatever read transaction it needs), the manifest in front,
 * fsync; then — unless `discardIf(manifest)` says the file adds nothing (it is removed, `discarded`) — read back whole
 * against its manifest and renamed into place. Any failure removes the temporary file and changes nothing.
 */
async function writeSnapshot(
  dir: string,
  path: string,
  deps: SnapshotDeps,
  signal: AbortSignal | undefined,
  produce: (write: (source: TableSource) => Promise<ManifestTable[]>) => Promise<ManifestTable[]>,
  discardIf: (manifest: Manifest) => boolean,
  fields: { createdAt?: string; rewrittenAt?: string },
): Promise<'written' | 'discarded'> {
  const temp = join(dir, `.${basename(path)}.partial`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', 0o600);
    const descriptor = fd;
    const tables = await produce(async (source) => {
      const written: ManifestTable[] = [];
      let position = HEADER_BYTES;
      for (const table of STORE_TABLES) {
        if (signal?.aborted) throw new InterruptedError();
        const member = await writeMember(descriptor, position, table, source(table), signal);
        written.push({ name: table, ...member });
        position += member.bytes;
      }
      return written;
    });
    const manifest: Manifest = {
      format: SNAPSHOT_FORMAT,
      engine: 'postgres',
      schemaVersion: deps.schemaVersion,
      createdAt: fields.createdAt ?? deps.clock().toISOString(),
      ...(fields.rewrittenAt ? { rewrittenAt: fields.rewrittenAt } : {}),
      headerBytes: HEADER_BYTES,
      tables,
    };
    writeAll(fd, manifestMember(manifest), 0);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    if (discardIf(manifest)) {
      rmSync(temp, { force: true });
      return 'discarded';
    }
    const verified = await checkSnapshot(temp, 'full');
    if (!verified.ok) {
      throw new HippoError('snapshot_verify_failed', `the snapshot did not read back as written (${verified.problem}) and was discarded`, ExitCode.unexpected, {
        // The rows came from the server, which checks its own pages; what failed is the file.
        details: { live: 'unknown' },
      });
    }
    renameSync(temp, path);
    fsyncDir(dir);
    return 'written';
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw writeError(error, dir);
  }
}

export function snapshotPort(deps: SnapshotDeps): SnapshotPort {
  const { session, dir } = deps;
  return {
    dir,
    suffix: SNAPSHOT_SUFFIX,
    // A logical snapshot's read-back of every table against its manifest's counts and sha256 (docs/postgres.md).
    verifiedBy: 'manifest counts and sha256',

    async take(name, options) {
      const file = name.endsWith(SNAPSHOT_SUFFIX) ? name : `${name}${SNAPSHOT_SUFFIX}`;
      if (file.includes('/') || file.includes('\\') || file.startsWith('.')) {
        throw new UsageError('bad_snapshot_name', 'a snapshot name is a plain file name (no directory, not hidden)');
      }
      const path = join(dir, file);
      let removedPartials = 0;
      try {
        ensureDirectory(dir);
        for (const leftover of readdirSync(dir).filter((entry) => PARTIAL_FILE.test(entry))) {
          rmSync(join(dir, leftover), { force: true });
          removedPartials++;
        }
      } catch (error) {
        throw writeError(error, dir);
      }
      let basis: Manifest | undefined;
      if (options.unlessSameAs !== undefined) {
        try {
          basis = readManifest(options.unlessSameAs).manifest;
        } catch {
          basis = undefined; // an unreadable basis: take the snapshot
        }
      }
      // One consistent view of every table (REPEATABLE READ): no row written during the walk is half in.
      const written = await writeSnapshot(
        dir,
        path,
        deps,
        options.signal,
        async (write) =>
          session.readOnly(async (tx) =>
            write((table) => {
              const spec = TABLE_SPECS[table];
              const sql = dumpSql(spec, null)!;
              return (async function* () {
                for await (const row of cursorRows(session, tx, sql.text, sql.values)) yield fromRow<Record<string, unknown>>(spec, row);
              })();
            }),
          ),
        // Nothing changed since the basis: the new file is discarded before it gets a name.
        (manifest) => basis !== undefined && sameRestorableRows(manifest, basis),
        {},
      );
      if (written === 'discarded') {
        return { path: options.unlessSameAs!, sizeBytes: statSync(options.unlessSameAs!).size, violations: [], removedPartials, unchanged: true };
      }
      return { path, sizeBytes: statSync(path).size, violations: [], removedPartials, unchanged: false };
    },

    async erase(path, spec, rewriter, options = {}) {
      const { manifest, size } = readManifest(path);
      const problem = structureProblem(path, manifest, size);
      if (problem) throw damaged(path, problem);
      if (manifest.schemaVersion > deps.schemaVersion) {
        throw new UsageError(
          'snapshot_too_new',
          `${path} was written by a newer hippo (schema ${manifest.schemaVersion}; this hippo knows up to ${deps.schemaVersion}); nothing was changed`,
        );
      }
      const version = manifest.schemaVersion;
      const upgraded = (table: StoreTable, row: Record<string, unknown>) => (version < deps.schemaVersion ? upgradeRow(TABLE_SPECS[table], row, version) : row);
      // 1. The memories erased: those the spec names, and the older versions of those (or of an id given).
      const ids = new Set(spec.memoryIds);
      const named = new Set<string>();
      const erased: Memory[] = [];
      const versions: Memory[] = [];
      for await (const { row } of readTable(path, manifest, 'memories')) {
        const memory = upgraded('memories', row) as unknown as Memory;
        if (memory.agentId !== spec.agentId) continue;
        if (namedBy(spec, memory, ids)) {
          named.add(memory.id);
          erased.push(memory);
        } else if (memory.versionOf !== null) versions.push(memory);
      }
      erased.push(...versions.filter((memory) => ids.has(memory.versionOf!) || named.has(memory.versionOf!)));
      erased.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : byteOrder(a.id, b.id)));
      const erasedIds = new Set(erased.map((memory) => memory.id));
      const rewrite = rewriter(erased);
      const needles = usableNeedles(rewrite.needles);
      const report: EraseReport = { memories: erased, candidatesChanged: [], candidatesDeleted: [], handoffsChanged: [] };
      // 2. What a rewrite does to each row, in file order (`undefined`: the row goes).
      const rewriteRow = (table: StoreTable, raw: Record<string, unknown>, count: boolean): Record<string, unknown> | undefined => {
        const row = upgraded(table, raw);
        if (row.agentId !== spec.agentId) return row;
        if (table === 'memories') return erasedIds.has(row.id as string) ? undefined : row;
        if (table === 'candidates') {
          const candidate = row as unknown as CandidateRecord;
          if (!citesOrHolds(candidate, erasedIds, needles)) return row;
          const next = rewrite.candidate(candidate);
          if (count && next === null) report.candidatesDeleted.push(candidate.id);
          else if (count && next !== candidate) report.candidatesChanged.push(candidate.id);
          return next === null ? undefined : (next as unknown as Record<string, unknown>);
        }
        if (table === 'handoffs') {
          const handoff = row as unknown as HandoffRecord;
          if (!refersToOrHolds(handoff, erasedIds, needles)) return row;
          const next = rewrite.handoff(handoff);
          if (count && next !== handoff) report.handoffsChanged.push(handoff.id);
          return next as unknown as Record<string, unknown>;
        }
        return row;
      };
      for (const table of ['candidates', 'handoffs'] as const) {
        for await (const { row } of readTable(path, manifest, table)) rewriteRow(table, row, true);
      }
      const empty = erased.length + report.candidatesChanged.length + report.candidatesDeleted.length + report.handoffsChanged.length === 0;
      if (options.dryRun || empty) return report;
      // 3. The file again, without what goes, under its own name (the same rewrite, row for row, as counted above).
      await writeSnapshot(
        dirname(path),
        path,
        deps,
        undefined,
        async (write) =>
          write((table) =>
            (async function* () {
              for await (const { row } of readTable(path, manifest, table)) {
                const kept = rewriteRow(table, row, false);
                if (kept !== undefined) yield normalized(table, kept);
              }
            })(),
          ),
        () => false,
        { createdAt: manifest.createdAt, rewrittenAt: deps.clock().toISOString() },
      );
      return report;
    },

    async check(path, level) {
      const result = await checkSnapshot(path, level);
      return { ok: result.ok, violations: [] };
    },

    async open(path) {
      const { manifest, size } = readManifest(path);
      const problem = structureProblem(path, manifest, size);
      if (problem) throw damaged(path, problem);
      if (manifest.schemaVersion > deps.schemaVersion) {
        throw new UsageError(
          'snapshot_too_new',
          `${path} was written by a newer hippo (schema ${manifest.schemaVersion}; this hippo knows up to ${deps.schemaVersion}); nothing was changed`,
        );
      }
      if (manifest.schemaVersion < 1) {
        throw new UsageError('snapshot_too_old', `${path} has schema ${manifest.schemaVersion}, which this hippo cannot restore; nothing was changed`);
      }
      // An older schema's rows are read with the columns added since filled in (tables.ts `since`): a migration that
      // changes a column in another way must teach `upgradeRow` how to read the old rows.
      return new LogicalSnapshot(deps, path, manifest);
    },
  };
}
