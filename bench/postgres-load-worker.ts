// One process of the PostgreSQL load test (bench/postgres.ts): for `ms` milliseconds it alternates adding a memory
// and searching, through the public library API, and prints one JSON line: counts, latencies, error codes.
import { addMemory, openStore, search } from 'hippo';

const [url, worker, ms] = process.argv.slice(2);
if (!url || worker === undefined || !ms) {
  console.error('usage: postgres-load-worker URL WORKER MS');
  process.exit(2);
}
const store = await openStore({ url });
const queries = ['deploy failed migration lock', 'billing cron', 'customer escalated', 'latency spiked because of clock skew'];
const latencies: number[] = [];
const errors: string[] = [];
let adds = 0;
let searches = 0;
const end = Date.now() + Number(ms);
for (let index = 0; Date.now() < end; index++) {
  const start = process.hrtime.bigint();
  try {
    if (index % 2 === 0) {
      await addMemory(store, {
        agentId: 'load',
        content: `Worker ${worker} note ${index}: the billing cron moved and the deploy failed again.`,
        tags: [`w${worker}`],
      });
      adds++;
    } else {
      await search(store, { agentId: 'load', query: queries[index % queries.length]!, limit: 10, recordRetrieval: true });
      searches++;
    }
  } catch (error) {
    errors.push((error as { code?: string }).code ?? (error as Error).name);
  }
  latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
}
await store.close();
console.log(JSON.stringify({ worker: Number(worker), adds, searches, errors, latencies }));
