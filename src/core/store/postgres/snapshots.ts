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
 * A snapshot is written under a hidden temporary name (mode 0600 from the first byte), read back whole and checked
 * against its manifest, fsynced, and only then renamed into place: a file with a snapshot's name is always complete.
 * `check` is cheap by default (the manifest, the file's length, each member's gzip header and length trailer) or
 * thorough (every member decompressed, every line parsed, counts and sha256 recomputed).
 *
 * Restore (memories, candidates, handoffs — never runs or settings, as on SQLite) runs in ONE transaction: the
 * snapshot's rows in scope are COPYed into temp tables while its hashes are checked, compared with the live rows, the
 * live rows in scope deleted and the snapshot's inserted, and the result read back and hashed; any mismatch rolls
 * everything back.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, createReadStream, fsyncSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { constants as zlibConstants, createGunzip, createGzip, gunzipSync, gzipSync } from 'node:zlib';
import { ExitCode, HippoError, InterruptedError, UsageError } from '../../errors.js';
import type { SnapshotPort, StoreTable, TableChangeCounts, TableRow } from '../port.js';
import { STORE_TABLES } from '../port.js';
import { copyIn, copyText, COPY_BATCH, cursorRows } from './bulk.js';
import { dumpSql } from './repos.js';
import type { Session, TxState } from './session.js';
import { columnList, fromRow, TABLE_SPECS, type TableSpec } from './tables.js';

export const SNAPSHOT_SUFFIX = '.jsonl.gz';
export const SNAPSHOT_FORMAT = 'hippo-logical-snapshot';
/** The manifest's line is padded to this many bytes (newline included). */
export const MANIFEST_BYTES = 16_384;
/** A gzip member of stored (level 0) data: 10 header bytes, a 5-byte stored-block header, 8 trailer bytes. */
const STORED_OVERHEAD = 23;
export const HEADER_BYTES = MANIFEST_BYTES + STORED_OVERHEAD;

/** The tables a restore puts back (runs — the audit log — and settings — the lock, the pause flag — never). */
export const RESTORED_TABLES = ['memories', 'candidates', 'handoffs'] as const;
type RestoredTable = (typeof RESTORED_TABLES)[number];

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
  headerBytes: number;
  tables: ManifestTable[];
}

const PARTIAL_FILE = /^\..+\.partial$/;

function snapshotFailed(code: string, message: string): HippoError {
  return new HippoError(code, message, ExitCode.unexpected);
}

function writeError(error: unknown, dir: string): HippoError {
  if (error instanceof HippoError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return snapshotFailed('disk_full', `no space left to write the snapshot in ${dir}; nothing was changed`);
  return snapshotFailed('snapshot_failed', `cannot write the snapshot in ${dir} (${typeof code === 'string' ? code : 'error'}); nothing was changed`);
}

function damaged(path: string, why: string): HippoError {
  return new HippoError('snapshot_damaged', `${path} is damaged (${why}); nothing was changed — pick another snapshot`, ExitCode.unexpected, {
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
async function writeMember(fd: number, position: number, table: StoreTable, rows: AsyncIterable<TableRow>, signal?: AbortSignal): Promise<MemberResult> {
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

/**
 * Reads a table's rows back, checking each line parses and, at the end, that the count and sha256 match the
 * manifest. `onRow` sees every row (parsed) with its line.
 */
async function readTable(path: string, manifest: Manifest, name: StoreTable, onRow?: (row: TableRow, line: string) => Promise<void> | void): Promise<void> {
  let offset = manifest.headerBytes;
  for (const table of manifest.tables) {
    if (table.name !== name) {
      offset += table.bytes;
      continue;
    }
    const hash = createHash('sha256');
    let rows = 0;
    for await (const line of memberLines(path, offset, table)) {
      let row: TableRow;
      try {
        row = JSON.parse(line) as TableRow;
      } catch {
        throw damaged(path, `a line of the ${name} table is not JSON`);
      }
      if (typeof row !== 'object' || row === null || Array.isArray(row)) throw damaged(path, `a line of the ${name} table is not a row`);
      hash.update(`${line}\n`);
      rows++;
      if (onRow) await onRow(row, line);
    }
    if (rows !== table.rows) throw damaged(path, `the ${name} table holds ${rows} rows, its manifest says ${table.rows}`);
    if (hash.digest('hex') !== table.sha256) throw damaged(path, `the ${name} table does not match its sha256`);
    return;
  }
}

/** Checks a snapshot; `problem` says why one is not ok. */
export async function checkSnapshot(path: string, thorough: boolean): Promise<{ ok: boolean; problem?: string }> {
  try {
    const { manifest, size } = readManifest(path);
    const problem = structureProblem(path, manifest, size);
    if (problem) return { ok: false, problem };
    if (thorough) for (const table of STORE_TABLES) await readTable(path, manifest, table);
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
}

/** `a = b AND …` comparing two rows of a table column by column (json compared as text: it has no equality). */
function sameRow(spec: TableSpec, left: string, right: string): string {
  const value = (alias: string) =>
    spec.columns.map((column) => (column.type === 'json' ? `${alias}.${column.name}::text` : `${alias}.${column.name}`)).join(', ');
  return `(${value(left)}) IS NOT DISTINCT FROM (${value(right)})`;
}

interface Staged {
  /** Per table: how many rows of the snapshot are in scope, and the sha256 of their lines. */
  inScope: Record<RestoredTable, { rows: number; sha256: string }>;
}

export function snapshotPort(deps: SnapshotDeps): SnapshotPort {
  const { session, dir } = deps;

  /** Checks the snapshot can be restored by this hippo: its manifest, its structure, its schema version. */
  function openForRestore(path: string): Manifest {
    const { manifest, size } = readManifest(path);
    const problem = structureProblem(path, manifest, size);
    if (problem) throw damaged(path, problem);
    if (manifest.schemaVersion > deps.schemaVersion) {
      throw new UsageError(
        'snapshot_too_new',
        `${path} was written by a newer hippo (schema ${manifest.schemaVersion}; this hippo knows up to ${deps.schemaVersion}); nothing was changed`,
      );
    }
    if (manifest.schemaVersion !== deps.schemaVersion) {
      throw new UsageError('snapshot_too_old', `${path} has schema ${manifest.schemaVersion}, which this hippo cannot restore; nothing was changed`);
    }
    return manifest;
  }

  /**
   * Inside the restore's transaction: every table of the snapshot read and checked against its manifest (count,
   * sha256), the rows in scope COPYed into temp tables `hippo_snapshot_<table>` (dropped at the end of the transaction).
   */
  async function stage(tx: TxState, path: string, manifest: Manifest, agentId: string | null): Promise<Staged> {
    const inScope = {} as Staged['inScope'];
    for (const name of RESTORED_TABLES) {
      const spec = TABLE_SPECS[name];
      const temp = `hippo_snapshot_${name}`;
      await session.query(`CREATE TEMP TABLE ${temp} (LIKE ${name} INCLUDING DEFAULTS) ON COMMIT DROP`, [], tx);
      const hash = createHash('sha256');
      let rows = 0;
      let batch: TableRow[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        const chunks = copyText(spec, batch);
        batch = [];
        await session.withClient(tx, (client) => copyIn(client, spec, chunks, { into: temp }));
      };
      await readTable(path, manifest, name, async (row, line) => {
        if (agentId !== null && row.agentId !== agentId) return;
        hash.update(`${line}\n`);
        rows++;
        batch.push(row);
        if (batch.length >= COPY_BATCH) await flush();
      });
      await flush();
      await session.query(`ANALYZE ${temp}`, [], tx);
      inScope[name] = { rows, sha256: hash.digest('hex') };
    }
    return { inScope };
  }

  async function changes(tx: TxState, agentId: string | null): Promise<TableChangeCounts[]> {
    const result: TableChangeCounts[] = [];
    for (const name of RESTORED_TABLES) {
      const spec = TABLE_SPECS[name];
      const scope = agentId === null ? 'TRUE' : 'm.agent_id = $1';
      const values = agentId === null ? [] : [agentId];
      const { rows } = await session.query<{ live: number; added: number; removed: number; changed: number }>(
        `SELECT
           (SELECT count(*)::int FROM ${name} m WHERE ${scope}) AS live,
           (SELECT count(*)::int FROM hippo_snapshot_${name} s WHERE NOT EXISTS (SELECT 1 FROM ${name} m WHERE m.id = s.id AND ${scope})) AS added,
           (SELECT count(*)::int FROM ${name} m WHERE ${scope} AND NOT EXISTS (SELECT 1 FROM hippo_snapshot_${name} s WHERE s.id = m.id)) AS removed,
           (SELECT count(*)::int FROM ${name} m JOIN hippo_snapshot_${name} s ON s.id = m.id WHERE ${scope} AND NOT ${sameRow(spec, 'm', 's')}) AS changed`,
        values,
        tx,
        { timeoutMs: BULK_TIMEOUT_MS },
      );
      const row = rows[0]!;
      result.push({ table: name, added: row.added, removed: row.removed, changed: row.changed, unchanged: row.live - row.removed - row.changed });
    }
    return result;
  }

  /** sha256 and count of the live rows in scope, read back in dump order (as the snapshot's lines were written). */
  async function liveHash(tx: TxState, name: RestoredTable, agentId: string | null): Promise<{ rows: number; sha256: string }> {
    const spec = TABLE_SPECS[name];
    const sql = dumpSql(spec, agentId)!;
    const hash = createHash('sha256');
    let rows = 0;
    for await (const row of cursorRows(session, tx, sql.text, sql.values)) {
      hash.update(`${JSON.stringify(fromRow(spec, row))}\n`);
      rows++;
    }
    return { rows, sha256: hash.digest('hex') };
  }

  const bulkSetup = [`SET LOCAL statement_timeout = ${BULK_TIMEOUT_MS}`, `SET LOCAL idle_in_transaction_session_timeout = ${BULK_TIMEOUT_MS}`];

  return {
    dir,
    suffix: SNAPSHOT_SUFFIX,

    async take(name, options) {
      const file = name.endsWith(SNAPSHOT_SUFFIX) ? name : `${name}${SNAPSHOT_SUFFIX}`;
      if (file.includes('/') || file.includes('\\') || file.startsWith('.')) {
        throw new UsageError('bad_snapshot_name', 'a snapshot name is a plain file name (no directory, not hidden)');
      }
      const path = join(dir, file);
      const temp = join(dir, `.${file}.partial`);
      let fd: number | undefined;
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        for (const leftover of readdirSync(dir).filter((entry) => PARTIAL_FILE.test(entry))) rmSync(join(dir, leftover), { force: true });
        fd = openSync(temp, 'wx', 0o600);
        const tables: ManifestTable[] = [];
        let position = HEADER_BYTES;
        // One consistent view of every table (REPEATABLE READ): no row written during the walk is half in.
        await session.readOnly(async (tx) => {
          for (const table of STORE_TABLES) {
            if (options.signal?.aborted) throw new InterruptedError();
            const spec = TABLE_SPECS[table];
            const sql = dumpSql(spec, null)!;
            const rows = (async function* () {
              for await (const row of cursorRows(session, tx, sql.text, sql.values)) yield fromRow(spec, row);
            })();
            const member = await writeMember(fd!, position, table, rows, options.signal);
            tables.push({ name: table, ...member });
            position += member.bytes;
          }
        });
        const manifest: Manifest = {
          format: SNAPSHOT_FORMAT,
          engine: 'postgres',
          schemaVersion: deps.schemaVersion,
          createdAt: deps.clock().toISOString(),
          headerBytes: HEADER_BYTES,
          tables,
        };
        writeAll(fd, manifestMember(manifest), 0);
        fsyncSync(fd);
        closeSync(fd);
        fd = undefined;
        const verified = await checkSnapshot(temp, true);
        if (!verified.ok) throw snapshotFailed('snapshot_verify_failed', `the snapshot did not read back as written (${verified.problem}) and was discarded`);
        renameSync(temp, path);
        fsyncDir(dir);
      } catch (error) {
        if (fd !== undefined) closeSync(fd);
        rmSync(temp, { force: true });
        throw writeError(error, dir);
      }
      return { path, sizeBytes: statSync(path).size, violations: [] };
    },

    async check(path, thorough) {
      const result = await checkSnapshot(path, thorough);
      return { ok: result.ok, violations: [] };
    },

    async planRestore(path, agentId) {
      const manifest = openForRestore(path);
      return session.transaction(
        async (tx) => {
          await stage(tx, path, manifest, agentId);
          return changes(tx, agentId);
        },
        { setup: bulkSetup },
      );
    },

    async applyRestore(path, agentId) {
      const manifest = openForRestore(path);
      return session.transaction(
        async (tx) => {
          const staged = await stage(tx, path, manifest, agentId);
          const counts = await changes(tx, agentId);
          for (const name of RESTORED_TABLES) {
            const columns = columnList(TABLE_SPECS[name].columns);
            await session.query(`DELETE FROM ${name} WHERE ${agentId === null ? 'TRUE' : 'agent_id = $1'}`, agentId === null ? [] : [agentId], tx, {
              timeoutMs: BULK_TIMEOUT_MS,
            });
            await session.query(`INSERT INTO ${name} (${columns}) SELECT ${columns} FROM hippo_snapshot_${name}`, [], tx, { timeoutMs: BULK_TIMEOUT_MS });
          }
          for (const name of RESTORED_TABLES) {
            const live = await liveHash(tx, name, agentId);
            const expected = staged.inScope[name];
            if (live.rows !== expected.rows || live.sha256 !== expected.sha256) {
              throw new HippoError(
                'restore_verify_failed',
                `after the restore the ${name} rows did not equal the snapshot's; everything was rolled back and nothing changed`,
                ExitCode.unexpected,
              );
            }
          }
          return counts;
        },
        { setup: bulkSetup },
      );
    },
  };
}
