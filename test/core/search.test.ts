import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HippoError } from '../../src/core/errors.js';
import { addMemory, getMemory } from '../../src/core/memory/memory.js';
import { search } from '../../src/core/search.js';
import { MAX_TERMS } from '../../src/core/search-terms.js';
import { buildMatchExpression } from '../../src/core/store/sqlite/fts.js';
import { fixedClock, tempStore } from '../helpers/store.js';

let store: Awaited<ReturnType<typeof tempStore>>;
const clock = fixedClock('2026-11-02T09:30:00.000Z');
const ids: Record<string, string> = {};

beforeEach(async () => {
  clock.set('2026-10-01T09:00:00.000Z');
  store = await tempStore(clock);
  const notes: [string, string, string[]][] = [
    ['cron', 'Moved the billing cron from 01:00 to 02:30 UTC so it no longer overlaps the nightly backup window.', ['billing', 'decision']],
    ['invoice', 'Billing: the invoice PDF renderer times out for customers with more than 400 line items.', ['billing', 'incident']],
    ['deploy', 'Deploy of api v2.14 failed on Friday: the migration held a lock on the payments table.', ['deploy', 'incident']],
    ['lunch', 'Team lunch on Thursday at the Italian place near the office.', []],
    ['café', 'Café meeting with the Zürich vendor about résumé parsing.', ['vendor']],
  ];
  for (const [key, content, tags] of notes) {
    ids[key] = (await addMemory(store, { agentId: 'ops', content, tags })).memory.id;
    clock.advance(86_400_000);
  }
  await addMemory(store, { agentId: 'ops-2', content: 'Billing cron belongs to another agent entirely.' });
  await addMemory(store, { agentId: 'other', content: 'Moved the billing cron for the other agent.' });
});
afterEach(() => store.done());

const hitIds = async (query: string, extra: Partial<Parameters<typeof search>[1]> = {}): Promise<string[]> =>
  (await search(store, { agentId: 'ops', query, recordRetrieval: false, ...extra })).map((result) => result.memory.id);

describe('search', () => {
  it('answers a natural-language question with the note about it, first', async () => {
    const hits = await hitIds('when did we move the billing cron?');
    expect(hits[0]).toBe(ids.cron);
    expect(hits).toContain(ids.invoice); // matches "billing" only: found, ranked lower
    expect(hits).not.toContain(ids.lunch);
  });

  it('stems (moved ~ move) and folds diacritics (cafe ~ café)', async () => {
    expect(await hitIds('moving')).toEqual([ids.cron]);
    expect(await hitIds('cafe zurich resume')).toEqual([ids['café']]);
  });

  it("never leaks another agent's memories, even one whose id shares words", async () => {
    expect(await search(store, { agentId: 'ops', query: 'another agent other', recordRetrieval: false })).toEqual([]);
  });

  it.each([
    '"unbalanced quote',
    'billing AND OR NOT',
    'NEAR(billing cron)',
    'bill*',
    '-billing',
    'billing:cron',
    '(billing',
    'content: cron',
    '{agent_id}: ops',
    '^billing',
    '"',
    '***',
    'SELECT * FROM memories; --',
  ])('treats %j as plain words, never an FTS syntax error', async (query) => {
    await expect(hitIds(query)).resolves.toEqual(expect.any(Array));
  });

  it('returns nothing for text with no searchable term', async () => {
    expect(buildMatchExpression('?!* "')).toBeUndefined();
    expect(await hitIds('?!*')).toEqual([]);
  });

  it('keeps stopwords only when nothing else is left', async () => {
    expect(buildMatchExpression('when did we move the cron')).toBe('"move" OR "cron"');
    expect(buildMatchExpression('the')).toBe('"the"');
  });

  it('searches at most MAX_TERMS distinct terms of a huge paste, the first ones, as PostgreSQL does', async () => {
    const paste = Array.from({ length: MAX_TERMS + 50 }, (_, index) => `word${index}`).join(' ');
    const match = buildMatchExpression(paste)!;
    expect(match.split(' OR ')).toHaveLength(MAX_TERMS);
    expect(match.startsWith('"word0" OR "word1" OR ')).toBe(true);
    expect(match.endsWith(`"word${MAX_TERMS - 1}"`)).toBe(true);
    // A word past the cap is not searched: the paste finds only what its first terms match.
    expect(await hitIds(`${paste} billing`)).toEqual([]);
    expect(await hitIds(`billing ${paste}`)).not.toEqual([]);
  });

  it('passes FTS5 syntax through with --raw, and reports bad raw syntax as a usage error', async () => {
    expect(await hitIds('NEAR(moved "billing cron", 2)', { raw: true })).toEqual([ids.cron]);
    expect(await hitIds('billing NOT invoice', { raw: true })).toEqual([ids.cron]);
    expect((await hitIds('bill*', { raw: true })).sort()).toEqual([ids.cron, ids.invoice].sort());
    try {
      await hitIds('"unbalanced', { raw: true });
      throw new Error('expected an error');
    } catch (error) {
      expect((error as HippoError).code).toBe('fts_syntax');
      expect((error as HippoError).exitCode).toBe(2);
    }
  });

  it('filters by tag, since and durability, and limits', async () => {
    expect(await hitIds('billing', { tag: 'incident' })).toEqual([ids.invoice]);
    expect(await hitIds('billing', { since: new Date('2026-10-02T00:00:00.000Z') })).toEqual([ids.invoice]);
    expect(await hitIds('billing', { durability: 'permanent' })).toEqual([]);
    expect(await hitIds('billing', { limit: 1 })).toHaveLength(1);
  });

  it('highlights matches in the snippet and bumps retrieval counters on hits', async () => {
    const [result] = await search(store, { agentId: 'ops', query: 'lock', highlight: { open: '<', close: '>' } });
    expect(result!.snippet).toContain('<lock>');
    expect(result!.score).toBeGreaterThan(0);
    const memory = await getMemory(store, 'ops', ids.deploy!);
    expect(memory.retrievalCount).toBe(1);
    expect(memory.lastRetrievedAt).toBe(clock().toISOString());
    expect((await getMemory(store, 'ops', ids.lunch!)).retrievalCount).toBe(0);
  });

  it('leaves out memories past their expiry even before the nightly run archives them', async () => {
    clock.set('2026-11-02T09:00:00.000Z');
    await addMemory(store, { agentId: 'ops', content: 'ephemeral zebra', durability: 'ephemeral' });
    expect(await hitIds('zebra')).toHaveLength(1);
    clock.advance(25 * 3_600_000);
    expect(await hitIds('zebra')).toEqual([]);
    expect(await hitIds('zebra', { includeArchived: true })).toHaveLength(1);
  });
});
