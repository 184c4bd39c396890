/**
 * Logical snapshots of a PostgreSQL store against a real server: written whole (mode 0600, under the store's own
 * folder), checked cheaply and thoroughly (one damaged byte is found), planned and applied in one transaction that
 * puts back exactly the snapshot's rows — for all agents or one — and rolls back on any mismatch.
 */
import { execa } from 'execa';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode, HippoError } from '../../../../src/core/errors.js';
import type { Memory } from '../../../../src/core/records.js';
import { newId } from '../../../../src/core/ids.js';
import { snapshotFolderName } from '../../../../src/core/store/postgres/adapter.js';
import { parsePostgresUrl } from '../../../../src/core/store/postgres/connect.js';
import { POSTGRES_SCHEMA_VERSION } from '../../../../src/core/store/postgres/schema.js';
import { HEADER_BYTES, readManifest } from '../../../../src/core/store/postgres/snapshots.js';
import type { Store, TableChangeCounts, TableRow } from '../../../../src/core/store/port.js';
import { STORE_TABLES } from '../../../../src/core/store/port.js';
import { withClient } from '../../../helpers/postgres.js';
import { at, candidate, collect, handoff, memory, openAdapterStore, rejection, run, type AdapterStore } from '../../../helpers/postgres-store.js';

let t: AdapterStore;
let store: Store;
beforeAll(async () => {
  t = await openAdapterStore();
  store = t.store;
});
afterAll(async () => {
  await t.dispose();
});

async function seed(): Promise<void> {
  await withClient(t.database.url, (client) => client.query(`TRUNCATE ${[...STORE_TABLES, 'store_runs'].join(', ')}`));
  const memories = Array.from({ length: 1_500 }, (_, index) =>
    memory(index % 2 ? 'alice' : 'bob', `memory ${index}: tab\there, newline\nthere, quote " and émoji 🦛`, {
      createdAt: at(index),
      tags: index % 3 ? ['ops'] : [],
    }),
  );
  await store.memories.insertMany(memories);
  await store.candidates.insert(candidate('alice', 'alice claim'));
  await store.candidates.insert(candidate('bob', 'bob claim'));
  await store.handoffs.insert(handoff('alice'));
  await store.runs.insert(run({ agentId: null, counts: { b: 1, a: 2 } }));
  await store.settings.set('nightly.paused', at(0));
}

async function everything(): Promise<Record<string, TableRow[]>> {
  const result: Record<string, TableRow[]> = {};
  for (const table of STORE_TABLES) result[table] = await collect(store.rows.dump(table, null));
  return result;
}

function snapshotName(): string {
  return `20261102T093000Z-${newId('run')}`;
}

describe('taking a logical snapshot', () => {
  beforeEach(seed);

  it('writes every row as gzip JSONL with a manifest, mode 0600, in the store’s own folder', async () => {
    const taken = await store.snapshots.take(snapshotName(), {});
    expect(store.snapshots.suffix).toBe('.jsonl.gz');
    expect(taken.path.endsWith('.jsonl.gz')).toBe(true);
    expect(dirname(taken.path)).toBe(store.snapshots.dir);
    expect(store.snapshots.dir).toBe(join(t.dataHome, 'hippo', 'snapshots', snapshotFolderName(parsePostgresUrl(t.database.url, {}), 'public')));
    expect(statSync(taken.path).mode & 0o777).toBe(0o600);
    expect(statSync(taken.path).size).toBe(taken.sizeBytes);
    expect(taken.violations).toEqual([]);
    expect(readdirSync(store.snapshots.dir).filter((name) => name.startsWith('.'))).toEqual([]);

    const { manifest } = readManifest(taken.path);
    expect(manifest).toMatchObject({ format: 'hippo-logical-snapshot', engine: 'postgres', schemaVersion: POSTGRES_SCHEMA_VERSION, createdAt: at(0) });
    expect(Object.fromEntries(manifest.tables.map((table) => [table.name, table.rows]))).toEqual({
      memories: 1_500,
      candidates: 2,
      runs: 1,
      handoffs: 1,
      settings: 1,
    });
    // Plain gzip: zcat shows the manifest, then each table's header line and rows.
    const lines = gunzipSync(readFileSync(taken.path)).toString('utf8').split('\n');
    expect(JSON.parse(lines[0]!).format).toBe('hippo-logical-snapshot');
    expect(lines[1]).toBe('{"table":"memories"}');
    const rows = await everything();
    expect(JSON.parse(lines[2]!)).toEqual(rows.memories![0]);
    expect(lines).toContain(JSON.stringify(rows.runs![0]));
  });

  it('the folder name carries host, port and database, never the user or password', () => {
    const target = parsePostgresUrl('postgres://ana:s3cret@db.example.com:6543/team_store', {});
    const name = snapshotFolderName(target, 'public');
    expect(name).toMatch(/^postgres-db\.example\.com-6543-team_store-[0-9a-f]{10}$/);
    expect(name).not.toContain('s3cret');
    expect(name).not.toContain('ana');
    expect(snapshotFolderName(target, 'hippo')).not.toBe(name);
    expect(snapshotFolderName(parsePostgresUrl('postgres:///db?host=/var/run/postgresql', {}), 'public')).toMatch(/^postgres-var-run-postgresql-5432-db-/);
  });

  it('stops on an aborted signal and leaves no file behind', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(store.snapshots.take(snapshotName(), { signal: controller.signal }));
    expect(error.exitCode).toBe(ExitCode.interrupted);
    expect(readdirSync(store.snapshots.dir).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});

describe('checking a snapshot', () => {
  let path: string;
  beforeAll(async () => {
    await seed();
    path = (await store.snapshots.take(snapshotName(), {})).path;
  });

  function damagedCopy(change: (bytes: Buffer) => Buffer): string {
    const copy = join(dirname(path), `copy-${basename(path)}-${Math.random().toString(36).slice(2)}`);
    writeFileSync(copy, change(Buffer.from(readFileSync(path))));
    return copy;
  }

  it('passes every check when whole', async () => {
    for (const level of ['header', 'quick', 'full'] as const) expect(await store.snapshots.check(path, level)).toEqual({ ok: true, violations: [] });
  });

  it('one damaged byte inside the data: the quick and full checks fail', async () => {
    const copy = damagedCopy((bytes) => {
      const at = HEADER_BYTES + Math.floor((bytes.length - HEADER_BYTES) / 3);
      bytes[at] = bytes[at]! ^ 0x01;
      return bytes;
    });
    expect((await store.snapshots.check(copy, 'quick')).ok).toBe(false);
    expect((await store.snapshots.check(copy, 'full')).ok).toBe(false);
  });

  it('one damaged byte in the manifest: even the cheap check fails', async () => {
    const copy = damagedCopy((bytes) => {
      bytes[40] = bytes[40]! ^ 0x20;
      return bytes;
    });
    expect((await store.snapshots.check(copy, 'header')).ok).toBe(false);
  });

  it('a cut-short or lengthened file: the cheap check fails', async () => {
    expect(
      (
        await store.snapshots.check(
          damagedCopy((bytes) => bytes.subarray(0, bytes.length - 100)),
          'header',
        )
      ).ok,
    ).toBe(false);
    expect(
      (
        await store.snapshots.check(
          damagedCopy((bytes) => Buffer.concat([bytes, Buffer.from('x')])),
          'header',
        )
      ).ok,
    ).toBe(false);
  });

  it('a file that is not a snapshot is not ok, and restoring it is refused (exit 2)', async () => {
    const other = damagedCopy(() => Buffer.from('SQLite format 3\u0000 not a snapshot'));
    expect((await store.snapshots.check(other, 'header')).ok).toBe(false);
    const error = await rejection(store.snapshots.open(other));
    expect(error.code).toBe('not_a_hippo_snapshot');
    expect(error.exitCode).toBe(ExitCode.usage);
  });
});

/** What `rem restore` without `--apply` does (nightly/restore.ts): compare each restored table. */
async function plan(path: string, agentId: string | null): Promise<TableChangeCounts[]> {
  const source = await store.snapshots.open(path);
  try {
    const tables: TableChangeCounts[] = [];
    for (const table of RESTORED) tables.push(await source.compare(store, table, agentId));
    return tables;
  } finally {
    await source.close();
  }
}

/** What `rem restore --apply` does (nightly/restore.ts): verify, then compare, replace and match in one transaction. */
async function restore(path: string, agentId: string | null, options: { skipVerify?: boolean } = {}): Promise<TableChangeCounts[]> {
  const source = await store.snapshots.open(path);
  try {
    if (!options.skipVerify && !(await source.verify())) throw new HippoError('snapshot_damaged', 'damaged', ExitCode.unexpected);
    return await store.transaction(async (tx) => {
      const tables: TableChangeCounts[] = [];
      for (const table of RESTORED) tables.push(await source.compare(tx, table, agentId));
      for (const table of RESTORED) await source.replace(tx, table, agentId);
      for (const table of RESTORED) {
        if (!(await source.matches(tx, table, agentId))) throw new HippoError('restore_verify_failed', 'mismatch', ExitCode.unexpected);
      }
      return tables;
    });
  } finally {
    await source.close();
  }
}

const RESTORED = ['memories', 'candidates', 'handoffs'] as const;

describe('restoring a snapshot', () => {
  beforeEach(seed);

  it('plans per table, then applies in one transaction: the rows equal the snapshot’s again', async () => {
    const before = await everything();
    const { path } = await store.snapshots.take(snapshotName(), {});
    const [first, second, third] = before.memories!.map((row) => (row as Memory).id);
    await store.memories.archive((before.memories![0] as Memory).agentId, [first!], 'changed', at(99));
    await store.rows.deleteAll('handoffs', null);
    await withClient(t.database.url, (client) => client.query('DELETE FROM memories WHERE id = ANY($1)', [[second, third]]));
    await store.memories.insert(memory('alice', 'added after the snapshot'));
    await store.candidates.insert(candidate('carol', 'new claim'));
    await store.runs.insert(run({ agentId: 'alice' }));
    await store.settings.set('nightly.paused', at(50));

    const planned = await plan(path, null);
    expect(planned).toEqual([
      { table: 'memories', added: 2, removed: 1, changed: 1, unchanged: 1_497 },
      { table: 'candidates', added: 0, removed: 1, changed: 0, unchanged: 2 },
      { table: 'handoffs', added: 1, removed: 0, changed: 0, unchanged: 0 },
    ]);
    // Planning reads only.
    expect(await store.rows.count('memories', null)).toBe(1_499);

    expect(await restore(path, null)).toEqual(planned);
    const after = await everything();
    expect(after.memories).toEqual(before.memories);
    expect(after.candidates).toEqual(before.candidates);
    expect(after.handoffs).toEqual(before.handoffs);
    // Runs and settings are never restored.
    expect(after.runs).toHaveLength(2);
    expect(await store.settings.get('nightly.paused')).toBe(at(50));
    expect(await plan(path, null)).toEqual([
      { table: 'memories', added: 0, removed: 0, changed: 0, unchanged: 1_500 },
      { table: 'candidates', added: 0, removed: 0, changed: 0, unchanged: 2 },
      { table: 'handoffs', added: 0, removed: 0, changed: 0, unchanged: 1 },
    ]);
  });

  it('restores one agent and leaves the others exactly as they are', async () => {
    const { path } = await store.snapshots.take(snapshotName(), {});
    const aliceBefore = await collect(store.rows.dump('memories', 'alice'));
    await store.rows.deleteAll('memories', 'alice');
    await store.rows.deleteAll('candidates', 'alice');
    await store.memories.insert(memory('bob', 'bob after the snapshot'));
    const bobNow = await collect(store.rows.dump('memories', 'bob'));
    const plan = await restore(path, 'alice');
    expect(plan[0]).toEqual({ table: 'memories', added: 750, removed: 0, changed: 0, unchanged: 0 });
    expect(plan[1]).toEqual({ table: 'candidates', added: 1, removed: 0, changed: 0, unchanged: 0 });
    expect(await collect(store.rows.dump('memories', 'alice'))).toEqual(aliceBefore);
    expect(await collect(store.rows.dump('memories', 'bob'))).toEqual(bobNow);
    expect(await store.rows.count('candidates', 'bob')).toBe(1);
  });

  it('a damaged snapshot is refused before anything changes', async () => {
    const { path } = await store.snapshots.take(snapshotName(), {});
    const bytes = readFileSync(path);
    const at = HEADER_BYTES + 200;
    bytes[at] = bytes[at]! ^ 0xff;
    const damaged = join(dirname(path), 'damaged.jsonl.gz');
    writeFileSync(damaged, bytes);
    await store.rows.deleteAll('memories', 'bob');
    const source = await store.snapshots.open(damaged);
    expect(await source.verify()).toBe(false);
    await source.close();
    // Even without the check first, reading the damaged table fails the transaction.
    const error = await rejection(restore(damaged, null, { skipVerify: true }));
    expect(error.code).toBe('snapshot_damaged');
    expect(await store.rows.count('memories', 'bob')).toBe(0);
    expect(await store.rows.count('memories', 'alice')).toBe(750);
  });

  it('rolls everything back when the restored rows do not verify', async () => {
    const { path } = await store.snapshots.take(snapshotName(), {});
    await store.rows.deleteAll('memories', 'alice');
    const before = await everything();
    // A trigger that alters rows on their way in: what lands no longer equals the snapshot.
    await withClient(t.database.url, async (client) => {
      await client.query(`CREATE FUNCTION tamper() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.source := 'tampered'; RETURN NEW; END $$`);
      await client.query('CREATE TRIGGER tamper BEFORE INSERT ON memories FOR EACH ROW EXECUTE FUNCTION tamper()');
    });
    try {
      const error = await rejection(restore(path, null));
      expect(error.code).toBe('restore_verify_failed');
      expect(await everything()).toEqual(before);
    } finally {
      await withClient(t.database.url, (client) => client.query('DROP TRIGGER tamper ON memories; DROP FUNCTION tamper()'));
    }
  });

  it('refuses a snapshot of a newer schema (exit 2)', async () => {
    const { path } = await store.snapshots.take(snapshotName(), {});
    const text = readFileSync(path);
    const manifestText = gunzipSync(text.subarray(0, HEADER_BYTES)).toString('utf8');
    expect(manifestText).toContain(`"schemaVersion":${POSTGRES_SCHEMA_VERSION}`);
    const newerVersion = String(POSTGRES_SCHEMA_VERSION + 1);
    const longer = manifestText.replace(`"schemaVersion":${POSTGRES_SCHEMA_VERSION}`, `"schemaVersion":${newerVersion}`);
    // The header is fixed-size: the manifest line is padded with spaces, which give back what a longer number takes.
    const newer = longer.replace(new RegExp(` {${longer.length - manifestText.length}}(?=\\s*$)`), '');
    expect(newer).toHaveLength(manifestText.length);
    expect(newer).not.toBe(manifestText);
    const { gzipSync } = await import('node:zlib');
    const rewritten = join(dirname(path), 'newer.jsonl.gz');
    writeFileSync(rewritten, Buffer.concat([gzipSync(Buffer.from(newer), { level: 0 }), text.subarray(HEADER_BYTES)]));
    const error = await rejection(store.snapshots.open(rewritten));
    expect(error.code).toBe('snapshot_too_new');
    expect(error.exitCode).toBe(ExitCode.usage);
  });

  it('is readable with zcat', async () => {
    const { path } = await store.snapshots.take(snapshotName(), {});
    const { stdout } = await execa('sh', ['-c', `zcat '${path}' | wc -l`]);
    // manifest + 5 table headers + every row
    expect(Number(stdout.trim())).toBe(1 + 5 + 1_500 + 2 + 1 + 1 + 1);
  });
});
