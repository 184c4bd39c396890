/**
 * The PostgreSQL adapter, facet by facet, against a real server (a fresh database per file): memories, search,
 * gather, maintenance, candidates, runs, handoffs, settings, whole tables, and agent isolation.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode, StoreUnavailableError, UsageError } from '../../../../src/core/errors.js';
import { newId } from '../../../../src/core/ids.js';
import { openPostgresStore } from '../../../../src/core/store/postgres/adapter.js';
import { parsePostgresUrl } from '../../../../src/core/store/postgres/connect.js';
import { POSTGRES_SCHEMA_VERSION } from '../../../../src/core/store/postgres/schema.js';
import type { MaintenanceCutoffs, Store } from '../../../../src/core/store/port.js';
import { STORE_TABLES } from '../../../../src/core/store/port.js';
import { freePort, freshDatabase, withClient } from '../../../helpers/postgres.js';
import { at, candidate, collect, handoff, memory, openAdapterStore, rejection, run, T0, type AdapterStore } from '../../../helpers/postgres-store.js';

let t: AdapterStore;
let store: Store;
beforeAll(async () => {
  t = await openAdapterStore();
  store = t.store;
});
afterAll(async () => {
  await t.dispose();
});

/** Empties every table between tests (the schema stays). */
async function clear(): Promise<void> {
  await withClient(t.database.url, (client) => client.query(`TRUNCATE ${[...STORE_TABLES, 'store_runs'].join(', ')}`));
}

const highlight = { open: '<<', close: '>>' };

describe('opening a PostgreSQL store', () => {
  it('migrates a fresh database and describes itself without the password', async () => {
    const description = await store.describe();
    expect(description).toMatchObject({ engine: 'postgres', schemaVersion: POSTGRES_SCHEMA_VERSION });
    expect(description.engineVersion).toMatch(/^\d+/);
    expect(Object.keys(description.counts).sort()).toEqual([...STORE_TABLES].sort());
    expect(store.engine).toBe('postgres');
    const password = new URL(t.database.url).password;
    expect(store.location).toContain(t.database.name);
    expect(store.location).not.toContain(password);
    expect(JSON.stringify(description)).not.toContain(password);
  });

  it('refuses a database holding tables that are not hippo’s, and changes nothing (exit 2)', async () => {
    const foreign = await freshDatabase();
    try {
      await withClient(foreign.url, (client) => client.query('CREATE TABLE invoices (id int PRIMARY KEY)'));
      const error = await rejection(openPostgresStore(parsePostgresUrl(foreign.url, {}), { env: {} }));
      expect(error).toBeInstanceOf(UsageError);
      expect(error.code).toBe('not_a_hippo_database');
      const tables = await withClient(foreign.url, (client) =>
        client.query<{ relname: string }>("SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'"),
      );
      expect(tables.rows.map((row) => row.relname)).toEqual(['invoices']);
    } finally {
      await foreign.drop();
    }
  });

  it('a command that only reads finds no store in an empty database (exit 3) and creates nothing there', async () => {
    const empty = await freshDatabase();
    try {
      const error = await rejection(openPostgresStore(parsePostgresUrl(empty.url, {}), { env: {}, mustExist: true }));
      expect(error).toMatchObject({ code: 'store_not_found', exitCode: ExitCode.notFound });
      const objects = await withClient(empty.url, (client) =>
        client.query<{ relname: string }>("SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace"),
      );
      expect(objects.rows).toEqual([]);
    } finally {
      await empty.drop();
    }
  });

  it('refuses a store written by a newer hippo (exit 2), nothing touched', async () => {
    const newer = await freshDatabase();
    try {
      const first = await openPostgresStore(parsePostgresUrl(newer.url, {}), { env: {} });
      await first.close();
      await withClient(newer.url, (client) => client.query('UPDATE hippo_schema SET version = 99'));
      const error = await rejection(openPostgresStore(parsePostgresUrl(newer.url, {}), { env: {} }));
      expect(error.code).toBe('database_too_new');
      expect(error.exitCode).toBe(ExitCode.usage);
      const version = await withClient(newer.url, (client) => client.query<{ version: number }>('SELECT version FROM hippo_schema'));
      expect(version.rows[0]!.version).toBe(99);
    } finally {
      await newer.drop();
    }
  });

  it('maps a server that is not there to exit 8', async () => {
    const port = await freePort();
    const error = await rejection(openPostgresStore(parsePostgresUrl(`postgres://u:secret@127.0.0.1:${port}/x`, {}), { env: {} }));
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.exitCode).toBe(ExitCode.storeUnavailable);
    expect(error.message).not.toContain('secret');
  });
});

describe('memories', () => {
  beforeEach(clear);

  it('inserts once, reads back every field exactly, and skips an existing id', async () => {
    const full = memory('alice', 'Moved the billing cron to Kubernetes.\nTab\there, back\\slash, "quotes", émoji 🦛', {
      durability: 'ephemeral',
      tags: ['ops', 'billing, "quoted"', 'back\\slash'],
      subject: 'billing-cron',
      source: 'import',
      updatedAt: at(5),
      expiresAt: at(60 * 24),
      derivedFrom: [newId('mem')],
      promotedFrom: newId('cand'),
      lastReflectedAt: at(1),
      retrievalCount: 3,
      lastRetrievedAt: at(2),
    });
    expect(await store.memories.insert(full)).toBe(true);
    expect(await store.memories.insert({ ...full, content: 'another text' })).toBe(false);
    expect(await store.memories.get('alice', full.id)).toEqual(full);
    expect(await store.memories.get('bob', full.id)).toBeUndefined();
  });

  it('bulk-inserts with COPY, counting only new ids (existing and repeated ones skipped)', async () => {
    const first = Array.from({ length: 30 }, (_, index) => memory('alice', `note ${index} with a\ttab and a\nnewline`, { createdAt: at(index) }));
    expect(await store.memories.insertMany(first)).toBe(30);
    const again = [...first.slice(0, 10), memory('alice', 'fresh'), memory('alice', 'fresh too')];
    expect(await store.memories.insertMany([...again, again[10]!])).toBe(2);
    expect(await store.rows.count('memories', 'alice')).toBe(32);
    expect(await store.memories.get('alice', first[7]!.id)).toEqual(first[7]);
  });

  it('getMany keeps the order asked and leaves out missing and foreign ids', async () => {
    const [a, b, c] = [memory('alice', 'a'), memory('alice', 'b'), memory('bob', 'c')];
    await store.memories.insertMany([a, b, c]);
    expect((await store.memories.getMany('alice', [b.id, 'mem_missing', c.id, a.id])).map((m) => m.id)).toEqual([b.id, a.id]);
    expect(await store.memories.existingIds([a.id, c.id, 'mem_missing'])).toEqual(new Set([a.id, c.id]));
  });

  it('finds duplicates by content hash for one agent, oldest first', async () => {
    const older = memory('alice', 'same  text', { createdAt: at(-5) });
    const newer = memory('alice', 'same text', { createdAt: at(0) });
    const other = memory('bob', 'same text');
    await store.memories.insertMany([newer, older, other]);
    expect(await store.memories.idsWithHash('alice', newer.contentHash)).toEqual([older.id, newer.id]);
    expect(await store.memories.idsWithHash('alice', newer.contentHash, older.id)).toEqual([newer.id]);
  });

  it('lists newest first, archived left out unless asked (expired ones listed), by tag', async () => {
    const live = memory('alice', 'live', { createdAt: at(3), tags: ['ops'] });
    const old = memory('alice', 'old', { createdAt: at(-60), tags: ['ops'], durability: 'persistent' });
    const archived = memory('alice', 'archived', { createdAt: at(2), archivedAt: at(2), archivedReason: 'x', tags: ['ops'] });
    const expired = memory('alice', 'expired', { createdAt: at(1), expiresAt: at(5) });
    await store.memories.insertMany([live, old, archived, expired, memory('bob', 'bob')]);
    const contents = async (query: Partial<Parameters<Store['memories']['list']>[0]>) =>
      (await store.memories.list({ agentId: 'alice', limit: 10, ...query })).map((m) => m.content);
    expect(await contents({})).toEqual(['live', 'expired', 'old']);
    expect(await contents({ includeArchived: true })).toEqual(['live', 'archived', 'expired', 'old']);
    expect(await contents({ tag: 'ops' })).toEqual(['live', 'old']);
    expect(await contents({ tag: 'ops', includeArchived: true })).toEqual(['live', 'archived', 'old']);
    expect(await contents({ includeArchived: true, limit: 2 })).toEqual(['live', 'archived']);
    expect(await contents({ agentId: 'carol' })).toEqual([]);
  });

  it('says which content hashes an agent has (archived too)', async () => {
    const [a, b] = [memory('alice', 'a'), memory('alice', 'b', { archivedAt: at(1), archivedReason: 'x' })];
    await store.memories.insertMany([a, b, memory('bob', 'c')]);
    const bobs = memory('bob', 'c').contentHash;
    expect(await store.memories.existingHashes('alice', [a.contentHash, b.contentHash, bobs, 'f'.repeat(64)])).toEqual(new Set([a.contentHash, b.contentHash]));
    expect(await store.memories.existingHashes('alice', [])).toEqual(new Set());
  });

  it('iterates every memory oldest first, across cursor pages, for one agent or all', async () => {
    const rows = Array.from({ length: 2_300 }, (_, index) => memory(index % 3 === 0 ? 'bob' : 'alice', `m${index}`, { createdAt: at(-index) }));
    await store.memories.insertMany(rows);
    const alice = await collect(store.memories.iterate('alice'));
    expect(alice).toHaveLength(rows.filter((row) => row.agentId === 'alice').length);
    expect(alice.every((m) => m.agentId === 'alice')).toBe(true);
    const times = alice.map((m) => m.createdAt);
    expect(times).toEqual([...times].sort());
    expect(await collect(store.memories.iterate())).toHaveLength(2_300);
  });

  it('an abandoned iteration gives its connection back', async () => {
    await store.memories.insertMany(Array.from({ length: 2_500 }, (_, index) => memory('alice', `m${index}`)));
    for (let round = 0; round < 6; round++) {
      for await (const item of store.memories.iterate('alice')) {
        expect(item.agentId).toBe('alice');
        break;
      }
    }
    // The pool holds 4 connections: six abandoned walks that kept theirs would leave none for this.
    expect(await store.rows.count('memories', 'alice')).toBe(2_500);
  });

  it('archives live memories of the agent only, and reports what changed', async () => {
    const [a, b, done] = [memory('alice', 'a'), memory('bob', 'b'), memory('alice', 'done', { archivedAt: at(-1), archivedReason: 'earlier' })];
    await store.memories.insertMany([a, b, done]);
    expect(await store.memories.archive('alice', [done.id, a.id, b.id], 'by hand', at(9))).toEqual([a.id]);
    expect(await store.memories.get('alice', a.id)).toMatchObject({ archivedAt: at(9), archivedReason: 'by hand', updatedAt: at(9) });
    expect((await store.memories.get('bob', b.id))!.archivedAt).toBeNull();
    expect((await store.memories.get('alice', done.id))!.archivedReason).toBe('earlier');
  });

  it('stamps reflection and counts retrievals for the agent’s own rows only', async () => {
    const [a, b] = [memory('alice', 'a'), memory('bob', 'b')];
    await store.memories.insertMany([a, b]);
    await store.memories.stampReflected('alice', [a.id, b.id], at(3));
    await store.memories.recordRetrieval('alice', [a.id, b.id], at(4));
    await store.memories.recordRetrieval('alice', [a.id], at(5));
    expect(await store.memories.get('alice', a.id)).toMatchObject({ lastReflectedAt: at(3), retrievalCount: 2, lastRetrievedAt: at(5) });
    expect(await store.memories.get('bob', b.id)).toMatchObject({ lastReflectedAt: null, retrievalCount: 0, lastRetrievedAt: null });
  });

  it('counts per agent, counts demo rows, and deletes the demo’s rows of the named agents only', async () => {
    await store.memories.insertMany([
      memory('alice', 'a1', { source: 'demo', createdAt: at(1) }),
      memory('alice', 'a2', { archivedAt: at(2), archivedReason: 'x', createdAt: at(2) }),
      memory('bob', 'b1', { source: 'demo' }),
      memory('carol', 'c1', { source: 'demo' }),
    ]);
    expect(await store.memories.agentCounts()).toEqual([
      { agentId: 'alice', memories: 1, archived: 1, newest: at(2) },
      { agentId: 'bob', memories: 1, archived: 0, newest: T0 },
      { agentId: 'carol', memories: 1, archived: 0, newest: T0 },
    ]);
    expect(await store.memories.agentCounts({ source: 'demo' })).toEqual([
      { agentId: 'alice', memories: 1, archived: 0, newest: at(1) },
      { agentId: 'bob', memories: 1, archived: 0, newest: T0 },
      { agentId: 'carol', memories: 1, archived: 0, newest: T0 },
    ]);
    expect(await store.memories.demoCounts('demo')).toEqual({ total: 4, demo: 3 });
    expect(await store.memories.deleteBySource('demo', ['alice', 'bob'])).toBe(2);
    expect(await store.memories.demoCounts('demo')).toEqual({ total: 2, demo: 1 });
  });

  it('refuses text with a NUL character before the server sees it, writing nothing', async () => {
    const error = await rejection(store.memories.insert(memory('alice', 'bad\u0000text')));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.code).toBe('nul_in_text');
    expect(error.message).toContain('memories.content');
    const batch = [memory('alice', 'fine'), memory('alice', 'fine too', { tags: ['t\u0000'] })];
    expect((await rejection(store.memories.insertMany(batch))).code).toBe('nul_in_text');
    expect(await store.rows.count('memories', null)).toBe(0);
    expect((await rejection(store.settings.set('k', 'v\u0000'))).code).toBe('nul_in_text');
    expect((await rejection(store.candidates.insert(candidate('alice', 'claim', { prompt: 'p\u0000' })))).code).toBe('nul_in_text');
  });

  it('maps a constraint the server enforces (one the core keeps first) to exit 1, as SQLite does, not to a driver error', async () => {
    const error = await rejection(store.memories.insert(memory('alice', 'durable', { durability: 'permanent', expiresAt: at(5) })));
    expect(error.code).toBe('unexpected');
    expect(error.exitCode).toBe(ExitCode.unexpected);
    expect(error.details).toMatchObject({ sqlstate: '23514', table: 'memories' });
  });
});

describe('search', () => {
  beforeAll(async () => {
    await clear();
    await store.memories.insertMany([
      memory('alice', 'Friday deploy of billing-svc failed again: the migration lock was held', { createdAt: at(1), tags: ['ops'] }),
      memory('alice', 'Moved the billing cron to a Kubernetes CronJob', { createdAt: at(2) }),
      memory('alice', 'The deploy freeze starts Monday', { createdAt: at(3), durability: 'persistent' }),
      memory('alice', 'Old deploy note', { createdAt: at(-600), archivedAt: at(0), archivedReason: 'x' }),
      memory('alice', 'Expiring deploy note', { createdAt: at(4), expiresAt: at(5) }),
      memory('bob', 'Bob also had a failed deploy with a migration lock', { createdAt: at(1) }),
    ]);
  });

  const query = (text: string, extra: Partial<Parameters<Store['memories']['search']>[0]> = {}) =>
    store.memories.search({ agentId: 'alice', text, raw: false, limit: 10, highlight, now: at(10), ...extra });

  it('ORs the words of natural language, best match first, with highlighted snippets', async () => {
    const hits = await query('why did the deploy fail? migration lock');
    expect(hits.map((hit) => hit.memory.content)[0]).toMatch(/^Friday deploy/);
    expect(hits.map((hit) => hit.memory.content)).toContain('The deploy freeze starts Monday');
    expect(hits.every((hit) => hit.memory.agentId === 'alice')).toBe(true);
    expect(hits[0]!.snippet).toContain('<<deploy>>');
    expect(hits[0]!.score).toBeGreaterThan(hits[hits.length - 1]!.score);
  });

  it('leaves archived and expired memories out unless asked, and applies the filters', async () => {
    expect((await query('deploy')).map((hit) => hit.memory.content)).not.toContain('Old deploy note');
    expect((await query('deploy')).map((hit) => hit.memory.content)).not.toContain('Expiring deploy note');
    expect((await query('deploy', { includeArchived: true })).map((hit) => hit.memory.content)).toEqual(
      expect.arrayContaining(['Old deploy note', 'Expiring deploy note']),
    );
    expect((await query('deploy', { tag: 'ops' })).map((hit) => hit.memory.tags)).toEqual([['ops']]);
    expect((await query('deploy', { durability: 'persistent' })).map((hit) => hit.memory.content)).toEqual(['The deploy freeze starts Monday']);
    expect((await query('deploy', { since: at(2) })).map((hit) => hit.memory.content)).toEqual(['The deploy freeze starts Monday']);
    expect(await query('deploy', { limit: 1 })).toHaveLength(1);
  });

  it('takes PostgreSQL tsquery syntax raw, and a syntax error is exit 2', async () => {
    const hits = await query('deploy & !freeze', { raw: true });
    expect(hits.map((hit) => hit.memory.content)).toEqual([expect.stringMatching(/^Friday deploy/)]);
    const error = await rejection(query('deploy & (', { raw: true }));
    expect(error.code).toBe('fts_syntax');
    expect(error.exitCode).toBe(ExitCode.usage);
  });

  it('finds nothing for text without a term, and survives hostile text', async () => {
    expect(await query('?!')).toEqual([]);
    for (const text of [`'; DROP TABLE memories; --`, 'a & b | !c <-> (d) :*', 'nul\u0000inside deploy', 'x'.repeat(5_000)]) {
      expect(Array.isArray(await query(text))).toBe(true);
    }
    expect(await store.rows.count('memories', null)).toBe(6);
  });
});

describe('gather and agents with new memories', () => {
  beforeEach(clear);

  const base = { now: at(60), since: at(0), unreflected: false, limit: 10 };

  it('keeps to §4.1’s eligibility: not archived, expired, permanent or derived; scope; unreflected', async () => {
    await store.memories.insertMany([
      memory('alice', 'recent', { createdAt: at(5), tags: ['ops'] }),
      memory('alice', 'older', { createdAt: at(-5) }),
      memory('alice', 'archived', { createdAt: at(6), archivedAt: at(7), archivedReason: 'x' }),
      memory('alice', 'expired', { createdAt: at(6), expiresAt: at(30) }),
      memory('alice', 'permanent', { createdAt: at(6), durability: 'permanent' }),
      memory('alice', 'derived', { createdAt: at(6), derivedFrom: [newId('mem')] }),
      memory('alice', 'reflected', { createdAt: at(8), lastReflectedAt: at(9), tags: ['ops'] }),
      memory('bob', 'bob recent', { createdAt: at(5) }),
    ]);
    const contents = async (q: Partial<Parameters<Store['memories']['gather']>[0]>) => {
      const result = await store.memories.gather({ agentId: 'alice', scope: 'recent', ...base, ...q });
      return { eligible: result.eligible, contents: result.memories.map((m) => m.content) };
    };
    expect(await contents({})).toEqual({ eligible: 2, contents: ['reflected', 'recent'] });
    expect(await contents({ unreflected: true })).toEqual({ eligible: 1, contents: ['recent'] });
    expect(await contents({ scope: 'all' })).toEqual({ eligible: 3, contents: ['reflected', 'recent', 'older'] });
    expect(await contents({ scope: 'all', limit: 1 })).toEqual({ eligible: 3, contents: ['reflected'] });
    expect(await contents({ scope: 'tagged', tag: 'ops' })).toEqual({ eligible: 2, contents: ['reflected', 'recent'] });
  });

  it('names the agents with eligible, unreflected memories since the cut-off, in byte order', async () => {
    await store.memories.insertMany([
      memory('bob', 'new', { createdAt: at(5) }),
      memory('Zed', 'new', { createdAt: at(5) }),
      memory('alice', 'reflected', { createdAt: at(5), lastReflectedAt: at(6) }),
      memory('carol', 'too old', { createdAt: at(-5) }),
      memory('dave', 'permanent', { createdAt: at(5), durability: 'permanent' }),
      memory('erin', 'archived', { createdAt: at(5), archivedAt: at(6), archivedReason: 'x' }),
    ]);
    expect(await store.memories.agentsWithNew(at(60), at(0))).toEqual(['Zed', 'bob']);
  });
});

describe('maintenance', () => {
  beforeEach(clear);

  const DAY = 24 * 60;
  const now = at(400 * DAY);
  const cutoffs: MaintenanceCutoffs = { now, youth: at(393 * DAY), ephemeralCutoff: at(393 * DAY), unusedCutoff: at(220 * DAY) };
  const reasons = { expired: 'expired', archivedEphemeral: 'nightly: ephemeral', archivedUnused: 'nightly: unused' };

  it('plans and applies the rules of nightly/maintenance.ts in one statement', async () => {
    const rows = [
      memory('alice', 'expired', { createdAt: at(399 * DAY), expiresAt: at(399 * DAY + 1) }),
      memory('alice', 'ephemeral week old', { durability: 'ephemeral', createdAt: at(390 * DAY), expiresAt: at(500 * DAY) }),
      memory('alice', 'ephemeral young', { durability: 'ephemeral', createdAt: at(398 * DAY), expiresAt: at(500 * DAY) }),
      memory('bob', 'unused standard', { createdAt: at(100 * DAY), retrievalCount: 1, lastRetrievedAt: at(150 * DAY) }),
      memory('bob', 'used standard', { createdAt: at(100 * DAY), retrievalCount: 2, lastRetrievedAt: at(150 * DAY) }),
      memory('bob', 'recently used', { createdAt: at(100 * DAY), retrievalCount: 1, lastRetrievedAt: at(300 * DAY) }),
      memory('bob', 'persistent', { createdAt: at(100 * DAY), durability: 'persistent' }),
      memory('bob', 'already archived', { createdAt: at(100 * DAY), archivedAt: at(101 * DAY), archivedReason: 'x' }),
    ];
    await store.memories.insertMany(rows);
    const expected = {
      alice: { expired: 1, archivedEphemeral: 1, archivedUnused: 0 },
      bob: { expired: 0, archivedEphemeral: 0, archivedUnused: 1 },
    };
    expect(await store.memories.planMaintenance(cutoffs)).toEqual(expected);
    expect(await store.memories.applyMaintenance(cutoffs, reasons)).toEqual(expected);
    expect(await store.memories.planMaintenance(cutoffs)).toEqual({});
    expect(await store.memories.get('alice', rows[1]!.id)).toMatchObject({ archivedAt: now, archivedReason: 'nightly: ephemeral', updatedAt: now });
    expect(await store.memories.get('bob', rows[3]!.id)).toMatchObject({ archivedReason: 'nightly: unused' });
    expect(await store.memories.get('alice', rows[0]!.id)).toMatchObject({ archivedReason: 'expired' });
    expect(await store.memories.optimizeSearchIndex()).toBeGreaterThanOrEqual(1);
  });
});

describe('candidates', () => {
  beforeEach(clear);

  it('inserts, reads (the prompt apart), lists by status and knows a claim’s status', async () => {
    const pending = candidate('alice', 'Deploys need the lock released', { generatedAt: at(2) });
    const rejected = candidate('alice', 'Cron runs twice', { status: 'rejected', generatedAt: at(1), reviewer: 'ana', decidedAt: at(3) });
    await store.candidates.insert(pending);
    await store.candidates.insert(rejected);
    await store.candidates.insert(candidate('bob', 'Deploys need the lock released'));
    const { claimNorm: _norm, prompt: _prompt, ...publicPending } = pending;
    expect(await store.candidates.get('alice', pending.id)).toEqual(publicPending);
    expect(await store.candidates.get('bob', pending.id)).toBeUndefined();
    expect(await store.candidates.prompt('alice', pending.id)).toBe(pending.prompt);
    expect(await store.candidates.prompt('bob', pending.id)).toBeUndefined();
    expect((await store.candidates.list({ agentId: 'alice', status: 'all', limit: 10 })).map((c) => c.id)).toEqual([pending.id, rejected.id]);
    expect((await store.candidates.list({ agentId: 'alice', status: 'rejected', limit: 10 })).map((c) => c.id)).toEqual([rejected.id]);
    expect(await store.candidates.claimStatus('alice', pending.claimNorm)).toEqual({ live: true, rejected: false });
    expect(await store.candidates.claimStatus('alice', 'Cron runs twice')).toEqual({ live: false, rejected: true });
    expect(await store.candidates.claimStatus('carol', 'Cron runs twice')).toEqual({ live: false, rejected: false });
    expect((await rejection(store.candidates.insert(pending))).exitCode).toBe(ExitCode.unexpected);
  });

  it('decides a pending candidate once; a second decision and another agent’s change nothing', async () => {
    const c = candidate('alice', 'claim');
    await store.candidates.insert(c);
    const decision = {
      status: 'promoted' as const,
      reviewer: 'ana',
      rationale: 'true',
      decidedAt: at(5),
      promotedMemoryId: newId('mem'),
      editedClaim: 'edited',
    };
    expect(await store.candidates.decide('bob', c.id, decision)).toBe(false);
    expect(await store.candidates.decide('alice', c.id, decision)).toBe(true);
    expect(await store.candidates.decide('alice', c.id, { ...decision, status: 'rejected' })).toBe(false);
    expect(await store.candidates.get('alice', c.id)).toMatchObject({
      status: 'promoted',
      reviewer: 'ana',
      reviewRationale: 'true',
      decidedAt: at(5),
      promotedMemoryId: decision.promotedMemoryId,
      editedClaim: 'edited',
      claim: 'claim',
    });
  });

  it('two reviewers deciding one candidate at once (two pools): exactly one wins', async () => {
    const other = await t.reopen();
    for (let round = 0; round < 5; round++) {
      const c = candidate('alice', `claim ${round}`);
      await store.candidates.insert(c);
      const decide = (s: Store, status: 'promoted' | 'rejected') =>
        s.candidates.decide('alice', c.id, { status, reviewer: status, rationale: '', decidedAt: at(round) });
      const outcomes = await Promise.all([decide(store, 'promoted'), decide(other, 'rejected')]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const decided = await store.candidates.get('alice', c.id);
      expect(decided!.status).toBe(outcomes[0] ? 'promoted' : 'rejected');
    }
  });
});

describe('runs', () => {
  beforeEach(clear);

  it('inserts, finishes only while running, lists with the store-wide rows, and interrupts abandoned ones', async () => {
    const night = run({ kind: 'rem nightly run-once', agentId: null, startedAt: at(0) });
    const child = run({ kind: 'rem nightly run-once', agentId: 'alice', parentRunId: night.id, startedAt: at(1) });
    const bobs = run({ agentId: 'bob', startedAt: at(2) });
    for (const row of [night, child, bobs]) await store.runs.insert(row);
    expect(await store.runs.get(night.id)).toEqual(night);
    expect(await store.runs.get(child.id, 'alice')).toEqual(child);
    expect(await store.runs.get(bobs.id, 'alice')).toBeUndefined();
    expect(await store.runs.get(night.id, 'alice')).toEqual(night);
    expect(await store.runs.kindOf(night.id)).toBe('rem nightly run-once');
    expect((await store.runs.list({ limit: 10, agentId: 'alice' })).map((r) => r.id)).toEqual([child.id, night.id]);
    expect((await store.runs.list({ limit: 2 })).map((r) => r.id)).toEqual([bobs.id, child.id]);

    const finished = {
      ...bobs,
      status: 'completed' as const,
      finishedAt: at(3),
      counts: { staged: 2, gathered: 10 },
      candidateIds: ['cand_1'],
      durationMs: 60_000,
      steps: { b: 'x', a: 'y' },
      errors: ['e'],
    };
    expect(await store.runs.finish(finished)).toBe(true);
    expect(await store.runs.finish({ ...finished, status: 'failed' })).toBe(false);
    const read = await store.runs.get(bobs.id);
    expect(read).toEqual(finished);
    expect(JSON.stringify(read!.steps)).toBe('{"b":"x","a":"y"}');
    await store.runs.setSnapshotPath(bobs.id, '/snapshots/x.jsonl.gz');
    expect((await store.runs.get(bobs.id))!.snapshotPath).toBe('/snapshots/x.jsonl.gz');

    expect(await store.runs.interruptAbandoned(night.id, at(11))).toBe(2);
    expect(await store.runs.get(child.id)).toMatchObject({ status: 'interrupted', finishedAt: at(11), errors: ['interrupted'], durationMs: 10 * 60_000 });
    expect(await store.runs.interruptAbandoned(night.id, at(12))).toBe(0);
  });
});

describe('handoffs and settings', () => {
  beforeEach(clear);

  it('stores a handoff with its prompt and marks it ingested once, by its own agent only', async () => {
    const h = handoff('alice');
    await store.handoffs.insert(h);
    expect(await store.handoffs.get('alice', h.id)).toEqual(h);
    expect(await store.handoffs.get('bob', h.id)).toBeUndefined();
    expect(await store.handoffs.markIngested('bob', h.id, at(1), 'run_x')).toBe(false);
    const other = await t.reopen();
    const results = await Promise.all([store.handoffs.markIngested('alice', h.id, at(1), 'run_a'), other.handoffs.markIngested('alice', h.id, at(1), 'run_b')]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await store.handoffs.get('alice', h.id))!.ingestRunId).toBe(results[0] ? 'run_a' : 'run_b');
  });

  it('gets, sets if absent, sets, and deletes (guarded by value)', async () => {
    expect(await store.settings.get('nightly.paused')).toBeUndefined();
    expect(await store.settings.setIfAbsent('nightly.paused', T0)).toBe(true);
    expect(await store.settings.setIfAbsent('nightly.paused', at(1))).toBe(false);
    expect(await store.settings.get('nightly.paused')).toBe(T0);
    await store.settings.set('nightly.paused', at(2));
    expect(await store.settings.delete('nightly.paused', T0)).toBe(false);
    expect(await store.settings.delete('nightly.paused', at(2))).toBe(true);
    await store.settings.set('k', 'v');
    expect(await store.settings.delete('k')).toBe(true);
    expect(await store.settings.delete('k')).toBe(false);
  });
});

describe('whole tables (db copy, snapshots)', () => {
  beforeEach(clear);

  it('dumps every table in key order and loads it into another store unchanged', async () => {
    await store.memories.insertMany([memory('alice', 'a', { tags: ['x'] }), memory('bob', 'b')]);
    await store.candidates.insert(candidate('alice', 'c'));
    await store.runs.insert(run({ counts: { z: 1, a: 2 }, steps: { s: 'done' } }));
    await store.handoffs.insert(handoff('bob'));
    await store.settings.set('nightly.paused', T0);
    const target = await openAdapterStore();
    try {
      for (const table of STORE_TABLES) {
        const rows = await collect(store.rows.dump(table, null));
        expect(await target.store.rows.load(table, rows)).toBe(rows.length);
        expect(await collect(target.store.rows.dump(table, null))).toEqual(rows);
        expect(await target.store.rows.count(table, null)).toBe(rows.length);
        const keys = rows.map((row) => String('id' in row ? row.id : row.key));
        expect(keys).toEqual([...keys].sort());
      }
      // A second load of the same rows skips every existing key, and adds only what is new.
      const memories = await collect(store.rows.dump('memories', null));
      expect(await target.store.rows.load('memories', [...memories, memory('carol', 'new'), memories[0]!])).toBe(1);
      expect(await target.store.rows.count('memories', null)).toBe(3);
      expect(
        await target.store.rows.load('settings', [
          { key: 'nightly.paused', value: 'other' },
          { key: 'k', value: 'v' },
        ]),
      ).toBe(1);
      expect(await target.store.settings.get('nightly.paused')).toBe(T0);
    } finally {
      await target.dispose();
    }
  });

  it('scopes dump, count and deleteAll to one agent; settings belong to no agent', async () => {
    await store.memories.insertMany([memory('alice', 'a'), memory('bob', 'b')]);
    await store.runs.insert(run({ agentId: null }));
    await store.runs.insert(run({ agentId: 'alice' }));
    await store.settings.set('k', 'v');
    expect((await collect(store.rows.dump('memories', 'alice'))).map((row) => row.agentId)).toEqual(['alice']);
    expect(await store.rows.count('runs', 'alice')).toBe(1);
    expect(await store.rows.count('settings', 'alice')).toBe(0);
    expect(await collect(store.rows.dump('settings', 'alice'))).toEqual([]);
    expect(await store.rows.deleteAll('memories', 'alice')).toBe(1);
    expect(await store.rows.deleteAll('settings', 'alice')).toBe(0);
    expect(await store.rows.count('memories', null)).toBe(1);
    expect(await store.rows.count('settings', null)).toBe(1);
    expect(await store.rows.deleteAll('settings', null)).toBe(1);
  });
});

describe('agent isolation', () => {
  it('no per-agent method reads or changes another agent’s rows', async () => {
    await clear();
    const a = memory('alice', 'alice deploy secret', { createdAt: at(5), tags: ['ops'] });
    const c = candidate('alice', 'alice claim');
    const h = handoff('alice');
    const r = run({ agentId: 'alice' });
    await store.memories.insert(a);
    await store.candidates.insert(c);
    await store.handoffs.insert(h);
    await store.runs.insert(r);
    const before = await Promise.all(STORE_TABLES.map((table) => collect(store.rows.dump(table, null))));

    const bob = 'bob';
    const now = at(60);
    expect(await store.memories.get(bob, a.id)).toBeUndefined();
    expect(await store.memories.getMany(bob, [a.id])).toEqual([]);
    expect(await store.memories.idsWithHash(bob, a.contentHash)).toEqual([]);
    expect(await store.memories.list({ agentId: bob, limit: 10, includeArchived: true })).toEqual([]);
    expect(await store.memories.existingHashes(bob, [a.contentHash])).toEqual(new Set());
    expect(await collect(store.memories.iterate(bob))).toEqual([]);
    expect(await store.memories.search({ agentId: bob, text: 'alice deploy secret', raw: false, limit: 10, highlight, now })).toEqual([]);
    expect(await store.memories.search({ agentId: bob, text: 'deploy', raw: true, limit: 10, highlight, now })).toEqual([]);
    expect(await store.memories.gather({ agentId: bob, now, scope: 'all', since: at(0), unreflected: false, limit: 10 })).toEqual({
      eligible: 0,
      memories: [],
    });
    expect(await store.memories.archive(bob, [a.id], 'x', now)).toEqual([]);
    await store.memories.stampReflected(bob, [a.id], now);
    await store.memories.recordRetrieval(bob, [a.id], now);
    expect(await store.memories.deleteBySource('cli', [bob])).toBe(0);
    expect(await store.candidates.get(bob, c.id)).toBeUndefined();
    expect(await store.candidates.prompt(bob, c.id)).toBeUndefined();
    expect(await store.candidates.list({ agentId: bob, status: 'all', limit: 10 })).toEqual([]);
    expect(await store.candidates.claimStatus(bob, c.claimNorm)).toEqual({ live: false, rejected: false });
    expect(await store.candidates.decide(bob, c.id, { status: 'rejected', reviewer: 'x', rationale: '', decidedAt: now })).toBe(false);
    expect(await store.handoffs.get(bob, h.id)).toBeUndefined();
    expect(await store.handoffs.markIngested(bob, h.id, now, 'run_x')).toBe(false);
    expect(await store.runs.get(r.id, bob)).toBeUndefined();
    expect(await store.runs.list({ limit: 10, agentId: bob })).toEqual([]);
    for (const table of STORE_TABLES) {
      expect(await collect(store.rows.dump(table, bob))).toEqual([]);
      expect(await store.rows.count(table, bob)).toBe(0);
      expect(await store.rows.deleteAll(table, bob)).toBe(0);
    }

    const after = await Promise.all(STORE_TABLES.map((table) => collect(store.rows.dump(table, null))));
    expect(after).toEqual(before);
  });
});

describe('errors', () => {
  it('a second candidate with one id is a bug the core prevents: exit 1, naming no content', async () => {
    await clear();
    const c = candidate('alice', 'secret claim');
    await store.candidates.insert(c);
    const error = await rejection(store.candidates.insert(c));
    expect(error.code).toBe('unexpected');
    expect(error.details).toMatchObject({ sqlstate: '23505' });
    expect(error.message).not.toContain('secret');
  });
});
