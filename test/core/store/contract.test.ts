/**
 * The storage port's contract (src/core/store/port.ts, docs/store.md), run against every engine in ENGINES: what
 * each method promises, agent isolation, ordering, guarded updates, transactions, lossless times and whole-table
 * round trips. Everything here goes through the port alone, so a new adapter is tested by adding its engine's name.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, HippoError } from '../../../src/core/errors.js';
import { forgetRewriter } from '../../../src/core/memory/forget.js';
import { preparePrompt } from '../../../src/core/rem/distill.js';
import { clip } from '../../../src/core/rem/gather.js';
import { newId } from '../../../src/core/ids.js';
import { buildMemory, type NewMemory } from '../../../src/core/memory/memory.js';
import { ARCHIVE_REASONS, maintenanceCutoffs } from '../../../src/core/nightly/maintenance.js';
import type { Candidate, Memory, Run } from '../../../src/core/records.js';
import {
  STORE_TABLES,
  type CandidateRecord,
  type EraseRewriter,
  type HandoffRecord,
  type Store,
  type StoreOps,
  type StoreTable,
  type TableRows,
  type TokenRecord,
} from '../../../src/core/store/port.js';
import { handoffRow, runRow } from '../../helpers/rows.js';
import { all, ENGINES, fixedClock, openTestStore, type TestStore } from '../../helpers/store.js';

const NOW = '2026-11-02T12:00:00.000Z';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.parse(NOW) - ms).toISOString();

/** A built memory (validated as the core builds them), created `createdAgo` before NOW. */
function memory(agentId: string, content: string, extra: Partial<NewMemory> = {}, createdAgo = HOUR): Memory {
  const createdAt = extra.createdAt ?? ago(createdAgo);
  return buildMemory({ agentId, content, ...extra, createdAt }, new Date(createdAt));
}

function candidate(agentId: string, claim: string, extra: Partial<CandidateRecord> = {}): CandidateRecord {
  return {
    id: newId('cand', Date.parse(extra.generatedAt ?? NOW)),
    agentId,
    claim,
    claimNorm: claim.replace(/\s+/g, ' ').trim(),
    editedClaim: null,
    status: 'pending',
    sourceMemoryIds: [],
    tags: ['deploy'],
    generatedBy: 'qwen2.5:7b',
    provider: 'ollama',
    generatedAt: NOW,
    runId: newId('run'),
    promptSha256: 'a'.repeat(64),
    prompt: `<prompt for ${claim}>`,
    reviewer: null,
    reviewRationale: null,
    decidedAt: null,
    promotedMemoryId: null,
    forgottenSourceIds: [],
    reopenedBy: null,
    reopenedAt: null,
    reopenReason: null,
    ...extra,
  };
}

const run = (agentId: string | null, extra: Partial<Run> = {}): Run => runRow(agentId, NOW, extra);
const handoff = (agentId: string, extra: Partial<HandoffRecord> = {}): HandoffRecord => handoffRow(agentId, NOW, extra);

async function rejection(promise: Promise<unknown>): Promise<HippoError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(HippoError);
    return error as HippoError;
  }
  throw new Error('expected the promise to reject');
}

/** Every row of every table (of one agent, or all), for before/after comparisons. */
async function everything(store: StoreOps, agentId: string | null): Promise<Partial<Record<StoreTable, unknown[]>>> {
  const rows: Partial<Record<StoreTable, unknown[]>> = {};
  for (const table of STORE_TABLES) rows[table] = await all(store.rows.dump(table, agentId));
  return rows;
}

describe.each(ENGINES)('the storage port on %s', (engine) => {
  const clock = fixedClock(NOW);
  let store: TestStore;
  beforeEach(async () => {
    clock.set(NOW);
    store = await openTestStore(engine, clock);
  });
  afterEach(() => store.done());

  describe('memories', () => {
    it('insert stores a memory exactly, times to the millisecond; an existing id writes nothing', async () => {
      const edge = memory('a', 'Leap-day note', {
        createdAt: '2024-02-29T23:59:59.999Z',
        updatedAt: '2026-01-01T00:00:00.001Z',
        expiresAt: '2031-12-31T23:59:59.999Z',
        tags: ['x', 'y z'],
        subject: 'edges',
        lastReflectedAt: '1999-12-31T00:00:00.000Z',
        retrievalCount: 7,
        lastRetrievedAt: '2026-11-02T11:59:59.500Z',
        derivedFrom: ['mem_01JD0000000000000000000000'],
        promotedFrom: 'cand_01JD0000000000000000000000',
      });
      expect(await store.memories.insert(edge)).toBe(true);
      expect(await store.memories.get('a', edge.id)).toEqual(edge);
      expect(await store.memories.insert({ ...edge, content: 'overwritten?' })).toBe(false);
      expect((await store.memories.get('a', edge.id))?.content).toBe('Leap-day note');
      expect(await store.memories.get('b', edge.id)).toBeUndefined();
    });

    it('insertMany counts the new ones and skips existing ids; getMany keeps the order asked, leaving out missing and foreign ids', async () => {
      const [one, two, three] = [memory('a', 'one'), memory('a', 'two'), memory('b', 'three')];
      expect(await store.memories.insertMany([one, two])).toBe(2);
      expect(await store.memories.insertMany([two, three])).toBe(1);
      const many = Array.from({ length: 1_200 }, (_, index) => memory('bulk', `bulk note ${index}`));
      expect(await store.memories.insertMany(many)).toBe(1_200);
      expect(await store.memories.getMany('a', [two.id, 'mem_01JD0000000000000000000000', three.id, one.id])).toEqual([two, one]);
      expect([...(await store.memories.existingIds([one.id, three.id, 'mem_01JD0000000000000000000000']))].sort()).toEqual([one.id, three.id].sort());
    });

    it('finds ids and hashes of equal content within the agent only, oldest first', async () => {
      const older = memory('a', 'Same  text', {}, 3 * HOUR);
      const newer = memory('a', 'Same text', {}, HOUR);
      const foreign = memory('b', 'Same text');
      await store.memories.insertMany([newer, older, foreign]);
      expect(await store.memories.idsWithHash('a', older.contentHash)).toEqual([older.id, newer.id]);
      expect(await store.memories.idsWithHash('a', older.contentHash, older.id)).toEqual([newer.id]);
      expect(await store.memories.existingHashes('a', [older.contentHash, 'f'.repeat(64)])).toEqual(new Set([older.contentHash]));
      expect(await store.memories.existingHashes('c', [older.contentHash])).toEqual(new Set());
    });

    it('lists newest first (createdAt, then id), by tag, archived only when asked, expired still listed, limited', async () => {
      const tie = ago(2 * HOUR);
      const rows = [
        memory('a', 'oldest', { tags: ['t'] }, 5 * HOUR),
        memory('a', 'tie one', { createdAt: tie, tags: ['t'] }),
        memory('a', 'tie two', { createdAt: tie }),
        memory('a', 'expired', { expiresAt: ago(HOUR / 2) }, HOUR),
        memory('a', 'archived', { archivedAt: ago(1000), tags: ['t'] }, HOUR / 4),
        memory('b', 'foreign', { tags: ['t'] }, 0),
      ];
      await store.memories.insertMany(rows);
      const [tieLow, tieHigh] = [rows[1]!, rows[2]!].sort((x, y) => (x.id < y.id ? -1 : 1));
      const contents = (list: Memory[]) => list.map((item) => item.content);
      expect(contents(await store.memories.list({ agentId: 'a', limit: 10 }))).toEqual(['expired', tieHigh!.content, tieLow!.content, 'oldest']);
      expect(contents(await store.memories.list({ agentId: 'a', limit: 10, includeArchived: true }))[0]).toBe('archived');
      expect(contents(await store.memories.list({ agentId: 'a', limit: 10, tag: 't' }))).toEqual(['tie one', 'oldest']);
      expect(await store.memories.list({ agentId: 'a', limit: 2 })).toHaveLength(2);
    });

    it('lists with the filters search has: created since (inclusive), durability, with a tag, archived still left out', async () => {
      const rows = [
        memory('a', 'old persistent', { durability: 'persistent', tags: ['t'] }, 5 * HOUR),
        memory('a', 'at the boundary', { durability: 'persistent' }, 2 * HOUR),
        memory('a', 'new standard', { tags: ['t'] }, HOUR),
        memory('a', 'new persistent', { durability: 'persistent', tags: ['t'] }, HOUR / 2),
        memory('a', 'archived persistent', { durability: 'persistent', archivedAt: ago(1000) }, HOUR / 4),
        memory('b', 'foreign persistent', { durability: 'persistent', tags: ['t'] }, HOUR / 4),
      ];
      await store.memories.insertMany(rows);
      const contents = (list: Memory[]) => list.map((item) => item.content);
      const since = ago(2 * HOUR);
      expect(contents(await store.memories.list({ agentId: 'a', limit: 10, since }))).toEqual(['new persistent', 'new standard', 'at the boundary']);
      expect(contents(await store.memories.list({ agentId: 'a', limit: 10, durability: 'persistent' }))).toEqual([
        'new persistent',
        'at the boundary',
        'old persistent',
      ]);
      expect(contents(await store.memories.list({ agentId: 'a', limit: 10, since, durability: 'persistent', tag: 't' }))).toEqual(['new persistent']);
      expect(contents(await store.memories.list({ agentId: 'a', limit: 10, since, durability: 'persistent', includeArchived: true }))).toEqual([
        'archived persistent',
        'new persistent',
        'at the boundary',
      ]);
      expect(await store.memories.list({ agentId: 'a', limit: 10, since: ago(0) })).toEqual([]);
      expect(await store.memories.list({ agentId: 'a', limit: 10, durability: 'ephemeral' })).toEqual([]);
    });

    it('iterates oldest first, archived too, for one agent or all', async () => {
      const rows = [memory('a', 'second', {}, 2 * HOUR), memory('b', 'first', {}, 3 * HOUR), memory('a', 'third', { archivedAt: ago(1) }, HOUR)];
      await store.memories.insertMany(rows);
      expect((await all(store.memories.iterate('a'))).map((item) => item.content)).toEqual(['second', 'third']);
      expect((await all(store.memories.iterate())).map((item) => item.content)).toEqual(['first', 'second', 'third']);
    });

    it("archives, stamps and counts retrievals on the agent's own live memories only", async () => {
      const [mine, archived, theirs] = [memory('a', 'mine'), memory('a', 'gone', { archivedAt: ago(1) }), memory('b', 'theirs')];
      await store.memories.insertMany([mine, archived, theirs]);
      expect(await store.memories.archive('a', [mine.id, archived.id, theirs.id], 'superseded', NOW)).toEqual([mine.id]);
      expect(await store.memories.get('a', mine.id)).toMatchObject({ archivedAt: NOW, archivedReason: 'superseded', updatedAt: NOW });
      await store.memories.stampReflected('a', [mine.id, theirs.id], NOW);
      await store.memories.recordRetrieval('a', [mine.id, theirs.id], NOW);
      await store.memories.recordRetrieval('a', [mine.id], NOW);
      expect(await store.memories.get('a', mine.id)).toMatchObject({ lastReflectedAt: NOW, retrievalCount: 2, lastRetrievedAt: NOW });
      expect(await store.memories.get('b', theirs.id)).toEqual(theirs);
    });

    it('gathers eligible memories in scope, newest first, with the count before the cap (docs/design.md §4.1)', async () => {
      const eligible = [
        memory('a', 'new one', { tags: ['deploy'] }, HOUR),
        memory('a', 'new two', {}, 2 * HOUR),
        memory('a', 'last week', { tags: ['deploy'] }, 7 * DAY),
      ];
      const excluded = [
        memory('a', 'archived', { archivedAt: ago(1) }),
        memory('a', 'expired', { expiresAt: ago(1) }),
        memory('a', 'permanent', { durability: 'permanent' }),
        memory('a', 'derived', { derivedFrom: ['mem_01JD0000000000000000000000'] }),
        memory('a', 'reflected', { lastReflectedAt: ago(1) }, 1.5 * HOUR),
        memory('b', 'foreign'),
      ];
      await store.memories.insertMany([...eligible, ...excluded]);
      const query = { agentId: 'a', now: NOW, since: ago(DAY), unreflected: true, limit: 50 } as const;
      const recent = await store.memories.gather({ ...query, scope: 'recent' });
      expect(recent.memories.map((item) => item.content)).toEqual(['new one', 'new two']);
      expect(recent.eligible).toBe(2);
      expect((await store.memories.gather({ ...query, scope: 'all' })).memories.map((item) => item.content)).toEqual(['new one', 'new two', 'last week']);
      expect((await store.memories.gather({ ...query, scope: 'tagged', tag: 'deploy' })).memories.map((item) => item.content)).toEqual([
        'new one',
        'last week',
      ]);
      const capped = await store.memories.gather({ ...query, scope: 'all', unreflected: false, limit: 1 });
      expect(capped).toMatchObject({ eligible: 4, memories: [{ content: 'new one' }] });
    });

    it('finds the agents with something new to distill, and counts every agent', async () => {
      await store.memories.insertMany([
        memory('b', 'fresh'),
        memory('a', 'fresh too'),
        memory('c', 'old', {}, 3 * DAY),
        memory('d', 'reflected', { lastReflectedAt: ago(1) }),
        memory('a', 'archived', { archivedAt: ago(1), source: 'demo' }, 2 * HOUR),
      ]);
      expect(await store.memories.agentsWithNew(NOW, ago(DAY))).toEqual(['a', 'b']);
      expect(await store.memories.agentCounts()).toEqual([
        { agentId: 'a', memories: 1, archived: 1, newest: ago(HOUR) },
        { agentId: 'b', memories: 1, archived: 0, newest: ago(HOUR) },
        { agentId: 'c', memories: 1, archived: 0, newest: ago(3 * DAY) },
        { agentId: 'd', memories: 1, archived: 0, newest: ago(HOUR) },
      ]);
      expect(await store.memories.agentCounts({ source: 'demo' })).toEqual([{ agentId: 'a', memories: 0, archived: 1, newest: ago(2 * HOUR) }]);
    });

    it("searches one agent's live memories, best first, with highlighted snippets and every filter", async () => {
      await store.memories.insertMany([
        memory('a', 'Moved the billing cron to 02:30 UTC.', { tags: ['billing'] }, 3 * HOUR),
        memory('a', 'The billing cron failed again; billing retried the cron by hand.', { durability: 'persistent' }, 2 * HOUR),
        memory('a', 'Billing cron notes, archived.', { archivedAt: ago(1) }),
        memory('a', 'Billing cron, expired.', { expiresAt: ago(1) }),
        memory('b', 'The billing cron of another agent.'),
      ]);
      const search = (extra: Partial<Parameters<Store['memories']['search']>[0]> = {}) =>
        store.memories.search({ agentId: 'a', text: 'billing cron?', raw: false, limit: 10, now: NOW, highlight: { open: '[', close: ']' }, ...extra });
      const hits = await search();
      expect(hits.map((hit) => hit.memory.content).sort()).toEqual([
        'Moved the billing cron to 02:30 UTC.',
        'The billing cron failed again; billing retried the cron by hand.',
      ]);
      expect(hits[0]!.score).toBeGreaterThanOrEqual(hits[1]!.score);
      expect(hits.every((hit) => hit.snippet.includes('[') && hit.snippet.includes(']'))).toBe(true);
      expect(await search({ includeArchived: true })).toHaveLength(4);
      expect((await search({ tag: 'billing' })).map((hit) => hit.memory.tags)).toEqual([['billing']]);
      expect((await search({ durability: 'persistent' })).map((hit) => hit.memory.durability)).toEqual(['persistent']);
      expect(await search({ since: ago(2.5 * HOUR) })).toHaveLength(1);
      expect(await search({ limit: 1 })).toHaveLength(1);
      expect(await search({ text: '" * ( NEAR -' })).toEqual([]);
      expect(await rejection(search({ text: 'deploy AND (', raw: true }))).toMatchObject({ code: 'fts_syntax', exitCode: 2 });
    });

    it('counts what a search would find without its limit, under every filter, with the same hits as search', async () => {
      await store.memories.insertMany([
        ...Array.from({ length: 7 }, (_, index) =>
          memory(
            'a',
            `Billing cron note ${index}.`,
            { tags: index % 2 ? ['billing'] : [], durability: index < 3 ? 'persistent' : 'standard' },
            (index + 1) * HOUR,
          ),
        ),
        memory('a', 'Billing cron notes, archived.', { archivedAt: ago(1) }),
        memory('a', 'Billing cron, expired.', { expiresAt: ago(1) }),
        memory('a', 'Nothing about it.'),
        memory('b', 'The billing cron of another agent.'),
      ]);
      const query = { agentId: 'a', text: 'billing cron', raw: false, now: NOW, highlight: { open: '[', close: ']' } } as const;
      for (const [filters, total] of [
        [{}, 7],
        [{ includeArchived: true }, 9],
        [{ tag: 'billing' }, 3],
        [{ durability: 'persistent' as const }, 3],
        [{ since: ago(3.5 * HOUR) }, 3],
        [{ text: 'zebra quagga' }, 0],
      ] as const) {
        for (const limit of [1, 3, 50]) {
          const counted = await store.memories.searchWithTotal({ ...query, ...filters, limit });
          expect(counted.total, JSON.stringify({ filters, limit })).toBe(total);
          expect(counted.hits).toEqual(await store.memories.search({ ...query, ...filters, limit }));
          expect(counted.hits).toHaveLength(Math.min(limit, total));
        }
      }
      expect(await rejection(store.memories.searchWithTotal({ ...query, text: 'deploy AND (', raw: true, limit: 5 }))).toMatchObject({
        code: 'fts_syntax',
        exitCode: 2,
      });
    });

    it('plans and applies the maintenance rules with the reasons given, per agent; the plan matches what is done', async () => {
      await store.memories.insertMany([
        memory('a', 'expired', { expiresAt: ago(HOUR) }, 2 * HOUR),
        memory('a', 'old ephemeral', { durability: 'ephemeral', expiresAt: ago(-30 * DAY) }, 10 * DAY),
        memory('b', 'unused standard', {}, 200 * DAY),
        memory('b', 'used standard', { retrievalCount: 5 }, 200 * DAY),
        memory('b', 'persistent', { durability: 'persistent' }, 400 * DAY),
        memory('b', 'young', { durability: 'ephemeral', expiresAt: ago(-DAY) }, 2 * DAY),
      ]);
      const cutoffs = maintenanceCutoffs(new Date(NOW));
      const expected = { a: { expired: 1, archivedEphemeral: 1, archivedUnused: 0 }, b: { expired: 0, archivedEphemeral: 0, archivedUnused: 1 } };
      expect(await store.memories.planMaintenance(cutoffs)).toEqual(expected);
      expect(await store.memories.applyMaintenance(cutoffs, ARCHIVE_REASONS)).toEqual(expected);
      expect(await store.memories.planMaintenance(cutoffs)).toEqual({});
      const archived = (await all(store.memories.iterate())).filter((item) => item.archivedAt !== null);
      expect(Object.fromEntries(archived.map((item) => [item.content, item.archivedReason]))).toEqual({
        expired: ARCHIVE_REASONS.expired,
        'old ephemeral': ARCHIVE_REASONS.archivedEphemeral,
        'unused standard': ARCHIVE_REASONS.archivedUnused,
      });
      expect(await store.memories.optimizeSearchIndex()).toBeGreaterThanOrEqual(1);
    });

    it("counts and deletes a source's rows only for the agents named", async () => {
      await store.memories.insertMany([memory('a', 'demo one', { source: 'demo' }), memory('b', 'demo two', { source: 'demo' }), memory('a', 'mine')]);
      expect(await store.memories.demoCounts('demo')).toEqual({ total: 3, demo: 2 });
      expect(await store.memories.deleteBySource('demo', ['a'])).toBe(1);
      expect(await store.memories.demoCounts('demo')).toEqual({ total: 2, demo: 1 });
      expect(await store.memories.deleteBySource('demo', [])).toBe(0);
    });
  });

  describe('threads and the search context', () => {
    const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'];
    const MINUTE = 60_000;
    /** A memory of thread `thread` whose text carries `word` (and no other listed word), created `minute` minutes after T. */
    const turn = (agentId: string, word: string, minute: number, extra: Partial<NewMemory> = {}) =>
      memory(agentId, `${word} said something`, {
        thread: 'chat',
        createdAt: new Date(Date.parse('2026-10-01T10:00:00.000Z') + minute * MINUTE).toISOString(),
        ...extra,
      });
    const find = (text: string, extra: Partial<Parameters<Store['memories']['search']>[0]> = {}) =>
      store.memories.search({ agentId: 'a', text, raw: false, limit: 20, now: NOW, highlight: { open: '[', close: ']' }, ...extra });
    /** The words of the memories a word's memory lends its text to (found only through their context), each with the neighbour named. */
    async function lendsTo(word: string, extra: Partial<Parameters<Store['memories']['search']>[0]> = {}): Promise<string[]> {
      const hits = await find(word, extra);
      const own = hits.filter((hit) => hit.matched.includes('content'));
      for (const hit of hits.filter((each) => !each.matched.includes('content'))) {
        expect(hit.matched).toEqual(['context']);
        expect(hit.nearby?.memoryId, `${hit.memory.content} names its neighbour`).toBe(own[0]?.memory.id);
        expect(hit.nearby?.snippet).toBe(`[${word}] said something`);
      }
      return hits
        .filter((hit) => !hit.matched.includes('content'))
        .map((hit) => hit.memory.content.split(' ')[0]!)
        .sort();
    }

    it('gives a threaded memory the text of two neighbours on each side, in thread order: createdAt, then insertion order', async () => {
      // Inserted out of order; echo and foxtrot share a time, foxtrot inserted first.
      for (const [word, minute] of [
        ['delta', 3],
        ['alpha', 0],
        ['golf', 6],
        ['foxtrot', 4],
        ['charlie', 2],
        ['echo', 4],
        ['bravo', 1],
      ] as const) {
        expect(await store.memories.insert(turn('a', word, minute))).toBe(true);
      }
      expect((await store.memories.list({ agentId: 'a', thread: 'chat', limit: 10 })).map((item) => item.content.split(' ')[0])).toEqual([
        'alpha',
        'bravo',
        'charlie',
        'delta',
        'foxtrot',
        'echo',
        'golf',
      ]);
      expect(await lendsTo('alpha')).toEqual(['bravo', 'charlie']);
      expect(await lendsTo('delta')).toEqual(['bravo', 'charlie', 'echo', 'foxtrot']);
      expect(await lendsTo('foxtrot')).toEqual(['charlie', 'delta', 'echo', 'golf']);
      expect(await lendsTo('golf')).toEqual(['echo', 'foxtrot']);
      // The context only ranks: a memory's own words come first.
      expect((await find('delta'))[0]!.memory.content).toBe('delta said something');
      expect(await store.memories.refreshContext('a', { threads: ['chat'], ids: [] })).toBe(0);
    });

    it('builds the context in the bulk path as one by one, and re-indexes a stored thread where a batch joins it', async () => {
      const batch = WORDS.slice(0, 5).map((word, index) => turn('a', word, index));
      expect(await store.memories.insertMany([...batch, batch[0]!])).toBe(5);
      expect(await lendsTo('charlie')).toEqual(['alpha', 'bravo', 'delta', 'echo']);
      expect(await lendsTo('echo')).toEqual(['charlie', 'delta']);
      // foxtrot and golf join the stored thread after echo; one memory of the batch exists already and lends nothing.
      const existing = memory('a', 'hotel said something', { createdAt: ago(DAY) });
      await store.memories.insert(existing);
      expect(
        await store.memories.insertMany([
          turn('a', 'foxtrot', 5),
          turn('a', 'golf', 6),
          { ...existing, thread: 'chat', createdAt: turn('a', '', 7).createdAt },
        ]),
      ).toBe(2);
      expect(await lendsTo('echo')).toEqual(['charlie', 'delta', 'foxtrot', 'golf']);
      expect(await lendsTo('golf')).toEqual(['echo', 'foxtrot']);
      expect(await lendsTo('hotel')).toEqual([]);
      expect(await store.memories.refreshContext('a', { threads: ['chat'] })).toBe(0);
    });

    it('a batch appended to a long stored thread (a big import chunk by chunk), or landing inside it, leaves every context as a full re-index would', async () => {
      const words = Array.from({ length: 40 }, (_, index) => `w${index}`);
      await store.memories.insertMany(words.slice(0, 10).map((word, index) => turn('a', word, index)));
      // Appended at the end, one sharing the last stored memory's time (it follows it: insertion order).
      await store.memories.insertMany(words.slice(10, 20).map((word, index) => turn('a', word, 9 + index)));
      expect(await store.memories.refreshContext('a', { threads: ['chat'] })).toBe(0);
      expect(await lendsTo('w9')).toEqual(['w10', 'w11', 'w7', 'w8']);
      expect(await lendsTo('w10')).toEqual(['w11', 'w12', 'w8', 'w9']);
      // Landing inside the thread: re-indexed around the places it lands.
      await store.memories.insertMany([turn('a', 'w20', 4.5), turn('a', 'w21', 30)]);
      expect(await store.memories.refreshContext('a', { threads: ['chat'] })).toBe(0);
      expect(await lendsTo('w20')).toEqual(['w3', 'w4', 'w5', 'w6']);
    });

    it('batches of a file imported chunk by chunk, out of time order, inside one transaction: a search in it and every context after it as a full re-index would leave them', async () => {
      // 300 turns whose times are a permutation of their order (minute = 7 × index mod 300), in three batches of 100:
      // each later batch lands inside the thread the earlier ones stored (on PostgreSQL: re-indexed once, before COMMIT).
      const turns = Array.from({ length: 300 }, (_, index) => turn('a', `w${index}`, (7 * index) % 300));
      await store.transaction(async (tx) => {
        for (let start = 0; start < turns.length; start += 100) expect(await tx.memories.insertMany(turns.slice(start, start + 100))).toBe(100);
        // w150 sits at minute 150, between w64 and w107 (minutes 148, 149) and w193 and w236 (151, 152).
        expect(await lendsTo('w150')).toEqual(['w107', 'w193', 'w236', 'w64']);
      });
      expect(await lendsTo('w150')).toEqual(['w107', 'w193', 'w236', 'w64']);
      expect(await store.memories.refreshContext('a', { threads: ['chat'] })).toBe(0);
    });

    it('a neighbour holding a NUL (U+0000) lends the text before it, as one without the rest would: not its whole text uncut', async () => {
      // The NUL early, the text past it longer than NEIGHBOUR_CHARS (context.ts): SQLite's length() stops at a NUL, so
      // the view once lent all of it.
      const nul = memory('a', `opening\u0000${'filler '.repeat(200)}closing`, { thread: 'chat', createdAt: turn('a', '', 0).createdAt });
      if (store.engine === 'postgres') {
        // PostgreSQL's text cannot hold it: refused before the server sees it, nothing written.
        await expect(store.memories.insert(nul)).rejects.toMatchObject({ code: 'nul_in_text' });
        expect(await store.memories.count({ agentId: 'a' })).toBe(0);
        return;
      }
      const without = memory('b', 'opening', { thread: 'chat', createdAt: turn('a', '', 0).createdAt });
      await store.memories.insertMany([nul, turn('a', 'alpha', 1), without, turn('b', 'alpha', 1)]);
      const lent = async (agentId: string, word: string) =>
        (await find(word, { agentId })).filter((hit) => hit.matched.includes('context')).map((hit) => hit.memory.content);
      for (const agentId of ['a', 'b']) {
        expect(await lent(agentId, 'opening'), agentId).toEqual(['alpha said something']);
        expect(await lent(agentId, 'filler'), agentId).toEqual([]);
        expect(await lent(agentId, 'closing'), agentId).toEqual([]);
      }
      // The memory's own text is searched whole.
      expect((await find('closing')).map((hit) => hit.memory.id)).toEqual([nul.id]);
      expect(await store.memories.refreshContext('a', { threads: ['chat'] })).toBe(0);
    });

    it('takes an archived memory out of its thread: its neighbours re-indexed, its own context gone', async () => {
      const turns = WORDS.map((word, index) => turn('a', word, index));
      await store.memories.insertMany(turns);
      expect(await store.memories.archive('a', [turns[2]!.id], 'superseded', NOW)).toEqual([turns[2]!.id]);
      expect(await lendsTo('charlie', { includeArchived: true })).toEqual([]);
      expect(await lendsTo('bravo')).toEqual(['alpha', 'delta', 'echo']);
      expect(await lendsTo('delta')).toEqual(['alpha', 'bravo', 'echo', 'foxtrot']);
      // With archived memories included, the archived one is found by its own words only, never through a neighbour.
      expect((await lendsTo('delta', { includeArchived: true })).includes('charlie')).toBe(false);
    });

    it("forgets a memory and its text: no neighbour's search entry keeps it", async () => {
      const turns = WORDS.map((word, index) => turn('a', word, index));
      await store.memories.insertMany(turns);
      expect(await lendsTo('delta')).toEqual(['bravo', 'charlie', 'echo', 'foxtrot']);
      expect(await store.memories.forget('a', [turns[3]!.id, 'mem_00000000000000000000000000'])).toEqual([turns[3]!.id]);
      expect(await find('delta', { includeArchived: true })).toEqual([]);
      expect(await lendsTo('charlie')).toEqual(['alpha', 'bravo', 'echo', 'foxtrot']);
      expect(await store.memories.get('a', turns[3]!.id)).toBeUndefined();
      // Another agent's memory is not forgotten.
      const other = turn('b', 'delta', 0);
      await store.memories.insert(other);
      expect(await store.memories.forget('a', [other.id])).toEqual([]);
      expect(await store.memories.get('b', other.id)).toEqual(other);
    });

    it("memory forget's erase leaves a forgotten memory's text in no neighbour's context: not in the index, not in the file", async () => {
      // A word of its own (porter leaves it whole), so any trace of the forgotten text can be looked for.
      const turns = ['alpha', 'bravo', 'charlie', 'quokkaword', 'echo', 'foxtrot', 'golf'].map((word, index) => turn('a', word, index));
      await store.memories.insertMany(turns);
      expect(await lendsTo('quokkaword')).toEqual(['bravo', 'charlie', 'echo', 'foxtrot']);
      const snapshot = store.engine === 'sqlite' ? await store.snapshots.take(`20261102T120000Z-${newId('run')}${store.snapshots.suffix}`, {}) : null;

      const report = await store.transaction((tx) => tx.erasure.erase({ agentId: 'a', memoryIds: [turns[3]!.id] }, forgetRewriter(undefined)));
      expect(report.memories.map((item) => item.id)).toEqual([turns[3]!.id]);
      expect(await find('quokkaword', { includeArchived: true })).toEqual([]);
      // The neighbours were re-indexed around the gap: charlie now reads echo and foxtrot after it.
      expect(await lendsTo('charlie')).toEqual(['alpha', 'bravo', 'echo', 'foxtrot']);
      expect((await store.reclaim()).complete).toBe(true);
      if (snapshot) {
        // SQLite: no byte of it in the database file or its WAL, nor in a snapshot the same erase rewrote.
        const { location } = await store.describe();
        for (const file of [location, `${location}-wal`].filter((path) => existsSync(path))) {
          expect(readFileSync(file).includes(Buffer.from('quokkaword')), file).toBe(false);
        }
        expect(readFileSync(snapshot.path).includes(Buffer.from('quokkaword said'))).toBe(true);
        await store.snapshots.erase(snapshot.path, { agentId: 'a', memoryIds: [turns[3]!.id] }, forgetRewriter(undefined));
        expect(readFileSync(snapshot.path).includes(Buffer.from('quokkaword'))).toBe(false);
      }
    });

    it("names the agent's memories whose search context holds a text (what memory forget --verify checks), and no other agent's", async () => {
      const turns = ['alpha', 'bravo', 'ibexword', 'delta', 'echo', 'foxtrot'].map((word, index) => turn('a', word, index));
      const foreign = ['ibexword', 'kilo'].map((word, index) => turn('b', word, index));
      await store.memories.insertMany([...turns, ...foreign]);
      // Two neighbours on each side lend it their context; its own row is no context of it.
      const lent = [turns[0]!, turns[1]!, turns[3]!, turns[4]!].map((item) => item.id).sort();
      expect(await store.erasure.contextsHolding('a', ['ibexword said'])).toEqual(lent);
      expect(await store.erasure.contextsHolding('a', ['no such text', 'ibexword'])).toEqual(lent);
      expect(await store.erasure.contextsHolding('b', ['ibexword'])).toEqual([foreign[1]!.id]);
      expect(await store.erasure.contextsHolding('c', ['ibexword'])).toEqual([]);
      expect(await store.erasure.contextsHolding('a', [''])).toEqual([]);
      await store.transaction((tx) => tx.erasure.erase({ agentId: 'a', memoryIds: [turns[2]!.id] }, forgetRewriter(undefined)));
      expect(await store.erasure.contextsHolding('a', ['ibexword'])).toEqual([]);
    });

    it("an edit's old text leaves its neighbours' context once they are re-indexed (refreshContext), on the index and in the file", async () => {
      const turns = ['alpha', 'bravo', 'walrusword', 'delta', 'echo'].map((word, index) => turn('a', word, index));
      await store.memories.insertMany(turns);
      expect(await lendsTo('walrusword')).toEqual(['alpha', 'bravo', 'delta', 'echo']);
      const edited = { ...turns[2]!, content: 'narwhalword said something', updatedAt: NOW };
      await store.transaction(async (tx) => {
        expect(await tx.memories.update(edited)).toBe(true);
        await tx.memories.refreshContext('a', { ids: [edited.id] });
      });
      expect(await find('walrusword', { includeArchived: true })).toEqual([]);
      expect(await lendsTo('narwhalword')).toEqual(['alpha', 'bravo', 'delta', 'echo']);
      expect((await store.memories.get('a', edited.id))!.thread).toBe('chat');
      expect((await store.reclaim()).complete).toBe(true);
      if (store.engine === 'sqlite') {
        const { location } = await store.describe();
        for (const file of [location, `${location}-wal`].filter((path) => existsSync(path))) {
          expect(readFileSync(file).includes(Buffer.from('walrusword')), file).toBe(false);
        }
      }
    });

    it('an unarchived memory rejoins its thread: it and its neighbours are re-indexed', async () => {
      const turns = WORDS.slice(0, 5).map((word, index) => turn('a', word, index));
      await store.memories.insertMany(turns);
      await store.memories.archive('a', [turns[2]!.id], 'superseded', NOW);
      expect(await lendsTo('charlie', { includeArchived: true })).toEqual([]);
      expect(await store.memories.unarchive('a', [turns[2]!.id], NOW)).toEqual([turns[2]!.id]);
      expect(await lendsTo('charlie')).toEqual(['alpha', 'bravo', 'delta', 'echo']);
      expect(await lendsTo('bravo')).toEqual(['alpha', 'charlie', 'delta']);
    });

    it('keeps threads apart per agent and per name; an unthreaded memory lends and takes nothing', async () => {
      await store.memories.insertMany([
        turn('a', 'alpha', 0),
        turn('a', 'bravo', 1, { thread: 'other' }),
        turn('a', 'charlie', 2, { thread: null }),
        turn('b', 'delta', 1),
        turn('a', 'echo', 3),
      ]);
      expect(await lendsTo('alpha')).toEqual(['echo']);
      expect(await lendsTo('bravo')).toEqual([]);
      expect(await lendsTo('charlie')).toEqual([]);
      expect(await find('delta')).toEqual([]);
    });

    it('re-indexes the threads that maintenance archives from, and those a source delete empties', async () => {
      await store.memories.insertMany([
        turn('a', 'alpha', 0),
        turn('a', 'bravo', 1, { durability: 'ephemeral', expiresAt: ago(HOUR) }),
        turn('a', 'charlie', 2, { source: 'demo' }),
        turn('a', 'delta', 3),
      ]);
      // bravo has expired (search leaves it out) but is not archived yet: it still lends and takes context.
      expect(await lendsTo('alpha', { includeArchived: true })).toEqual(['bravo', 'charlie']);
      await store.memories.applyMaintenance(maintenanceCutoffs(new Date(NOW)), ARCHIVE_REASONS);
      expect(await lendsTo('alpha', { includeArchived: true })).toEqual(['charlie', 'delta']);
      expect(await store.memories.deleteBySource('demo', ['a'])).toBe(1);
      expect(await lendsTo('alpha')).toEqual(['delta']);
    });

    it('setThread moves memories out of a thread and into another: the neighbours they leave and join and their own context follow, in one transaction', async () => {
      const turns = WORDS.map((word, index) => turn('a', word, index));
      await store.memories.insertMany(turns);
      const [alpha, , charlie, delta, echo, foxtrot, golf] = turns.map((item) => item.id) as [string, string, string, string, string, string, string];
      await store.memories.archive('a', [golf], 'superseded', NOW);
      // Cleared: charlie and delta keep no neighbour's text and lend none; the thread closes over the gap.
      expect(await store.memories.setThread('a', [charlie, delta, 'mem_00000000000000000000000000'], null, NOW)).toEqual([charlie, delta]);
      expect(await lendsTo('charlie', { includeArchived: true })).toEqual([]);
      expect(await lendsTo('delta', { includeArchived: true })).toEqual([]);
      expect(await lendsTo('alpha', { includeArchived: true })).toEqual(['bravo', 'echo']);
      expect(await lendsTo('bravo')).toEqual(['alpha', 'echo', 'foxtrot']);
      expect(await store.memories.refreshContext('a', { threads: ['chat'] })).toBe(0);
      expect(await store.memories.get('a', charlie)).toMatchObject({ thread: null, updatedAt: NOW });
      // Already there, another agent's or unknown: nothing changes.
      expect(await store.memories.setThread('a', [charlie], null, NOW)).toEqual([]);
      expect(await store.memories.setThread('b', [alpha], null, NOW)).toEqual([]);
      expect((await store.memories.get('a', alpha))!.thread).toBe('chat');
      // Set: charlie and delta (and the archived golf, which lends and keeps nothing) into a thread of their own, and
      // foxtrot after them; each reads the others, and the old thread no longer reads foxtrot.
      expect(await store.memories.setThread('a', [charlie, delta, golf, foxtrot], 'other', NOW)).toEqual([charlie, delta, golf, foxtrot]);
      expect(await lendsTo('charlie')).toEqual(['delta', 'foxtrot']);
      expect(await lendsTo('foxtrot')).toEqual(['charlie', 'delta']);
      expect(await lendsTo('golf', { includeArchived: true })).toEqual([]);
      expect(await lendsTo('echo')).toEqual(['alpha', 'bravo']);
      expect(await store.memories.refreshContext('a', { threads: ['chat', 'other'] })).toBe(0);
      // Many at once (more than the around-each limit): the whole thread is re-indexed, as a full re-index would leave it.
      const many = Array.from({ length: 80 }, (_, index) => turn('a', `m${index}`, 100 + index, { thread: null }));
      await store.memories.insertMany(many);
      expect(await store.memories.setThread('a', [...many.map((item) => item.id), echo], 'chat', NOW)).toHaveLength(80);
      expect(await store.memories.refreshContext('a', { threads: ['chat'] })).toBe(0);
      expect(await lendsTo('m40')).toEqual(['m38', 'm39', 'm41', 'm42']);
      expect(await lendsTo('m0')).toEqual(['bravo', 'echo', 'm1', 'm2']);
      expect(
        await store.memories.setThread(
          'a',
          many.map((item) => item.id),
          null,
          NOW,
        ),
      ).toHaveLength(80);
      expect(await lendsTo('m40')).toEqual([]);
      expect(await lendsTo('echo')).toEqual(['alpha', 'bravo']);
      expect(await store.memories.refreshContext('a', { threads: ['chat'] })).toBe(0);
      // A failure inside the caller's transaction rolls the move back with everything else.
      await expect(
        store.transaction(async (tx) => {
          await tx.memories.setThread('a', [alpha], null, NOW);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await lendsTo('alpha')).toEqual(['bravo', 'echo']);
    });

    it('lists the memories of one source (ListQuery.source), as count does', async () => {
      await store.memories.insertMany([
        memory('a', 'from the file', { source: '/notes/todo.txt' }),
        memory('a', 'typed'),
        memory('b', 'b too', { source: '/notes/todo.txt' }),
      ]);
      expect((await store.memories.list({ agentId: 'a', source: '/notes/todo.txt', limit: 10 })).map((item) => item.content)).toEqual(['from the file']);
      expect(await store.memories.count({ agentId: 'a', source: '/notes/todo.txt' })).toBe(1);
    });

    it('refreshContext re-indexes around the memories named, and whole threads', async () => {
      const turns = WORDS.slice(0, 4).map((word, index) => turn('a', word, index));
      await store.memories.insertMany(turns);
      expect(await store.memories.refreshContext('a', { ids: turns.map((item) => item.id), threads: ['chat', 'none'] })).toBe(0);
      expect(await store.memories.refreshContext('b', { ids: turns.map((item) => item.id) })).toBe(0);
      expect(await lendsTo('bravo')).toEqual(['alpha', 'charlie', 'delta']);
    });

    it('matches the date in words (UTC month, year, weekday) and says which parts matched', async () => {
      await store.memories.insertMany([
        memory('a', 'Moved the billing cron.', { createdAt: '2023-05-08T23:30:00.000Z', tags: ['billing'] }),
        memory('a', 'Renewed the certificate.', { createdAt: '2023-06-13T09:00:00.000Z', subject: 'billing' }),
      ]);
      // Both are of 2023; May decides.
      const may = await find('what happened in May 2023?');
      expect(may.map((hit) => [hit.memory.content, hit.matched])).toEqual([
        ['Moved the billing cron.', ['date']],
        ['Renewed the certificate.', ['date']],
      ]);
      expect(may[0]!.score).toBeGreaterThan(may[1]!.score);
      expect((await find('a Monday')).map((hit) => hit.memory.content)).toEqual(['Moved the billing cron.']);
      expect((await find('billing')).map((hit) => [hit.memory.content, hit.matched, hit.nearby])).toEqual([
        ['Moved the billing cron.', ['content', 'tags'], null],
        ['Renewed the certificate.', ['subject'], null],
      ]);
      expect((await find('June certificate')).map((hit) => hit.matched)).toEqual([['content', 'date']]);
      // Tuning: a part weighted 0 is not searched.
      expect(await find('May 2023', { weights: { date: 0 } })).toEqual([]);
    });

    it('carries threads and contexts through a dump and load into another store', async () => {
      await store.memories.insertMany(WORDS.slice(0, 4).map((word, index) => turn('a', word, index)));
      const target = await openTestStore(engine, clock);
      try {
        const rows = await all(store.rows.dump('memories', null));
        expect(rows.every((row) => row.thread === 'chat')).toBe(true);
        for (let index = 0; index < rows.length; index += 2) await target.rows.load('memories', rows.slice(index, index + 2));
        const lends = async (word: string) =>
          (await target.memories.search({ agentId: 'a', text: word, raw: false, limit: 9, now: NOW, highlight: { open: '', close: '' } }))
            .filter((hit) => hit.matched.includes('context'))
            .map((hit) => hit.memory.content.split(' ')[0])
            .sort();
        expect(await lends('alpha')).toEqual(['bravo', 'charlie']);
        expect(await lends('delta')).toEqual(['bravo', 'charlie']);
      } finally {
        await target.done();
      }
    });

    it('restores the search context with the memories of a snapshot', async () => {
      const turns = WORDS.slice(0, 4).map((word, index) => turn('a', word, index));
      await store.memories.insertMany(turns);
      const taken = await store.snapshots.take(`20261102T120000Z-${newId('run')}${store.snapshots.suffix}`, {});
      await store.memories.forget('a', [turns[1]!.id]);
      expect(await lendsTo('alpha')).toEqual(['charlie', 'delta']);
      const source = await store.snapshots.open(taken.path);
      try {
        await store.transaction(async (tx) => source.replace(tx, 'memories', 'a'));
      } finally {
        await source.close();
      }
      expect(await lendsTo('alpha')).toEqual(['bravo', 'charlie']);
      expect(await lendsTo('delta')).toEqual(['bravo', 'charlie']);
    });
  });

  describe('candidates', () => {
    it('stores a candidate exactly, keeps its prompt apart, and lists by status newest first', async () => {
      const first = candidate('a', 'First claim.', { generatedAt: ago(2 * HOUR) });
      const second = candidate('a', 'Second claim.', { generatedAt: ago(HOUR), status: 'rejected' });
      const foreign = candidate('b', 'Foreign claim.');
      for (const row of [first, second, foreign]) await store.candidates.insert(row);
      const { claimNorm: _norm, prompt, ...plain } = first;
      expect(await store.candidates.get('a', first.id)).toEqual(plain);
      expect(await store.candidates.prompt('a', first.id)).toBe(prompt);
      expect(await store.candidates.get('b', first.id)).toBeUndefined();
      expect(await store.candidates.prompt('b', first.id)).toBeUndefined();
      expect((await store.candidates.list({ agentId: 'a', status: 'all', limit: 10 })).map((item) => item.id)).toEqual([second.id, first.id]);
      expect((await store.candidates.list({ agentId: 'a', status: 'pending', limit: 10 })).map((item) => item.id)).toEqual([first.id]);
      expect(await store.candidates.list({ agentId: 'a', status: 'all', limit: 1 })).toHaveLength(1);
      expect(await store.candidates.claimStatus('a', 'First claim.')).toEqual({ live: true, rejected: false });
      expect(await store.candidates.claimStatus('a', 'Second claim.')).toEqual({ live: false, rejected: true });
      expect(await store.candidates.claimStatus('b', 'First claim.')).toEqual({ live: false, rejected: false });
    });

    it('decides a pending candidate once: a second decision, or one for another agent, changes nothing', async () => {
      const row = candidate('a', 'A claim.');
      await store.candidates.insert(row);
      const decision = {
        status: 'promoted' as const,
        reviewer: 'ana',
        rationale: 'seen twice',
        decidedAt: NOW,
        promotedMemoryId: newId('mem'),
        editedClaim: 'Edited.',
      };
      expect(await store.candidates.decide('b', row.id, decision)).toBe(false);
      expect(await store.candidates.decide('a', row.id, decision)).toBe(true);
      expect(await store.candidates.decide('a', row.id, { ...decision, status: 'rejected', reviewer: 'ben' })).toBe(false);
      expect(await store.candidates.get('a', row.id)).toMatchObject<Partial<Candidate>>({
        status: 'promoted',
        reviewer: 'ana',
        reviewRationale: 'seen twice',
        decidedAt: NOW,
        promotedMemoryId: decision.promotedMemoryId,
        editedClaim: 'Edited.',
      });
    });

    it("reads one agent's rejections and edited promotions newest decision first, without its other candidates or another agent's", async () => {
      const decide = (row: ReturnType<typeof candidate>, decision: Parameters<Store['candidates']['decide']>[2]) =>
        store.candidates.decide(row.agentId, row.id, decision);
      const older = candidate('a', 'Older rejected claim.');
      const newer = candidate('a', 'Newer rejected claim.', { forgottenSourceIds: ['mem_gone'] });
      const edited = candidate('a', 'Proposed wording.');
      const kept = candidate('a', 'Kept as proposed.');
      const pending = candidate('a', 'Still pending.');
      const foreign = candidate('b', 'Older rejected claim.');
      for (const row of [older, newer, edited, kept, pending, foreign]) await store.candidates.insert(row);
      await decide(older, { status: 'rejected', reviewer: 'ana', rationale: 'too vague', decidedAt: ago(2 * HOUR) });
      await decide(newer, { status: 'rejected', reviewer: 'ana', rationale: 'wrong', decidedAt: ago(HOUR) });
      await decide(edited, {
        status: 'promoted',
        reviewer: 'ana',
        rationale: 'right, badly put',
        decidedAt: ago(HOUR),
        editedClaim: 'Better wording.',
        promotedMemoryId: 'mem_insight',
      });
      await decide(kept, { status: 'promoted', reviewer: 'ana', rationale: 'right', decidedAt: ago(HOUR) });
      await decide(foreign, { status: 'rejected', reviewer: 'ben', rationale: 'not ours', decidedAt: NOW });
      expect(await store.candidates.decided('a', { kind: 'rejected', limit: 10 })).toEqual([
        {
          id: newer.id,
          claim: 'Newer rejected claim.',
          editedClaim: null,
          rationale: 'wrong',
          decidedAt: ago(HOUR),
          sourcesForgotten: true,
          promotedMemoryId: null,
        },
        {
          id: older.id,
          claim: 'Older rejected claim.',
          editedClaim: null,
          rationale: 'too vague',
          decidedAt: ago(2 * HOUR),
          sourcesForgotten: false,
          promotedMemoryId: null,
        },
      ]);
      expect((await store.candidates.decided('a', { kind: 'rejected', limit: 1 })).map((row) => row.id)).toEqual([newer.id]);
      expect((await store.candidates.decided('a', { kind: 'rejected', limit: 10, claimNorm: older.claimNorm })).map((row) => row.id)).toEqual([older.id]);
      expect(await store.candidates.decided('a', { kind: 'edited', limit: 10 })).toEqual([
        {
          id: edited.id,
          claim: 'Proposed wording.',
          editedClaim: 'Better wording.',
          rationale: 'right, badly put',
          decidedAt: ago(HOUR),
          sourcesForgotten: false,
          promotedMemoryId: 'mem_insight',
        },
      ]);
      expect((await store.candidates.decided('b', { kind: 'rejected', limit: 10 })).map((row) => row.id)).toEqual([foreign.id]);
      expect(await store.candidates.decided('c', { kind: 'rejected', limit: 10 })).toEqual([]);
      // Reopened: no longer a rejection.
      expect(await store.candidates.reopen('a', older.id, { by: 'ana', reason: 'new evidence', at: NOW })).toBe(true);
      expect((await store.candidates.decided('a', { kind: 'rejected', limit: 10 })).map((row) => row.id)).toEqual([newer.id]);
    });

    it('lets exactly one of two reviewers decide: at once on one store, one after the other on two connections', async () => {
      const decide = (on: Store, id: string, reviewer: string) =>
        on.transaction((tx) => tx.candidates.decide('a', id, { status: 'rejected', reviewer, rationale: 'no', decidedAt: NOW }));
      const contested = candidate('a', 'Contested claim.');
      await store.candidates.insert(contested);
      const outcomes = await Promise.all([decide(store, contested.id, 'ana'), decide(store, contested.id, 'ben')]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect((await store.candidates.get('a', contested.id))?.reviewer).toBe(outcomes[0] ? 'ana' : 'ben');
      const again = candidate('a', 'Another claim.');
      await store.candidates.insert(again);
      const other = await store.reopen();
      expect(await decide(other, again.id, 'ben')).toBe(true);
      expect(await decide(store, again.id, 'ana')).toBe(false);
      expect((await store.candidates.get('a', again.id))?.reviewer).toBe('ben');
    });
  });

  describe('runs', () => {
    it("stores a run exactly; an agent sees its own and the store-wide runs, not another agent's, newest first", async () => {
      const night = run(null, { kind: 'rem nightly run-once', startedAt: ago(3 * HOUR), counts: { archived: 2 }, steps: { lock: 'acquired' } });
      const mine = run('a', { startedAt: ago(2 * HOUR), parentRunId: night.id });
      const theirs = run('b', { startedAt: ago(HOUR) });
      for (const row of [night, mine, theirs]) await store.runs.insert(row);
      expect(await store.runs.get(night.id)).toEqual(night);
      expect(await store.runs.get(night.id, 'a')).toEqual(night);
      expect(await store.runs.get(theirs.id, 'a')).toBeUndefined();
      expect((await store.runs.list({ limit: 10 })).map((item) => item.id)).toEqual([theirs.id, mine.id, night.id]);
      expect((await store.runs.list({ limit: 10, agentId: 'a' })).map((item) => item.id)).toEqual([mine.id, night.id]);
      expect(await store.runs.list({ limit: 1 })).toHaveLength(1);
      expect(await store.runs.kindOf(night.id)).toBe('rem nightly run-once');
      expect(await store.runs.kindOf('run_01JD0000000000000000000000')).toBeUndefined();
    });

    it('finishes a run only while it is running; records the snapshot path at once', async () => {
      const row = run('a');
      await store.runs.insert(row);
      await store.runs.setSnapshotPath(row.id, '/snapshots/x.db');
      const done: Run = {
        ...row,
        status: 'completed',
        finishedAt: ago(-1000),
        durationMs: 1000,
        counts: { staged: 2, gathered: 5 },
        candidateIds: ['cand_01JD0000000000000000000001'],
        model: 'm',
        errors: [],
        snapshotPath: '/snapshots/x.db',
        steps: { distill: 'done' },
      };
      expect(await store.runs.finish(done)).toBe(true);
      expect(await store.runs.finish({ ...done, status: 'failed', errors: ['late'] })).toBe(false);
      expect(await store.runs.get(row.id)).toEqual(done);
    });

    it('interrupts the rows a dead run left running — the run and its children — and nothing else', async () => {
      const dead = run(null, { kind: 'rem nightly run-once', startedAt: ago(HOUR) });
      const child = run('a', { kind: 'rem nightly run-once', parentRunId: dead.id, startedAt: ago(HOUR / 2) });
      const finishedChild = run('b', { parentRunId: dead.id, status: 'completed', finishedAt: ago(1000) });
      const unrelated = run('a');
      for (const row of [dead, child, finishedChild, unrelated]) await store.runs.insert(row);
      expect(await store.runs.interruptAbandoned(dead.id, NOW)).toBe(2);
      expect(await store.runs.get(dead.id)).toMatchObject({ status: 'interrupted', errors: ['interrupted'], finishedAt: NOW, durationMs: HOUR });
      expect(await store.runs.get(child.id)).toMatchObject({ status: 'interrupted', durationMs: HOUR / 2 });
      expect((await store.runs.get(finishedChild.id))?.status).toBe('completed');
      expect((await store.runs.get(unrelated.id))?.status).toBe('running');
    });
  });

  describe('handoffs and settings', () => {
    it('stores a handoff with its prompt, per agent, and marks it ingested once', async () => {
      const row = handoff('a');
      await store.handoffs.insert(row);
      expect(await store.handoffs.get('a', row.id)).toEqual(row);
      expect(await store.handoffs.get('b', row.id)).toBeUndefined();
      const runId = newId('run');
      expect(await store.handoffs.markIngested('b', row.id, NOW, runId)).toBe(false);
      expect(await store.handoffs.markIngested('a', row.id, NOW, runId)).toBe(true);
      expect(await store.handoffs.markIngested('a', row.id, NOW, newId('run'))).toBe(false);
      expect(await store.handoffs.get('a', row.id)).toMatchObject({ ingestedAt: NOW, ingestRunId: runId });
    });

    it("keeps a redacted handoff's placeholder map on the row until an answer is staged, then clears it (issue 17)", async () => {
      const map = { '⟦card 1⟧': '4111 1111 1111 1111', '⟦email 1⟧': 'jane@example.ie', '⟦phone 1⟧': '+353 1\n234 5678' };
      const row = handoff('a', { placeholders: map });
      await store.handoffs.insert(row);
      expect((await store.handoffs.get('a', row.id))?.placeholders).toEqual(map);
      const plain = handoff('a');
      await store.handoffs.insert(plain);
      expect((await store.handoffs.get('a', plain.id))?.placeholders).toBeNull();
      expect(await store.handoffs.markIngested('a', row.id, NOW, newId('run'))).toBe(true);
      expect(await store.handoffs.get('a', row.id)).toMatchObject({ ingestedAt: NOW, placeholders: null });
    });

    it('keeps store-wide settings: set if absent, set, delete (only the value given)', async () => {
      expect(await store.settings.get('k')).toBeUndefined();
      expect(await store.settings.setIfAbsent('k', 'first')).toBe(true);
      expect(await store.settings.setIfAbsent('k', 'second')).toBe(false);
      expect(await store.settings.get('k')).toBe('first');
      await store.settings.set('k', 'third');
      expect(await store.settings.delete('k', 'first')).toBe(false);
      expect(await store.settings.delete('k', 'third')).toBe(true);
      expect(await store.settings.delete('k')).toBe(false);
    });
  });

  describe('MCP tokens', () => {
    const token = (agentId: string, extra: Partial<TokenRecord> = {}): TokenRecord => ({
      id: newId('tok', Date.parse(extra.createdAt ?? NOW)),
      agentId,
      label: 'laptop',
      tokenHash: `${agentId}-${Math.random().toString(16).slice(2)}`.padEnd(64, '0'),
      createdAt: NOW,
      revokedAt: null,
      ...extra,
    });
    const publicPart = ({ tokenHash: _hash, ...rest }: TokenRecord) => rest;

    it('stores a token exactly and finds it by its hash or id, for any agent; never returns the hash', async () => {
      const row = token('a', { label: null });
      await store.tokens.insert(row);
      expect(await store.tokens.findByHash(row.tokenHash)).toEqual(publicPart(row));
      expect(await store.tokens.get(row.id)).toEqual(publicPart(row));
      expect(await store.tokens.findByHash('f'.repeat(64))).toBeUndefined();
      expect(await store.tokens.get(newId('tok'))).toBeUndefined();
    });

    it("lists one agent's tokens or every agent's, newest first (createdAt, then id), revoked ones too", async () => {
      const older = token('a', { createdAt: ago(DAY) });
      const newer = token('a', { createdAt: ago(HOUR) });
      const sameTime = token('a', { createdAt: ago(HOUR) });
      const theirs = token('b', { createdAt: ago(2 * HOUR), revokedAt: ago(HOUR) });
      for (const row of [newer, theirs, older, sameTime]) await store.tokens.insert(row);
      expect(await store.tokens.list('a')).toEqual([sameTime, newer, older].map(publicPart));
      expect(await store.tokens.list('b')).toEqual([publicPart(theirs)]);
      expect(await store.tokens.list('c')).toEqual([]);
      expect(await store.tokens.list()).toEqual([sameTime, newer, theirs, older].map(publicPart));
    });

    it('revokes a live token once: a second revoke, or one of an unknown id, changes nothing', async () => {
      const row = token('a');
      const other = token('a');
      await store.tokens.insert(row);
      await store.tokens.insert(other);
      expect(await store.tokens.revoke(row.id, NOW)).toBe(true);
      clock.set(ago(-HOUR));
      expect(await store.tokens.revoke(row.id, ago(-HOUR))).toBe(false);
      expect(await store.tokens.revoke(newId('tok'), NOW)).toBe(false);
      expect(await store.tokens.findByHash(row.tokenHash)).toEqual({ ...publicPart(row), revokedAt: NOW });
      expect(await store.tokens.get(other.id)).toEqual(publicPart(other));
    });

    it('refuses a second token with the same hash (the secret is the identity), writing nothing', async () => {
      const row = token('a');
      await store.tokens.insert(row);
      const error = await rejection(store.tokens.insert(token('b', { tokenHash: row.tokenHash })));
      expect(error.code).toBe('unexpected');
      expect(await store.tokens.list()).toEqual([publicPart(row)]);
    });

    it('is inside transactions like every facet: a rollback leaves no token', async () => {
      const row = token('a');
      await expect(
        store.transaction(async (tx) => {
          await tx.tokens.insert(row);
          expect(await tx.tokens.get(row.id)).toEqual(publicPart(row));
          throw new ConflictError('nightly_running', 'roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await store.tokens.get(row.id)).toBeUndefined();
    });
  });

  describe('transactions', () => {
    it('commits what the function wrote, and rolls back everything when it throws, passing its error through', async () => {
      const kept = memory('a', 'kept');
      await store.transaction(async (tx) => {
        await tx.memories.insert(kept);
        await tx.settings.set('k', 'v');
      });
      const before = await everything(store, null);
      const boom = new Error('boom');
      const thrown = await store
        .transaction(async (tx) => {
          await tx.memories.insert(memory('a', 'lost'));
          await tx.candidates.insert(candidate('a', 'Lost claim.'));
          await tx.runs.insert(run('a'));
          await tx.handoffs.insert(handoff('a'));
          await tx.settings.set('k', 'changed');
          await tx.memories.archive('a', [kept.id], 'lost too', NOW);
          throw boom;
        })
        .catch((error: unknown) => error);
      expect(thrown).toBe(boom);
      expect(await everything(store, null)).toEqual(before);
    });

    it('joins a transaction started inside another: one commit or one rollback for both', async () => {
      await store
        .transaction(async (tx) => {
          await tx.memories.insert(memory('a', 'outer'));
          await store.transaction(async (inner) => inner.memories.insert(memory('a', 'inner')));
          throw new ConflictError('nightly_running', 'stop');
        })
        .catch(() => undefined);
      expect(await store.rows.count('memories', null)).toBe(0);
      await store.transaction(async (tx) => {
        await tx.memories.insert(memory('a', 'outer'));
        expect(await store.tryTransaction(async (inner) => inner.memories.insert(memory('a', 'inner')))).toBe(true);
      });
      expect(await store.rows.count('memories', null)).toBe(2);
    });

    it('never interleaves two transactions of one store: each commits or rolls back on its own', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const failing = store
        .transaction(async (tx) => {
          await tx.memories.insert(memory('a', 'rolled back'));
          await gate;
          throw new Error('fails after the other one started');
        })
        .catch(() => 'failed');
      const succeeding = store.transaction(async (tx) => tx.memories.insert(memory('a', 'committed')));
      setTimeout(release, 20);
      expect(await Promise.all([failing, succeeding])).toEqual(['failed', true]);
      expect((await all(store.memories.iterate('a'))).map((item) => item.content)).toEqual(['committed']);
    });

    it('tryTransaction gives up (undefined) while another writer holds the lock, here or on another connection, and writes otherwise', async () => {
      const row = memory('a', 'counted');
      await store.memories.insert(row);
      const bump = (on: Store) => on.tryTransaction(async (tx) => (await tx.memories.recordRetrieval('a', [row.id], NOW), 'bumped'), 100);
      for (const holder of [store, await store.reopen()]) {
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let started!: () => void;
        const writing = new Promise<void>((resolve) => (started = resolve));
        const holding = holder.transaction(async (tx) => {
          await tx.memories.recordRetrieval('a', [row.id], NOW);
          started();
          await held;
        });
        await writing;
        expect(await bump(store)).toBeUndefined();
        release();
        await holding;
      }
      expect(await bump(store)).toBe('bumped');
      expect((await store.memories.get('a', row.id))?.retrievalCount).toBe(3);
    });
  });

  describe('whole tables', () => {
    async function fill(target: StoreOps): Promise<void> {
      await target.memories.insertMany([
        memory('a', 'one', { tags: ['t'], archivedAt: ago(1) }),
        memory('b', 'two', { expiresAt: '2030-01-01T00:00:00.001Z' }),
      ]);
      await target.candidates.insert(candidate('a', 'A claim.', { status: 'promoted', reviewer: 'ana', reviewRationale: 'ok', decidedAt: NOW }));
      await target.candidates.insert(candidate('b', 'B claim.'));
      await target.runs.insert(run('a', { status: 'completed', finishedAt: NOW, durationMs: 5, counts: { staged: 1 }, steps: { a: 'b' } }));
      await target.runs.insert(run(null, { kind: 'rem nightly run-once' }));
      await target.handoffs.insert(handoff('b', { ingestedAt: NOW, ingestRunId: newId('run') }));
      await target.settings.set('nightly.paused', NOW);
    }

    it('dumps every table in id order and loads it into another store losslessly; existing ids are skipped', async () => {
      await fill(store);
      const dumped = await everything(store, null);
      for (const table of STORE_TABLES) {
        const ids = (dumped[table] as { id?: string; key?: string }[]).map((row) => row.id ?? row.key);
        expect(ids, table).toEqual([...ids].sort());
      }
      const target = await openTestStore(engine, clock);
      try {
        for (const table of STORE_TABLES) {
          const rows = dumped[table] as TableRows[typeof table][];
          expect(await target.rows.load(table, rows), table).toBe(rows.length);
          expect(await target.rows.load(table, rows), table).toBe(0);
        }
        expect(await everything(target, null)).toEqual(dumped);
        expect(await target.memories.search({ agentId: 'b', text: 'two', raw: false, limit: 5, now: NOW, highlight: { open: '', close: '' } })).toHaveLength(1);
      } finally {
        await target.done();
      }
    });

    it("scopes dump, count and deleteAll to one agent: runs without an agent and settings are nobody's", async () => {
      await fill(store);
      const mine = await everything(store, 'a');
      expect(Object.fromEntries(STORE_TABLES.map((table) => [table, mine[table]!.length]))).toEqual({
        memories: 1,
        candidates: 1,
        runs: 1,
        handoffs: 0,
        settings: 0,
      });
      expect(await store.rows.count('runs', null)).toBe(2);
      expect(await store.rows.deleteAll('memories', 'a')).toBe(1);
      expect(await store.rows.deleteAll('settings', 'a')).toBe(0);
      expect(await store.rows.count('memories', null)).toBe(1);
      expect(await everything(store, 'b')).toEqual(await everything(store, 'b'));
      expect(await store.rows.deleteAll('settings', null)).toBe(1);
    });

    it("no agent-scoped method reaches another agent's rows", async () => {
      await fill(store);
      const theirs = await everything(store, 'a');
      const ids = (theirs.memories as Memory[]).map((item) => item.id);
      const [claim] = theirs.candidates as CandidateRecord[];
      const [audit] = theirs.runs as Run[];
      expect(await store.memories.getMany('b', ids)).toEqual([]);
      expect(await store.memories.archive('b', ids, 'x', NOW)).toEqual([]);
      await store.memories.stampReflected('b', ids, NOW);
      await store.memories.recordRetrieval('b', ids, NOW);
      expect((await store.memories.list({ agentId: 'b', limit: 10, includeArchived: true })).map((item) => item.agentId)).toEqual(['b']);
      expect((await all(store.memories.iterate('b'))).map((item) => item.agentId)).toEqual(['b']);
      expect(
        (await store.memories.gather({ agentId: 'b', now: NOW, since: ago(DAY), scope: 'all', unreflected: false, limit: 10 })).memories.map(
          (item) => item.agentId,
        ),
      ).toEqual(['b']);
      expect(
        await store.memories.search({ agentId: 'b', text: 'one', raw: false, limit: 5, now: NOW, highlight: { open: '', close: '' }, includeArchived: true }),
      ).toEqual([]);
      expect(await store.candidates.get('b', claim!.id)).toBeUndefined();
      expect(await store.candidates.decide('b', claim!.id, { status: 'rejected', reviewer: 'x', rationale: 'x', decidedAt: NOW })).toBe(false);
      expect(await store.runs.get(audit!.id, 'b')).toBeUndefined();
      expect(await everything(store, 'a')).toEqual(theirs);
    });
  });

  describe('the memory lifecycle', () => {
    it('updates a memory in place (identity and creation kept), the search index following; another agent’s id is false', async () => {
      const original = memory('a', 'the billing cron runs at 02:00', { tags: ['billing'] });
      const theirs = memory('b', 'the billing cron of b');
      await store.memories.insertMany([original, theirs]);
      const edited: Memory = {
        ...original,
        content: 'the invoicing job runs at 03:00',
        contentHash: 'f'.repeat(64),
        tags: ['invoices'],
        subject: 'jobs',
        durability: 'persistent',
        updatedAt: NOW,
        createdAt: '2000-01-01T00:00:00.000Z', // identity and creation are never rewritten
      };
      expect(await store.memories.update(edited)).toBe(true);
      expect(await store.memories.get('a', original.id)).toEqual({ ...edited, createdAt: original.createdAt });
      const search = (agentId: string, text: string) =>
        store.memories.search({ agentId, text, raw: false, limit: 10, now: NOW, highlight: { open: '[', close: ']' } });
      expect(await search('a', 'billing')).toEqual([]);
      expect((await search('a', 'invoicing')).map((hit) => hit.memory.id)).toEqual([original.id]);
      expect(await store.memories.update({ ...theirs, agentId: 'a', content: 'hijacked' })).toBe(false);
      expect(await store.memories.get('b', theirs.id)).toEqual(theirs);
    });

    it('unarchives the agent’s archived memories only, and lists a memory’s older versions newest first', async () => {
      const [live, archived, other] = [memory('a', 'live'), memory('a', 'archived'), memory('b', 'archived too')];
      await store.memories.insertMany([live, archived, other]);
      await store.memories.archive('a', [archived.id], 'by hand', NOW);
      await store.memories.archive('b', [other.id], 'by hand', NOW);
      clock.advance(HOUR);
      expect(await store.memories.unarchive('a', [live.id, archived.id, other.id, archived.id], ago(-HOUR))).toEqual([archived.id]);
      expect(await store.memories.get('a', archived.id)).toMatchObject({ archivedAt: null, archivedReason: null, updatedAt: ago(-HOUR) });
      expect(await store.memories.get('b', other.id)).toMatchObject({ archivedReason: 'by hand' });

      const older = memory('a', 'first wording', { versionOf: live.id, archivedAt: ago(2 * HOUR), updatedAt: ago(3 * HOUR) });
      const newer = memory('a', 'second wording', { versionOf: live.id, archivedAt: ago(HOUR), updatedAt: ago(2 * HOUR) });
      await store.memories.insertMany([older, newer, memory('b', 'not a version of a', { versionOf: live.id })]);
      expect((await store.memories.versions('a', live.id)).map((item) => item.id)).toEqual([newer.id, older.id]);
      expect(await store.memories.versions('b', newer.id)).toEqual([]);
    });

    it('reopens a rejected candidate once (guarded), clearing the decision; counts pending candidates per agent', async () => {
      const rejected = candidate('a', 'Rejected.', { status: 'rejected', reviewer: 'ana', reviewRationale: 'vague', decidedAt: NOW });
      const promoted = candidate('a', 'Promoted.', { status: 'promoted', reviewer: 'ana', reviewRationale: 'yes', decidedAt: NOW });
      const pending = candidate('a', 'Pending.');
      await Promise.all([rejected, promoted, pending, candidate('b', 'B pending.')].map((item) => store.candidates.insert(item)));
      const reopening = { by: 'bo', reason: 'rejected by mistake', at: ago(-HOUR) };
      expect(await store.candidates.reopen('b', rejected.id, reopening)).toBe(false);
      expect(await store.candidates.reopen('a', promoted.id, reopening)).toBe(false);
      expect(await store.candidates.reopen('a', pending.id, reopening)).toBe(false);
      expect(await store.candidates.reopen('a', rejected.id, reopening)).toBe(true);
      expect(await store.candidates.reopen('a', rejected.id, reopening)).toBe(false);
      const { claimNorm: _norm, prompt: _prompt, ...shown } = rejected;
      expect(await store.candidates.get('a', rejected.id)).toEqual({
        ...shown,
        status: 'pending',
        reviewer: null,
        reviewRationale: null,
        decidedAt: null,
        reopenedBy: 'bo',
        reopenedAt: ago(-HOUR),
        reopenReason: 'rejected by mistake',
      });
      expect(await store.candidates.pendingCounts()).toEqual([
        { agentId: 'a', pending: 2 },
        { agentId: 'b', pending: 1 },
      ]);
    });

    it('prunes finished runs of every agent started before a time, never a running one; a dry run only counts', async () => {
      const old = [run('a', { startedAt: ago(100 * DAY), status: 'completed' }), run(null, { startedAt: ago(95 * DAY), status: 'failed' })];
      const stuck = run('b', { startedAt: ago(120 * DAY) });
      const recent = run('a', { startedAt: ago(DAY), status: 'completed' });
      for (const row of [...old, stuck, recent]) await store.runs.insert(row);
      expect(await store.runs.prune(ago(90 * DAY), { dryRun: true })).toBe(2);
      expect((await store.runs.list({ limit: 10 })).length).toBe(4);
      expect(await store.runs.prune(ago(90 * DAY))).toBe(2);
      expect((await store.runs.list({ limit: 10 })).map((row) => row.id).sort()).toEqual([stuck.id, recent.id].sort());
    });

    it('erases memories by id (with their older versions) and by text, rewriting what cites or holds them, for one agent only', async () => {
      const secret = memory('a', 'the key is zqx-secret-1', { tags: ['creds'] });
      const version = memory('a', 'the old key was zqx-secret-0', { versionOf: secret.id, archivedAt: NOW });
      const tagged = memory('a', 'nothing in the text', { tags: ['zqx-secret-tag'] });
      const innocent = memory('a', 'an innocent note');
      const theirs = memory('b', 'the key is zqx-secret-1');
      await store.memories.insertMany([secret, version, tagged, innocent, theirs]);
      const prompt = (texts: string[]) => texts.map((text, index) => `<memory ref="m${index + 1}" date="2026-11-02">${text}</memory>`).join('\n');
      const citing = candidate('a', 'Keys rotate.', { sourceMemoryIds: [secret.id, innocent.id], prompt: prompt([secret.content, innocent.content]) });
      const holding = candidate('a', 'Notes exist.', { sourceMemoryIds: [innocent.id], prompt: prompt([innocent.content, secret.content]) });
      const claimed = candidate('a', 'The key is zqx-secret-1.', { sourceMemoryIds: [innocent.id] });
      const untouched = candidate('a', 'Unrelated.', { sourceMemoryIds: [innocent.id], prompt: prompt([innocent.content]) });
      const theirCandidate = candidate('b', 'The key is zqx-secret-1.', { sourceMemoryIds: [theirs.id], prompt: prompt([theirs.content]) });
      for (const row of [citing, holding, claimed, untouched, theirCandidate]) await store.candidates.insert(row);
      const handoff1 = handoff('a', { refs: { m1: secret.id }, prompt: prompt([secret.content]) });
      await store.handoffs.insert(handoff1);
      const before = await everything(store, null);

      let seen: Memory[] = [];
      const rewriter: EraseRewriter = (erased) => {
        seen = [...erased];
        return forgetRewriter('zqx-secret')(erased);
      };
      const spec = { agentId: 'a', memoryIds: [secret.id], match: 'zqx-secret' };
      const dry = await store.erasure.erase(spec, rewriter, { dryRun: true });
      expect(dry.memories.map((item) => item.id).sort()).toEqual([secret.id, version.id, tagged.id].sort());
      expect(seen.map((item) => item.id).sort()).toEqual(dry.memories.map((item) => item.id).sort());
      expect({ changed: dry.candidatesChanged.sort(), deleted: dry.candidatesDeleted, handoffs: dry.handoffsChanged }).toEqual({
        changed: [citing.id, holding.id].sort(),
        deleted: [claimed.id],
        handoffs: [handoff1.id],
      });
      expect(await everything(store, null)).toEqual(before);

      const report = await store.transaction((tx) => tx.erasure.erase(spec, rewriter));
      expect(report).toEqual(dry);
      for (const gone of [secret, version, tagged]) expect(await store.memories.get('a', gone.id)).toBeUndefined();
      expect(await store.memories.get('a', innocent.id)).toEqual(innocent);
      expect(await store.memories.get('b', theirs.id)).toEqual(theirs);
      const hits = await store.memories.search({ agentId: 'a', text: 'zqx key', raw: false, limit: 10, now: NOW, highlight: { open: '[', close: ']' } });
      expect(hits).toEqual([]);
      expect(await store.candidates.get('a', claimed.id)).toBeUndefined();
      expect(await store.candidates.get('a', citing.id)).toMatchObject({ forgottenSourceIds: [secret.id], claim: 'Keys rotate.' });
      expect(await store.candidates.prompt('a', citing.id)).toBe(prompt(['[forgotten]', innocent.content]));
      expect(await store.candidates.get('a', holding.id)).toMatchObject({ forgottenSourceIds: [] });
      expect(await store.candidates.prompt('a', holding.id)).toBe(prompt([innocent.content, '[forgotten]']));
      expect(await store.candidates.prompt('a', untouched.id)).toBe(untouched.prompt);
      expect(await store.candidates.get('b', theirCandidate.id)).toMatchObject({ claim: theirCandidate.claim });
      expect((await store.handoffs.get('a', handoff1.id))!.prompt).toBe(prompt(['[forgotten]']));
      expect(await store.erasure.erase(spec, rewriter)).toEqual({ memories: [], candidatesChanged: [], candidatesDeleted: [], handoffsChanged: [] });
      expect((await store.reclaim()).complete).toBe(true);
    });

    it('finds a memory in a redacted prompt (placeholders for its values), live and in a snapshot, citing it or not', async () => {
      const EMAIL = 'jane.canary@example.ie';
      const note = memory('a', `Refund Jane Canary via ${EMAIL} before Friday.`);
      const other = memory('a', 'Refund Tom via tom.other@example.ie before Friday.');
      await store.memories.insertMany([note, other]);
      const items = [note, other].map((item, index) => ({ ref: `m${index + 1}`, memory: item, ...clip(item.content) }));
      const { prompt } = await preparePrompt(items, { focus: 'lessons', maxCandidates: 10, redact: 'always', destination: 'remote' });
      expect(prompt).not.toContain(note.content); // the premise: plain matching cannot find it
      const cites = candidate('a', 'Refunds go by mail.', { sourceMemoryIds: [other.id], prompt });
      await store.candidates.insert(cites);
      const taken = await store.snapshots.take(`20261102T120000Z-${newId('run')}${store.snapshots.suffix}`, {});
      const spec = { agentId: 'a', memoryIds: [note.id] };
      expect((await store.snapshots.erase(taken.path, spec, forgetRewriter(undefined), { dryRun: true })).candidatesChanged).toEqual([cites.id]);
      expect((await store.erasure.erase(spec, forgetRewriter(undefined), { dryRun: true })).candidatesChanged).toEqual([cites.id]);
      await store.transaction((tx) => tx.erasure.erase(spec, forgetRewriter(undefined)));
      await store.snapshots.erase(taken.path, spec, forgetRewriter(undefined));
      const scrubbed = (await store.candidates.prompt('a', cites.id))!;
      expect(scrubbed).not.toContain('Jane Canary');
      expect(scrubbed).toContain('<memory ref="m1" date="2026-11-02">[forgotten]</memory>');
      expect(scrubbed).toContain('Refund Tom via');
      const source = await store.snapshots.open(taken.path);
      try {
        expect(await source.matches(store, 'candidates', 'a')).toBe(true);
      } finally {
        await source.close();
      }
      if (store.engine === 'sqlite') expect(readFileSync(taken.path).includes(Buffer.from('Jane Canary'))).toBe(false);
    });

    it('deletes the candidate promoted to an erased memory, even when the memory no longer reads as its claim, live and in a snapshot', async () => {
      const promoted = memory('a', 'Billing moved to the afternoon.'); // edited since it was promoted
      await store.memories.insert(promoted);
      const decided = candidate('a', 'Billing runs at night.', { status: 'promoted', promotedMemoryId: promoted.id, prompt: '<prompt>' });
      const kept = candidate('a', 'Deploys stall.', { prompt: '<another prompt>' });
      await store.candidates.insert(decided);
      await store.candidates.insert(kept);
      const taken = await store.snapshots.take(`20261102T120000Z-${newId('run')}${store.snapshots.suffix}`, {});
      const spec = { agentId: 'a', memoryIds: [promoted.id] };
      expect((await store.snapshots.erase(taken.path, spec, forgetRewriter(undefined), { dryRun: true })).candidatesDeleted).toEqual([decided.id]);
      const report = await store.transaction((tx) => tx.erasure.erase(spec, forgetRewriter(undefined)));
      expect([report.candidatesDeleted, report.candidatesChanged]).toEqual([[decided.id], []]);
      expect(await store.candidates.get('a', decided.id)).toBeUndefined();
      expect(await store.candidates.get('a', kept.id)).toBeDefined();
      await store.snapshots.erase(taken.path, spec, forgetRewriter(undefined));
      if (store.engine === 'sqlite') expect(readFileSync(taken.path).includes(Buffer.from('Billing runs at night.'))).toBe(false);
    });

    it('an erase inside a transaction rolls back with it', async () => {
      const gone = memory('a', 'to be erased');
      await store.memories.insert(gone);
      await expect(
        store.transaction(async (tx) => {
          await tx.erasure.erase({ agentId: 'a', memoryIds: [gone.id] }, forgetRewriter(undefined));
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await store.memories.get('a', gone.id)).toEqual(gone);
    });
  });

  describe('lock, snapshots, description', () => {
    it('holds the nightly lock for one taker at a time (exit 4 at once for another), until released', async () => {
      const first = await store.lock.acquire({ runId: newId('run'), kind: 'rem nightly run-once' });
      expect(await store.lock.holder()).toMatchObject({ runId: first.holder.runId, pid: process.pid, kind: 'rem nightly run-once' });
      const other = await store.reopen();
      expect(await rejection(other.lock.acquire({ runId: newId('run'), kind: 'rem restore' }))).toMatchObject({ code: 'nightly_running', exitCode: 4 });
      await first.release();
      expect(await store.lock.holder()).toBeNull();
      const second = await other.lock.acquire({ runId: newId('run'), kind: 'rem restore' });
      expect(second.takenOver).toBeNull();
      await second.release();
    });

    it('takes a verified snapshot and restores one agent from it, leaving the others alone', async () => {
      const kept = memory('a', 'kept');
      await store.memories.insertMany([kept, memory('b', 'b before')]);
      await store.candidates.insert(candidate('a', 'A claim.'));
      const name = `20261102T120000Z-${newId('run')}${store.snapshots.suffix}`;
      const taken = await store.snapshots.take(name, {});
      expect(dirname(taken.path)).toBe(store.snapshots.dir);
      expect(existsSync(taken.path) && statSync(taken.path).mode & 0o777).toBe(0o600);
      for (const level of ['header', 'quick', 'full'] as const) expect((await store.snapshots.check(taken.path, level)).ok, level).toBe(true);

      await store.memories.insert(memory('a', 'added later'));
      await store.memories.archive('a', [kept.id], 'changed later', NOW);
      await store.memories.insert(memory('b', 'b after'));
      const source = await store.snapshots.open(taken.path);
      try {
        expect(await source.verify()).toBe(true);
        expect(await source.compare(store, 'memories', 'a')).toEqual({ table: 'memories', added: 0, removed: 1, changed: 1, unchanged: 0 });
        expect(await source.compare(store, 'candidates', 'a')).toEqual({ table: 'candidates', added: 0, removed: 0, changed: 0, unchanged: 1 });
        await store.transaction(async (tx) => {
          for (const table of ['memories', 'candidates', 'handoffs'] as const) await source.replace(tx, table, 'a');
          for (const table of ['memories', 'candidates', 'handoffs'] as const) expect(await source.matches(tx, table, 'a')).toBe(true);
        });
        expect(await source.matches(store, 'memories', null)).toBe(false);
      } finally {
        await source.close();
      }
      expect(await all(store.memories.iterate('a'))).toEqual([kept]);
      expect((await all(store.memories.iterate('b'))).map((item) => item.content).sort()).toEqual(['b after', 'b before']);
    });

    it('takes no snapshot when nothing a restore puts back changed since the one given, and one after any change', async () => {
      await store.memories.insert(memory('a', 'kept'));
      const name = (minute: number) => `20261102T12${String(minute).padStart(2, '0')}00Z-${newId('run')}${store.snapshots.suffix}`;
      const first = await store.snapshots.take(name(0), {});
      expect(first.unchanged).toBe(false);
      await store.runs.insert(run(null)); // the audit log is not restored: no change
      await store.settings.set('nightly.paused', NOW); // nor are settings
      const same = await store.snapshots.take(name(1), { unlessSameAs: first.path });
      expect(same).toMatchObject({ unchanged: true, path: first.path, sizeBytes: first.sizeBytes });
      expect(readdirSync(store.snapshots.dir).filter((file) => !file.startsWith('.'))).toEqual([basename(first.path)]);
      await store.candidates.insert(candidate('b', 'A change.'));
      const changed = await store.snapshots.take(name(2), { unlessSameAs: first.path });
      expect(changed.unchanged).toBe(false);
      expect(changed.path).not.toBe(first.path);
      expect((await store.snapshots.check(changed.path, 'full')).ok).toBe(true);
    });

    it('erases from a snapshot what an erase takes from the store, rewriting it in place; a damaged one is exit 2', async () => {
      const secret = memory('a', 'the key is zqx-secret-1');
      const kept = memory('a', 'kept');
      const theirs = memory('b', 'the key is zqx-secret-1');
      await store.memories.insertMany([secret, kept, theirs]);
      const cites = candidate('a', 'Keys.', { sourceMemoryIds: [secret.id], prompt: `<memory ref="m1" date="2026-11-02">${secret.content}</memory>` });
      await store.candidates.insert(cites);
      const taken = await store.snapshots.take(`20261102T120000Z-${newId('run')}${store.snapshots.suffix}`, {});
      const spec = { agentId: 'a', memoryIds: [secret.id] };
      const dry = await store.snapshots.erase(taken.path, spec, forgetRewriter(undefined), { dryRun: true });
      expect({ memories: dry.memories.map((item) => item.id), changed: dry.candidatesChanged }).toEqual({ memories: [secret.id], changed: [cites.id] });
      const untouchedBytes = readFileSync(taken.path);
      expect(await store.snapshots.erase(taken.path, { agentId: 'a', memoryIds: [newId('mem')] }, forgetRewriter(undefined))).toEqual({
        memories: [],
        candidatesChanged: [],
        candidatesDeleted: [],
        handoffsChanged: [],
      });
      expect(readFileSync(taken.path).equals(untouchedBytes)).toBe(true);

      const report = await store.snapshots.erase(taken.path, spec, forgetRewriter(undefined));
      expect(report).toEqual(dry);
      expect(statSync(taken.path).mode & 0o777).toBe(0o600);
      expect(readdirSync(store.snapshots.dir).filter((file) => file.startsWith('.'))).toEqual([]);
      for (const level of ['header', 'quick', 'full'] as const) expect((await store.snapshots.check(taken.path, level)).ok, level).toBe(true);
      expect((await store.snapshots.erase(taken.path, spec, forgetRewriter(undefined), { dryRun: true })).memories).toEqual([]);
      // Restoring the rewritten snapshot brings back everything but what was erased.
      await store.transaction((tx) => tx.erasure.erase(spec, forgetRewriter(undefined)));
      const source = await store.snapshots.open(taken.path);
      try {
        for (const table of ['memories', 'candidates', 'handoffs'] as const) expect(await source.matches(store, table, null), table).toBe(true);
      } finally {
        await source.close();
      }
      expect(await store.memories.get('b', theirs.id)).toEqual(theirs);

      writeFileSync(taken.path, readFileSync(taken.path).subarray(0, 200));
      expect(await rejection(store.snapshots.erase(taken.path, spec, forgetRewriter(undefined), { dryRun: true }))).toMatchObject({
        code: 'snapshot_damaged',
        exitCode: 2,
      });
    });

    it('describes itself: engine, schema version, counts', async () => {
      await store.memories.insert(memory('a', 'one'));
      expect(await store.describe()).toMatchObject({
        engine,
        location: store.location,
        counts: { memories: 1, candidates: 0, runs: 0, handoffs: 0, settings: 0 },
      });
      expect((await store.describe()).schemaVersion).toBeGreaterThan(0);
    });
  });
});
