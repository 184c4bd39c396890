// Issue 26, "import linear to 1 M, with memory that does not grow with the file": the threaded corpora of
// bench/search-floor.ts at 100 k and 1 M lines, `hippo memory import FILE --db NEW.db` of each, the whole command under
// GNU time (wall, CPU, peak RSS, page faults, file-system blocks), the sizes alternating in one run (100 k, 1 M, 100 k,
// 1 M, …) so the shared machine's load falls on both alike. `npm run bench -- import-scale`; BENCH_SCALE_ROUNDS (default
// 2) rounds, BENCH_SCALE_CORPORA (default zipf) names the corpora (tie-heavy, zipf).
import { spawnSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPORA, corpusFile } from './search-floor.js';
import { BIN, DATA, fmt, loadAverage, machine, removeSqliteFiles, writeSection } from './lib.js';

interface Run {
  corpus: string;
  size: number;
  wallS: number;
  userS: number;
  sysS: number;
  rssMiB: number;
  majorFaults: number;
  minorFaults: number;
  /** File-system blocks (512 bytes) read and written. */
  inBlocks: number;
  outBlocks: number;
  dbMiB: number;
  load: string;
}

const FORMAT = '%e %U %S %M %F %R %I %O';

function timedImport(corpus: string, size: number, file: string): Run {
  const db = join(DATA, `scale-${corpus}-${size}.db`);
  removeSqliteFiles(db);
  const load = loadAverage();
  const result = spawnSync('/usr/bin/time', ['-f', FORMAT, 'node', BIN, 'memory', 'import', file, '--db', db, '--agent', 'bench', '--json'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (result.status !== 0) throw new Error(`import of ${file} exited ${result.status}: ${String(result.stderr)}`);
  const [wallS, userS, sysS, rssKiB, majorFaults, minorFaults, inBlocks, outBlocks] = String(result.stderr).trim().split('\n').at(-1)!.split(' ').map(Number);
  spawnSync('sqlite3', [db, 'PRAGMA wal_checkpoint(TRUNCATE);']);
  const dbMiB = statSync(db).size / 2 ** 20;
  removeSqliteFiles(db);
  return {
    corpus,
    size,
    wallS: wallS!,
    userS: userS!,
    sysS: sysS!,
    rssMiB: rssKiB! / 1024,
    majorFaults: majorFaults!,
    minorFaults: minorFaults!,
    inBlocks: inBlocks!,
    outBlocks: outBlocks!,
    dbMiB,
    load,
  };
}

export async function run(): Promise<void> {
  const rounds = Number(process.env.BENCH_SCALE_ROUNDS ?? 2);
  const wanted = (process.env.BENCH_SCALE_CORPORA ?? 'zipf').split(',');
  const sizes = [100_000, 1_000_000];
  const loadBefore = loadAverage();
  const started = new Date().toISOString().slice(11, 16);
  const runs: Run[] = [];
  for (const corpus of CORPORA.filter((candidate) => wanted.includes(candidate.name))) {
    const files = new Map<number, string>();
    for (const size of sizes) files.set(size, await corpusFile(corpus, size, true));
    for (let round = 0; round < rounds; round++) {
      for (const size of sizes) {
        const result = timedImport(corpus.name, size, files.get(size)!);
        runs.push(result);
        console.log(JSON.stringify(result));
      }
    }
  }
  writeFileSync(join(DATA, 'import-scale.json'), JSON.stringify(runs, null, 2));
  const rows: string[] = [];
  const ratios: string[] = [];
  for (const corpus of wanted) {
    const of = (size: number) => runs.filter((entry) => entry.corpus === corpus && entry.size === size);
    for (const entry of runs.filter((candidate) => candidate.corpus === corpus)) {
      const cpu = entry.userS + entry.sysS;
      rows.push(
        `| ${corpus} | ${entry.size / 1000} k | ${entry.load} | ${fmt(entry.wallS, 1)} s | ${fmt(entry.size / entry.wallS, 0)} /s | ${fmt(entry.userS, 1)} + ${fmt(entry.sysS, 1)} s | ${fmt((cpu / entry.size) * 1e6, 0)} µs | ${fmt(entry.rssMiB, 0)} MiB | ${entry.majorFaults} | ${fmt(entry.minorFaults / 1000, 0)} k | ${fmt((entry.outBlocks * 512) / 2 ** 20, 0)} MiB | ${fmt(entry.dbMiB, 0)} MiB |`,
      );
    }
    const small = of(100_000);
    const big = of(1_000_000);
    if (small.length === 0 || big.length === 0) continue;
    // Each round's 1 M run against the 100 k run just before it (the load of the moment on both).
    const pairs = small.flatMap((entry, index) => (big[index] ? [[entry, big[index]] as const] : []));
    const wallRate = (entry: Run) => entry.size / entry.wallS;
    const cpuRate = (entry: Run) => entry.size / (entry.userS + entry.sysS);
    const rss = (list: Run[]) => Math.max(...list.map((entry) => entry.rssMiB));
    ratios.push(
      `${corpus}: rate at 1 M / rate at 100 k, each round's pair: by CPU time **${pairs.map(([a, b]) => `${fmt(cpuRate(b) / cpuRate(a), 2)}×`).join(', ')}**; by wall ${pairs.map(([a, b]) => `${fmt(wallRate(b) / wallRate(a), 2)}×`).join(', ')} (the load rose during the run); peak RSS ${fmt(rss(big), 0)} MiB at 1 M against ${fmt(rss(small), 0)} MiB at 100 k (${fmt(rss(big) / rss(small), 2)}×)`,
    );
  }
  writeSection(
    '4h-import-1m',
    `## Import at 100 k and 1 M lines in one run (issue 26, linear to 1 M, memory not growing with the file)

Machine: ${machine()}, ${started}–${new Date().toISOString().slice(11, 16)} UTC; load average before ${loadBefore}, after ${loadAverage()}
(a shared 2-core machine; the load at each run's start is in the table). The threaded corpora of the search-floor
section (bench/search-floor.ts, threads of 50) at 100 000 and 1 000 000 lines; \`hippo memory import FILE --db NEW.db
--agent bench --json\` into a new database, the whole command under GNU time; the sizes alternate (100 k, 1 M, 100 k,
1 M) so the load falls on both alike. *CPU / memory*: user + system time over the lines; *written*: file-system
blocks written; *database*: the file after a WAL checkpoint. bench/import-scale.ts.

| corpus | lines | load at start | wall | rate | CPU user + sys | CPU / memory | peak RSS | major faults | minor faults | written | database |
|---|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Ratios (this run):

${ratios.map((line) => `- ${line}`).join('\n')}
`,
  );
  console.log(ratios.join('\n'));
}
