import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/core/errors.js';
import { archiveMemories } from '../../src/core/memory/lifecycle.js';
import { addMemory, buildMemory, getMemory, listMemories, MAX_CONTENT_BYTES, validateAgentId, validateContent } from '../../src/core/memory/memory.js';
import { search } from '../../src/core/search.js';
import { errorOf } from '../helpers/errors.js';
import { fixedClock, tempStore } from '../helpers/store.js';

let store: Awaited<ReturnType<typeof tempStore>>;
const clock = fixedClock('2026-11-02T09:30:00.000Z');
beforeEach(async () => {
  clock.set('2026-11-02T09:30:00.000Z');
  store = await tempStore(clock);
});
afterEach(() => store.done());

describe('addMemory', () => {
  it('stores a memory with defaults, a prefixed sortable id and ISO times', async () => {
    const { memory, duplicateOf } = await addMemory(store, { agentId: 'a', content: 'Deploys freeze on Fridays', tags: ['deploy', 'deploy', ' policy '] });
    expect(memory.id).toMatch(/^mem_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(memory).toMatchObject({ durability: 'standard', source: 'cli', createdAt: '2026-11-02T09:30:00.000Z', expiresAt: null, tags: ['deploy', 'policy'] });
    expect(duplicateOf).toEqual([]);
    expect(await getMemory(store, 'a', memory.id)).toEqual(memory);
    clock.advance(1);
    const later = (await addMemory(store, { agentId: 'a', content: 'second' })).memory;
    expect(later.id > memory.id).toBe(true);
  });

  it('gives ephemeral memories a 24 h expiry and refuses an expiry on persistent or permanent ones', async () => {
    const ephemeral = (await addMemory(store, { agentId: 'a', content: 'standup at 10', durability: 'ephemeral' })).memory;
    expect(ephemeral.expiresAt).toBe('2026-11-03T09:30:00.000Z');
    for (const durability of ['persistent', 'permanent'] as const) {
      const error = await errorOf(() => addMemory(store, { agentId: 'a', content: 'x', durability, expiresAt: '2027-01-01T00:00:00.000Z' }));
      expect([error.code, error.exitCode]).toEqual(['expires_on_durable', ExitCode.usage]);
    }
    expect(await listMemories(store, { agentId: 'a' })).toHaveLength(1);
  });

  it.each([
    ['a right-to-left override', 'ag\u202Eent'],
    ['a bidi isolate', '\u2066ops\u2069'],
    ['a zero-width space', 'op\u200Bs'],
    ['an invisible tag character', 'ops\u{E0041}'],
    ['an escape', 'ops\u001b[2J'],
    ['a tab', 'ops\tagent'],
  ])('refuses an agent id holding %s (it could pass for another agent), writing nothing', async (_what, agentId) => {
    const error = await errorOf(() => addMemory(store, { agentId, content: 'x' }));
    expect([error.code, error.exitCode]).toEqual(['bad_agent', ExitCode.usage]);
    expect(store.db.prepare('SELECT count(*) FROM memories').pluck().get()).toBe(0);
  });

  it('accepts agent ids in any script, with emoji (ZWJ sequences) and punctuation', async () => {
    for (const agentId of ['ops-agent', 'équipe_2', 'オペレーター', 'team 👨‍👩‍👧', '🏴󠁧󠁢󠁷󠁬󠁳󠁿']) {
      expect((await addMemory(store, { agentId, content: `note for ${agentId}` })).memory.agentId).toBe(agentId);
    }
  });

  it('refuses empty and oversized text with exit 2, writing nothing', async () => {
    expect((await errorOf(() => addMemory(store, { agentId: 'a', content: ' \n\t ' }))).code).toBe('empty_content');
    const big = 'é'.repeat(MAX_CONTENT_BYTES / 2 + 1); // 2 bytes each: just over 64 KiB
    const error = await errorOf(() => addMemory(store, { agentId: 'a', content: big }));
    expect([error.code, error.exitCode]).toEqual(['content_too_large', ExitCode.usage]);
    expect((await addMemory(store, { agentId: 'a', content: 'x'.repeat(MAX_CONTENT_BYTES) })).memory.content).toHaveLength(MAX_CONTENT_BYTES);
    expect(await listMemories(store, { agentId: 'a' })).toHaveLength(1);
  });

  it('reports exact duplicates (whitespace-normalised) but still stores them', async () => {
    const first = (await addMemory(store, { agentId: 'a', content: 'Billing cron moved to 02:30' })).memory;
    const second = await addMemory(store, { agentId: 'a', content: '  Billing   cron moved\nto 02:30 ' });
    expect(second.duplicateOf).toEqual([first.id]);
    expect((await addMemory(store, { agentId: 'b', content: 'Billing cron moved to 02:30' })).duplicateOf).toEqual([]);
    expect(await listMemories(store, { agentId: 'a' })).toHaveLength(2);
  });
});

describe('getMemory / archiveMemories', () => {
  it("treats another agent's memory as not found (exit 3), and ids are exact (case matters)", async () => {
    const { memory } = await addMemory(store, { agentId: 'a', content: 'private note' });
    expect((await errorOf(() => getMemory(store, 'b', memory.id))).exitCode).toBe(ExitCode.notFound);
    expect((await errorOf(() => getMemory(store, 'a', memory.id.toLowerCase()))).exitCode).toBe(ExitCode.notFound);
    // A Cyrillic "М" looks like the Latin one.
    expect((await errorOf(() => getMemory(store, 'a', memory.id.replace('m', 'м')))).exitCode).toBe(ExitCode.notFound);
  });

  it('archives all or nothing, hides archived memories from list and search unless asked', async () => {
    const one = (await addMemory(store, { agentId: 'a', content: 'zebra one' })).memory;
    const two = (await addMemory(store, { agentId: 'a', content: 'zebra two' })).memory;
    expect((await errorOf(() => archiveMemories(store, 'a', [one.id, 'mem_01JD0000000000000000000000']))).exitCode).toBe(ExitCode.notFound);
    expect((await getMemory(store, 'a', one.id)).archivedAt).toBeNull();
    const result = await archiveMemories(store, 'a', [one.id], 'superseded');
    expect(result.archived.map((memory) => memory.id)).toEqual([one.id]);
    expect(await getMemory(store, 'a', one.id)).toMatchObject({ archivedAt: '2026-11-02T09:30:00.000Z', archivedReason: 'superseded' });
    expect((await archiveMemories(store, 'a', [one.id])).alreadyArchived).toEqual([one.id]);
    expect((await listMemories(store, { agentId: 'a' })).map((memory) => memory.id)).toEqual([two.id]);
    expect(await listMemories(store, { agentId: 'a', includeArchived: true })).toHaveLength(2);
    expect((await search(store, { agentId: 'a', query: 'zebra' })).map((result) => result.memory.id)).toEqual([two.id]);
    expect(await search(store, { agentId: 'a', query: 'zebra', includeArchived: true })).toHaveLength(2);
  });

  it('lists newest first, filtered by tag, limited', async () => {
    for (let index = 0; index < 5; index++) {
      await addMemory(store, { agentId: 'a', content: `note ${index}`, tags: index % 2 === 0 ? ['even'] : [] });
      clock.advance(60_000);
    }
    expect((await listMemories(store, { agentId: 'a', limit: 2 })).map((memory) => memory.content)).toEqual(['note 4', 'note 3']);
    expect((await listMemories(store, { agentId: 'a', tag: 'even' })).map((memory) => memory.content)).toEqual(['note 4', 'note 2', 'note 0']);
  });
});

describe('text no UTF-8 can hold (a lone surrogate) is never written', () => {
  const now = new Date('2026-11-02T09:30:00.000Z');
  it.each([
    ['the content', { content: 'note \ud800 lone' }, 'memory text'],
    ['a tag', { content: 'note', tags: ['ok', 'bad\udc00'] }, 'a tag'],
    ['the subject', { content: 'note', subject: 'x\ud800' }, 'subject'],
    ['the source', { content: 'note', source: '\udbff' }, 'source'],
    ['the archive reason', { content: 'note', archivedAt: '2026-11-01T00:00:00.000Z', archivedReason: 'r\ud800' }, 'archivedReason'],
  ])('refuses one in %s (exit 2, lone_surrogate, naming the field)', async (_what, fields, field) => {
    const error = await errorOf(() => buildMemory({ agentId: 'a', ...fields }, now));
    expect(error).toMatchObject({ code: 'lone_surrogate', exitCode: ExitCode.usage, details: { field } });
    expect(error.message).not.toContain('note');
  });

  it('refuses an agent id with white space at either end (it would list as another agent that looks the same)', async () => {
    for (const padded of ['ops ', ' ops', 'ops\t', '\u00a0ops']) {
      expect(await errorOf(() => validateAgentId(padded))).toMatchObject({ code: 'bad_agent', exitCode: ExitCode.usage });
    }
    expect(validateAgentId('ops agent')).toBe('ops agent');
  });

  it('refuses an agent id holding a character that shows as nothing: joiners, variation selectors, fillers (rev27j)', async () => {
    for (const hidden of ['\u200d', '\u200c', '\ufe0f', '\ufe00', '\u{e0100}', '\u034f', '\u3164', '\u115f', '\u17b4']) {
      expect(await errorOf(() => validateAgentId(`tea${hidden}m`)), JSON.stringify(hidden)).toMatchObject({ code: 'bad_agent', exitCode: ExitCode.usage });
    }
    // Visible letters of any script stay ids of their own.
    for (const id of ['team', 'café', 'Ops_β', 'チーム', 'ops 🚀']) expect(validateAgentId(id)).toBe(id);
  });

  it('refuses one in an agent id, and keeps surrogate pairs (emoji) everywhere', async () => {
    expect(await errorOf(() => validateAgentId('ops\ud800'))).toMatchObject({ code: 'bad_agent' });
    expect(validateContent('deploy 🚀 done')).toBe('deploy 🚀 done');
    expect(buildMemory({ agentId: 'ops 🚀', content: '🚀', tags: ['🚀'], subject: '🚀' }, now)).toMatchObject({ tags: ['🚀'], subject: '🚀' });
  });

  it('addMemory writes nothing when it refuses', async () => {
    expect(await errorOf(() => addMemory(store, { agentId: 'a', content: '\ud800' }))).toMatchObject({ code: 'lone_surrogate' });
    expect(await listMemories(store, { agentId: 'a' })).toEqual([]);
  });
});
