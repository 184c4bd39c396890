// Issue 14 target 4: `hippo memory import` of one JSONL file (100 k and 1 M lines) into a fresh database, against the
// same work done by the sqlite3 CLI: the same file loaded into the same schema (a database hippo created, so the same
// tables, indexes, FTS5 index and triggers) in one transaction, each line's fields read with SQLite's JSON functions,
// an id and a content hash per memory, and each memory's search context (the text of its neighbours before and after
// it in the file's thread) computed by the store's own view (memories_search) as the index is filled, so the FTS5
// entries index the same text (baselineScript).
import { openStore } from 'hippo';
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { corpus } from './foundation.js';
import { BIN, DATA, fmt, loadAverage, machine, timeOnce, writeSection, type SectionOptions, removeSqliteFiles } from './lib.js';

/** The corpus of `size` memories as one JSONL file (foundation's parts, concatenated once). */
async function oneFile(size: number): Promise<string> {
  const file = join(DATA, `import-${size}.jsonl`);
  if (existsSync(file)) return file;
  const dir = await corpus(size);
  const out = createWriteStream(`${file}.partial`);
  for (const part of readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()) {
    const text = readFileSync(join(dir, part), 'utf8');
    if (!out.write(text.endsWith('\n') ? text : `${text}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  spawnSync('mv', [`${file}.partial`, file]);
  return file;
}

/**
 * The sqlite3 CLI's script: the file's lines into a temporary table (`.import` with a separator no line holds), then
 * one INSERT … SELECT into memories in file order with the search triggers stood aside (`search_deferred`), then the
 * full-text index filled from the view memories_search, which computes each context from the thread in SQL — the
 * store's own bulk path, in one statement each.
 */
function baselineScript(file: string): string {
  return `.bail on
PRAGMA synchronous = NORMAL;
BEGIN IMMEDIATE;
CREATE TEMP TABLE lines (line TEXT);
.mode ascii
.separator "\\037" "\\n"
.import --schema temp '${file.replaceAll("'", "''")}' lines
.mode list
INSERT INTO settings (key, value) VALUES ('search_deferred', '1');
INSERT INTO memories (id, agent_id, content, durability, tags, subject, source, created_at, updated_at, expires_at, archived_at,
  archived_reason, derived_from, promoted_from, content_hash, last_reflected_at, retrieval_count, last_retrieved_at, thread, version_of)
SELECT 'mem_' || substr(upper(hex(randomblob(13))), 1, 26), agent_id, content, 'standard', tags, NULL, 'cli', created_at, created_at,
  NULL, NULL, NULL, '[]', NULL, lower(hex(sha3(content, 256))), NULL, 0, NULL, thread, NULL
FROM (SELECT rowid AS n, line ->> '$.agentId' AS agent_id, line ->> '$.content' AS content, coalesce(line -> '$.tags', '[]') AS tags,
        line ->> '$.createdAt' AS created_at, '${file.replaceAll("'", "''")}' AS thread FROM temp.lines)
ORDER BY n;
DELETE FROM settings WHERE key = 'search_deferred';
INSERT INTO memories_fts (rowid, content, tags, subject, agent_id, context_before, context_after, date_words)
  SELECT rowid, content, tags, subject, agent_id, context_before, context_after, date_words FROM memories_search;
COMMIT;
`;
}

/** An empty hippo database (the schema hippo creates), for the baseline to load into. */
async function emptyHippoDb(db: string): Promise<void> {
  removeSqliteFiles(db);
  const store = await openStore({ path: db });
  await store.close();
}

function count(db: string, sql: string): number {
  return Number(String(spawnSync('sqlite3', [db, sql]).stdout).trim());
}

export async function run({ sizes = [100_000, 1_000_000] }: SectionOptions = {}): Promise<void> {
  const rows: string[] = [];
  const ratios: string[] = [];
  for (const size of sizes.filter((value) => value >= 100_000)) {
    const file = await oneFile(size);
    // Named as foundation names its imports, so the nightly section reuses this database.
    const db = join(DATA, `hippo-${size}.db`);
    removeSqliteFiles(db);
    // --thread-per-file: the file one thread, as the baseline's window functions make it (a plain file is not threaded).
    const hippo = timeOnce('node', [BIN, 'memory', 'import', file, '--thread-per-file', '--db', db, '--agent', 'bench', '--json']);
    const imported = (JSON.parse(hippo.stdout) as { imported: number }).imported;
    const base = join(DATA, `baseline-${size}.db`);
    await emptyHippoDb(base);
    const script = join(DATA, `baseline-${size}.sql`);
    writeFileSync(script, baselineScript(file));
    const start = process.hrtime.bigint();
    const result = spawnSync('sqlite3', [base], { input: readFileSync(script), maxBuffer: 1 << 26 });
    const baselineMs = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0) throw new Error(`sqlite3 baseline failed: ${String(result.stderr)}`);
    const loaded = count(base, 'SELECT count(*) FROM memories');
    // The same index: the same number of documents matching a common word in both.
    const match = "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'deploy'";
    const [hippoMatches, baseMatches] = [count(db, match), count(base, match)];
    const mb = statSync(file).size / 2 ** 20;
    rows.push(
      `| ${size / 1000} k | ${fmt(mb, 0)} MiB | ${fmt(hippo.ms / 1000, 1)} s | ${fmt(imported / (hippo.ms / 1000), 0)} /s | ${fmt(baselineMs / 1000, 1)} s | ${fmt(loaded / (baselineMs / 1000), 0)} /s | ${fmt(hippo.ms / baselineMs, 2)}× | ${hippoMatches} / ${baseMatches} |`,
    );
    ratios.push(
      `import ${size / 1000} k: hippo ${fmt(imported / (hippo.ms / 1000), 0)} memories/s, sqlite3 CLI doing the same work ${fmt(loaded / (baselineMs / 1000), 0)} memories/s: ${fmt(hippo.ms / baselineMs, 2)}× (issue 14's target ≥ 50000/s; issue 26's ≥ 40000/s threaded is the search section's import-scale and floor rows)`,
    );
    removeSqliteFiles(base);
  }
  if (rows.length === 0) {
    // BENCH_SIZES below 100 k: nothing measured, and the results of the last run at these sizes are kept.
    console.log('bench: import measures files of 100 k lines or more; none asked, results kept');
    return;
  }
  writeSection(
    '1b-import',
    `## Import (issue 14 target 4)

Machine: ${machine()}; load average at the end of this section ${loadAverage()} (a shared machine: the absolute times are
inflated by other jobs, the ratio compares two runs minutes apart).

\`hippo memory import FILE --thread-per-file --db NEW.db\` of one JSONL file (the worst-case corpus of bench/generate.ts:
lines without ids or threads, made one thread by the flag, so every memory gets a search context from its neighbours), one
transaction, the search index complete when the command returns; wall time of the whole command (a new process).
Baseline: the \`sqlite3\` CLI doing the same work into an empty database hippo created (same tables, indexes, FTS5 index
and triggers), in one transaction: \`.import\` of the lines into a temporary table, then one \`INSERT … SELECT\` reading
each line with \`->>\`, an id from \`randomblob\`, a content hash with \`sha3\`, the search triggers stood aside, and then the
full-text index filled in one statement from the store's view, which computes each context from the thread (bench/import.ts). *matches* counts the documents matching \`deploy\` in each index.

| memories | file | hippo import | hippo rate | sqlite3 CLI | sqlite3 rate | ratio | matches (hippo / sqlite3) |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Ratios (this run):

${ratios.map((line) => `- ${line}`).join('\n')}
`,
  );
  console.log(ratios.join('\n'));
}
