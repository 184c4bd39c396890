// Issue 2 benchmarks: import throughput vs sqlite3 .import, cold `hippo search` vs `node -e 0` and the sqlite3 CLI
// running the same FTS5 query, and peak RSS of `hippo search` at 1 M memories.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, DATA, fmt, machine, medianMs, peakRssMb, timeOnce, writeSection, type SectionOptions } from './lib.js';
import { writeCorpus, type GeneratedMemory } from './generate.js';

const PART = 100_000;
const QUERY = 'deploy failed because of a migration lock';

/** The generated JSONL corpus of `size` memories (written once, then reused). */
export async function corpus(size: number): Promise<string> {
  const dir = join(DATA, `corpus-${size}`);
  const parts = Math.ceil(size / PART);
  if (existsSync(join(dir, 'done'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (let part = 0; part < parts; part++) {
    await writeCorpus(join(dir, `part-${String(part).padStart(2, '0')}.jsonl`), Math.min(PART, size - part * PART), 1000 + part);
  }
  writeFileSync(join(dir, 'done'), '');
  return dir;
}

/** Imports a corpus into a fresh database with the real CLI; returns the database path and the wall time. */
export function importCorpus(dir: string, size: number): { db: string; ms: number } {
  const db = join(DATA, `hippo-${size}.db`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  const { ms } = timeOnce('node', [BIN, 'memory', 'import', dir, '--db', db, '--json']);
  return { db, ms };
}

/** The same rows into a plain table with the sqlite3 CLI's .import (CSV), the simplest fast bulk load. */
function sqliteImport(dir: string, size: number): number {
  const csv = join(DATA, `plain-${size}.csv`);
  const rows: string[] = [];
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line) continue;
      const memory = JSON.parse(line) as GeneratedMemory;
      rows.push([memory.agentId, memory.content, JSON.stringify(memory.tags), memory.createdAt].map((field) => `"${field.replaceAll('"', '""')}"`).join(','));
    }
  }
  writeFileSync(csv, `${rows.join('\n')}\n`);
  const db = join(DATA, `plain-${size}.db`);
  rmSync(db, { force: true });
  const script = `CREATE TABLE plain (agent_id TEXT, content TEXT, tags TEXT, created_at TEXT);\n.import --csv ${csv} plain\n`;
  const start = process.hrtime.bigint();
  const result = spawnSync('sqlite3', [db], { input: script });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`sqlite3 .import failed: ${String(result.stderr)}`);
  return ms;
}

/** The FTS5 query hippo runs, written for the sqlite3 CLI (same MATCH, ranking, snippet and limit). */
function sqliteSearchSql() {
  const terms = ['deploy', 'failed', 'migration', 'lock'].map((term) => `"${term}"`).join(' OR ');
  return `SELECT m.id, -bm25(memories_fts, 1.0, 0.5, 0.75, 0.0) AS score, snippet(memories_fts, 0, '**', '**', '…', 16)
FROM memories_fts CROSS JOIN memories m ON m.rowid = memories_fts.rowid
WHERE memories_fts MATCH 'agent_id : "bench" AND (${terms})' AND m.agent_id = 'bench' AND m.archived_at IS NULL
ORDER BY score DESC, m.created_at DESC LIMIT 10;`;
}

export async function run({ sizes = [10_000, 100_000, 1_000_000] }: SectionOptions = {}): Promise<void> {
  const rows: string[] = [];
  let importLine = '';
  let rss = '';
  const nodeFloor = medianMs('node', ['-e', '0']);
  for (const size of sizes) {
    const dir = await corpus(size);
    const { db, ms } = importCorpus(dir, size);
    if (size === 100_000) {
      const plainMs = sqliteImport(dir, size);
      importLine = `| 100 k memories | ${fmt(ms / 1000, 2)} s | ${fmt(size / (ms / 1000), 0)} memories/s | ${fmt(plainMs / 1000, 2)} s | ${fmt(ms / plainMs, 2)}× |`;
    }
    // Searches bump retrieval counters; that is part of the measured work.
    const searchMs = medianMs('node', [BIN, 'search', QUERY, '--db', db, '--agent', 'bench', '--json']);
    const sqliteMs = medianMs('sqlite3', [db, sqliteSearchSql()]);
    rows.push(
      `| ${size / 1000} k | ${fmt(searchMs)} ms | ${fmt(nodeFloor)} ms | ${fmt(searchMs / nodeFloor, 2)}× | ${fmt(sqliteMs)} ms | ${fmt(searchMs / sqliteMs, 2)}× | ${fmt(ms / 1000, 1)} s |`,
    );
    if (size === Math.max(...sizes)) {
      rss = `Peak RSS of \`hippo search\` at ${size / 1000} k memories: **${fmt(peakRssMb('node', [BIN, 'search', QUERY, '--db', db, '--agent', 'bench', '--json']))} MB** (GNU time %M), vs \`node -e 0\` ${fmt(peakRssMb('node', ['-e', '0']))} MB.`;
    }
  }
  writeSection(
    '1-foundation',
    `## Search, import, memory (issue 2)

Machine: ${machine()}.

Cold \`hippo search "${QUERY}" --json\` (a new process each time, median of 15 after a warm-up) against the startup floor
\`node -e 0\` and the \`sqlite3\` CLI running the same FTS5 query (same MATCH, bm25 weights, snippet, limit) on the same file:

| memories | hippo search | node -e 0 | ratio to node | sqlite3 CLI | ratio to sqlite3 | import time |
|---|---|---|---|---|---|---|
${rows.join('\n')}

\`memory import\` of 100 k generated JSONL memories (one transaction per 100 k-line file, FTS index built by the triggers),
against \`sqlite3 .import --csv\` of the same rows into a plain table without any index:

| corpus | hippo import | throughput | sqlite3 .import (plain table) | ratio |
|---|---|---|---|---|
${importLine}

${rss}
`,
  );
}
