import Database from 'better-sqlite3';
import { buildDevSet } from '../bench/convo.js';
import { openStore } from '../src/core/store/store.js';
import { buildMemory } from '../src/core/memory.js';
import { search } from '../src/core/search.js';
import { queryTerms } from '../src/core/search-terms.js';

const set = buildDevSet({ seed: Number(process.env.SEED ?? 18) });
const memories = set.dialogues.flatMap((d) => d.memories);
console.log('dialogues', set.dialogues.length, 'memories', memories.length, 'questions', set.questions.length,
  'kinds', JSON.stringify(set.questions.reduce((a, q) => ((a[q.kind] = (a[q.kind] ?? 0) + 1), a), {} as Record<string, number>)));
function score(ranked: string[][]): { r5: number; r10: number; mrr: number } {
  let r5 = 0, r10 = 0, mrr = 0;
  set.questions.forEach((q, i) => {
    const list = ranked[i]!;
    const hit = (k: number) => q.evidence.filter((id) => list.slice(0, k).includes(id)).length / q.evidence.length;
    r5 += hit(5); r10 += hit(10);
    const first = list.findIndex((id) => q.evidence.includes(id));
    if (first >= 0) mrr += 1 / (first + 1);
  });
  const n = set.questions.length;
  const kinds: Record<string, string> = {};
  for (const kind of ['direct', 'context', 'date']) {
    let k10 = 0, kn = 0;
    set.questions.forEach((q, i) => { if (q.kind !== kind) return; kn++; k10 += q.evidence.filter((id) => ranked[i]!.slice(0, 10).includes(id)).length / q.evidence.length; });
    kinds[kind] = (k10 / kn).toFixed(3);
  }
  return { r5: +(r5 / n).toFixed(3), r10: +(r10 / n).toFixed(3), mrr: +(mrr / n).toFixed(3), ...kinds } as never;
}

// plain BM25 and today's, emulated
const db = new Database(':memory:');
db.exec(`CREATE TABLE m (rowid INTEGER PRIMARY KEY, id TEXT, agent_id TEXT, content TEXT, tags TEXT, subject TEXT);
CREATE VIRTUAL TABLE plain USING fts5(content, agent_id UNINDEXED, tokenize='porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE today USING fts5(content, tags, subject, agent_id, content='m', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2');`);
const ins = db.prepare('INSERT INTO m (id, agent_id, content, tags, subject) VALUES (?, ?, ?, ?, NULL)');
for (const m of memories) ins.run(m.id, m.agentId, m.content, JSON.stringify(m.tags));
db.exec(`INSERT INTO plain (rowid, content, agent_id) SELECT rowid, content, agent_id FROM m; INSERT INTO today(today) VALUES('rebuild');`);
const words = (t: string) => [...new Set((t.normalize('NFKC').match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).map((w) => w.toLowerCase()))];
// overlap: does the evidence turn (or any turn within ±2 in its session) match any stemmed, non-stopword query term?
const byId = new Map(memories.map((m) => [m.id, m]));
const rowOf = new Map(memories.map((m, i) => [m.id, i + 1]));
const matchesRow = db.prepare('SELECT count(*) FROM plain WHERE plain MATCH ? AND rowid = ?').pluck();
let zero = 0, zeroNear = 0;
for (const q of set.questions) {
  const expr = queryTerms(q.question).map((w) => `"${w}"`).join(' OR ');
  const hit = (id: string) => (matchesRow.get(expr, BigInt(rowOf.get(id)!)) as number) > 0;
  if (q.evidence.some(hit)) continue;
  zero++;
  const d = set.dialogues.find((x) => x.agentId === q.agentId)!;
  const near = q.evidence.flatMap((id) => { const i = d.memories.findIndex((m) => m.id === id); const th = d.memories[i]!.thread; return d.memories.slice(Math.max(0, i - 2), i + 3).filter((m) => m.thread === th).map((m) => m.id); });
  if (!near.some(hit)) zeroNear++;
}
console.log('questions sharing no (stemmed, non-stopword) term with their evidence:', zero, (zero / set.questions.length).toFixed(3), '; also none within ±2:', zeroNear, (zeroNear / set.questions.length).toFixed(3));
const plainQ = db.prepare(`SELECT m.id FROM plain JOIN m ON m.rowid = plain.rowid WHERE plain MATCH ? AND plain.agent_id = ? ORDER BY bm25(plain) LIMIT 10`);
const todayQ = db.prepare(`SELECT m.id FROM today CROSS JOIN m ON m.rowid = today.rowid WHERE today MATCH ? AND m.agent_id = ? ORDER BY -bm25(today, 1.0, 0.5, 0.75, 0.0) DESC LIMIT 10`);
console.log('plain BM25', JSON.stringify(score(set.questions.map((q) => plainQ.all(words(q.question).map((w) => `"${w}"`).join(' OR '), q.agentId).map((r: any) => r.id)))));
console.log('today     ', JSON.stringify(score(set.questions.map((q) => todayQ.all(`agent_id : "${q.agentId.match(/[\p{L}\p{N}\p{M}]+/gu)!.join(' ')}" AND (${queryTerms(q.question).map((w) => `"${w}"`).join(' OR ')})`, q.agentId).map((r: any) => r.id)))));

let store: any;
if (process.env.ENGINE === 'postgres') {
  const { readFileSync } = await import('node:fs');
  const pg = (await import('pg')).default;
  const { openPostgresStore } = await import('../src/core/store/postgres/adapter.js');
  const { parsePostgresUrl } = await import('../src/core/store/postgres/connect.js');
  const { url } = JSON.parse(readFileSync('scratch/pg.json', 'utf8'));
  const admin = new pg.Client(url); await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS evaldb'); await admin.query('CREATE DATABASE evaldb'); await admin.end();
  store = await openPostgresStore(parsePostgresUrl(url.replace(/\/scratch$/, '/evaldb'), {}), {});
} else store = await openStore({ path: ':memory:' });
await store.memories.insertMany(memories.map((m) => buildMemory({ ...m }, new Date())));
const variants: [string, any][] = JSON.parse(process.env.VARIANTS ?? '[]');
if (variants.length === 0) variants.push(['no context, no date', { contextBefore: 0, contextAfter: 0, date: 0 }], ['context .3/.3', { contextBefore: 0.3, contextAfter: 0.3, date: 0 }], ['context .3/.2', { contextBefore: 0.3, contextAfter: 0.2, date: 0 }], ['final', {}]);
for (const [name, weights] of variants) {
  const ranked: string[][] = [];
  for (const q of set.questions) ranked.push((await search(store, { agentId: q.agentId, query: q.question, limit: 10, recordRetrieval: false, weights })).map((r) => r.memory.id));
  console.log(name.padEnd(20), JSON.stringify(score(ranked)));
}
if (process.env.SHOW) {
  for (const q of set.questions.slice(0, Number(process.env.SHOW))) {
    const hits = (await search(store, { agentId: q.agentId, query: q.question, limit: 10, recordRetrieval: false })).map((r) => r.memory.id);
    console.log(q.kind, q.question, '→', q.evidence.map((id) => byId.get(id)!.content).join(' | '), 'rank', hits.findIndex((id) => q.evidence.includes(id)) + 1);
  }
}
if (process.env.DEBUG) {
  for (const q of set.questions.slice(0, 8)) {
    const expr = queryTerms(q.question).map((w) => `"${w}"`).join(' OR ');
    console.log(q.question, expr, q.evidence.map((id) => [byId.get(id)!.content, matchesRow.get(expr, BigInt(rowOf.get(id)!))]));
  }
}
if (process.env.ZERO) {
  const seen = new Set<string>();
  for (const q of set.questions) {
    const expr = queryTerms(q.question).map((w) => `"${w}"`).join(' OR ');
    const hit = (id: string) => (matchesRow.get(expr, BigInt(rowOf.get(id)!)) as number) > 0;
    if (q.evidence.some(hit)) continue;
    const d = set.dialogues.find((x) => x.agentId === q.agentId)!;
    const near = q.evidence.flatMap((id) => { const i = d.memories.findIndex((m) => m.id === id); const th = d.memories[i]!.thread; return d.memories.slice(Math.max(0, i - 2), i + 3).filter((m) => m.thread === th).map((m) => m.id); });
    const tag = near.some(hit) ? 'NEAR' : 'NONE';
    const key = q.question.replace(/[A-Z]\w+/g, 'X').slice(0, 30) + tag;
    if (seen.has(key)) continue; seen.add(key);
    console.log(tag, q.kind, '|', q.question, '|', q.evidence.map((id) => byId.get(id)!.content).join(' / '));
  }
}

await store.close();
