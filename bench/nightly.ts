// Issue 6 benchmarks: the nightly snapshot (a checked, compared copy of the file: docs/nightly.md) against `cp` of the same file,
// and the wall time of `hippo rem nightly run-once --dry-run` and of real nights (no model) on large stores.
// Works on a copy of foundation's imported corpus (bench/.data/hippo-<size>.db), so the search benchmarks' file is
// never changed; 100 fresh memories are added so the dry run also builds a distillation prompt.
// Through the public library API only (`import … from 'hippo'`) and the built CLI.
import Database from 'better-sqlite3';
import { addMemory, openStore, snapshotDir, takeSnapshot } from 'hippo';
import { execFileSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, fsyncSync, openSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { corpus, importCorpus } from './foundation.js';
import { BIN, DATA, fmt, machine, median, timeOnce, writeSection, type SectionOptions, removeSqliteFiles } from './lib.js';

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const mb = (bytes: number) => fmt(bytes / 2 ** 20, 0);

/** A private copy of the imported corpus, checkpointed into one file, with 100 memories from the last hour. */
async function nightlyDatabase(size: number): Promise<string> {
  const source = join(DATA, `hippo-${size}.db`);
  if (!existsSync(source)) importCorpus(await corpus(size), size);
  checkpoint(source);
  const db = join(DATA, `nightly-${size}.db`);
  removeSqliteFiles(db);
  rmSync(join(DATA, 'snapshots'), { recursive: true, force: true });
  copyFileSync(source, db);
  const store = await openStore({ path: db });
  for (let index = 0; index < 100; index++) {
    await addMemory(store, {
      agentId: 'bench',
      content: `Fresh note ${index}: the billing cron moved to 02:30 UTC after the migration lock.`,
      createdAt: new Date(Date.now() - index * 30_000).toISOString(),
    });
  }
  await store.close();
  checkpoint(db);
  return db;
}

/** Folds the WAL into the database file (SQLite's own handle: hippo's store does not expose one). */
function checkpoint(path: string): void {
  const db = new Database(path);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

function fsyncFile(path: string): void {
  const fd = openSync(path, 'r');
  fsyncSync(fd);
  closeSync(fd);
}

/** Median wall times (ms) of the snapshot step and of `cp` (and `cp` + fsync, the durable equivalent), warm cache. */
type Contender = 'snapshot' | 'backupOnly' | 'sqliteBackup' | 'cp' | 'cpSync';

async function snapshotTimes(db: string, runs: number): Promise<Record<Contender, number>> {
  const copy = join(DATA, 'cp-copy.db');
  const store = await openStore({ path: db });
  // The raw online backup, without hippo's check and rename, on a connection of its own.
  const raw = new Database(db);
  const times: Record<Contender, number[]> = { snapshot: [], backupOnly: [], sqliteBackup: [], cp: [], cpSync: [] };
  try {
    execFileSync('cp', [db, copy]); // warm the page cache for every contender alike
    for (let run = 0; run < runs; run++) {
      let start = process.hrtime.bigint();
      // A run id of hippo's shape (`run_` + 26 ULID characters), distinct per round.
      const snapshot = await takeSnapshot(store, `run_${String(run).padStart(26, '0')}`);
      times.snapshot.push(ms(start));
      rmSync(snapshot.path);
      start = process.hrtime.bigint();
      await raw.backup(copy + '.backup', { progress: ({ totalPages }) => Math.ceil(totalPages / 2) });
      times.backupOnly.push(ms(start));
      rmSync(copy + '.backup');
      start = process.hrtime.bigint();
      execFileSync('sqlite3', [db, `.backup '${copy}.cli'`]);
      times.sqliteBackup.push(ms(start));
      rmSync(copy + '.cli');
      start = process.hrtime.bigint();
      execFileSync('cp', [db, copy]);
      times.cp.push(ms(start));
      start = process.hrtime.bigint();
      execFileSync('cp', [db, copy]);
      fsyncFile(copy);
      times.cpSync.push(ms(start));
    }
  } finally {
    await store.close();
    raw.close();
    rmSync(copy, { force: true });
    rmSync(snapshotDir(db), { recursive: true, force: true });
  }
  return Object.fromEntries(Object.entries(times).map(([key, values]) => [key, median(values)])) as Record<Contender, number>;
}

/** The part of `rem nightly run-once --json` this benchmark reports. */
interface NightJson {
  run: { counts: { expired: number; archived: number; promptChars?: number } };
}

function night(db: string, args: string[]): { wall: number; body: NightJson } {
  const { ms: wall, stdout } = timeOnce('node', [BIN, 'rem', 'nightly', 'run-once', '--db', db, '--json', ...args], {
    env: { HIPPO_MODEL: '', HIPPO_REM_PAUSE: '' },
  });
  return { wall, body: JSON.parse(stdout) as NightJson };
}

export async function run({ sizes = [100_000, 1_000_000] }: SectionOptions = {}): Promise<void> {
  const rows: string[] = [];
  const nights: string[] = [];
  const ratios: string[] = [];
  for (const size of sizes.filter((value) => value >= 100_000)) {
    const db = await nightlyDatabase(size);
    const bytes = statSync(db).size;
    const runs = size >= 1_000_000 ? 3 : 5;
    const times = await snapshotTimes(db, runs);
    rows.push(
      `| ${size / 1000} k | ${mb(bytes)} MiB | ${fmt(times.snapshot)} ms | ${fmt(times.backupOnly)} ms | ${fmt(times.sqliteBackup)} ms | ${fmt(times.cp)} ms | ${fmt(times.cpSync)} ms | ${fmt(times.snapshot / times.cpSync, 2)}× | ${fmt(times.backupOnly / times.cpSync, 2)}× |`,
    );
    ratios.push(
      `snapshot ${size / 1000} k / (cp + fsync): ${fmt(times.snapshot / times.cpSync, 2)}× (target ≤ 2× at 1 M and 100 k); backup only / (cp + fsync): ${fmt(times.backupOnly / times.cpSync, 2)}×`,
    );
    // Whole nights at 100 k only: at 1 M they take a minute of the ten `npm run bench` may use (issue 14).
    if (size > 100_000) {
      removeSqliteFiles(db);
      rmSync(snapshotDir(db), { recursive: true, force: true });
      continue;
    }
    const dry = median([0, 1, 2].map(() => night(db, ['--dry-run']).wall));
    const dryBody = night(db, ['--dry-run']).body;
    const first = night(db, []);
    const second = night(db, []);
    const describe = (result: { wall: number; body: NightJson }) =>
      `${fmt(result.wall / 1000, 2)} s (expired ${result.body.run.counts.expired}, archived ${result.body.run.counts.archived})`;
    nights.push(
      `| ${size / 1000} k | ${fmt(dry / 1000, 2)} s (would archive ${dryBody.run.counts.archived}, prompt ${dryBody.run.counts.promptChars} chars) | ${describe(first)} | ${describe(second)} |`,
    );
    removeSqliteFiles(db);
    rmSync(snapshotDir(db), { recursive: true, force: true });
  }
  writeSection(
    '6-nightly',
    `## Nightly (issues 6 and 14)

Machine: ${machine()}; load average during the run ${loadavg()
      .map((value) => fmt(value, 1))
      .join(' / ')} (other work
shared the machine: treat ratios as indicative).

Snapshot of a checkpointed database (medians, warm page cache). *snapshot* is the whole step hippo runs
(docs/nightly.md, "Snapshots"): a TRUNCATE checkpoint; under one read transaction the file copied by the kernel
(\`copyFile\`) while \`PRAGMA quick_check\` runs table by table on the live database; the copy's header switched to a
rollback journal, fsync, the copy read back and compared byte for byte with the database; rename.
*backup only* is SQLite's online backup (the step's fallback, and the whole copy before this round) without any check.
\`sqlite3 .backup\` is the sqlite3 CLI's own online backup of the same file (the standard tool, same API). \`cp\` is a
plain copy of the same file (not durable, and not consistent while another process writes); \`cp\` + fsync is its
durable form, the target's yardstick (issue 14: snapshot ≤ 2× \`cp\` + fsync, verification included).

| memories | file | snapshot | backup only | sqlite3 .backup | cp | cp + fsync | snapshot / (cp + fsync) | backup / (cp + fsync) |
|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Whole nights, a new \`hippo\` process each (no model configured, so distillation is skipped and recorded as such). The
generated corpus spans the year before 2026-11-01 and no memory was ever retrieved, so the first real night archives
every memory older than 180 days; the second finds nothing left to do and shows the steady-state cost
(snapshot + quick_check + maintenance scan + FTS optimize). \`--dry-run\` is the median of 3.

| memories | run-once --dry-run | first night | second night |
|---|---|---|---|
${nights.join('\n')}

Ratios (this run):

${ratios.map((line) => `- ${line}`).join('\n')}
`,
  );
  console.log(ratios.join('\n'));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.env.BENCH_SIZES?.split(',').map(Number);
  await run(sizes ? { sizes } : {});
}
