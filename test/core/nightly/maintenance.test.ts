import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMemory, type NewMemory } from '../../../src/core/memory/memory.js';
import { applyMaintenance, ARCHIVE_REASONS, optimizeFullText, planMaintenance } from '../../../src/core/nightly/maintenance.js';
import { fixedClock, tempStore } from '../../helpers/store.js';

const NOW = '2026-11-02T03:00:00.000Z';
const DAY = 86_400_000;
const ago = (days: number, hours = 0) => new Date(Date.parse(NOW) - days * DAY - hours * 3_600_000).toISOString();

let store: Awaited<ReturnType<typeof tempStore>>;
beforeEach(async () => {
  store = await tempStore(fixedClock(NOW));
});
afterEach(() => store.done());

const add = async (memory: Partial<NewMemory> & { content: string }) => (await addMemory(store, { agentId: 'ops', ...memory })).memory.id;
const state = (id: string) =>
  store.db.prepare('SELECT archived_at AS archivedAt, archived_reason AS reason FROM memories WHERE id = ?').get(id) as {
    archivedAt: string | null;
    reason: string | null;
  };

describe('nightly maintenance (docs/design.md §7 step 4)', () => {
  it('archives an ephemeral memory once its 24 h have passed, with reason "expired", and not a minute before', async () => {
    const expired = await add({ content: 'ephemeral from yesterday', durability: 'ephemeral', createdAt: ago(1, 1) });
    const fresh = await add({ content: 'ephemeral from an hour ago', durability: 'ephemeral', createdAt: ago(0, 1) });
    const standardExpired = await add({ content: 'standard with a passed --expires', createdAt: ago(3), expiresAt: ago(0, 2) });
    const plan = await applyMaintenance(store);
    expect(plan.total).toEqual({ expired: 2, archivedEphemeral: 0, archivedUnused: 0 });
    expect(state(expired)).toEqual({ archivedAt: NOW, reason: 'expired' });
    expect(state(standardExpired)).toEqual({ archivedAt: NOW, reason: 'expired' });
    expect(state(fresh)).toEqual({ archivedAt: null, reason: null });
  });

  it('never touches a persistent or permanent memory, even with an old expires_at written straight into the table', async () => {
    const persistent = await add({ content: 'persistent rule', durability: 'persistent', createdAt: ago(400) });
    const permanent = await add({ content: 'permanent rule', durability: 'permanent', createdAt: ago(400) });
    // The schema refuses this combination; a hand edit (or another tool) may still have written it.
    store.db.pragma('ignore_check_constraints = ON');
    store.db.prepare('UPDATE memories SET expires_at = ? WHERE id IN (?, ?)').run(ago(300), persistent, permanent);
    store.db.pragma('ignore_check_constraints = OFF');
    expect(store.db.prepare('SELECT count(*) FROM memories WHERE expires_at IS NOT NULL').pluck().get()).toBe(2);
    const plan = await applyMaintenance(store);
    expect(plan.total).toEqual({ expired: 0, archivedEphemeral: 0, archivedUnused: 0 });
    expect(state(persistent).archivedAt).toBeNull();
    expect(state(permanent).archivedAt).toBeNull();
  });

  it('archives ephemeral memories older than 7 days that were given a long lifetime, never younger ones', async () => {
    const old = await add({ content: 'long-lived ephemeral', durability: 'ephemeral', createdAt: ago(8), expiresAt: ago(-30) });
    const young = await add({ content: 'six-day-old ephemeral', durability: 'ephemeral', createdAt: ago(6, 23), expiresAt: ago(-30) });
    await applyMaintenance(store);
    expect(state(old)).toEqual({ archivedAt: NOW, reason: ARCHIVE_REASONS.archivedEphemeral });
    expect(state(young).archivedAt).toBeNull();
  });

  it('archives standard memories older than 180 days retrieved at most once and not in 180 days — nothing else', async () => {
    const unused = await add({ content: 'never looked at', createdAt: ago(181) });
    const onceLongAgo = await add({ content: 'looked at once, long ago', createdAt: ago(200), retrievalCount: 1, lastRetrievedAt: ago(190) });
    const twice = await add({ content: 'looked at twice', createdAt: ago(200), retrievalCount: 2, lastRetrievedAt: ago(190) });
    const recentlyUsed = await add({ content: 'looked at last week', createdAt: ago(200), retrievalCount: 1, lastRetrievedAt: ago(7) });
    const notOldEnough = await add({ content: 'five months old', createdAt: ago(179) });
    const persistent = await add({ content: 'persistent and unused', durability: 'persistent', createdAt: ago(400) });
    const plan = await applyMaintenance(store);
    expect(plan.total).toEqual({ expired: 0, archivedEphemeral: 0, archivedUnused: 2 });
    expect(state(unused)).toEqual({ archivedAt: NOW, reason: ARCHIVE_REASONS.archivedUnused });
    expect(state(onceLongAgo).reason).toBe(ARCHIVE_REASONS.archivedUnused);
    for (const id of [twice, recentlyUsed, notOldEnough, persistent]) expect(state(id).archivedAt).toBeNull();
  });

  it('plans exactly what it then applies, per agent, and a second pass finds nothing', async () => {
    await add({ content: 'a', durability: 'ephemeral', createdAt: ago(2) });
    await add({ agentId: 'other', content: 'b', createdAt: ago(365) });
    await add({ agentId: 'other', content: 'c', durability: 'ephemeral', createdAt: ago(3) });
    await add({ content: 'already archived', createdAt: ago(365), archivedAt: ago(10) });
    const plan = await planMaintenance(store);
    expect(plan.byAgent).toEqual({
      ops: { expired: 1, archivedEphemeral: 0, archivedUnused: 0 },
      other: { expired: 1, archivedEphemeral: 0, archivedUnused: 1 },
    });
    expect(store.db.prepare('SELECT count(*) FROM memories WHERE archived_at IS NULL').pluck().get()).toBe(3);
    expect(await applyMaintenance(store)).toEqual(plan);
    expect(store.db.prepare('SELECT count(*) FROM memories WHERE archived_at = ?').pluck().get(NOW)).toBe(3);
    expect((await applyMaintenance(store)).total).toEqual({ expired: 0, archivedEphemeral: 0, archivedUnused: 0 });
  });

  it('merges the full-text index into one b-tree in steps, without changing what it finds', async () => {
    // One transaction per memory: each leaves its own segment in the index.
    for (let index = 0; index < 50; index++) await add({ content: `note ${index} about the billing cron` });
    const segments = () => store.db.prepare('SELECT count(*) FROM memories_fts_idx').pluck().get() as number;
    expect(segments()).toBeGreaterThan(1);
    const before = store.db.prepare("SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'billing' ORDER BY rowid").pluck().all();
    expect(await optimizeFullText(store)).toBeGreaterThan(1);
    expect(segments()).toBe(1);
    expect(await optimizeFullText(store)).toBe(1);
    expect(store.db.prepare("SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'billing' ORDER BY rowid").pluck().all()).toEqual(before);
    store.db.prepare("INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)").run();
  });
});
