/**
 * Every port operation, on one agent and (where the port has one) over every agent, on a store populated with several
 * agents: the workload of the statement catalogues (test/core/store/postgres/catalogue.test.ts routes each PostgreSQL
 * statement to one partition; test/core/store/sqlite/plans.test.ts checks each SQLite statement's plan). Engine-neutral:
 * it speaks only the port.
 */
import { newId } from '../../src/core/ids.js';
import { forgetRewriter } from '../../src/core/memory/forget.js';
import type { Memory } from '../../src/core/records.js';
import type { Store, TokenRecord } from '../../src/core/store/port.js';
import { at, candidate, collect, handoff, memory, run } from './postgres-store.js';
import { runRow } from './rows.js';

export const AGENTS = Array.from({ length: 6 }, (_, index) => `agent-${index}`);

/** Runs every port operation on `store` (`other`: a second, empty store rows are loaded into). */
export async function workload(store: Store, other: Store): Promise<void> {
  const me = 'agent-3';
  // Populated: every agent holds memories (some threaded, tagged, of the demo's source), candidates, runs, handoffs.
  for (const agentId of AGENTS) {
    const memories: Memory[] = [];
    for (let n = 0; n < 150; n++) {
      memories.push(
        memory(agentId, `note ${n} of ${agentId} about billing cron and deploys ${n % 7}`, {
          createdAt: at(-n * 60),
          tags: n % 3 === 0 ? ['deploy'] : [],
          thread: n % 5 === 0 ? 'chat' : null,
          source: n % 11 === 0 ? 'demo' : 'cli',
          durability: n % 13 === 0 ? 'ephemeral' : 'standard',
        }),
      );
    }
    await store.memories.insertMany(memories);
    for (let n = 0; n < 5; n++) await store.candidates.insert(candidate(agentId, `claim ${n} of ${agentId}`));
    await store.runs.insert(runRow(agentId, at(-10), { status: 'completed' }));
    await store.handoffs.insert(handoff(agentId));
  }
  await store.runs.insert(runRow(null, at(-20), { kind: 'rem nightly run-once', status: 'completed' }));

  // memories
  const one = memory(me, 'the billing cron moved to 02:30 UTC', { thread: 'chat', createdAt: at(5) });
  await store.memories.insert(one);
  await store.memories.insert(memory(me, 'an unthreaded note on deploys'));
  await store.memories.get(me, one.id);
  await store.memories.getMany(me, [one.id, 'mem_missing']);
  await store.memories.existingIds([one.id]);
  await store.memories.idsWithHash(me, one.contentHash, one.id);
  await store.memories.existingHashes(me, [one.contentHash]);
  await store.memories.list({ agentId: me, limit: 10 });
  await store.memories.list({ agentId: me, tag: 'deploy', since: at(-600), durability: 'standard', includeArchived: true, limit: 10 });
  await store.memories.list({ agentId: me, thread: 'chat', limit: 10 });
  await collect(store.memories.iterate(me));
  await collect(store.memories.iterate());
  const listed = await store.memories.list({ agentId: me, thread: 'chat', limit: 4 });
  await store.memories.archive(me, [listed[1]!.id], 'test', at(6));
  await store.memories.unarchive(me, [listed[1]!.id], at(7));
  await store.memories.refreshContext(me, { ids: [listed[2]!.id], threads: ['chat'] });
  await store.memories.setThread(me, [listed[2]!.id], null, at(7));
  await store.memories.setThread(me, [listed[2]!.id], 'chat', at(7));
  await store.memories.list({ agentId: me, source: 'cli', includeArchived: true, limit: 10 });
  await store.memories.update({ ...one, content: 'the billing cron moved to 03:00 UTC', updatedAt: at(8) });
  await store.memories.versions(me, one.id);
  await store.memories.stampReflected(me, [one.id], at(9));
  await store.tryTransaction((tx) => tx.memories.recordRetrieval(me, [one.id], at(9)));
  for (const scope of ['recent', 'tagged', 'all'] as const) {
    await store.memories.gather({ agentId: me, now: at(10), scope, since: at(-600), tag: 'deploy', unreflected: true, limit: 20 });
  }
  await store.memories.agentsWithNew(at(10), at(-600));
  await store.memories.agentCounts();
  await store.memories.agentCounts({ source: 'demo' });
  const base = { agentId: me, now: at(10), limit: 10, highlight: { open: '[', close: ']' } };
  await store.memories.search({ ...base, text: 'billing cron', raw: false });
  await store.memories.search({
    ...base,
    text: store.engine === 'sqlite' ? 'billing AND cron' : 'billing & cron',
    raw: true,
    tag: 'deploy',
    since: at(-600),
    durability: 'standard',
  });
  await store.memories.search({ ...base, text: 'deploys', raw: false, includeArchived: true });
  const cutoffs = { now: at(10), youth: at(-60), ephemeralCutoff: at(-120), unusedCutoff: at(-240) };
  await store.memories.planMaintenance(cutoffs);
  await store.memories.applyMaintenance(cutoffs, { expired: 'expired', archivedEphemeral: 'ephemeral', archivedUnused: 'unused' });
  await store.memories.optimizeSearchIndex();
  await store.memories.demoCounts('demo');
  await store.memories.deleteBySource('demo', [me]);
  // A batch joining a stored thread at its end (an import's next chunk): its context from the thread's last memories.
  await store.memories.insertMany([memory(me, 'a later note in the chat', { thread: 'chat', createdAt: at(10) })]);
  // A hit found only through its context: its neighbour that holds the words is looked up.
  await store.memories.insertMany([
    memory(me, 'the quokka escaped the enclosure', { thread: 'zoo', createdAt: at(1) }),
    memory(me, 'keepers were told at noon', { thread: 'zoo', createdAt: at(2) }),
  ]);
  await store.memories.search({ ...base, text: 'quokka', raw: false });
  await store.memories.search({ ...base, text: 'quokka', raw: true });
  const doomed = memory(me, 'a note to forget', { thread: 'chat', createdAt: at(11) });
  await store.memories.insert(doomed);
  await store.memories.forget(me, [doomed.id]);

  // candidates
  const claim = candidate(me, 'deploys happen on Tuesdays');
  await store.candidates.insert(claim);
  await store.candidates.get(me, claim.id);
  await store.candidates.prompt(me, claim.id);
  await store.candidates.list({ agentId: me, status: 'pending', limit: 10 });
  await store.candidates.list({ agentId: me, status: 'all', limit: 10 });
  await store.candidates.claimStatus(me, claim.claimNorm);
  await store.candidates.decide(me, claim.id, { status: 'rejected', reviewer: 'ana', rationale: 'no', decidedAt: at(12) });
  await store.candidates.reopen(me, claim.id, { by: 'ana', reason: 'again', at: at(13) });
  await store.candidates.pendingCounts();
  // what the next distillation learns from: rejections and edits, all or of one claim
  await store.candidates.decided(me, { kind: 'rejected', limit: 5 });
  await store.candidates.decided(me, { kind: 'edited', limit: 5, claimNorm: claim.claimNorm });

  // runs: an agent's and one over every agent
  const mine = run({ agentId: me });
  const night = runRow(null, at(14), { kind: 'rem nightly run-once' });
  const child = runRow(me, at(14), { kind: 'rem nightly run-once', parentRunId: night.id });
  for (const each of [mine, night, child]) await store.runs.insert(each);
  await store.runs.setSnapshotPath(mine.id, '/tmp/x', me);
  await store.runs.setSnapshotPath(night.id, '/tmp/y', null);
  await store.runs.setSnapshotPath(mine.id, '/tmp/z');
  await store.runs.get(mine.id, me);
  await store.runs.get(mine.id);
  await store.runs.get(night.id);
  await store.runs.list({ limit: 10, agentId: me });
  await store.runs.list({ limit: 10 });
  await store.runs.kindOf(mine.id);
  await store.runs.finish({ ...mine, status: 'completed', finishedAt: at(15) });
  await store.runs.interruptAbandoned(night.id, at(16));
  await store.runs.finish({ ...night, status: 'completed', finishedAt: at(15) });
  await store.runs.prune(at(-100000), { dryRun: true });
  await store.runs.prune(at(-100000));

  // handoffs
  const offer = handoff(me);
  await store.handoffs.insert(offer);
  await store.handoffs.get(me, offer.id);
  await store.handoffs.markIngested(me, offer.id, at(17), mine.id);

  // settings and tokens (store-wide)
  await store.settings.setIfAbsent('k', 'v');
  await store.settings.set('k', 'w');
  await store.settings.get('k');
  await store.settings.delete('k', 'w');
  const token: TokenRecord = { id: newId('tok'), agentId: me, label: null, tokenHash: 'a'.repeat(64), createdAt: at(0), revokedAt: null };
  await store.tokens.insert(token);
  await store.tokens.findByHash(token.tokenHash);
  await store.tokens.get(token.id);
  await store.tokens.list(me);
  await store.tokens.list();
  await store.tokens.revoke(token.id, at(18));

  // whole tables: one agent's and every agent's (db copy, restore)
  for (const table of ['memories', 'candidates', 'runs', 'handoffs', 'settings'] as const) {
    for (const scope of [me, null]) {
      await store.rows.count(table, scope);
      const rows = await collect(store.rows.dump(table, scope));
      if (scope !== null) await other.rows.load(table, rows);
    }
  }
  // every memory thread by thread (db copy)
  await collect(store.rows.dumpByThread());
  await other.rows.deleteAll('handoffs', me);
  await other.rows.deleteAll('handoffs', null);

  // the counts of the lists that say what they hide (issue 30): one agent's, and `rem runs --all-agents`
  await store.memories.count({ agentId: me, tag: 'deploy', includeArchived: true });
  await store.memories.searchWithTotal({ ...base, text: 'billing cron', raw: false, limit: 1 });
  await store.candidates.count({ agentId: me, status: 'all' });
  await store.candidates.count({ agentId: me, status: 'pending' });
  await store.runs.count({ agentId: me });
  await store.runs.count({});

  // an import line's promotedFrom: whose candidate it names
  await store.candidates.agentsOf([newId('cand')]);

  // governance (issue 29): the read audit and forget receipts
  for (const agentId of AGENTS) {
    await store.audit.insert({
      agentId,
      id: newId('read'),
      at: at(20),
      channel: 'mcp-stdio',
      client: 'probe 1.0',
      tokenId: null,
      operation: 'memory_search',
      memoryIds: [doomed.id],
      queryHash: null,
    });
  }
  await store.audit.list({ agentId: me, limit: 10 });
  await store.audit.list({ agentId: me, memoryId: doomed.id, client: 'probe 1.0', since: at(0), limit: 10 });
  await store.audit.removeMemoryIds(me, [doomed.id]);
  await store.audit.cap(me, 1);
  await store.audit.prune(at(-1000), { dryRun: true });
  await store.audit.prune(at(-1000));
  const receiptId = newId('rcpt');
  await store.receipts.insert({ agentId: me, id: receiptId, createdAt: at(21), runId: newId('run'), memoryIds: [doomed.id], receipt: { probe: true } });
  await store.receipts.update(me, receiptId, { probe: false });
  await store.receipts.get(me, receiptId);
  await store.receipts.forgottenAmong(me, [doomed.id]);
  await store.receipts.derivedFrom(me, [doomed.id]);

  // erasure, lock, snapshots, describe, reclaim, a bulk load's housekeeping
  const secret = memory(me, 'a secret to erase', { thread: 'chat', createdAt: at(19) });
  await store.memories.insert(secret);
  await store.erasure.contextsHolding(me, ['secret to erase']);
  await store.transaction((tx) => tx.erasure.erase({ agentId: me, memoryIds: [secret.id], match: 'secret' }, forgetRewriter(undefined), { dryRun: true }));
  await store.transaction((tx) => tx.erasure.erase({ agentId: me, memoryIds: [secret.id], match: 'secret' }, forgetRewriter(undefined)));
  const held = await store.lock.acquire({ runId: night.id, kind: 'rem nightly run-once' });
  await store.lock.holder();
  const taken = await store.snapshots.take(`20261102T120000Z-${newId('run')}${store.snapshots.suffix}`, {});
  await held.release();
  const source = await store.snapshots.open(taken.path);
  for (const table of ['memories', 'candidates', 'handoffs'] as const) {
    await source.compare(store, table, me);
    await store.transaction((tx) => source.replace(tx, table, me));
    await source.matches(store, table, me);
  }
  await source.close();
  await store.describe();
  await store.reclaim();
  await store.settleLoad([me]);
  await store.settleLoad(null);
}
