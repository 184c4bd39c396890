// Issue 26 targets, measured in one run (`npm run bench -- search`, after search-context.ts): on two generated corpora
// of threaded notes at each size (BENCH_SIZES, default 100 k; 1 M when asked) — tie-heavy (every note holds the query's
// words, so scores tie by the thousand) and Zipf-distributed words — the import of the JSONL file (memories/s), the
// database file against a store of the same notes without threads, and a cold `hippo search` against the sqlite3 CLI
// running the same ranking statement on the same file (hippo's one statement: every match with its row's filters,
// ORDER BY score, newer, rowid, LIMIT 10; the CLI's time is the floor any program has with this index: it prints ten
// rowids, reads no rows, snippets or matched parts, and writes no retrieval counters). Every command of a round runs
// interleaved with the others (the machine is shared: the load falls on every side alike); medians of the rounds.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { prng } from './generate.js';
import { BIN, DATA, fmt, loadAverage, machine, median, timeOnce, writeSection, type SectionOptions, removeSqliteFiles } from './lib.js';

const NOW = '2026-12-01T00:00:00.000Z';
/** The search weights in column order (src/core/search-terms.ts RANK_WEIGHTS; sqlite/fts.ts STORED_RANK). */
const BM25 = 'bm25(memories_fts, 1.0000, 0.5000, 0.7500, 0.0000, 0.4000, 0.1500, 0.3000)';

interface Corpus {
  name: string;
  /** What `hippo search` is given. */
  query: string;
  /** hippo's terms for it (src/core/search-terms.ts: no stopword among them, none stemmed differently). */
  terms: string[];
  note: (random: () => number, index: number) => string;
}

const VOCABULARY = Array.from({ length: 5000 }, (_, index) => `w${index}`);
/** Zipf (s = 1) over VOCABULARY: the word of rank r drawn with probability ∝ 1/r. */
const ZIPF = (() => {
  const weights = VOCABULARY.map((_, index) => 1 / (index + 1));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let running = 0;
  return weights.map((weight) => (running += weight / total));
})();
function zipfWord(random: () => number): string {
  const target = random();
  let low = 0;
  let high = ZIPF.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ZIPF[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return VOCABULARY[low]!;
}

const CORPORA: Corpus[] = [
  {
    name: 'tie-heavy',
    query: 'deploy failed lock',
    terms: ['deploy', 'failed', 'lock'],
    note: (random, index) => `deploy failed on the ${['payments', 'billing', 'search'][index % 3]} lock ${random() < 0.5 ? 'again' : 'today'}`,
  },
  {
    name: 'zipf',
    query: 'w3 w17 w120',
    terms: ['w3', 'w17', 'w120'],
    note: (random) => Array.from({ length: 8 + Math.floor(random() * 12) }, () => zipfWord(random)).join(' '),
  },
];

/** The corpus as one JSONL file: threads of 50 notes, a minute apart (every fifth shares its time with the one before). */
async function corpusFile(corpus: Corpus, size: number, threaded: boolean): Promise<string> {
  const file = join(DATA, `floor-${corpus.name}-${size}${threaded ? '' : '-plain'}.jsonl`);
  if (existsSync(file)) return file;
  const random = prng(26);
  const out = createWriteStream(`${file}.partial`);
  let minute = 0;
  for (let index = 0; index < size; index++) {
    if (index % 5 !== 4) minute++;
    const line = {
      agentId: 'bench',
      content: corpus.note(random, index),
      createdAt: new Date(Date.UTC(2025, 0, 1) + minute * 60_000).toISOString(),
      // `thread: null`: no thread, said outright (a plain list is not threaded without the field either).
      thread: threaded ? `t${Math.floor(index / 50)}` : null,
    };
    if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  spawnSync('mv', [`${file}.partial`, file]);
  return file;
}

/** The ranking statement hippo runs for the query (src/core/store/sqlite/search.ts `rank`), with its values inlined. */
function rankingSql(corpus: Corpus): string {
  const terms = corpus.terms.map((term) => `"${term}"`).join(' OR ');
  const match = `agent_id : "bench" AND ({content tags subject context_before context_after date_words} : (${terms}))`;
  return `SELECT m.rowid AS ord, m.created_at, -${BM25} AS score
FROM memories_fts CROSS JOIN memories m ON m.rowid = memories_fts.rowid
WHERE memories_fts MATCH '${match}' AND m.agent_id = 'bench' AND m.archived_at IS NULL AND (m.expires_at IS NULL OR m.expires_at > '${NOW}')
ORDER BY score DESC, m.created_at DESC, m.rowid LIMIT 10;`;
}

function wallMs(command: string, args: string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${command} exited ${result.status}: ${String(result.stderr)}`);
  return ms;
}

/** The database file's size once its WAL is checkpointed into it (MiB). */
function fileMb(db: string): number {
  spawnSync('sqlite3', [db, 'PRAGMA wal_checkpoint(TRUNCATE);']);
  return statSync(db).size / 2 ** 20;
}

export async function run({ sizes = [100_000] }: SectionOptions = {}): Promise<void> {
  const rounds = Number(process.env.BENCH_FLOOR_ROUNDS ?? 7);
  const rows: string[] = [];
  const ratios: string[] = [];
  const loadBefore = loadAverage();
  for (const size of sizes.filter((value) => value >= 100_000)) {
    for (const corpus of CORPORA) {
      const threaded = await corpusFile(corpus, size, true);
      const plain = await corpusFile(corpus, size, false);
      const db = join(DATA, `floor-${corpus.name}-${size}.db`);
      const plainDb = join(DATA, `floor-${corpus.name}-${size}-plain.db`);
      removeSqliteFiles(db);
      removeSqliteFiles(plainDb);
      const imported = timeOnce('node', [BIN, 'memory', 'import', threaded, '--db', db, '--agent', 'bench', '--json']);
      const importedPlain = timeOnce('node', [BIN, 'memory', 'import', plain, '--db', plainDb, '--agent', 'bench', '--json']);
      const rate = size / (imported.ms / 1000);
      const ratePlain = size / (importedPlain.ms / 1000);
      const [mb, plainMb] = [fileMb(db), fileMb(plainDb)];
      const sql = rankingSql(corpus);
      const matches = Number(String(spawnSync('sqlite3', [db, `SELECT count(*) FROM (${sql.replace(/ORDER BY[\s\S]*$/, '')})`]).stdout).trim());
      const search = ['node', [BIN, 'search', corpus.query, '--agent', 'bench', '--json', '--db', db]] as const;
      const times = { hippo: [] as number[], cli: [] as number[], node: [] as number[] };
      for (let round = 0; round <= rounds; round++) {
        const hippo = wallMs(search[0], [...search[1]]);
        const cli = wallMs('sqlite3', [db, sql]);
        const node = wallMs('node', ['-e', '0']);
        if (round === 0) continue;
        times.hippo.push(hippo);
        times.cli.push(cli);
        times.node.push(node);
      }
      const [hippoMs, cliMs, nodeMs] = [median(times.hippo), median(times.cli), median(times.node)];
      rows.push(
        `| ${corpus.name} | ${size / 1000} k | ${matches} | ${fmt(rate, 0)} /s | ${fmt(ratePlain, 0)} /s | ${fmt(mb, 0)} MiB | ${fmt(plainMb, 0)} MiB | ${fmt(hippoMs, 0)} ms | ${fmt(cliMs, 0)} ms | ${fmt(nodeMs, 0)} ms | ${fmt(hippoMs / cliMs, 2)}× |`,
      );
      ratios.push(
        `${corpus.name} ${size / 1000} k: import ${fmt(rate, 0)} memories/s (target ≥ 40000/s); database ${fmt(mb / plainMb, 2)}× the store without threads (target ≤ 1.3×); cold search ${fmt(hippoMs / cliMs, 2)}× the sqlite3 CLI (target ≤ 1.3×), ${fmt(hippoMs / nodeMs, 2)}× node -e 0`,
      );
      removeSqliteFiles(plainDb);
    }
  }
  writeSection(
    '4b-search-floor',
    `## Search and import against their floors (issue 26)

Machine: ${machine()}; load average before ${loadBefore}, after ${loadAverage()} (a shared machine: absolute times are
inflated by other jobs; the ratios compare commands run interleaved in the same rounds).

Two generated corpora of threaded notes (threads of 50, a minute apart, every fifth sharing its time with the one
before): *tie-heavy*, every note holding the query's words (scores tie by the thousand), and *zipf*, 8–19 words drawn
from 5000 with Zipf's law. *import*: \`hippo memory import FILE --db NEW.db\` of the JSONL file, wall time of the
command; *plain*: the same notes outside any thread (\`thread: null\` on every line). *database*: the file after a WAL checkpoint. *cold search*: \`hippo
search QUERY --json\` (a new process; the ranking, the ten hits' rows, snippets and parts, the retrieval counters)
against the \`sqlite3\` CLI running hippo's ranking statement on the same file (bench/search-floor.ts \`rankingSql\`),
medians of ${rounds} rounds after one warm-up. *matches*: the memories the statement ranks.

| corpus | memories | matches | import | import, plain | database | database, plain | hippo search | sqlite3 CLI | node -e 0 | search / CLI |
|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Ratios (this run):

${ratios.map((line) => `- ${line}`).join('\n')}
`,
  );
  console.log(ratios.join('\n'));
}
