// Issue 25 benchmark: does one agent's search cost what that agent holds, or what the store holds? The same agent
// ("mine", MINE memories) alone in a store, and inside a store where CROWD agents hold CROWD_EACH memories each of the
// same kind of text, on SQLite and PostgreSQL. Warm searches through the library (`search`, the function the CLI and
// the MCP tool call), the stores alternating in each round. On PostgreSQL also with the search indexes of schema 5
// (GIN over the vector alone) put back in place of migration 6's GIN over (agent_id, vector), to show what the change
// does. Each store is filled by the built CLI's `memory import` of threaded JSONL files (time order), timed, with its
// peak RSS. PostgreSQL: HIPPO_BENCH_PG_URL (a role that may create databases); the databases are dropped at the end.
import { openStore, search, type Store } from 'hippo';
import { once } from 'node:events';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { databaseUrl, BIN, DATA, fmt, loadAverage, machine, median, timeOnce, writeSection, type SectionOptions, removeSqliteFiles } from './lib.js';

/** How many other agents share the store (BENCH_AGENTS_CROWD; 10 by default, 100 for the 1 M store of 100 agents). */
const CROWD = Number(process.env.BENCH_AGENTS_CROWD ?? 10);
const QUERIES = ['deploy failed because of a migration lock', 'quota token'];
const ROUNDS = 11;
const WORDS =
  'deploy failed because migration lock billing cron vendor dublin office incident customer refund staging database replica queue worker timeout retry cache latency alert pager rollback release schema index backup restore token quota'.split(
    ' ',
  );

/** `count` memories of `agents` (round robin), threads of 20 per agent in time order, words drawn with a skew to the list's head. */
export async function writeThreaded(path: string, count: number, agents: readonly string[], seed: number): Promise<void> {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const out = createWriteStream(path);
  const start = Date.parse('2025-01-01T00:00:00Z');
  for (let index = 0; index < count; index++) {
    const words = Array.from({ length: 12 + Math.floor(random() * 30) }, () => WORDS[Math.floor(random() * random() * WORDS.length)]);
    const agentId = agents[index % agents.length]!;
    const step = Math.floor(index / agents.length);
    const line = {
      agentId,
      thread: `t${Math.floor(step / 20)}`,
      content: `${words.join(' ')} (#${index})`,
      createdAt: new Date(start + step * 60_000).toISOString(),
    };
    if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function warmMedians(stores: Record<string, Store>, query: string): Promise<Record<string, number>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(stores).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS + 2; round++) {
    const names = Object.keys(stores);
    const order = names.map((_, index) => names[(index + round) % names.length]!);
    for (const name of order) {
      const started = performance.now();
      const hits = await search(stores[name]!, { agentId: 'mine', query, limit: 10 });
      const ms = performance.now() - started;
      if (hits.length === 0) throw new Error(`no hits for ${query} in ${name}`);
      if (round >= 2) times[name]!.push(ms);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([name, values]) => [name, median(values)]));
}

export async function run({ sizes = [10_000] }: SectionOptions = {}): Promise<void> {
  const mine = sizes[0]!;
  const crowdEach = mine;
  const url = process.env.HIPPO_BENCH_PG_URL?.trim();
  if (!url) throw new Error('bench agents: set HIPPO_BENCH_PG_URL to a PostgreSQL role that may create databases');
  const started = new Date();
  const loadStart = loadAverage();
  const mineFile = join(DATA, `agents-mine-${mine}.jsonl`);
  const crowdFile = join(DATA, `agents-crowd-${CROWD}x${crowdEach}.jsonl`);
  if (!existsSync(mineFile)) await writeThreaded(mineFile, mine, ['mine'], 7);
  if (!existsSync(crowdFile))
    await writeThreaded(
      crowdFile,
      CROWD * crowdEach,
      Array.from({ length: CROWD }, (_, index) => `crowd${index}`),
      11,
    );

  // The stores: SQLite files and PostgreSQL databases, the agent alone and in the crowd.
  const pg = (await import('pg')).default;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const dbUrl = (name: string) => databaseUrl(url, name);
  const names = { alone: 'hippo_bench_agents_alone', crowd: 'hippo_bench_agents_crowd' };
  for (const name of Object.values(names)) {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  }
  const sqlite = { alone: join(DATA, 'agents-alone.db'), crowd: join(DATA, 'agents-crowd.db') };
  for (const path of Object.values(sqlite)) removeSqliteFiles(path);

  const importRows: string[] = [];
  const rssFile = join(DATA, 'agents-import.rss');
  const doImport = (engine: string, db: string, file: string, count: number, into: string) => {
    // GNU time around the command: its peak RSS, from the same run as the wall time.
    const { ms } = timeOnce('/usr/bin/time', ['-f', '%M', '-o', rssFile, 'node', BIN, 'memory', 'import', file, '--json'], { env: { HIPPO_DB: db } });
    const rssMb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)) / 1024;
    importRows.push(`| ${engine} | ${into} | ${count.toLocaleString('en')} | ${fmt(ms / 1000)} s | ${fmt(count / (ms / 1000), 0)}/s | ${fmt(rssMb, 0)} MB |`);
  };
  doImport('SQLite', sqlite.alone, mineFile, mine, 'empty store');
  doImport('SQLite', sqlite.crowd, crowdFile, CROWD * crowdEach, 'empty store');
  doImport('SQLite', sqlite.crowd, mineFile, mine, `${CROWD} agents' store`);
  doImport('PostgreSQL', dbUrl(names.alone), mineFile, mine, 'empty store');
  doImport('PostgreSQL', dbUrl(names.crowd), crowdFile, CROWD * crowdEach, 'empty store');
  doImport('PostgreSQL', dbUrl(names.crowd), mineFile, mine, `${CROWD} agents' store`);

  const stores: Record<string, Store> = {
    'SQLite alone': await openStore({ path: sqlite.alone }),
    'SQLite crowd': await openStore({ path: sqlite.crowd }),
    'PostgreSQL alone': await openStore({ path: dbUrl(names.alone) }),
    'PostgreSQL crowd': await openStore({ path: dbUrl(names.crowd) }),
  };
  const analyze = async () => {
    for (const name of Object.values(names)) {
      const client = new pg.Client({ connectionString: dbUrl(name) });
      await client.connect();
      await client.query('VACUUM ANALYZE memories');
      await client.end();
    }
  };
  const layout = async (sql: string) => {
    for (const name of Object.values(names)) {
      const client = new pg.Client({ connectionString: dbUrl(name) });
      await client.connect();
      await client.query(sql);
      await client.query('ANALYZE memories');
      await client.end();
    }
  };
  await analyze();
  const results: Record<string, Record<string, number>> = {};
  for (const query of QUERIES) results[query] = await warmMedians(stores, query);
  // The indexes of schema 5 in place of migration 6's, on both PostgreSQL databases.
  await layout(`CREATE INDEX memories_fts ON memories USING gin (fts); CREATE INDEX memories_fts_context ON memories USING gin (fts_context);
    DROP INDEX memories_agent_fts; DROP INDEX memories_agent_fts_context;`);
  const before: Record<string, Record<string, number>> = {};
  const pgOnly = { 'PostgreSQL alone': stores['PostgreSQL alone']!, 'PostgreSQL crowd': stores['PostgreSQL crowd']! };
  for (const query of QUERIES) before[query] = await warmMedians(pgOnly, query);
  for (const store of Object.values(stores)) await store.close();
  for (const name of Object.values(names)) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
  for (const path of Object.values(sqlite)) removeSqliteFiles(path);

  const rows = QUERIES.map((query) => {
    const r = results[query]!;
    const b = before[query]!;
    return (
      `| \`${query}\` | ${fmt(r['SQLite alone']!)} ms | ${fmt(r['SQLite crowd']!)} ms | **${fmt(r['SQLite crowd']! / r['SQLite alone']!, 2)}×** ` +
      `| ${fmt(r['PostgreSQL alone']!)} ms | ${fmt(r['PostgreSQL crowd']!)} ms | **${fmt(r['PostgreSQL crowd']! / r['PostgreSQL alone']!, 2)}×** ` +
      `| ${fmt(b['PostgreSQL crowd']! / b['PostgreSQL alone']!, 2)}× (${fmt(b['PostgreSQL alone']!)} / ${fmt(b['PostgreSQL crowd']!)} ms) ` +
      `| ${fmt(r['PostgreSQL crowd']! / r['SQLite crowd']!, 2)}× |`
    );
  });
  writeSection(
    'agents',
    `## One agent's search in a crowd (issue 25)

Machine: ${machine()}, ${started.toISOString().slice(11, 16)}–${new Date().toISOString().slice(11, 16)} UTC; load average (1 / 5 / 15 min)
${loadStart} at the start, ${loadAverage()} at the end — a shared 2-core machine with other work running, so only
ratios taken in the same rounds mean anything. PostgreSQL: HIPPO_BENCH_PG_URL (Debian's PostgreSQL 15, the dev
cluster). Measured by \`BENCH_SIZES=${mine} npm run bench -- agents\` (bench/agents.ts).

The agent \`mine\` holds ${mine.toLocaleString('en')} memories (threads of 20, time order; generated text over a
${WORDS.length}-word vocabulary, skewed, so the first query matches every memory and the second about a third). It is
searched alone in its store, and in a store where ${CROWD} other agents hold ${crowdEach.toLocaleString('en')} each
(${(CROWD * crowdEach + mine).toLocaleString('en')} memories). Warm \`search\` through the library (limit 10), the four
stores alternating in each round, median of ${ROUNDS} rounds after 2 warm-up rounds. "Schema 5 indexes": the same
PostgreSQL databases with migration 6's GIN over (agent_id, vector) replaced by the former GIN over the vector alone.

| query | SQLite alone | SQLite crowd | crowd / alone | PostgreSQL alone | PostgreSQL crowd | crowd / alone | PG crowd / alone, schema 5 indexes | PG / SQLite, crowd |
|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Imports into these stores (the built CLI's \`memory import\`, one file each, whole command):

| engine | into | memories | time | rate | peak RSS |
|---|---|---|---|---|---|
${importRows.join('\n')}
`,
  );
}
