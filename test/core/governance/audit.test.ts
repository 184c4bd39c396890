/**
 * The read audit's writer (src/core/governance/audit.ts) on both engines: a read handing over more memories than one
 * record holds (a CLI export) is recorded whole, as several bounded records of the same read; a streamed read's ids
 * are noted under each memory's agent.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { factMemoryIds, IDS_PER_RECORD, listReads, notingIds, recordRead } from '../../../src/core/governance/audit.js';
import { newId } from '../../../src/core/ids.js';
import { all, ENGINES, openTestStore, type TestStore } from '../../helpers/store.js';

describe.each(ENGINES)('the read audit writer on %s', (engine) => {
  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore(engine);
  });
  afterEach(async () => {
    await store.done();
  });

  it('records a read of more ids than one record holds as several records of that read, every id kept once', async () => {
    const ids = Array.from({ length: IDS_PER_RECORD * 2 + 345 }, () => newId('mem'));
    const reader = { channel: 'cli' as const, client: 'ana' };
    expect(await recordRead(store, reader, { agentId: 'a', operation: 'memory export', memoryIds: [...ids, ids[0]!] })).toBe(true);
    const records = (await listReads(store, { agentId: 'a', limit: 10 })).reverse();
    expect(records.map((record) => record.memoryIds.length)).toEqual([IDS_PER_RECORD, IDS_PER_RECORD, 345]);
    expect(records.flatMap((record) => record.memoryIds)).toEqual(ids);
    expect(new Set(records.map((record) => `${record.at} ${record.operation} ${record.client}`)).size).toBe(1);
    expect((await listReads(store, { agentId: 'a', memoryId: ids.at(-1)!, limit: 10 })).map((record) => record.id)).toEqual([records[2]!.id]);
    // A read that handed over nothing is still one record.
    expect(await recordRead(store, reader, { agentId: 'b', operation: 'memory list', memoryIds: [] })).toBe(true);
    expect((await listReads(store, { agentId: 'b', limit: 10 })).map((record) => record.memoryIds)).toEqual([[]]);
  });
});

describe('what a read hands over', () => {
  it('notes the ids of a stream under their agents, passing every item through', async () => {
    async function* stream() {
      yield* [
        { id: 'mem_1', agentId: 'a' },
        { id: 'mem_2', agentId: 'b' },
        { id: 'mem_3', agentId: 'a' },
      ];
    }
    const noted = new Map<string, string[]>();
    expect((await all(notingIds(stream(), noted))).map((item) => item.id)).toEqual(['mem_1', 'mem_2', 'mem_3']);
    expect([...noted]).toEqual([
      ['a', ['mem_1', 'mem_3']],
      ['b', ['mem_2']],
    ]);
    expect(await all(notingIds(stream()))).toHaveLength(3);
  });

  it('takes the memories facts were sliced from, once each, and no file or given text', () => {
    const fact = (...sources: string[]) => ({ occurrences: sources.map((source) => ({ source })) });
    expect(factMemoryIds([fact('mem_b', 'notes.md'), fact('mem_a', 'mem_b'), fact('text', 'stdin')])).toEqual(['mem_b', 'mem_a']);
  });
});
