// Issues 7 and 14 benchmark: deterministic `hippo extract --all` throughput (MB/s) over a large generated text, against
// the best simple alternative measured in the same run: the same libraries called directly on the same text
// (bench/extract-baseline.ts), with wall and CPU time and the peak RSS of both. `sizes` (memory-corpus sizes) does not
// apply here; the text size is BENCH_EXTRACT_MB (default 20, so the whole `npm run bench` stays under ten minutes; the
// RSS target scales with it), and BENCH_EXTRACT_RSS_MB adds one run of each on a larger text for peak RSS.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { BIN, DATA, fmt, loadAverage, machine, median, ROOT, writeSection } from './lib.js';
import { writeExtractText } from './extract-text.js';

const RUNS = 3;
const REGION = 'IE';

/**
 * The baseline as plain JavaScript (bench/.data/extract-baseline.mjs, transpiled from bench/extract-baseline.ts with
 * TypeScript's own transpiler): run by plain `node`, as a script would be, so it pays no TypeScript loader at startup.
 */
function baselineScript(): string {
  const source = readFileSync(join(ROOT, 'bench', 'extract-baseline.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  const path = join(DATA, 'extract-baseline.mjs');
  writeFileSync(path, outputText);
  return path;
}

async function textFile(megabytes: number): Promise<string> {
  const path = join(DATA, `extract-${megabytes}mb.txt`);
  const bytes = megabytes * 1024 * 1024;
  if (!existsSync(path) || statSync(path).size < bytes) await writeExtractText(path, bytes);
  return path;
}

interface Run {
  ms: number;
  /** CPU time (user + system, seconds): what the process itself spent, less sensitive than the wall time to other load. */
  cpuS: number;
  rssMb: number;
}

/** One run: wall time (ms), CPU time and peak RSS (MB, GNU time), stdout to `outPath`. */
function measure(args: string[], outPath: string): Run {
  const out = openSync(outPath, 'w');
  const start = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%M %U %S', 'node', ...args], { stdio: ['ignore', out, 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  closeSync(out);
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${String(result.stderr)}`);
  const [rssKb, user, system] = String(result.stderr).trim().split('\n').at(-1)!.split(' ').map(Number);
  return { ms, cpuS: user! + system!, rssMb: rssKb! / 1024 };
}

function countsOf(outPath: string): { facts: number; counts: Record<string, number> } {
  const { facts } = JSON.parse(readFileSync(outPath, 'utf8')) as { facts: { kind: string; occurrences?: unknown[] }[] };
  const counts: Record<string, number> = {};
  for (const fact of facts) counts[fact.kind] = (counts[fact.kind] ?? 0) + (fact.occurrences?.length ?? 1);
  return { facts: facts.length, counts };
}

function sizeMb(variable: string, fallback: number | undefined): number | undefined {
  const value = process.env[variable] === undefined ? fallback : Number(process.env[variable]);
  // hippo extract refuses an input over 64 MiB (docs/decisions.md, "Bad input is refused where it enters").
  if (value !== undefined && !(value > 0 && value <= 64)) throw new Error(`${variable}=${value}: hippo extract reads at most 64 MiB an input; give 1–64`);
  return value;
}

export async function run(): Promise<void> {
  const megabytes = sizeMb('BENCH_EXTRACT_MB', 20)!;
  // A second, larger text for peak RSS alone (one run each): BENCH_EXTRACT_RSS_MB, off unless set.
  const largeMegabytes = sizeMb('BENCH_EXTRACT_RSS_MB', undefined);
  const path = await textFile(megabytes);
  const size = statSync(path).size / (1024 * 1024);
  const hippoOut = join(DATA, 'extract-hippo.json');
  const baselineOut = join(DATA, 'extract-baseline.json');
  const baselineJs = baselineScript();
  const hippoArgs = (file: string) => [BIN, 'extract', '--all', file, '--region', REGION, '--json'];
  const hippo: Run[] = [];
  const baseline: Run[] = [];
  // Alternating runs, so load from elsewhere on the machine hits both sides alike.
  for (let index = 0; index < RUNS; index++) {
    hippo.push(measure(hippoArgs(path), hippoOut));
    baseline.push(measure([baselineJs, path, REGION], baselineOut));
  }
  const ours = countsOf(hippoOut);
  const theirs = countsOf(baselineOut);
  const kinds = [...new Set([...Object.keys(ours.counts), ...Object.keys(theirs.counts)])].sort();
  const med = (runs: Run[], key: keyof Run) => median(runs.map((r) => r[key]));
  const target = (mb: number) => 3 * mb + 100;
  const rows: { size: number; hippo: Run; baseline: Run }[] = [];
  if (largeMegabytes !== undefined) {
    const largePath = await textFile(largeMegabytes);
    const large = {
      size: statSync(largePath).size / (1024 * 1024),
      hippo: measure(hippoArgs(largePath), hippoOut),
      baseline: measure([baselineJs, largePath, REGION], baselineOut),
    };
    rows.push(large);
  }
  const rssMb = med(hippo, 'rssMb');
  const wallRatio = med(hippo, 'ms') / med(baseline, 'ms');
  const cpuRatio = med(hippo, 'cpuS') / med(baseline, 'cpuS');
  const rssLine = (mb: number, rss: number) => `${fmt(rss, 0)} MB of ${fmt(target(mb), 0)} MB at ${fmt(mb)} MB (${fmt(rss / target(mb), 2)}×)`;
  const markdown = `## extract (issues 7 and 14)

${machine()}; load average at the end ${loadAverage()}. Text: ${fmt(size)} MB of generated notes (\`bench/extract-text.ts\`, seeded), about one fact or look-alike per 250 bytes. Median of ${RUNS} alternating runs, whole processes (startup included), JSON on stdout. CPU is user + system time of the process (GNU time), which other load on the machine inflates less than the wall time.

| | wall time | CPU time | throughput (wall) | peak RSS |
|---|---:|---:|---:|---:|
| \`hippo extract --all --region ${REGION} --json\` | ${fmt(med(hippo, 'ms') / 1000, 2)} s | ${fmt(med(hippo, 'cpuS'), 2)} s | ${fmt(size / (med(hippo, 'ms') / 1000), 2)} MB/s | ${fmt(rssMb, 0)} MB |
| libraries called directly (\`bench/extract-baseline.ts\`) | ${fmt(med(baseline, 'ms') / 1000, 2)} s | ${fmt(med(baseline, 'cpuS'), 2)} s | ${fmt(size / (med(baseline, 'ms') / 1000), 2)} MB/s | ${fmt(med(baseline, 'rssMb'), 0)} MB |
${rows
  .map(
    (row) =>
      `| hippo, ${fmt(row.size)} MB (one run) | ${fmt(row.hippo.ms / 1000, 2)} s | ${fmt(row.hippo.cpuS, 2)} s | ${fmt(row.size / (row.hippo.ms / 1000), 2)} MB/s | ${fmt(row.hippo.rssMb, 0)} MB |
| baseline, ${fmt(row.size)} MB (one run) | ${fmt(row.baseline.ms / 1000, 2)} s | ${fmt(row.baseline.cpuS, 2)} s | ${fmt(row.size / (row.baseline.ms / 1000), 2)} MB/s | ${fmt(row.baseline.rssMb, 0)} MB |`,
  )
  .join('\n')}

The baseline does the work hippo does with each library, with the same options, on the same text (its header lists
them): libphonenumber-js over the text in the home region and the digit runs hippo reads abroad in each candidate
region; chrono's strict English configuration with hippo's full-date parsers; linkify-it with hippo's schemes and its
\`www.\` search; IPv4 and IPv6 (with a prefix) through ipaddr.js; tldts, ibantools, card-validator; and hippo's postcode
patterns through postcode-validator. It finds them with simple regexes, keeps every validated candidate (no word
bounds, labels, grouping or passage cues) and prints them as one JSON list. Occurrences found per kind (an address is
counted by its postcode in the baseline, by a street and a postcode in hippo):

| kind | hippo | baseline |
|---|---:|---:|
${kinds.map((kind) => `| ${kind} | ${ours.counts[kind] ?? 0} | ${theirs.counts[kind] ?? 0} |`).join('\n')}

Ratios (this run):

- extract / same work by the libraries directly, wall time: **${fmt(wallRatio, 2)}×**; CPU time: **${fmt(cpuRatio, 2)}×** (target ≤ 1.3×)
- peak RSS / (3 × input + 100 MB): ${[rssLine(size, rssMb), ...rows.map((row) => rssLine(row.size, row.hippo.rssMb))].join('; ')}
`;
  writeSection('7-extract', markdown);
  console.log(
    `extract / same work: wall ${fmt(wallRatio, 2)}×, CPU ${fmt(cpuRatio, 2)}×; peak RSS ${[rssLine(size, rssMb), ...rows.map((row) => rssLine(row.size, row.hippo.rssMb))].join('; ')}`,
  );
}
