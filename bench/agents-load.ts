// Issue 25's remaining targets, on one store of AGENTS agents × EACH memories (threaded, bench/agents.ts's generator),
// built once on each engine and reused by every part:
//
// - copy: `hippo db copy` SQLite → PostgreSQL (which also builds the PostgreSQL store) and PostgreSQL → SQLite (into a
//   scratch file), whole command, memories/s and peak RSS (GNU time);
// - warm: warm `memory_search` over MCP, one agent's common-word and rarer-word query: PostgreSQL over HTTP, SQLite
//   over HTTP and over stdio, the three paths alternating in each round;
// - cold: `hippo search QUERY --agent A --db STORE --json` as a new process, PostgreSQL and SQLite alternating;
// - load: CLIENTS concurrent MCP clients (the SDK's Streamable HTTP client, one bearer token per agent) spread over
//   the agents for SECONDS, alternating `memory_search` and `memory_add`, against `hippo mcp --http --require-token`
//   on each store in turn; then every acknowledged add is looked for in the store (exactly once, under the id the
//   server returned) and each agent's count is checked against its count before plus its acknowledged adds.
//
// Sizes: BENCH_SIZES=EACH (memories per agent, default 100 000), BENCH_LOAD_AGENTS (10), BENCH_LOAD_CLIENTS (20),
// BENCH_LOAD_SECONDS (60), BENCH_LOAD_PARTS (copy,warm,cold,load). The stores are kept between runs in bench/.data and
// in the PostgreSQL database hippo_bench_load_<agents>x<each> and reused when they hold at least the generated rows;
// BENCH_LOAD_DROP=1 removes them at the end; BENCH_LOAD_PARTS= (empty) only builds them. PostgreSQL: HIPPO_BENCH_PG_URL
// (a role that may create databases). The results go to bench/results/agents-load.md for the full default run
// (10 × 100 000, every part) and to agents-load-<agents>x<each>[-<parts>].md otherwise, so that a run of another
// shape or of some parts never overwrites the full run's results.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeThreaded } from './agents.js';
import { databaseUrl, BIN, DATA, fmt, loadAverage, machine, median, removeSqliteFiles, timeOnce, writeSection, type SectionOptions } from './lib.js';

const AGENTS = Number(process.env.BENCH_LOAD_AGENTS ?? 10);
const CLIENTS = Number(process.env.BENCH_LOAD_CLIENTS ?? 20);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const ALL_PARTS = ['copy', 'warm', 'cold', 'load'];
const PARTS = (process.env.BENCH_LOAD_PARTS ?? ALL_PARTS.join(',')).split(',').filter(Boolean);
const QUERIES = { common: 'deploy failed because of a migration lock', rarer: 'quota token' };
const LOAD_QUERIES = [QUERIES.common, QUERIES.rarer, 'billing cron', 'replica timeout retry'];
const WARM_ROUNDS = 21;
const COLD_RUNS = 9;
const ENV = { HIPPO_MODEL: '', NO_COLOR: '1' };

type Engine = 'PostgreSQL' | 'SQLite';

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** The whole command under GNU time: wall ms, peak RSS (MB), the process's own CPU (user + system, s) and its stdout. */
function timedWithRss(args: string[]): { ms: number; rssMb: number; cpuS: number; stdout: string } {
  // One file per process: two runs of this section (another shape) may be building their stores at the same time.
  const rssFile = join(DATA, `agents-load-${process.pid}.rss`);
  const { ms, stdout } = timeOnce('/usr/bin/time', ['-f', '%M %U %S', '-o', rssFile, 'node', BIN, ...args], { env: ENV });
  const [rssKb, user, system] = readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
  rmSync(rssFile, { force: true });
  return { ms, stdout, rssMb: rssKb! / 1024, cpuS: user! + system! };
}

function cliJson<T>(args: string[]): T {
  return JSON.parse(timeOnce('node', [BIN, ...args, '--json'], { env: ENV }).stdout) as T;
}

/** Per-agent memory counts and, for a run's marker, the stored rows carrying it (content → ids). */
interface Counter {
  perAgent(): Promise<Map<string, number>>;
  marked(marker: string): Promise<Map<string, string[]>>;
}

function sqliteCounter(path: string): Counter {
  const open = () => new Database(path, { readonly: true, fileMustExist: true });
  return {
    async perAgent() {
      const db = open();
      try {
        const rows = db.prepare('SELECT agent_id AS agent, count(*) AS n FROM memories GROUP BY agent_id').all() as Array<{ agent: string; n: number }>;
        return new Map(rows.map((row) => [row.agent, Number(row.n)]));
      } finally {
        db.close();
      }
    },
    async marked(marker) {
      const db = open();
      try {
        const rows = db.prepare('SELECT id, content FROM memories WHERE content LIKE ?').all(`${marker} %`) as Array<{ id: string; content: string }>;
        return group(rows);
      } finally {
        db.close();
      }
    },
  };
}

function group(rows: Array<{ id: string; content: string }>): Map<string, string[]> {
  const byContent = new Map<string, string[]>();
  for (const row of rows) byContent.set(row.content, [...(byContent.get(row.content) ?? []), row.id]);
  return byContent;
}

async function pgCounter(url: string): Promise<Counter> {
  const pg = (await import('pg')).default;
  const query = async <T>(sql: string, values: unknown[] = []): Promise<T[]> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql, values)).rows as T[];
    } finally {
      await client.end();
    }
  };
  return {
    async perAgent() {
      const rows = await query<{ agent: string; n: string }>('SELECT agent_id AS agent, count(*) AS n FROM memories GROUP BY agent_id');
      return new Map(rows.map((row) => [row.agent, Number(row.n)]));
    },
    async marked(marker) {
      return group(await query<{ id: string; content: string }>('SELECT id, content FROM memories WHERE content LIKE $1', [`${marker} %`]));
    },
  };
}

interface HttpServer {
  url: string;
  child: ChildProcess;
  requests(): number;
  stop(): Promise<void>;
}

/** `hippo mcp --http --port 0 --require-token --db STORE`, resolved once it says where it listens. */
function startHttp(db: string): Promise<HttpServer> {
  const child = spawn('node', [BIN, 'mcp', '--http', '--port', '0', '--require-token', '--db', db], {
    env: { ...process.env, ...ENV },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let head = '';
  let lines = 0;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hippo mcp --http did not start:\n${head}`)), 60_000);
    child.on('exit', (code) => reject(new Error(`hippo mcp --http exited ${code}:\n${head}`)));
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      lines += text.split('\n').length - 1;
      if (head.length < 20_000) head += text;
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(head);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1]!,
          child,
          requests: () => lines,
          stop: async () => {
            child.removeAllListeners('exit');
            const exited = new Promise((done) => child.once('exit', done));
            child.kill('SIGTERM');
            await exited;
          },
        });
      }
    });
  });
}

async function httpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'hippo-bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

async function stdioClient(db: string, agent: string): Promise<Client> {
  const client = new Client({ name: 'hippo-bench', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--db', db, '--agent', agent],
      env: { ...getDefaultEnvironment(), ...ENV },
      stderr: 'ignore',
    }),
  );
  return client;
}

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content?: unknown };

async function searchCount(client: Client, query: string): Promise<number> {
  const result = (await client.callTool({ name: 'memory_search', arguments: { query, limit: 10 } })) as ToolResult;
  if (result.isError) throw new Error(`memory_search failed: ${JSON.stringify(result.content).slice(0, 200)}`);
  return (result.structuredContent as { results: unknown[] }).results.length;
}

interface LoadReport {
  engine: Engine;
  wallS: number;
  latencies: Record<'memory_search' | 'memory_add', number[]>;
  errors: string[];
  acked: Array<{ agent: string; id: string; content: string }>;
  check: string;
  ok: boolean;
  loadStart: string;
  loadEnd: string;
}

async function loadRun(engine: Engine, server: HttpServer, tokens: Map<string, string>, counter: Counter, agents: string[]): Promise<LoadReport> {
  const marker = `loadrun-${engine.toLowerCase()}-${Date.now().toString(36)}`;
  const before = await counter.perAgent();
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, async (_, index) => {
      const agent = agents[index % agents.length]!;
      return { index, agent, client: await httpClient(server.url, tokens.get(agent)!) };
    }),
  );
  const latencies: LoadReport['latencies'] = { memory_search: [], memory_add: [] };
  const errors: string[] = [];
  const acked: LoadReport['acked'] = [];
  const loadStart = loadAverage();
  const started = performance.now();
  const end = started + SECONDS * 1000;
  await Promise.all(
    clients.map(async ({ index, agent, client }) => {
      for (let step = 0; performance.now() < end; step++) {
        const tool = (step + index) % 2 === 0 ? 'memory_add' : 'memory_search';
        const content = `${marker} c${index} n${step}: the billing cron moved to 02:30 and the deploy failed on a migration lock`;
        const args = tool === 'memory_add' ? { content, tags: ['load'] } : { query: LOAD_QUERIES[(step + index) % LOAD_QUERIES.length]!, limit: 10 };
        const t0 = performance.now();
        try {
          const result = (await client.callTool({ name: tool, arguments: args })) as ToolResult;
          latencies[tool].push(performance.now() - t0);
          if (result.isError) {
            errors.push(`${tool}: ${JSON.stringify(result.structuredContent ?? result.content).slice(0, 300)}`);
            continue;
          }
          if (tool === 'memory_add') {
            const memory = (result.structuredContent as { memory: { id: string; agentId: string } }).memory;
            if (memory.agentId !== agent) errors.push(`memory_add: stored for ${memory.agentId}, token of ${agent}`);
            acked.push({ agent, id: memory.id, content });
          }
        } catch (error) {
          latencies[tool].push(performance.now() - t0);
          // fetch's own message ("fetch failed") says nothing: the cause's code (ECONNRESET, …) does.
          const cause = (error as { cause?: { code?: string; message?: string } }).cause;
          errors.push(`${tool}: ${(error as Error).message.slice(0, 300)}${cause ? ` (${cause.code ?? cause.message ?? ''})` : ''}`);
        }
      }
    }),
  );
  const wallS = (performance.now() - started) / 1000;
  const loadEnd = loadAverage();
  await Promise.all(clients.map(({ client }) => client.close()));

  // Every acknowledged add exactly once, under the id the server returned; nothing stored that was not acknowledged;
  // each agent's count = before + its acknowledged adds.
  const after = await counter.perAgent();
  const stored = await counter.marked(marker);
  const problems: string[] = [];
  for (const add of acked) {
    const ids = stored.get(add.content) ?? [];
    if (ids.length !== 1 || ids[0] !== add.id)
      problems.push(`${add.content.slice(0, 40)}…: stored ${ids.length}× (${ids.join(', ')}), acknowledged as ${add.id}`);
  }
  const storedRows = [...stored.values()].reduce((sum, ids) => sum + ids.length, 0);
  if (storedRows !== acked.length) problems.push(`${storedRows} rows carry the run's marker, ${acked.length} adds were acknowledged`);
  for (const agent of agents) {
    const expected = (before.get(agent) ?? 0) + acked.filter((add) => add.agent === agent).length;
    if (after.get(agent) !== expected) problems.push(`${agent}: ${after.get(agent)} memories, expected ${expected}`);
  }
  const ok = problems.length === 0;
  const check = ok
    ? `all ${acked.length} acknowledged adds stored exactly once under their ids; ${agents.length} agents' counts = before + acknowledged adds`
    : `**${problems.length} problems**: ${problems.slice(0, 5).join('; ')}`;
  if (!ok) console.error(`bench agents-load: ${engine}: ${problems.join('\n')}`);
  return { engine, wallS, latencies, errors, acked, check, ok, loadStart, loadEnd };
}

export async function run({ sizes = [100_000] }: SectionOptions = {}): Promise<void> {
  const each = sizes[0]!;
  const total = AGENTS * each;
  const shape = `${AGENTS}x${each}`;
  const url = process.env.HIPPO_BENCH_PG_URL?.trim();
  if (!url) throw new Error('bench agents-load: set HIPPO_BENCH_PG_URL to a PostgreSQL role that may create databases');
  const started = new Date();
  const loadAtStart = loadAverage();
  const agents = AGENTS === 1 ? ['solo'] : Array.from({ length: AGENTS }, (_, index) => `crowd${index}`);
  const agent = agents[0]!;
  const log = (line: string) => console.log(`bench agents-load: ${new Date().toISOString().slice(11, 19)} [load ${loadAverage()}] ${line}`);

  const file = join(DATA, AGENTS === 1 ? `agents-solo-${each}.jsonl` : `agents-crowd-${shape}.jsonl`);
  if (!existsSync(file)) await writeThreaded(file, total, agents, 11);

  const pg = (await import('pg')).default;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const dbUrl = (name: string) => databaseUrl(url, name);
  const exists = async (name: string) => (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  const holds = async (counter: Counter) => {
    const counts = await counter.perAgent();
    return agents.every((name) => (counts.get(name) ?? 0) >= each);
  };

  const notes: string[] = [];
  const copyRows: string[] = [];
  const copy = (from: string, to: string, label: string) => {
    const run = timedWithRss(['db', 'copy', from, to, '--json']);
    const memories = (JSON.parse(run.stdout) as { tables: Array<{ table: string; rows: number }> }).tables.find((table) => table.table === 'memories')!.rows;
    copyRows.push(
      `| ${label} | ${memories.toLocaleString('en')} | ${fmt(run.ms / 1000)} s | **${fmt(memories / (run.ms / 1000), 0)}/s** | ${fmt(run.cpuS)} s | ${fmt(run.rssMb, 0)} MB |`,
    );
    log(`${label}: ${memories} memories in ${fmt(run.ms / 1000)} s, peak ${fmt(run.rssMb, 0)} MB`);
  };

  // The stores: SQLite by `memory import`, PostgreSQL by `db copy` of that file (measured as the copy's first half).
  const lite = join(DATA, `agents-load-${shape}.db`);
  if (!existsSync(lite) || !(await holds(sqliteCounter(lite)))) {
    removeSqliteFiles(lite);
    const run = timedWithRss(['memory', 'import', file, '--db', lite, '--json']);
    log(`SQLite import of ${total}: ${fmt(run.ms / 1000)} s`);
    notes.push(
      `SQLite store built by \`memory import\` of the JSONL file: ${fmt(run.ms / 1000)} s (${fmt(total / (run.ms / 1000), 0)}/s), peak ${fmt(run.rssMb, 0)} MB.`,
    );
  }
  const pgName = `hippo_bench_load_${shape}`;
  const pgStore = dbUrl(pgName);
  if (!(await exists(pgName)) || !(await holds(await pgCounter(pgStore)))) {
    await admin.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${pgName}`);
    copy(lite, pgStore, 'SQLite → PostgreSQL (empty database)');
    const client = new pg.Client({ connectionString: pgStore });
    await client.connect();
    await client.query('VACUUM ANALYZE');
    await client.end();
  } else if (PARTS.includes('copy')) {
    const scratch = `hippo_bench_load_copy_${process.pid}`;
    await admin.query(`CREATE DATABASE ${scratch}`);
    try {
      copy(lite, dbUrl(scratch), 'SQLite → PostgreSQL (empty database)');
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
    }
  }
  if (PARTS.includes('copy')) {
    const scratch = join(DATA, `agents-load-copy-${process.pid}.db`);
    try {
      copy(pgStore, scratch, 'PostgreSQL → SQLite (new file)');
    } finally {
      removeSqliteFiles(scratch);
    }
  }
  if (PARTS.length === 0) {
    log('stores ready; no part asked for (BENCH_LOAD_PARTS is empty)');
    await admin.end();
    return;
  }
  const counters: Record<Engine, Counter> = { SQLite: sqliteCounter(lite), PostgreSQL: await pgCounter(pgStore) };
  const storeCounts = Object.fromEntries(
    await Promise.all(
      (Object.keys(counters) as Engine[]).map(async (engine) => [engine, [...(await counters[engine].perAgent()).values()].reduce((a, b) => a + b, 0)]),
    ),
  ) as Record<Engine, number>;

  // One HTTP server per store, a token per agent in each.
  const locations: Record<Engine, string> = { SQLite: lite, PostgreSQL: pgStore };
  const tokens: Record<Engine, Map<string, string>> = { SQLite: new Map(), PostgreSQL: new Map() };
  for (const engine of Object.keys(locations) as Engine[])
    for (const name of agents)
      tokens[engine].set(
        name,
        cliJson<{ secret: string }>(['mcp', 'token', 'create', '--agent', name, '--label', 'bench load', '--db', locations[engine]]).secret,
      );
  const servers: Record<Engine, HttpServer> = { PostgreSQL: await startHttp(pgStore), SQLite: await startHttp(lite) };

  const sections: string[] = [];
  try {
    if (PARTS.includes('warm')) {
      const paths: Record<string, Client> = {
        'PostgreSQL, HTTP': await httpClient(servers.PostgreSQL.url, tokens.PostgreSQL.get(agent)!),
        'SQLite, HTTP': await httpClient(servers.SQLite.url, tokens.SQLite.get(agent)!),
        'SQLite, stdio': await stdioClient(lite, agent),
      };
      const names = Object.keys(paths);
      const rows: string[] = [];
      const warmLoad = loadAverage();
      for (const [kind, query] of Object.entries(QUERIES)) {
        const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
        for (let round = 0; round < WARM_ROUNDS + 3; round++) {
          for (let step = 0; step < names.length; step++) {
            const name = names[(round + step) % names.length]!;
            const t0 = performance.now();
            const found = await searchCount(paths[name]!, query);
            const ms = performance.now() - t0;
            if (found === 0) throw new Error(`${name}: no results for ${query}`);
            if (round >= 3) times[name]!.push(ms);
          }
        }
        const p50 = Object.fromEntries(names.map((name) => [name, median(times[name]!)]));
        log(`warm ${kind}: ${names.map((name) => `${name} ${fmt(p50[name]!)} ms`).join(', ')}`);
        rows.push(
          `| ${kind}: \`${query}\` | ${fmt(p50['PostgreSQL, HTTP']!)} ms | ${fmt(p50['SQLite, HTTP']!)} ms | ${fmt(p50['SQLite, stdio']!)} ms | **${fmt(p50['PostgreSQL, HTTP']! / p50['SQLite, HTTP']!, 2)}×** | ${fmt(p50['PostgreSQL, HTTP']! / p50['SQLite, stdio']!, 2)}× |`,
        );
      }
      for (const client of Object.values(paths)) await client.close();
      sections.push(`### Warm \`memory_search\` over MCP, agent \`${agent}\` (${each.toLocaleString('en')} memories) in the store of ${total.toLocaleString('en')}

Load average ${warmLoad} when it started. The SDK's client: Streamable HTTP to \`hippo mcp --http --require-token\` on
each store (the agent's bearer token), and stdio to \`hippo mcp --agent ${agent}\` on the SQLite file; limit 10, every
call bumps the hits' retrieval counters. The three paths alternate in a rotating order each round; median (p50) of
${WARM_ROUNDS} rounds after 3 warm-up rounds.

| query | PostgreSQL, HTTP | SQLite, HTTP | SQLite, stdio | PG / SQLite, HTTP | PG HTTP / SQLite stdio |
|---|---|---|---|---|---|
${rows.join('\n')}`);
    }

    if (PARTS.includes('cold')) {
      const rows: string[] = [];
      const coldLoad = loadAverage();
      for (const [kind, query] of Object.entries(QUERIES)) {
        const times: Record<Engine, number[]> = { PostgreSQL: [], SQLite: [] };
        for (let runIndex = 0; runIndex <= COLD_RUNS; runIndex++) {
          for (const engine of (runIndex % 2 === 0 ? ['PostgreSQL', 'SQLite'] : ['SQLite', 'PostgreSQL']) as Engine[]) {
            const { ms } = timeOnce('node', [BIN, 'search', query, '--agent', agent, '--db', locations[engine], '--json'], { env: ENV });
            if (runIndex > 0) times[engine].push(ms);
          }
        }
        const pgMs = median(times.PostgreSQL);
        const liteMs = median(times.SQLite);
        log(`cold ${kind}: PostgreSQL ${fmt(pgMs)} ms, SQLite ${fmt(liteMs)} ms`);
        rows.push(`| ${kind}: \`${query}\` | ${fmt(pgMs)} ms | ${fmt(liteMs)} ms | **${fmt(pgMs / liteMs, 2)}×** |`);
      }
      sections.push(`### Cold CLI search, agent \`${agent}\`

Load average ${coldLoad} when it started. \`hippo search QUERY --agent ${agent} --db STORE --json\`, a new process each
time (the whole process: start, store open, search, JSON out), the two engines alternating; median of ${COLD_RUNS} each
after one warm-up pair.

| query | PostgreSQL | SQLite | PG / SQLite |
|---|---|---|---|
${rows.join('\n')}`);
    }

    if (PARTS.includes('load')) {
      const reports: LoadReport[] = [];
      for (const engine of ['PostgreSQL', 'SQLite'] as Engine[]) {
        const report = await loadRun(engine, servers[engine], tokens[engine], counters[engine], agents);
        log(
          `load ${engine}: ${report.latencies.memory_search.length} searches, ${report.latencies.memory_add.length} adds, ${report.errors.length} errors; ${report.check}`,
        );
        reports.push(report);
      }
      const rows = reports.flatMap((report) =>
        (['memory_search', 'memory_add'] as const).map((tool) => {
          const values = report.latencies[tool];
          return `| ${report.engine} | \`${tool}\` | ${values.length.toLocaleString('en')} | ${fmt(values.length / report.wallS, 1)}/s | ${fmt(percentile(values, 50))} ms | ${fmt(percentile(values, 95))} ms | ${fmt(percentile(values, 99))} ms | ${report.errors.filter((error) => error.startsWith(tool)).length} |`;
        }),
      );
      const summary = reports.map(
        (report) =>
          `| ${report.engine} | ${fmt(report.wallS, 1)} s | ${fmt((report.latencies.memory_search.length + report.latencies.memory_add.length) / report.wallS, 1)}/s | ${report.errors.length} | ${report.check} | ${report.loadStart} → ${report.loadEnd} |`,
      );
      // Every distinct error with its count: an HTTP-level failure ("fetch failed" and its cause's code) is told apart
      // from the SDK client's own request timeout (MCP error -32001) and from a tool's error answer.
      const errorNotes = reports.flatMap((report) => {
        const counts = new Map<string, number>();
        for (const error of report.errors) counts.set(error, (counts.get(error) ?? 0) + 1);
        return [...counts].map(([error, count]) => `- ${report.engine}: ${count} × ${error}`);
      });
      sections.push(`### Load: ${CLIENTS} MCP clients over HTTP, ${AGENTS} agents, ${SECONDS} s

${CLIENTS} SDK clients (Streamable HTTP), client *i* holding agent \`crowd(i mod ${AGENTS})\`'s token, all in one process,
each calling \`memory_add\` and \`memory_search\` in turn (queries rotating over ${LOAD_QUERIES.map((query) => `\`${query}\``).join(', ')};
limit 10) as fast as its answers come, for ${SECONDS} s, against one \`hippo mcp --http --require-token\` per store (the
PostgreSQL run first, then the SQLite one). Latency is the client's, call to answer. Lost writes: after the run every
acknowledged add is looked up by its text in the store — it must be there exactly once, under the id the server
returned, and no row of the run may be there unacknowledged — and each agent's count must equal its count before the
run plus its acknowledged adds.

| engine | tool | calls | rate | p50 | p95 | p99 | errors |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

| engine | wall | requests/s (both tools) | errors | writes checked | load average start → end |
|---|---|---|---|---|---|
${summary.join('\n')}
${errorNotes.length > 0 ? `\nErrors, each kind with its count:\n\n${errorNotes.join('\n')}\n` : ''}`);
    }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }

  if (PARTS.includes('copy'))
    sections.unshift(`### \`db copy\` of the store

The whole command under GNU time (\`/usr/bin/time\`: wall time, the hippo process's own CPU time — user + system —
and its peak RSS), verification included (counts and content hashes per table, read back inside the target's
transaction). Target ≥ 20 000 memories/s. Wall time well above the process's CPU is time spent waiting: on the
PostgreSQL server's work, or on the CPU other processes hold.

| direction | memories | time | rate | hippo's CPU | peak RSS |
|---|---|---|---|---|---|
${copyRows.join('\n')}`);

  if (process.env.BENCH_LOAD_DROP === '1') {
    await admin.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    removeSqliteFiles(lite);
  }
  await admin.end();

  const allParts = ALL_PARTS.every((part) => PARTS.includes(part));
  writeSection(
    AGENTS === 10 && each === 100_000 && allParts ? 'agents-load' : `agents-load-${shape}${allParts ? '' : `-${PARTS.join('-')}`}`,
    `## Issue 25 at 1 M over MCP: ${AGENTS === 1 ? 'one agent' : `${AGENTS} agents`} × ${each.toLocaleString('en')} memories

Machine: ${machine()}, ${started.toISOString().slice(11, 16)}–${new Date().toISOString().slice(11, 16)} UTC; load average
(1 / 5 / 15 min) ${loadAtStart} at the start, ${loadAverage()} at the end — a shared 2-core machine with other work
running, so only ratios taken in the same minutes mean anything. PostgreSQL: HIPPO_BENCH_PG_URL (Debian's PostgreSQL 15,
the dev cluster). Measured by \`BENCH_SIZES=${each} BENCH_LOAD_AGENTS=${AGENTS}${allParts ? '' : ` BENCH_LOAD_PARTS=${PARTS.join(',')}`} npm run bench -- agents-load\`
(bench/agents-load.ts). The store: ${total.toLocaleString('en')} generated memories (bench/agents.ts's generator: threads
of 20 in time order, a 32-word skewed vocabulary) of ${AGENTS === 1 ? 'one agent' : `${AGENTS} agents holding ${each.toLocaleString('en')} each`};
SQLite holds ${storeCounts.SQLite.toLocaleString('en')} and PostgreSQL ${storeCounts.PostgreSQL.toLocaleString('en')} memories when the
measurements start (earlier load runs' adds included). ${notes.join(' ')}

${sections.join('\n\n')}
`,
  );
}
