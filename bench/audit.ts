// Issue 29 benchmark: what the read audit costs a warm `memory_search` over MCP. Two in-process servers on the same
// store (the SDK's Client and hippo's server linked by the in-memory transport), one recording reads (as `hippo mcp`
// always does) and one with the audit off (a library option only benchmarks use), called in alternating order each
// round so load from elsewhere falls on both alike. Two times per call: until the answer (what a client waits for;
// the record is written after it), and until the server is idle again (the answer plus the audit write).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openStore } from 'hippo';
import { createHippoServer } from 'hippo/mcp';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { corpus, importCorpus } from './foundation.js';
import { DATA, fmt, machine, median, writeSection } from './lib.js';

const SIZE = 10_000;
const QUERY = 'deploy failed because of a migration lock';
const ROUNDS = 300;
const WARMUP = 30;

const percentile = (values: readonly number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');

export async function run(): Promise<void> {
  let db = join(DATA, `hippo-${SIZE}.db`);
  if (!existsSync(db)) db = importCorpus(await corpus(SIZE), SIZE).db;
  const loadBefore = load();
  const store = await openStore({ path: db });
  const noModel = async () => undefined;
  const connect = async (audit: boolean) => {
    const hippo = createHippoServer({ store, agentId: 'bench', allowReview: false, version: 'bench', model: noModel, audit });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await hippo.server.connect(serverSide);
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(clientSide);
    return { hippo, client };
  };
  const sides = { on: await connect(true), off: await connect(false) };
  const args = { query: QUERY, limit: 10 };
  const times = { on: [] as number[], off: [] as number[], onIdle: [] as number[], offIdle: [] as number[] };
  const once = async (side: 'on' | 'off', record: boolean) => {
    const start = performance.now();
    const result = await sides[side].client.callTool({ name: 'memory_search', arguments: args });
    const answered = performance.now() - start;
    await sides[side].hippo.idle();
    const idle = performance.now() - start;
    if ((result.structuredContent as { results: unknown[] }).results.length !== 10) throw new Error('expected 10 results');
    if (record) {
      times[side].push(answered);
      times[side === 'on' ? 'onIdle' : 'offIdle'].push(idle);
    }
  };
  for (let round = 0; round < WARMUP; round++) for (const side of ['on', 'off'] as const) await once(side, false);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
    for (const side of order) await once(side, true);
  }
  const recorded = (await store.audit.list({ agentId: 'bench', limit: 1_000_000 })).length;
  await sides.on.client.close();
  await sides.off.client.close();
  await store.close();
  const loadAfter = load();

  const p50 = (values: number[]) => percentile(values, 50);
  const p95 = (values: number[]) => percentile(values, 95);
  const paired = (a: number[], b: number[]) => median(a.map((ms, round) => ms - b[round]!));
  const rows = [
    ['until the answer', times.on, times.off],
    ['until the server is idle (answer + audit write)', times.onIdle, times.offIdle],
  ] as const;
  writeSection(
    'audit',
    `
## Read audit (issue 29)

Machine: ${machine()}; load average (1 / 5 / 15 min) ${loadBefore} at the start, ${loadAfter} at the end.

Warm \`memory_search\` ("${QUERY}", 10 results, no fact box) over MCP in-process (SDK client ↔ server, in-memory
transport) on a ${SIZE.toLocaleString('en')}-memory store, ${ROUNDS} rounds after ${WARMUP} warm-up rounds, the two servers called in
alternating order. Audit on: ${recorded} records written for the bench agent (warm-up included).

| time per call | audit on p50 | audit off p50 | ratio on/off (p50) | p95 on / off | median paired difference |
|---|---|---|---|---|---|
${rows
  .map(
    ([label, on, off]) =>
      `| ${label} | ${fmt(p50([...on]))} ms | ${fmt(p50([...off]))} ms | ${(p50([...on]) / p50([...off])).toFixed(3)}× | ${fmt(p95([...on]))} / ${fmt(p95([...off]))} ms | ${fmt(paired([...on], [...off]))} ms |`,
  )
  .join('\n')}

The record is written after the answer is handed back (the next turn of the event loop, best effort), so the first row
is what a client waits for; the second adds the write itself (one small INSERT in its own transaction).
`,
  );
}
