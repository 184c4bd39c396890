import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMemory } from '../../../src/core/memory.js';
import { agentsWithNewMemories } from '../../../src/core/nightly/run-once.js';
import { fixedClock, tempStore } from '../../helpers/store.js';

const NOW = '2026-11-02T03:00:00.000Z';
const hoursAgo = (hours: number) => new Date(Date.parse(NOW) - hours * 3_600_000).toISOString();

let store: ReturnType<typeof tempStore>;
beforeEach(() => {
  store = tempStore(fixedClock(NOW));
});
afterEach(() => store.done());

describe('which agents a night distills', () => {
  it('only agents with a memory from the last 24 h that is unreflected, live, not permanent and not derived', () => {
    const add = (agentId: string, extra: Partial<Parameters<typeof addMemory>[1]> = {}) =>
      addMemory(store, { agentId, content: `${agentId} ${Math.random()}`, createdAt: hoursAgo(2), ...extra }).memory.id;
    add('new-a');
    add('new-b', { durability: 'ephemeral' });
    add('new-b', { createdAt: hoursAgo(30) });
    add('old', { createdAt: hoursAgo(25) });
    add('reflected', { lastReflectedAt: hoursAgo(1) });
    add('archived', { archivedAt: hoursAgo(1) });
    add('permanent', { durability: 'permanent' });
    add('derived', { derivedFrom: ['mem_01JD0000000000000000000000'] });
    add('expired', { expiresAt: hoursAgo(1) });
    expect(agentsWithNewMemories(store)).toEqual(['new-a', 'new-b']);
  });

  it('finds none in an empty store', () => {
    expect(agentsWithNewMemories(store)).toEqual([]);
  });
});
