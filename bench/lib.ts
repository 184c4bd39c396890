// Small helpers shared by the benchmarks: timing whole processes, peak RSS, machine description, result files.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DATA = join(ROOT, 'bench', '.data');
export const BIN = join(ROOT, 'bin', 'run.js');
mkdirSync(DATA, { recursive: true });

/** What every section's `run` accepts: `sizes` are memory-corpus sizes (BENCH_SIZES). */
export interface SectionOptions {
  sizes?: number[];
}

export interface ProcessOptions {
  env?: Record<string, string>;
}

/** The median of a list of numbers (the upper one of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (middle === undefined) throw new Error('median of no values');
  return middle;
}

/** Runs a command `runs` times (after one warm-up) and returns the median wall time in ms. */
export function medianMs(command: string, args: string[], { runs = 15, env = {}, input }: ProcessOptions & { runs?: number; input?: string } = {}): number {
  const times: number[] = [];
  for (let index = 0; index <= runs; index++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(command, args, { env: { ...process.env, ...env }, input, stdio: ['pipe', 'ignore', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${String(result.stderr)}`);
    if (index > 0) times.push(ms);
  }
  return median(times);
}

/** Wall time of one run, in ms. */
export function timeOnce(command: string, args: string[], { env = {} }: ProcessOptions = {}): { ms: number; stdout: string } {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  // A command run with --json says what went wrong on stdout: both streams are shown.
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${String(result.stderr)}${String(result.stdout).slice(0, 2000)}`);
  return { ms, stdout: String(result.stdout) };
}

/** Peak resident set size (MB) of a command, from GNU time. */
export function peakRssMb(command: string, args: string[], { env = {} }: ProcessOptions = {}): number {
  const result = spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${command} exited ${result.status}: ${String(result.stderr)}`);
  const lines = String(result.stderr).trim().split('\n');
  return Number(lines.at(-1)) / 1024;
}

export function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  let sqlite = 'n/a';
  try {
    sqlite = execFileSync('sqlite3', ['--version']).toString().split(' ')[0] ?? 'n/a';
  } catch {
    // The sqlite3 CLI is optional for some sections.
  }
  return `${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, sqlite3 CLI ${sqlite}, ${new Date().toISOString().slice(0, 10)}`;
}

/** Writes one section's markdown and rebuilds bench/RESULTS.md from every section on disk. */
export function writeSection(name: string, markdown: string): void {
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.md`), `${markdown.trim()}\n`);
  const sections = readdirSync(dir)
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => readFileSync(join(dir, file), 'utf8').trim());
  const head = `# Benchmark results\n\nProduced by \`npm run bench\` (sections: \`npm run bench -- <section>\`); each section names the machine and date it was measured on. Ratios compare against the best simple alternative measured in the same run.\n`;
  writeFileSync(join(ROOT, 'bench', 'RESULTS.md'), `${head}\n${sections.join('\n\n')}\n`);
}

export const fmt = (value: number, digits = 1): string => Number(value).toFixed(digits);

/** The same PostgreSQL server's URL for another database (its credentials and parameters kept). */
export function databaseUrl(serverUrl: string, database: string): string {
  const parsed = new URL(serverUrl);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** The 1, 5 and 15 minute load averages (uptime's): the machine is shared, so every section reports the load. */
export function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');
}

/** Removes a SQLite database file and its WAL and shared-memory files (a bench starts each store afresh). */
export function removeSqliteFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
}
