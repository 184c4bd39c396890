// Issue 12 benchmark: what the Model Context Protocol costs on top of a search. At 100 k memories, the same search
// three ways: called directly as a library (`searchWithFacts`, the function the tool calls), as a `memory_search`
// tool call in-process (the SDK's Client and hippo's server linked by the SDK's in-memory transport: JSON-RPC,
// schema validation, the view, the text guard), and as a stdio round trip to `hippo mcp` (the SDK's stdio client
// spawning the built CLI, as Claude Code does). The simple alternative an agent has without MCP — one
// `hippo search --json` process per call, its JSON parsed — is measured in the same run.
//
// The machine is shared, so the paths are interleaved: each round runs the three in a rotating order (and every
// fifth round one CLI process), so a burst of load from elsewhere falls on all of them alike; the overhead is also
// given as the median of the per-round differences, which cancels most of that noise.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openStore, searchWithFacts } from 'hippo';
import { createHippoServer } from 'hippo/mcp';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { corpus, importCorpus } from './foundation.js';
import { BIN, DATA, fmt, machine, median, writeSection } from './lib.js';

const QUERY = 'deploy failed because of a migration lock';
const ROUNDS = 200;
const WARMUP = 20;
/** Whole processes are slow: one CLI call every this many rounds. */
const CLI_EVERY = 5;

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function time(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');

type Path = 'library' | 'inProcess' | 'stdio';

export async function run(): Promise<void> {
  let db = join(DATA, 'hippo-100000.db');
  if (!existsSync(db)) db = importCorpus(await corpus(100_000), 100_000).db;
  const loadBefore = load();
  const noModel = async () => undefined;
  const args = { query: QUERY, limit: 10 };

  const store = await openStore({ path: db });
  const hippo = createHippoServer({ store, agentId: 'bench', allowReview: false, version: 'bench', model: noModel });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await hippo.server.connect(serverSide);
  const inProcessClient = new Client({ name: 'bench', version: '1' });
  await inProcessClient.connect(clientSide);
  const stdioClient = new Client({ name: 'bench', version: '1' });
  await stdioClient.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--db', db, '--agent', 'bench'],
      env: { ...getDefaultEnvironment(), HIPPO_MODEL: '' },
      stderr: 'ignore',
    }),
  );

  const resultCount = (result: Record<string, unknown>) => (result.structuredContent as { results: unknown[] }).results.length;
  const work: Record<Path, () => Promise<number>> = {
    library: async () => (await searchWithFacts(store, { agentId: 'bench', query: QUERY, limit: 10, facts: { ai: true, model: noModel } })).results.length,
    inProcess: async () => resultCount(await inProcessClient.callTool({ name: 'memory_search', arguments: args })),
    stdio: async () => resultCount(await stdioClient.callTool({ name: 'memory_search', arguments: args })),
  };
  // The alternative without MCP: one CLI process per search, its one JSON document parsed.
  const cliCall = async () => {
    const result = spawnSync(process.execPath, [BIN, 'search', QUERY, '--limit', '10', '--json', '--db', db, '--agent', 'bench'], {
      env: { ...process.env, HIPPO_MODEL: '', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 1 << 26,
    });
    if (result.status !== 0) throw new Error(`hippo search exited ${result.status}: ${String(result.stderr)}`);
    return (JSON.parse(String(result.stdout)) as { results: unknown[] }).results.length;
  };
  for (const [name, call] of Object.entries({ ...work, cli: cliCall })) {
    const found = await call();
    if (found !== 10) throw new Error(`${name}: ${found} results, expected 10`);
  }

  const paths: Path[] = ['library', 'inProcess', 'stdio'];
  for (let round = 0; round < WARMUP; round++) for (const path of paths) await work[path]();
  const times: Record<Path | 'cli', number[]> = { library: [], inProcess: [], stdio: [], cli: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (let step = 0; step < paths.length; step++) {
      const path = paths[(round + step) % paths.length]!;
      times[path].push(await time(work[path]));
    }
    if (round % CLI_EVERY === 0) times.cli.push(await time(cliCall));
  }
  await stdioClient.close();
  await inProcessClient.close();
  await store.close();
  const loadAfter = load();

  const stats = (values: number[]) => ({ p50: percentile(values, 50), p95: percentile(values, 95) });
  const library = stats(times.library);
  const cli = stats(times.cli);
  const overhead = (path: Path) => median(times[path].map((ms, round) => ms - times.library[round]!));
  // Whether this run could see the protocol at all: the paired overhead against the spread of the library call.
  const spread = library.p95 - library.p50;
  const resolved = Math.max(Math.abs(overhead('inProcess')), Math.abs(overhead('stdio'))) > spread / 10;
  const verdict = resolved
    ? `The stdio round trip costs ${fmt(overhead('stdio'), 2)} ms per call over the library (${fmt(stats(times.stdio).p50 / library.p50, 2)}× at p50).`
    : `On this run the protocol's cost is below what it can resolve: the paired overheads (${fmt(overhead('inProcess'), 2)} ms, ${fmt(overhead('stdio'), 2)} ms) are ` +
      `within a tenth of the search's own p50–p95 spread (${fmt(spread, 0)} ms), so MCP adds nothing measurable to a search of this size, ` +
      `while the CLI per call costs ${fmt(cli.p50 / library.p50, 2)}× the library.`;
  const row = (name: string, values: number[], extra: string) => {
    const t = stats(values);
    return `| ${name} | ${fmt(t.p50, 2)} ms | ${fmt(t.p95, 2)} ms | ${fmt(t.p50 / library.p50, 2)}× | ${extra} | ${fmt(t.p50 / cli.p50, 3)}× |`;
  };
  writeSection(
    '12-mcp',
    `## MCP server (issues 12 and 26)

Machine: ${machine()}; load average (1 / 5 / 15 min) ${loadBefore} at the start, ${loadAfter} at the end — 2 cores
shared with other work, so the absolute times are inflated; the ratios and the paired overhead are the numbers to read.

The same search — \`"${QUERY}"\`, 10 results, no fact box (the query names no kind) — on a 100 k-memory database
(agent with ~90 k memories). ${ROUNDS} rounds after ${WARMUP} warm-up rounds; each round calls the three in-session paths
in a rotating order, and every ${CLI_EVERY}th round also runs one CLI process (${times.cli.length} in all). Every call bumps
the hits' retrieval counters, as \`hippo search\` does.

| path | p50 | p95 | p50 vs library | overhead per call (median of paired differences) | p50 vs CLI per call |
|---|---|---|---|---|---|
${row('library: `searchWithFacts` (what the tool calls)', times.library, '—')}
${row('in-process `memory_search` tool call (SDK client ↔ server, in-memory transport)', times.inProcess, `${fmt(overhead('inProcess'), 2)} ms`)}
${row('stdio round trip to `hippo mcp` (SDK stdio client, built CLI)', times.stdio, `${fmt(overhead('stdio'), 2)} ms`)}
${row('without MCP: `hippo search --json` per call, a new process each', times.cli, '—')}

The protocol overhead is the difference to the library call: JSON-RPC framing, schema validation of the arguments,
the command's view and the text guard in-process; plus serialising, piping and parsing ~10 memories each way over
stdio (the stdio server is another process, searching the same file). Process start is paid once per MCP session, not
per call — which is what the last row pays every time: an agent shelling out to the CLI spends a whole process start
(module load, store open, schema check) on each search.

${verdict}

Issue 26's target (warm \`memory_search\` over MCP stdio within 1.2× of the library call): stdio p50 / library p50
**${fmt(stats(times.stdio).p50 / library.p50, 2)}×** in this run, the median of the paired differences ${fmt(overhead('stdio'), 2)} ms a call
(${fmt((100 * overhead('stdio')) / library.p50, 1)} % of the library's p50).`,
  );
}
