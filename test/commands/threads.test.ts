/**
 * Threads and search in context through the built CLI (docs/design.md §6): `memory add --thread`, `memory list
 * --thread`, `memory show`, import files as threads when told, and search results that say why they matched.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

interface Hit {
  memory: { id: string; content: string; thread: string | null };
  snippet: string;
  matched: string[];
  nearby: { memoryId: string; snippet: string } | null;
}

describe('threads (built CLI)', () => {
  it('adds memories to a thread, shows the thread, and lists a thread in its order', async () => {
    const ids: string[] = [];
    for (const text of ['Shall we paint the kitchen?', 'Yes, the blue one.', 'Blue it is, Saturday then.']) {
      const added = await box.hippo(['memory', 'add', text, '--thread', 'kitchen chat', '--json']);
      expect(added.exitCode).toBe(0);
      ids.push(json<{ memory: { id: string; thread: string } }>(added).memory.id);
    }
    await box.hippo(['memory', 'add', 'Unrelated note']);
    expect(json<{ memory: { thread: string } }>(await box.hippo(['memory', 'show', ids[1]!, '--json'])).memory.thread).toBe('kitchen chat');
    expect(String((await box.hippo(['memory', 'show', ids[1]!])).stdout)).toMatch(/^thread\s+kitchen chat$/m);
    const listed = json<{ memories: { id: string }[] }>(await box.hippo(['memory', 'list', '--thread', 'kitchen chat', '--json']));
    expect(listed.memories.map((memory) => memory.id)).toEqual(ids);
    const text = String((await box.hippo(['memory', 'list', '--thread', 'kitchen chat'])).stdout)
      .trim()
      .split('\n');
    expect(text.map((line) => line.split(' ')[0])).toEqual(ids);

    const blank = await box.hippo(['memory', 'add', 'x', '--thread', '   ', '--json']);
    expect(blank.exitCode).toBe(2);
    expect(json<{ error: { code: string } }>(blank).error.code).toBe('bad_thread');
  });

  it('finds a turn through its neighbours and says so: "matched nearby" with the neighbour\'s words, in text and JSON', async () => {
    const chat = join(box.dir, 'chat.md');
    writeFileSync(
      chat,
      [
        'Big news: we adopted a beagle from the shelter on Saturday!',
        'Oh wow, congratulations! What did you call it?',
        'Biscuit. The kids voted on it.',
        'Mostly settled, though a slipper did not survive the first night.',
        'Different topic: the boiler broke again.',
      ].join('\n\n'),
    );
    // A transcript in a text file: one thread because the import is told so (a file alone is not a conversation).
    expect((await box.hippo(['memory', 'import', chat, '--thread-per-file'])).exitCode).toBe(0);
    const found = json<{ results: Hit[] }>(await box.hippo(['search', 'beagle', '--json', '--limit', '5']));
    const [own, ...context] = found.results;
    expect(own).toMatchObject({ matched: ['content'], nearby: null, memory: { thread: chat } });
    expect(context.map((hit) => hit.memory.content)).toEqual(
      expect.arrayContaining(['Oh wow, congratulations! What did you call it?', 'Biscuit. The kids voted on it.']),
    );
    for (const hit of context) {
      expect(hit.matched).toEqual(['context']);
      expect(hit.nearby).toEqual({ memoryId: own!.memory.id, snippet: 'Big news: we adopted a **beagle** from the shelter on Saturday!' });
      expect(hit.snippet).not.toContain('**');
    }
    const text = String((await box.hippo(['search', 'beagle', '--limit', '5'])).stdout);
    expect(text).toContain(
      `  Biscuit. The kids voted on it.\n  matched nearby (${own!.memory.id}): Big news: we adopted a **beagle** from the shelter on Saturday!`,
    );
    // The far end of the thread is not a neighbour.
    expect(text).not.toContain('boiler');
  });

  it('finds memories by their date in words and says so', async () => {
    const notes = join(box.dir, 'notes.jsonl');
    writeFileSync(
      notes,
      [
        { content: 'Renewed the TLS certificate.', createdAt: '2023-05-08T09:00:00.000Z', thread: null },
        { content: 'Rotated the API keys.', createdAt: '2023-07-11T09:00:00.000Z', thread: null },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    await box.hippo(['memory', 'import', notes]);
    const hits = json<{ results: Hit[] }>(await box.hippo(['search', 'what did we do in May?', '--json'])).results;
    expect(hits.map((hit) => [hit.memory.content, hit.matched])).toEqual([['Renewed the TLS certificate.', ['date']]]);
    expect(String((await box.hippo(['search', 'what did we do in May?'])).stdout)).toContain('  matched its date: May 2023 Monday');
  });

  it('round-trips threads through export and import, and a re-imported export does not become one thread', async () => {
    await box.hippo(['memory', 'add', 'in a thread', '--thread', 't1']);
    await box.hippo(['memory', 'add', 'on its own']);
    const backup = join(box.dir, 'backup.jsonl');
    expect((await box.hippo(['memory', 'export', '--output', backup])).exitCode).toBe(0);
    const other = join(box.dir, 'other.db');
    expect((await box.hippo(['memory', 'import', backup, '--db', other])).exitCode).toBe(0);
    const listed = json<{ memories: { content: string; thread: string | null }[] }>(await box.hippo(['memory', 'list', '--db', other, '--json']));
    expect(Object.fromEntries(listed.memories.map((memory) => [memory.content, memory.thread]))).toEqual({ 'in a thread': 't1', 'on its own': null });
  });
  it('memory edit and memory forget re-index the neighbours: the old or forgotten text is found through no neighbour', async () => {
    const ids: string[] = [];
    for (const text of ['We adopted a beagle on Saturday.', 'What did you call it?', 'Biscuit, the kids chose.', 'The boiler broke again.']) {
      ids.push(json<{ memory: { id: string } }>(await box.hippo(['memory', 'add', text, '--thread', 'home', '--json'])).memory.id);
    }
    const found = async (word: string) =>
      json<{ results: Hit[] }>(await box.hippo(['search', word, '--json', '--include-archived'])).results.map((hit) => [hit.memory.id, hit.matched]);
    expect((await found('beagle')).map(([id]) => id)).toEqual(expect.arrayContaining([ids[0], ids[1], ids[2]]));
    const edited = await box.hippo(['memory', 'edit', ids[0]!, '--content', 'We adopted a spaniel on Saturday.', '--json']);
    expect(edited.exitCode, String(edited.stderr)).toBe(0);
    expect(await found('beagle')).toEqual([]);
    expect((await found('spaniel')).map(([id]) => id)).toEqual(expect.arrayContaining([ids[0], ids[1], ids[2]]));
    const forgot = await box.hippo(['memory', 'forget', ids[2]!, '--yes', '--json']);
    expect(forgot.exitCode, String(forgot.stderr)).toBe(0);
    expect(await found('biscuit')).toEqual([]);
  });
});
