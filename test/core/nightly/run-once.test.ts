import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMemory } from '../../../src/core/memory/memory.js';
import { agentsWithNewMemories } from '../../../src/core/nightly/run-once.js';
import { fixedClock, tempStore } from '../../helpers/store.js';

const NOW = '2026-11-02T03:00:00.000Z';
const hoursAgo = (hours: number) => new Date(Date.parse(NOW) - hours * 3_600_000).toISOString();

let store: Awaited<ReturnType<typeof tempStore>>;
beforeEach(async () => {
  store = await tempStore(fixedClock(NOW));
});
afterEach(() => store.done());

describe('which agents a night distills', () => {
  it('only agents with a memory from the last 24 h that is unreflected, live, not permanent and not derived', async () => {
    const add = async (agentId: string, extra: Partial<Parameters<typeof addMemory>[1]> = {}) =>
      (await addMemory(store, { agentId, content: `${agentId} ${Math.random()}`, createdAt: hoursAgo(2), ...extra })).memory.id;
    await add('new-a');
    await add('new-b', { durability: 'ephemeral' });
    await add('new-b', { createdAt: hoursAgo(30) });
    await add('old', { createdAt: hoursAgo(25) });
    await add('reflected', { lastReflectedAt: hoursAgo(1) });
    await add('archived', { archivedAt: hoursAgo(1) });
    await add('permanent', { durability: 'permanent' });
    await add('derived', { derivedFrom: ['mem_01JD0000000000000000000000'] });
    await add('expired', { expiresAt: hoursAgo(1) });
    expect(await agentsWithNewMemories(store)).toEqual(['new-a', 'new-b']);
  });

  it('finds none in an empty store', async () => {
    expect(await agentsWithNewMemories(store)).toEqual([]);
  });
});
