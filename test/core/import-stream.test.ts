// Issue 25: a file is imported a chunk at a time inside its one transaction (JSONL streamed from disk). These tests
// make files longer than several chunks and check, on both engines, what must not change with it: a bad line late in
// the file rolls back every chunk before it, threads read the same across chunk edges (in time order or not), and
// duplicates, repeated ids and lineage are counted and refused across chunks as within one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHUNK_MEMORIES, importFiles } from '../../src/core/memory/import.js';
import { listMemories } from '../../src/core/memory/memory.js';
import { newId } from '../../src/core/ids.js';
import { search } from '../../src/core/search.js';
import { ENGINES, fixedClock, openTestStore, type TestStore } from '../helpers/store.js';

const clock = fixedClock('2026-11-02T09:30:00.000Z');
/** Lines of a file spanning two chunk edges and part of a third chunk. */
const LINES = 2 * CHUNK_MEMORIES + 300;
const at = (index: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + index * 60_000).toISOString();
/** One word per line, found in no other line's own text: a search for it finds the line and the neighbours it lends context to. */
const word = (index: number) => `marker${index}x`;

describe.each(ENGINES)('import of a file of several chunks on %s', (engine) => {
  let store: TestStore;
  let dir: string;
  beforeEach(async () => {
    store = await openTestStore(engine, clock);
    dir = mkdtempSync(join(tmpdir(), 'hippo-import-stream-'));
  });
  afterEach(async () => {
    await store.done();
    rmSync(dir, { recursive: true, force: true });
  });
  const write = (name: string, lines: readonly (object | string)[]): string => {
    const path = join(dir, name);
    writeFileSync(path, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n');
    return path;
  };
  /** The contents of the hits for one line's word: the line itself and the neighbours whose context holds it. */
  const found = async (index: number) =>
    (await search(store, { agentId: 'ana', query: word(index), limit: 20 })).map((hit) => hit.memory.content.split(' ')[0]).sort();
  const threadLine = (index: number) => ({ content: `${word(index)} noted`, createdAt: at(index), thread: 'chat' });
  /** The words of the memories within two places of `index` in the thread (itself included), as `found` returns them. */
  const around = (index: number) =>
    [index - 2, index - 1, index, index + 1, index + 2]
      .filter((other) => other >= 0 && other < LINES)
      .map(word)
      .sort();

  it('gives each memory its thread neighbours as context across chunk edges, the file in time order or not', async () => {
    const inOrder = Array.from({ length: LINES }, (_, index) => threadLine(index));
    const result = await importFiles(store, [write('ordered.jsonl', inOrder)], { agentId: 'ana' });
    expect(result).toMatchObject({ imported: LINES, existing: 0, duplicates: 0 });
    for (const index of [0, CHUNK_MEMORIES - 2, CHUNK_MEMORIES - 1, CHUNK_MEMORIES, CHUNK_MEMORIES + 1, 2 * CHUNK_MEMORIES, LINES - 1])
      expect(await found(index), `line ${index}`).toEqual(around(index));

    // Another thread whose lines come newest first: each chunk lands before the ones already stored.
    const reversed = Array.from({ length: LINES }, (_, index) => ({ ...threadLine(LINES + index), thread: 'backwards' })).reverse();
    const again = await importFiles(store, [write('reversed.jsonl', reversed)], { agentId: 'ana' });
    expect(again).toMatchObject({ imported: LINES, existing: 0, duplicates: 0 });
    const shifted = (index: number) => around(index).map((other) => word(Number(other.slice(6, -1)) + LINES));
    for (const index of [0, 299, 300, 301, CHUNK_MEMORIES + 300, LINES - 1]) expect(await found(LINES + index), `line ${index}`).toEqual(shifted(index));
  });

  it('rolls the whole file back for a bad line after several chunks were written, and keeps the file before it whole', async () => {
    const good = write('good.jsonl', [threadLine(0), threadLine(1)]);
    const lines: (object | string)[] = Array.from({ length: LINES }, (_, index) => ({ content: `line ${index}`, agentId: 'bob' }));
    lines[LINES - 10] = '{"content": "cut off';
    const bad = write('bad.jsonl', lines);
    const result = await importFiles(store, [good, bad], { agentId: 'ana' });
    expect(result.imported).toBe(2);
    expect(result.files[1]!.error).toEqual({
      code: 'bad_import_line',
      message: `${bad}:${LINES - 9}: not valid JSON; nothing from this file was imported`,
    });
    expect(await listMemories(store, { agentId: 'bob' })).toEqual([]);
    expect((await store.memories.agentCounts()).map((agent) => [agent.agentId, agent.memories])).toEqual([['ana', 2]]);
  });

  it('counts a text repeated and an id repeated chunks apart as within one chunk, and refuses lineage across agents named chunks ahead', async () => {
    const id = newId('mem');
    const lines: object[] = Array.from({ length: LINES }, (_, index) => ({ content: `line ${index}` }));
    lines[5] = { id, agentId: 'ana', content: 'given id, first' };
    lines[CHUNK_MEMORIES + 5] = { id, agentId: 'ana', content: 'given id, repeated: skipped' };
    lines[7] = { content: 'said twice' };
    lines[2 * CHUNK_MEMORIES + 7] = { content: 'said twice' };
    lines[2 * CHUNK_MEMORIES + 8] = { content: 'said twice' };
    const result = await importFiles(store, [write('repeats.jsonl', lines)], { agentId: 'ana' });
    expect(result).toMatchObject({ imported: LINES - 1, existing: 1, duplicates: 2 });
    expect((await store.memories.get('ana', id))?.content).toBe('given id, first');

    // Line 3 derives from an id that only line CHUNK_MEMORIES + 11 gives, to another agent.
    const later = newId('mem');
    const crossing: object[] = Array.from({ length: LINES }, (_, index) => ({ content: `other ${index}` }));
    crossing[2] = { content: 'an insight', derivedFrom: [later] };
    crossing[CHUNK_MEMORIES + 10] = { id: later, agentId: 'bob', content: 'bob line' };
    const refused = await importFiles(store, [write('crossing.jsonl', crossing)], { agentId: 'ana' });
    expect(refused.files[0]!.error?.message).toBe(
      `${join(dir, 'crossing.jsonl')}:3: field "derivedFrom" names ${later}, which is not a memory of agent "ana"; nothing from this file was imported`,
    );
    expect(await listMemories(store, { agentId: 'bob' })).toEqual([]);
    // The same forward reference to the agent's own line is kept.
    crossing[CHUNK_MEMORIES + 10] = { id: later, agentId: 'ana', content: 'ana line' };
    const kept = await importFiles(store, [write('own.jsonl', crossing)], { agentId: 'ana' });
    expect(kept.files[0]!.error).toBeUndefined();
    expect(kept.imported).toBe(LINES);
  });
});
