import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHUNK_MEMORIES, collectImportFiles, importFiles, parseImportFile } from '../../src/core/memory/import.js';
import { archiveMemories } from '../../src/core/memory/lifecycle.js';
import { addMemory, iterateMemories, listMemories } from '../../src/core/memory/memory.js';
import { openStore } from '../../src/core/store/store.js';
import { newId } from '../../src/core/ids.js';
import { createToken } from '../../src/core/tokens.js';
import { candidate } from '../helpers/postgres-store.js';
import { all, ENGINES, fixedClock, openTestStore, tempStore, type TestStore } from '../helpers/store.js';

let store: Awaited<ReturnType<typeof tempStore>>;
const clock = fixedClock('2026-11-02T09:30:00.000Z');
beforeEach(async () => {
  store = await tempStore(clock);
});
afterEach(() => store.done());

function file(name: string, content: string | Buffer): string {
  const path = join(store.dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

describe('importFiles', () => {
  it('imports JSONL objects and markdown paragraphs (source = path), one transaction per file', async () => {
    const jsonl = file('a.jsonl', '{"content":"first","tags":["x"]}\n\n{"content":"second","durability":"persistent","agentId":"bob"}\n');
    const md = file('notes/b.md', '# Standup\n\nDeploy moved to Tuesday.\nAsk Ana about the lock.\n\n\n\nSecond paragraph.\n');
    const result = await importFiles(store, collectImportFiles([jsonl, join(store.dir, 'notes')]), { agentId: 'a' });
    // A heading alone is no memory: it is the subject of its section's paragraphs.
    expect(result).toMatchObject({ imported: 4, existing: 0 });
    expect((await listMemories(store, { agentId: 'bob' })).map((memory) => memory.durability)).toEqual(['persistent']);
    const mine = await listMemories(store, { agentId: 'a' });
    expect(mine.map((memory) => memory.content).sort()).toEqual(['Deploy moved to Tuesday.\nAsk Ana about the lock.', 'Second paragraph.', 'first'].sort());
    expect(mine.find((memory) => memory.content === 'Second paragraph.')?.subject).toBe('Standup');
    expect(mine.find((memory) => memory.content === 'Second paragraph.')?.source).toBe(md);
  });

  it("threads only what says it is one: a line's thread, a conversation's turns (role or speaker); a plain list of notes is not threaded", async () => {
    const exported = (await addMemory(store, { agentId: 'a', content: 'exported without a thread' })).memory;
    const threaded = (await addMemory(store, { agentId: 'a', content: 'exported in a thread', thread: 'standup' })).memory;
    await store.memories.forget('a', [exported.id, threaded.id]);
    const lines = [{ content: 'one' }, { content: 'two', thread: 'explicit' }, { content: 'three', thread: null }, exported, threaded, { content: 'four' }];
    const notes = file('notes.jsonl', lines.map((line) => JSON.stringify(line)).join('\n'));
    const turns = [
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'a1' },
      { speaker: 'Ana', content: 'a2' },
      { role: 'user', content: 'own', thread: 'elsewhere' },
      { role: '  ', content: 'blank role' },
      { role: 7, content: 'odd role' },
    ];
    // A lone surrogate in a field hippo does not keep is no reason to refuse the line.
    const lone = JSON.stringify({ speaker: 'x', content: 'lone speaker' }).replace('"x"', '"\\ud800"');
    const chat = file('chat.jsonl', [...turns.map((line) => JSON.stringify(line)), lone].join('\n'));
    const md = file('notes.md', 'First paragraph.\n\nSecond paragraph.\n');
    expect(await importFiles(store, [notes, chat, md], { agentId: 'a' })).toMatchObject({ imported: 15 });
    const threads = Object.fromEntries((await all(iterateMemories(store, 'a'))).map((memory) => [memory.content, memory.thread]));
    expect(threads).toEqual({
      one: null,
      two: 'explicit',
      three: null,
      four: null,
      'exported without a thread': null,
      'exported in a thread': 'standup',
      q1: chat,
      a1: chat,
      a2: chat,
      own: 'elsewhere',
      'blank role': null,
      'odd role': null,
      'lone speaker': chat,
      'First paragraph.': null,
      'Second paragraph.': null,
    });
    // A conversation in line order (all lines share the import's time).
    expect((await listMemories(store, { agentId: 'a', thread: chat })).map((memory) => memory.content)).toEqual(['q1', 'a1', 'a2', 'lone speaker']);
  });

  it("threads every file as asked: one thread for all (a line's own wins), or each file one thread in line order; not both", async () => {
    const jsonl = file('a.jsonl', ['{"content":"one"}', '{"content":"two","thread":null}', '{"content":"three","thread":"own"}'].join('\n'));
    const md = file('b.md', 'First paragraph.\n\nSecond paragraph.\n');
    await importFiles(store, [jsonl, md], { agentId: 'a', threads: { thread: 'all of it' } });
    const named = Object.fromEntries((await all(iterateMemories(store, 'a'))).map((memory) => [memory.content, memory.thread]));
    expect(named).toEqual({ one: 'all of it', two: null, three: 'own', 'First paragraph.': 'all of it', 'Second paragraph.': 'all of it' });
    await importFiles(store, [jsonl, md], { agentId: 'b', threads: { perFile: true } });
    expect((await listMemories(store, { agentId: 'b', thread: md })).map((memory) => memory.content)).toEqual(['First paragraph.', 'Second paragraph.']);
    expect((await listMemories(store, { agentId: 'b', thread: jsonl })).map((memory) => memory.content)).toEqual(['one']);
    await expect(importFiles(store, [md], { agentId: 'c', threads: { thread: 'x', perFile: true } })).rejects.toMatchObject({ exitCode: 2 });
    await expect(importFiles(store, [md], { agentId: 'c', threads: { thread: ' ' } })).rejects.toMatchObject({ code: 'bad_thread' });
    expect(await listMemories(store, { agentId: 'c' })).toEqual([]);
  });

  it('imports a file whose name holds a newline or a bidi character as one thread, those characters shown as U+FFFD', async () => {
    const odd = file('odd\u202ename\nx.jsonl', '{"content":"alpha"}\n{"content":"beta"}\n');
    const md = file('tab\there.md', 'One.\n\nTwo.\n');
    expect(await importFiles(store, [odd, md], { agentId: 'a', threads: { perFile: true } })).toMatchObject({ imported: 4 });
    const threads = new Set((await all(iterateMemories(store, 'a'))).map((memory) => memory.thread));
    expect(threads).toEqual(new Set([join(store.dir, 'odd\uFFFDname\uFFFDx.jsonl'), join(store.dir, 'tab\uFFFDhere.md')]));
  });

  it('refuses a blank or hidden-character thread naming file:line', async () => {
    const bad = file('bad.jsonl', '{"content":"ok","thread":"  "}\n');
    const hidden = file('hidden.jsonl', '{"content":"ok"}\n{"content":"ok","thread":"a\\u202eb"}\n');
    const result = await importFiles(store, [bad, hidden], { agentId: 'a' });
    expect(result.files.map((each) => each.error?.message)).toEqual([
      expect.stringMatching(/bad\.jsonl:1: a thread name/),
      expect.stringMatching(/hidden\.jsonl:2: a thread name/),
    ]);
    expect(result.imported).toBe(0);
  });

  it('reads a line\'s "agent" as its agentId (never ignored); both naming different agents is refused, naming file:line', async () => {
    const jsonl = file('agents.jsonl', '{"content":"for cy","agent":"cy"}\n{"content":"same","agent":"cy","agentId":"cy"}\n');
    expect(await importFiles(store, [jsonl], { agentId: 'a' })).toMatchObject({ imported: 2 });
    expect((await listMemories(store, { agentId: 'cy' })).map((memory) => memory.content).sort()).toEqual(['for cy', 'same']);
    expect(await listMemories(store, { agentId: 'a' })).toEqual([]);
    const clash = file('clash.jsonl', '{"content":"fine"}\n{"content":"x","agent":"cy","agentId":"bob"}\n');
    const [result] = (await importFiles(store, [clash], { agentId: 'a' })).files;
    expect(result!.error!.message).toContain(`${clash}:2`);
    expect(result!.error!.message).toContain('"agent" and "agentId" name different agents');
    const blank = file('blank.jsonl', '{"content":"x","agent":" "}\n');
    expect((await importFiles(store, [blank], { agentId: 'a' })).files[0]!.error!.message).toContain(`${blank}:1`);
  });

  it('names file:line for a line that is not an object and imports nothing from that file, others unaffected', async () => {
    const good = file('good.jsonl', '{"content":"kept"}\n');
    const bad = file('bad.jsonl', '{"content":"would be first"}\n{"content":"ok"}\n[1,2,3]\n{"content":"after"}\n');
    const result = await importFiles(store, [bad, good], { agentId: 'a' });
    expect(result.files[0]).toMatchObject({ path: bad, imported: 0, error: { code: 'bad_import_line' } });
    expect(result.files[0]!.error!.message).toContain(`${bad}:3`);
    expect(result.files[1]).toMatchObject({ path: good, imported: 1 });
    expect((await listMemories(store, { agentId: 'a' })).map((memory) => memory.content)).toEqual(['kept']);
  });

  it.each([
    ['not JSON', '{"content": "x"\n', 'not valid JSON'],
    ['null', 'null\n', 'not a JSON object'],
    ['a string', '"text"\n', 'not a JSON object'],
    ['no content', '{"text":"x"}\n', 'content'],
    ['empty content', '{"content":"  "}\n', 'empty'],
    ['bad durability', '{"content":"x","durability":"forever"}\n', 'durability'],
    ['expiry on persistent', '{"content":"x","durability":"persistent","expiresAt":"2027-01-01T00:00:00.000Z"}\n', 'never expires'],
    ['bad id', '{"content":"x","id":"mem_lowercase"}\n', 'not a memory id'],
  ])('refuses a JSONL line with %s', async (_name, body, reason) => {
    const path = file('x.jsonl', `{"content":"fine"}\n${body}`);
    const [result] = (await importFiles(store, [path], { agentId: 'a' })).files;
    expect(result!.error!.message).toContain(`${path}:2`);
    expect(result!.error!.message).toContain(reason);
    expect(await listMemories(store, { agentId: 'a' })).toEqual([]);
  });

  it('refuses a file that is not UTF-8, naming it', async () => {
    const path = file('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const [result] = (await importFiles(store, [path], { agentId: 'a' })).files;
    expect(result!.error).toMatchObject({ code: 'not_utf8' });
    expect(result!.error!.message).toContain(path);
  });

  it('round-trips an export losslessly, including archived, derived and usage fields', async () => {
    const first = (
      await addMemory(store, {
        agentId: 'a',
        content: 'Dublin office: +353 1 234 5678',
        tags: ['contacts'],
        subject: 'office',
        durability: 'persistent',
      })
    ).memory;
    clock.advance(1000);
    await addMemory(store, { agentId: 'a', content: 'temporary', durability: 'ephemeral', source: '/notes/today.md' });
    await addMemory(store, { agentId: 'a', content: 'a lesson', derivedFrom: [first.id], promotedFrom: 'cand_01JD0000000000000000000000' });
    await archiveMemories(store, 'a', [first.id], 'superseded');
    const exported = await all(iterateMemories(store, 'a'));
    const path = file('export.jsonl', exported.map((memory) => JSON.stringify(memory)).join('\n'));
    const other = await openStore({ path: join(store.dir, 'other.db') });
    try {
      expect((await importFiles(other, [path], { agentId: 'ignored' })).imported).toBe(3);
      expect(await all(iterateMemories(other, 'a'))).toEqual(exported);
      // Importing again skips every existing id instead of duplicating or overwriting.
      expect(await importFiles(other, [path], { agentId: 'ignored' })).toMatchObject({ imported: 0, existing: 3, duplicates: 0 });
    } finally {
      await other.close();
    }
  });
});

describe('importFiles and Ctrl-C', () => {
  it('stops before the next file once aborted, keeping the files already imported whole', async () => {
    const files = [0, 1, 2].map((index) => file(`part-${index}.jsonl`, `{"content":"file ${index} a"}\n{"content":"file ${index} b"}\n`));
    const controller = new AbortController();
    const promise = importFiles(store, files, { agentId: 'a', onFile: (done) => done === 1 && controller.abort(), signal: controller.signal });
    await expect(promise).rejects.toMatchObject({ code: 'interrupted', exitCode: 130, details: { imported: 2 } });
    expect((await listMemories(store, { agentId: 'a' })).map((memory) => memory.content).sort()).toEqual(['file 0 a', 'file 0 b']);
  });

  it('stops inside one big file too: its transaction rolled back, the files before it whole, what landed said', async () => {
    const small = file('small.jsonl', '{"content":"small a"}\n');
    const lines = Array.from({ length: CHUNK_MEMORIES * 3 }, (_, index) => JSON.stringify({ content: `big note ${index}` }));
    const big = file('big.jsonl', `${lines.join('\n')}\n`);
    const smallBytes = statSync(small).size;
    const controller = new AbortController();
    const progress: [number, number][] = [];
    const promise = importFiles(store, [small, big], {
      agentId: 'a',
      signal: controller.signal,
      onProgress: (done, total) => {
        progress.push([done, total]);
        // Abort after the first chunk of the big file was inserted (inside its transaction).
        if (done > smallBytes) controller.abort();
      },
    });
    const error = await promise.catch((caught: unknown) => caught as Error);
    expect(error).toMatchObject({ code: 'interrupted', exitCode: 130, details: { imported: 1 } });
    expect((error as Error).message).toBe(
      `interrupted: 1 memories from 1 of 2 files were imported; nothing from ${big} (its transaction was rolled back), nothing from the rest`,
    );
    expect((await listMemories(store, { agentId: 'a', limit: 100_000 })).map((memory) => memory.content)).toEqual(['small a']);
    // Progress counts bytes, within the big file as well: past the small file, short of the end.
    const totalBytes = smallBytes + statSync(big).size;
    expect(progress.map(([, total]) => total).every((total) => total === totalBytes)).toBe(true);
    expect(progress.at(-2)).toEqual([smallBytes, totalBytes]);
    expect(progress.at(-1)![0]).toBeGreaterThan(smallBytes);
    expect(progress.at(-1)![0]).toBeLessThan(totalBytes);
  });

  it('reports byte progress up to the total when not interrupted', async () => {
    const lines = Array.from({ length: CHUNK_MEMORIES + 5 }, (_, index) => JSON.stringify({ content: `note ${index}` }));
    const path = file('two-chunks.jsonl', `${lines.join('\n')}\n`);
    const progress: number[] = [];
    const result = await importFiles(store, [path], { agentId: 'a', onProgress: (done) => progress.push(done) });
    expect(result.imported).toBe(CHUNK_MEMORIES + 5);
    expect(progress.at(-1)).toBe(statSync(path).size);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });
});

describe('parseImportFile: a lone surrogate in a line', () => {
  const now = new Date('2026-11-02T09:30:00.000Z');
  const parse = (text: string) => () => parseImportFile('/in/x.jsonl', text, 'ops', now);

  it('is refused naming file:line and the field, for the content and for a tag; nothing from the file', () => {
    const good = JSON.stringify({ content: 'fine' });
    expect(parse(`${good}\n{"content":"\\ud800 lone"}\n`)).toThrow(
      expect.objectContaining({
        code: 'bad_import_line',
        exitCode: 2,
        details: { path: '/in/x.jsonl', line: 2 },
        message: expect.stringMatching(/^\/in\/x\.jsonl:2: field "content" holds a lone surrogate .*; nothing from this file was imported$/),
      }),
    );
    expect(parse('{"content":"ok","tags":["a","\\udc00"]}')).toThrow(
      expect.objectContaining({ message: expect.stringContaining('x.jsonl:1: field "tags.1" holds a lone surrogate') }),
    );
  });

  it('in a field hippo ignores is not looked at (it is never stored), and an escaped pair is a character', () => {
    expect(parse('{"content":"ok","note":"\\ud800"}')()).toHaveLength(1);
    expect(parse('{"content":"rocket \\ud83d\\ude80"}')()[0]!.content).toBe('rocket 🚀');
  });
});

describe.each(ENGINES)('import on %s: lineage and agent ids (issue 27)', (engine) => {
  let shared: TestStore;
  let dir: string;
  beforeEach(async () => {
    shared = await openTestStore(engine, clock);
    dir = mkdtempSync(join(tmpdir(), 'hippo-import-'));
  });
  afterEach(async () => {
    await shared.done();
    rmSync(dir, { recursive: true, force: true });
  });
  const write = (name: string, lines: readonly object[]): string => {
    const path = join(dir, name);
    writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    return path;
  };

  it('refuses a derivedFrom naming another agent’s memory (stored, or given to another agent in the same file): file:line, nothing from that file', async () => {
    const theirs = (await addMemory(shared, { agentId: 'bob', content: 'bob’s private note' })).memory;
    const mine = (await addMemory(shared, { agentId: 'ana', content: 'ana’s own note' })).memory;
    const stolen = write('stolen.jsonl', [{ content: 'fine' }, { content: 'an insight', derivedFrom: [mine.id, theirs.id] }]);
    const inFile = newId('mem');
    const crossFile = write('cross.jsonl', [
      { id: inFile, agentId: 'bob', content: 'bob line' },
      { content: 'derived from bob’s line', derivedFrom: [inFile] },
    ]);
    const result = await importFiles(shared, [stolen, crossFile], { agentId: 'ana' });
    expect(result.imported).toBe(0);
    expect(result.files.map((file) => file.error)).toEqual([
      {
        code: 'bad_import_line',
        message: `${stolen}:2: field "derivedFrom" names ${theirs.id}, which is not a memory of agent "ana"; nothing from this file was imported`,
      },
      {
        code: 'bad_import_line',
        message: `${crossFile}:2: field "derivedFrom" names ${inFile}, which is not a memory of agent "ana"; nothing from this file was imported`,
      },
    ]);
    expect((await listMemories(shared, { agentId: 'ana' })).map((memory) => memory.content)).toEqual(['ana’s own note']);
    expect((await listMemories(shared, { agentId: 'bob' })).map((memory) => memory.content)).toEqual(['bob’s private note']);
  });

  it('refuses a promotedFrom naming another agent’s candidate: file:line, nothing from that file; its own or an unknown one is kept', async () => {
    const theirs = candidate('bob', 'Bob’s lesson');
    const own = candidate('ana', 'Ana’s lesson');
    for (const record of [theirs, own]) await shared.candidates.insert(record);
    const unknown = newId('cand');
    const stolen = write('stolen.jsonl', [{ content: 'fine' }, { content: 'a promoted insight', promotedFrom: theirs.id }]);
    const kept = write('kept.jsonl', [
      { content: 'promoted from ana’s own', promotedFrom: own.id },
      { content: 'promoted from a candidate this store never held', promotedFrom: unknown },
    ]);
    const result = await importFiles(shared, [stolen, kept], { agentId: 'ana' });
    expect(result.files.map((file) => file.error)).toEqual([
      {
        code: 'bad_import_line',
        message: `${stolen}:2: field "promotedFrom" names ${theirs.id}, which is not a candidate of agent "ana"; nothing from this file was imported`,
      },
      undefined,
    ]);
    expect(result.imported).toBe(2);
    const memories = await listMemories(shared, { agentId: 'ana' });
    expect(memories.map((memory) => [memory.content, memory.promotedFrom]).sort()).toEqual([
      ['promoted from a candidate this store never held', unknown],
      ['promoted from ana’s own', own.id],
    ]);
    // The same line given to bob's own import is his.
    const bobs = write('bob.jsonl', [{ content: 'bob promoted', promotedFrom: theirs.id }]);
    expect((await importFiles(shared, [bobs], { agentId: 'bob' })).imported).toBe(1);
  });

  it('normalises agent ids, threads and tags to NFC, and refuses a new agent that looks like an existing one, naming it', async () => {
    const nfc = 'caf\u00e9';
    const nfd = 'cafe\u0301';
    await addMemory(shared, { agentId: nfc, content: 'first', thread: `t-${nfd}`, tags: [nfd] });
    // The same agent, thread and tag, typed the other way: one agent, one thread, one tag.
    const again = await addMemory(shared, { agentId: nfd, content: 'second', thread: `t-${nfc}`, tags: [nfc] });
    expect(again.memory).toMatchObject({ agentId: nfc, thread: `t-${nfc}`, tags: [nfc] });
    const path = write('nfd.jsonl', [{ agentId: nfd, content: 'third', tags: [nfd] }]);
    expect((await importFiles(shared, [path], { agentId: 'x' })).imported).toBe(1);
    expect((await shared.memories.agentCounts()).map((agent) => [agent.agentId, agent.memories])).toEqual([[nfc, 3]]);

    // Cyrillic о (U+043E) in "ops" looks like the Latin one: refused once "ops" exists, naming it; nothing written.
    await addMemory(shared, { agentId: 'ops', content: 'ops note' });
    const lookalike = '\u043eps';
    await expect(addMemory(shared, { agentId: lookalike, content: 'spoof' })).rejects.toMatchObject({
      code: 'confusable_agent',
      exitCode: 2,
      message: 'the agent id "\u043eps" (U+043E U+0070 U+0073) looks like the existing agent "ops"; use that agent, or an id that does not look like it',
      details: { agentId: lookalike, existing: 'ops' },
    });
    await expect(createToken(shared, { agentId: lookalike })).rejects.toMatchObject({ code: 'confusable_agent' });
    const spoof = write('spoof.jsonl', [{ content: 'fine' }, { agent: lookalike, content: 'spoof' }]);
    const result = await importFiles(shared, [spoof], { agentId: 'ops' });
    expect(result.files[0]?.error).toEqual({
      code: 'confusable_agent',
      message: `${spoof}:2: the agent id "\u043eps" (U+043E U+0070 U+0073) looks like the existing agent "ops"; use that agent, or an id that does not look like it; nothing from this file was imported`,
    });
    expect((await shared.memories.agentCounts()).map((agent) => agent.agentId).sort()).toEqual([nfc, 'ops']);

    // An emoji written with or without its joiners (the only place an agent id keeps one) looks the same (rev27j).
    await addMemory(shared, { agentId: 'team \u{1f468}\u200d\u{1f469}', content: 'team note' });
    await expect(addMemory(shared, { agentId: 'team \u{1f468}\u{1f469}', content: 'spoof' })).rejects.toMatchObject({ code: 'confusable_agent' });
  });

  it('keeps a derivedFrom naming the agent’s own memories (stored or in the file) and one found nowhere (forgotten since)', async () => {
    const mine = (await addMemory(shared, { agentId: 'ana', content: 'ana’s own note' })).memory;
    const sibling = newId('mem');
    const gone = newId('mem');
    const path = write('mine.jsonl', [
      { content: 'insight', derivedFrom: [mine.id, sibling, gone] },
      { id: sibling, content: 'a sibling line' },
    ]);
    const result = await importFiles(shared, [path], { agentId: 'ana' });
    expect(result.files[0]?.error).toBeUndefined();
    expect(result.imported).toBe(2);
    const insight = (await listMemories(shared, { agentId: 'ana' })).find((memory) => memory.content === 'insight');
    expect(insight?.derivedFrom).toEqual([mine.id, sibling, gone]);
  });
});
