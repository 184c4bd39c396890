// Issue 26 targets, measured in one run (`npm run bench -- search`, after search-context.ts; `-- search-floor` alone;
// BENCH_FLOOR_CORPORA=convo,… picks corpora): on three corpora of threaded notes at each size (BENCH_SIZES, default
// 100 k; 1 M when asked) — tie-heavy (every note holds the query's words, so scores tie by the thousand), Zipf-distributed
// words, and the conversational corpus of bench/convo.ts scaled up — the import of the JSONL file (memories/s), the
// database file against a store of the same notes without threads (and where its extra bytes are, per table and index),
// and a cold `hippo search` against the sqlite3 CLI running the same ranking statement on the same file (hippo's one
// statement: every match with its row's filters, ORDER BY score, newer, rowid, LIMIT 10; the CLI's time is the floor any
// program has with this index: it prints ten rowids, reads no rows, snippets or matched parts, and writes no retrieval
// counters). Every command of a round runs interleaved with the others (the machine is shared: the load falls on every
// side alike); medians of the rounds.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { buildDevSet } from './convo.js';
import { prng } from './generate.js';
import { BIN, DATA, ROOT, fmt, loadAverage, machine, median, timeOnce, writeSection, type SectionOptions, removeSqliteFiles } from './lib.js';

const NOW = '2026-12-01T00:00:00.000Z';
/** The search weights in column order (src/core/search-terms.ts RANK_WEIGHTS; sqlite/fts.ts STORED_RANK). */
const BM25 = 'bm25(memories_fts, 1.0000, 0.5000, 0.7500, 0.0000, 0.4000, 0.1500, 0.3000)';

/** One line of a corpus file before its thread is kept or dropped. */
export interface CorpusLine {
  content: string;
  createdAt: string;
  thread: string;
  source?: string;
}

export interface Corpus {
  name: string;
  /** What `hippo search` is given. */
  query: string;
  /** hippo's terms for it (src/core/search-terms.ts: no stopword among them, none stemmed differently). */
  terms: string[];
  /** The corpus's first `size` lines, in file order. */
  lines: (size: number) => Iterable<CorpusLine>;
}

/** Generated notes in threads of 50, a minute apart (every fifth shares its time with the one before). */
function* notes(note: (random: () => number, index: number) => string, size: number): Iterable<CorpusLine> {
  const random = prng(26);
  let minute = 0;
  for (let index = 0; index < size; index++) {
    if (index % 5 !== 4) minute++;
    yield { content: note(random, index), createdAt: new Date(Date.UTC(2025, 0, 1) + minute * 60_000).toISOString(), thread: `t${Math.floor(index / 50)}` };
  }
}

/**
 * The conversational corpus of bench/convo.ts (the dev set of bench/search-context.ts) scaled up: as many of its
 * dialogues as `size` turns need (about 144 turns a dialogue, seed 18 as the dev set), every turn under the one agent,
 * every session a thread (about 23 turns), cut at `size`.
 */
function* conversations(size: number): Iterable<CorpusLine> {
  const { dialogues } = buildDevSet({ dialogues: Math.ceil(size / 120), seed: 18 });
  let count = 0;
  for (const dialogue of dialogues) {
    for (const memory of dialogue.memories) {
      if (count++ >= size) return;
      yield { content: memory.content, createdAt: memory.createdAt, thread: memory.thread, source: memory.source };
    }
  }
  if (count < size) throw new Error(`the conversational corpus has ${count} turns, fewer than ${size}`);
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

export const CORPORA: Corpus[] = [
  {
    name: 'tie-heavy',
    query: 'deploy failed lock',
    terms: ['deploy', 'failed', 'lock'],
    lines: (size) =>
      notes((random, index) => `deploy failed on the ${['payments', 'billing', 'search'][index % 3]} lock ${random() < 0.5 ? 'again' : 'today'}`, size),
  },
  {
    name: 'zipf',
    query: 'w3 w17 w120',
    terms: ['w3', 'w17', 'w120'],
    lines: (size) => notes((random) => Array.from({ length: 8 + Math.floor(random() * 12) }, () => zipfWord(random)).join(' '), size),
  },
  {
    name: 'convo',
    // One of the dev set's questions, as a user asks it ("Maya's" is two terms to FTS5's tokenizer and to hippo's).
    query: "What is the name of Maya's sister's baby?",
    terms: ['name', 'maya', 's', 'sister', 'baby'],
    lines: conversations,
  },
];

/** The corpus as one JSONL file, its lines threaded or (`threaded` false) the same lines outside any thread. */
export async function corpusFile(corpus: Corpus, size: number, threaded: boolean): Promise<string> {
  const file = join(DATA, `floor-${corpus.name}-${size}${threaded ? '' : '-plain'}.jsonl`);
  if (existsSync(file)) return file;
  const out = createWriteStream(`${file}.partial`);
  for (const { content, createdAt, thread, source } of corpus.lines(size)) {
    const line = {
      agentId: 'bench',
      content,
      createdAt,
      ...(source === undefined ? {} : { source }),
      // `thread: null`: no thread, said outright (a plain list is not threaded without the field either).
      thread: threaded ? thread : null,
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

/** Wall time of one run and its CPU (user + system, from GNU time), in ms. */
function timed(command: string, args: string[]): { wall: number; cpu: number } {
  const start = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%U %S', command, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${command} exited ${result.status}: ${String(result.stderr)}`);
  const [user, system] = String(result.stderr).trim().split('\n').at(-1)!.split(' ').map(Number);
  return { wall, cpu: (user! + system!) * 1000 };
}

/** The database file's size once its WAL is checkpointed into it (MiB). */
function fileMb(db: string): number {
  spawnSync('sqlite3', [db, 'PRAGMA wal_checkpoint(TRUNCATE);']);
  return statSync(db).size / 2 ** 20;
}

/** The bytes of every table and index of a database file (the sqlite3 CLI's dbstat), and its free pages' bytes. */
function pageBytes(db: string): Map<string, number> {
  const out = spawnSync('sqlite3', [
    '-separator',
    '\t',
    db,
    "SELECT name, sum(pgsize) FROM dbstat GROUP BY name; SELECT '(free pages)', freelist_count * page_size FROM pragma_freelist_count, pragma_page_size;",
  ]);
  if (out.status !== 0) throw new Error(`dbstat of ${db}: ${String(out.stderr)}`);
  const bytes = new Map<string, number>();
  for (const line of String(out.stdout).trim().split('\n')) {
    const [name, size] = line.split('\t');
    bytes.set(name!, Number(size));
  }
  return bytes;
}

/** The file's size (MiB) once a copy of it has run `sql` (the original is left as it was). */
function sizeAfter(db: string, sql: string): number {
  const copy = `${db}.trial`;
  removeSqliteFiles(copy);
  spawnSync('cp', [db, copy]);
  const out = spawnSync('sqlite3', [copy, sql]);
  if (out.status !== 0) throw new Error(`${sql} on a copy of ${db}: ${String(out.stderr)}`);
  const mb = fileMb(copy);
  removeSqliteFiles(copy);
  return mb;
}

const MIB = 2 ** 20;

/** Where a threaded store's extra bytes are: every table and index against the store without threads. */
function breakdownRows(corpus: string, size: number, threaded: Map<string, number>, plain: Map<string, number>): string[] {
  const names = [...new Set([...threaded.keys(), ...plain.keys()])];
  const total = (map: Map<string, number>) => [...map.values()].reduce((sum, value) => sum + value, 0);
  const extra = total(threaded) - total(plain);
  const rows = names
    .map((name) => ({ name, threaded: threaded.get(name) ?? 0, plain: plain.get(name) ?? 0 }))
    .sort((a, b) => b.threaded - b.plain - (a.threaded - a.plain) || b.threaded - a.threaded);
  const big = rows.filter((row) => Math.max(row.threaded, row.plain) >= MIB / 2);
  const small = rows.filter((row) => Math.max(row.threaded, row.plain) < MIB / 2);
  const line = (name: string, t: number, p: number) =>
    `| ${corpus} ${size / 1000} k | ${name} | ${fmt(t / MIB, 1)} MiB | ${fmt(p / MIB, 1)} MiB | ${fmt((t - p) / MIB, 1)} MiB | ${extra > 0 ? `${fmt((100 * (t - p)) / extra, 0)} %` : '—'} |`;
  return [
    ...big.map((row) => line(`\`${row.name}\``, row.threaded, row.plain)),
    line(
      `${small.length} others`,
      small.reduce((sum, row) => sum + row.threaded, 0),
      small.reduce((sum, row) => sum + row.plain, 0),
    ),
    line('**whole file**', total(threaded), total(plain)),
  ];
}

export async function run({ sizes = [100_000] }: SectionOptions = {}): Promise<void> {
  const rounds = Number(process.env.BENCH_FLOOR_ROUNDS ?? 7);
  const wanted = process.env.BENCH_FLOOR_CORPORA?.split(',');
  // BENCH_FLOOR_PLAIN=0: no store without threads (cold search only; its import and size columns say —).
  const withPlain = process.env.BENCH_FLOOR_PLAIN !== '0';
  // BENCH_FLOOR_SECTION: the section file's name (default 4b-search-floor), so a run at 1 M keeps the 100 k one.
  const section = process.env.BENCH_FLOOR_SECTION ?? '4b-search-floor';
  // BENCH_FLOOR_REUSE=1: a threaded store already in bench/.data (imported earlier from the same file) is searched as
  // it is, not imported again (its import column says —).
  const reuse = process.env.BENCH_FLOOR_REUSE === '1';
  const extra = process.env.BENCH_FLOOR_EXTRA === '1';
  const rows: string[] = [];
  const ratios: string[] = [];
  const sizeRows: string[] = [];
  const trials: string[] = [];
  const loadBefore = loadAverage();
  for (const size of sizes.filter((value) => value >= 100_000)) {
    for (const corpus of CORPORA.filter((candidate) => wanted?.includes(candidate.name) ?? true)) {
      const threaded = await corpusFile(corpus, size, true);
      const plain = withPlain ? await corpusFile(corpus, size, false) : undefined;
      const db = join(DATA, `floor-${corpus.name}-${size}.db`);
      const plainDb = join(DATA, `floor-${corpus.name}-${size}-plain.db`);
      const reused = reuse && existsSync(db);
      if (!reused) removeSqliteFiles(db);
      removeSqliteFiles(plainDb);
      const imported = reused ? { ms: NaN } : timeOnce('node', [BIN, 'memory', 'import', threaded, '--db', db, '--agent', 'bench', '--json']);
      const importedPlain = plain === undefined ? undefined : timeOnce('node', [BIN, 'memory', 'import', plain, '--db', plainDb, '--agent', 'bench', '--json']);
      const rate = size / (imported.ms / 1000);
      const ratePlain = importedPlain === undefined ? NaN : size / (importedPlain.ms / 1000);
      const [mb, plainMb] = [fileMb(db), plain === undefined ? NaN : fileMb(plainDb)];
      if (plain !== undefined) sizeRows.push(...breakdownRows(corpus.name, size, pageBytes(db), pageBytes(plainDb)));
      if (size <= 100_000 && plain !== undefined) {
        // FTS5's 'optimize' merges the index's segments into one; VACUUM then drops the pages that frees. Neither
        // changes the schema; both are tried on copies, the threaded store and the plain one alike.
        const optimize = "INSERT INTO memories_fts (memories_fts) VALUES ('optimize'); VACUUM;";
        const [vacuumed, vacuumedPlain] = [sizeAfter(db, 'VACUUM;'), sizeAfter(plainDb, 'VACUUM;')];
        const [optimized, optimizedPlain] = [sizeAfter(db, optimize), sizeAfter(plainDb, optimize)];
        trials.push(
          `| ${corpus.name} ${size / 1000} k | ${fmt(mb, 1)} / ${fmt(plainMb, 1)} MiB = ${fmt(mb / plainMb, 2)}× | ${fmt(vacuumed, 1)} / ${fmt(vacuumedPlain, 1)} MiB = ${fmt(vacuumed / vacuumedPlain, 2)}× | ${fmt(optimized, 1)} / ${fmt(optimizedPlain, 1)} MiB = ${fmt(optimized / optimizedPlain, 2)}× |`,
        );
      }
      const sql = rankingSql(corpus);
      const matches = Number(String(spawnSync('sqlite3', [db, `SELECT count(*) FROM (${sql.replace(/ORDER BY[\s\S]*$/, '')})`]).stdout).trim());
      const search = ['node', [BIN, 'search', corpus.query, '--agent', 'bench', '--json', '--db', db]] as const;
      // BENCH_FLOOR_EXTRA=1: two more floors in the same rounds — the CLI with hippo's memory map for searching
      // (\`PRAGMA mmap_size\` = SEARCH_MMAP_BYTES, 1 GiB), and a Node program that opens the file with better-sqlite3 (the
      // SQLite hippo runs, not the CLI's), sets the same map and runs the one statement, nothing else.
      type Name = 'hippo' | 'cli' | 'node' | 'climap' | 'lib';
      const library = `const D = require(${JSON.stringify(join(ROOT, 'node_modules', 'better-sqlite3'))}); const db = new D(process.argv[1]); db.pragma('mmap_size = ${2 ** 30}'); db.prepare(process.argv[2]).all();`;
      const commands: [Name, string, string[]][] = [
        ['hippo', search[0], [...search[1]]],
        ['cli', 'sqlite3', [db, sql]],
        ['node', 'node', ['-e', '0']],
        ...(extra
          ? ([
              ['climap', 'sqlite3', ['-cmd', `PRAGMA mmap_size = ${2 ** 30}`, db, sql]],
              ['lib', 'node', ['-e', library, db, sql]],
            ] as [Name, string, string[]][])
          : []),
      ];
      const times = Object.fromEntries(commands.map(([name]) => [name, [] as number[]])) as Record<Name, number[]>;
      const cpu = Object.fromEntries(commands.map(([name]) => [name, [] as number[]])) as Record<Name, number[]>;
      const ratio = { wall: [] as number[], cpu: [] as number[] };
      // The order rotates from round to round (hippo, CLI, node, …; CLI, node, …, hippo; …): no command always runs first.
      for (let round = 0; round <= rounds; round++) {
        const taken: Partial<Record<Name, { wall: number; cpu: number }>> = {};
        for (let step = 0; step < commands.length; step++) {
          const [name, command, args] = commands[(round + step) % commands.length]!;
          taken[name] = timed(command, args);
        }
        if (round === 0) continue;
        for (const [name] of commands) {
          times[name].push(taken[name]!.wall);
          cpu[name].push(taken[name]!.cpu);
        }
        ratio.wall.push(taken.hippo!.wall / taken.cli!.wall);
        ratio.cpu.push(taken.hippo!.cpu / taken.cli!.cpu);
      }
      const extraLines: string[] = [];
      if (extra) {
        const [hippoMs, hippoCpu] = [median(times.hippo), median(cpu.hippo)];
        for (const [name, label] of [
          ['climap', 'the sqlite3 CLI with the 1 GiB memory map'],
          ['lib', 'better-sqlite3 alone (SQLite of hippo, the 1 GiB map, the one statement)'],
        ] as const)
          extraLines.push(
            `${corpus.name} ${size / 1000} k: cold search ${fmt(hippoMs / median(times[name]), 2)}× by wall, ${fmt(hippoCpu / median(cpu[name]), 2)}× by CPU ${label} (${fmt(median(times[name]), 0)} ms wall, ${fmt(median(cpu[name]), 0)} ms CPU)`,
          );
      }
      const [hippoMs, cliMs, nodeMs] = [median(times.hippo), median(times.cli), median(times.node)];
      const [hippoCpu, cliCpu, nodeCpu] = [median(cpu.hippo), median(cpu.cli), median(cpu.node)];
      const spread = (values: number[]) => `${fmt(Math.min(...values), 2)}–${fmt(Math.max(...values), 2)}×`;
      const plainCell = (text: string) => (plain === undefined ? '—' : text);
      rows.push(
        `| ${corpus.name} | ${size / 1000} k | ${matches} | ${reused ? '— (imported before)' : `${fmt(rate, 0)} /s`} | ${plainCell(`${fmt(ratePlain, 0)} /s`)} | ${fmt(mb, 0)} MiB | ${plainCell(`${fmt(plainMb, 0)} MiB`)} | ${fmt(hippoMs, 0)} ms | ${fmt(cliMs, 0)} ms | ${fmt(nodeMs, 0)} ms | ${fmt(hippoMs / cliMs, 2)}× | ${fmt(hippoCpu, 0)} ms | ${fmt(cliCpu, 0)} ms | ${fmt(nodeCpu, 0)} ms | ${fmt(hippoCpu / cliCpu, 2)}× |`,
      );
      ratios.push(
        `${corpus.name} ${size / 1000} k: ${reused ? 'store imported before this run' : `import ${fmt(rate, 0)} memories/s (target ≥ 40000/s)`}; ${plain === undefined ? 'no store without threads this run' : `database ${fmt(mb / plainMb, 2)}× the store without threads (target ≤ 1.3×)`}; cold search ${fmt(hippoMs / cliMs, 2)}× the sqlite3 CLI by wall time (rounds ${spread(ratio.wall)}), ${fmt(hippoCpu / cliCpu, 2)}× by CPU (rounds ${spread(ratio.cpu)}) (target ≤ 1.3×); ${fmt(hippoMs / nodeMs, 2)}× node -e 0 by wall, ${fmt(hippoCpu / nodeCpu, 2)}× by CPU`,
      );
      ratios.push(...extraLines);
      removeSqliteFiles(plainDb);
    }
  }
  if (rows.length === 0) {
    // BENCH_SIZES below 100 k: nothing measured, and the results of the last run at these sizes are kept.
    console.log('bench: search-floor measures stores of 100 k memories or more; none asked, results kept');
    return;
  }
  writeSection(
    section,
    `## Search and import against their floors (issue 26)

Machine: ${machine()}; load average before ${loadBefore}, after ${loadAverage()} (a shared machine: absolute times are
inflated by other jobs; the ratios compare commands run interleaved in the same rounds).

Three corpora of threaded notes: two generated (threads of 50, a minute apart, every fifth sharing its time with the
one before) — *tie-heavy*, every note holding the query's words (scores tie by the thousand), and *zipf*, 8–19 words
drawn from 5000 with Zipf's law — and *convo*, the conversational corpus of bench/convo.ts (the dev set of the
search-context section, more of its dialogues: one turn a memory, each session a thread of about 23 turns; the
query one of its questions, \`${CORPORA[2]!.query}\`). *import*: \`hippo memory import FILE --db NEW.db\` of the JSONL file, wall time of the
command; *plain*: the same notes outside any thread (\`thread: null\` on every line). *database*: the file after a WAL checkpoint. *cold search*: \`hippo
search QUERY --json\` (a new process; the ranking, the ten hits' rows, snippets and parts, the retrieval counters)
against the \`sqlite3\` CLI running hippo's ranking statement on the same file (bench/search-floor.ts \`rankingSql\`),
medians of ${rounds} rounds after one warm-up, the three commands' order rotating each round; wall time and CPU (user +
system, GNU time) of each. *matches*: the memories the statement ranks.${
      extra
        ? ` Two more floors in the same rounds (BENCH_FLOOR_EXTRA=1): the CLI with hippo's
1 GiB memory map for searching (\`-cmd 'PRAGMA mmap_size = …'\`), and *better-sqlite3 alone* — a \`node -e\` program that
opens the file with the SQLite hippo runs (the CLI's is older), sets the same map and runs the one statement.`
        : ''
    }${reuse ? ' Stores found in bench/.data were searched as they were (BENCH_FLOOR_REUSE=1), not imported again.' : ''}

| corpus | memories | matches | import | import, plain | database | database, plain | hippo search | sqlite3 CLI | node -e 0 | search / CLI | hippo CPU | CLI CPU | node CPU | CPU / CLI |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Ratios (this run):

${ratios.map((line) => `- ${line}`).join('\n')}
`,
  );
  if (sizeRows.length > 0) {
    writeSection(
      `4i-search-floor-size${sizes.some((size) => size > 100_000) ? '-1m' : ''}`,
      `## Where a threaded store's extra bytes are (issue 26, database ≤ 1.3× the store without threads)

Machine: ${machine()}; the stores of the search-floor section's run above (same files, same run): every table and
index of the threaded store and of the same notes' store without threads (\`thread: null\`), in bytes of pages (the
sqlite3 CLI's \`dbstat\`: \`SELECT name, sum(pgsize) FROM dbstat GROUP BY name\`, and the free pages), largest
difference first; *share* is each one's part of the whole file's difference. \`memories_fts_data\` is the FTS5
index's segments (every term's document and position lists), \`memories_fts_docsize\` each entry's column sizes
for bm25, \`memories_fts_idx\` the segments' first terms.

| store | table or index | threaded | plain | difference | share |
|---|---|---|---|---|---|
${sizeRows.join('\n')}
${
  trials.length === 0
    ? ''
    : `
Tried on copies of the same files (no schema change; the sqlite3 CLI): \`VACUUM\` (the free pages dropped, the
b-trees repacked), and FTS5's \`'optimize'\` (every segment merged into one) then \`VACUUM\`. Threaded / plain:

| store | as imported | after VACUUM | after 'optimize' + VACUUM |
|---|---|---|---|
${trials.join('\n')}
`
}`,
    );
  }
  console.log(ratios.join('\n'));
}
