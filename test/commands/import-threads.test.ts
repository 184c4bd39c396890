/**
 * Issue 30 point 6, "a file is not a conversation", through the built CLI on both engines: what `memory import`
 * threads (a line's `thread`, `--thread NAME`, `--thread-per-file`, a conversation's turns: JSONL lines with a `role`
 * or `speaker`) and what it does not (a plain list of notes), and `memory thread`, which sets or clears the thread of
 * what is stored — the search context following, so a cleared memory is no longer found through its old neighbours.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { engineSandbox, json, type EngineSandbox, type SandboxEngine } from '../helpers/cli.js';

const ENGINES: readonly SandboxEngine[] = ['sqlite', 'postgres'];

interface Hit {
  memory: { id: string; content: string; thread: string | null };
  matched: string[];
  nearby: { memoryId: string; snippet: string } | null;
}

const boxes: EngineSandbox[] = [];
afterEach(async () => {
  for (const box of boxes.splice(0)) await box.dispose();
});

async function box(engine: SandboxEngine): Promise<EngineSandbox> {
  const made = await engineSandbox(engine);
  boxes.push(made);
  return made;
}

/** The contents `search WORD` finds, each with the parts it matched. */
async function found(t: EngineSandbox, word: string): Promise<[string, string[]][]> {
  const result = await t.hippo(['search', word, '--json', '--limit', '20']);
  expect(result.exitCode, String(result.stderr)).toBe(0);
  return json<{ results: Hit[] }>(result).results.map((hit) => [hit.memory.content, hit.matched]);
}

async function imported(t: EngineSandbox, args: string[]): Promise<void> {
  const result = await t.hippo(['memory', 'import', ...args, '--json']);
  expect(result.exitCode, String(result.stderr)).toBe(0);
}

async function threads(t: EngineSandbox): Promise<Record<string, string | null>> {
  const listed = json<{ memories: { content: string; thread: string | null }[] }>(await t.hippo(['memory', 'list', '--json', '--all']));
  return Object.fromEntries(listed.memories.map((memory) => [memory.content, memory.thread]));
}

const TODO = ['call the dentist', 'renew the passport', 'buy milk'];

describe.each(ENGINES)('memory import threads only what the user said is one (%s)', (engine) => {
  it("the issue's case: a three-line to-do list is no conversation — search dentist shows the dentist line alone", async () => {
    const t = await box(engine);
    const todo = join(t.dir, 'todo.txt');
    writeFileSync(todo, TODO.join('\n\n') + '\n');
    await imported(t, [todo]);
    expect(await found(t, 'dentist')).toEqual([['call the dentist', ['content']]]);
    const text = String((await t.hippo(['search', 'dentist'])).stdout);
    expect(text).not.toContain('renew the passport');
    expect(text).not.toContain('matched nearby');
    // Nor a JSONL list of notes, nor Markdown bullets.
    const jsonl = join(t.dir, 'errands.jsonl');
    writeFileSync(jsonl, ['pick up the dry cleaning', 'return the library books'].map((content) => JSON.stringify({ content })).join('\n'));
    const bullets = join(t.dir, 'shopping.md');
    writeFileSync(bullets, '# Shopping\n\n- oat flakes\n\n- lemon soap\n');
    await imported(t, [jsonl, bullets]);
    expect(await found(t, 'cleaning')).toEqual([['pick up the dry cleaning', ['content']]]);
    expect(await found(t, 'oat')).toEqual([['- oat flakes', ['content']]]);
    expect(Object.values(await threads(t))).toEqual([null, null, null, null, null, null, null]);
  });

  it("threads a JSONL line's own thread, a conversation's turns (role or speaker), and a plain file with --thread-per-file or --thread", async () => {
    const t = await box(engine);
    const own = join(t.dir, 'own.jsonl');
    writeFileSync(
      own,
      [
        { content: 'the quokka escaped the enclosure', thread: 'zoo' },
        { content: 'keepers searched the aviary', thread: 'zoo' },
        { content: 'an unrelated note' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const chat = join(t.dir, 'chat.jsonl');
    writeFileSync(
      chat,
      [
        { role: 'user', content: 'We adopted a beagle from the shelter!' },
        { role: 'assistant', content: 'Congratulations! What did you call it?' },
        { speaker: 'Ana', content: 'Biscuit, the kids voted.' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const transcript = join(t.dir, 'transcript.md');
    writeFileSync(transcript, 'Shall we paint the kitchen teal?\n\nYes, Saturday morning.\n');
    const standup = join(t.dir, 'standup.txt');
    writeFileSync(standup, 'the build is red on walnut\n\nreleasing on Thursday\n');
    await imported(t, [own, chat]);
    await imported(t, [transcript, '--thread-per-file']);
    await imported(t, [standup, '--thread', 'standup']);
    expect(await threads(t)).toMatchObject({
      'the quokka escaped the enclosure': 'zoo',
      'keepers searched the aviary': 'zoo',
      'an unrelated note': null,
      'We adopted a beagle from the shelter!': chat,
      'Congratulations! What did you call it?': chat,
      'Biscuit, the kids voted.': chat,
      'Shall we paint the kitchen teal?': transcript,
      'Yes, Saturday morning.': transcript,
      'the build is red on walnut': 'standup',
      'releasing on Thursday': 'standup',
    });
    expect(await found(t, 'quokka')).toEqual([
      ['the quokka escaped the enclosure', ['content']],
      ['keepers searched the aviary', ['context']],
    ]);
    expect(await found(t, 'beagle')).toEqual(
      expect.arrayContaining([
        ['Congratulations! What did you call it?', ['context']],
        ['Biscuit, the kids voted.', ['context']],
      ]),
    );
    expect(await found(t, 'teal')).toEqual([
      ['Shall we paint the kitchen teal?', ['content']],
      ['Yes, Saturday morning.', ['context']],
    ]);
    expect(await found(t, 'walnut')).toEqual([
      ['the build is red on walnut', ['content']],
      ['releasing on Thursday', ['context']],
    ]);
    // One thread for all, or one per file: not both (exit 2, nothing imported).
    const both = await t.hippo(['memory', 'import', standup, '--thread', 'x', '--thread-per-file']);
    expect(both.exitCode).toBe(2);
  });

  it('memory thread sets and clears threads; the search context follows, and a cleared memory is found through no old neighbour', async () => {
    const t = await box(engine);
    const todo = join(t.dir, 'todo.txt');
    writeFileSync(todo, TODO.join('\n\n') + '\n');
    // As an older hippo imported it: the file one thread.
    await imported(t, [todo, '--thread-per-file']);
    expect(await found(t, 'dentist')).toEqual(expect.arrayContaining([['renew the passport', ['context']]]));

    const cleared = await t.hippo(['memory', 'thread', '--file', todo, '--clear', '--json']);
    expect(cleared.exitCode, String(cleared.stderr)).toBe(0);
    expect(json<{ thread: string | null; moved: string[]; unchanged: string[] }>(cleared)).toMatchObject({ thread: null, unchanged: [] });
    expect(json<{ moved: string[] }>(cleared).moved).toHaveLength(3);
    expect(await found(t, 'dentist')).toEqual([['call the dentist', ['content']]]);
    expect(await found(t, 'passport')).toEqual([['renew the passport', ['content']]]);
    expect(Object.values(await threads(t))).toEqual([null, null, null]);

    // Set by id: two of them into a thread, in text.
    const ids = json<{ memories: { id: string; content: string }[] }>(await t.hippo(['memory', 'list', '--json'])).memories;
    const id = (content: string) => ids.find((memory) => memory.content === content)!.id;
    const set = await t.hippo(['memory', 'thread', id('call the dentist'), id('renew the passport'), '--set', 'errands']);
    expect(set.exitCode, String(set.stderr)).toBe(0);
    expect(String(set.stdout)).toContain('moved 2 memories into thread "errands"');
    expect(await found(t, 'dentist')).toEqual([
      ['call the dentist', ['content']],
      ['renew the passport', ['context']],
    ]);
    expect(await found(t, 'milk')).toEqual([['buy milk', ['content']]]);

    // Clear one of a thread of three by id: it keeps none of its old neighbours' words, and they none of its.
    expect((await t.hippo(['memory', 'thread', id('buy milk'), '--set', 'errands'])).exitCode).toBe(0);
    expect(await found(t, 'milk')).toEqual(expect.arrayContaining([['renew the passport', ['context']]]));
    const one = await t.hippo(['memory', 'thread', id('renew the passport'), '--clear']);
    expect(String(one.stdout)).toContain('moved 1 memory out of their thread');
    expect(await found(t, 'passport')).toEqual([['renew the passport', ['content']]]);
    expect(await found(t, 'dentist')).toEqual([
      ['call the dentist', ['content']],
      ['buy milk', ['context']],
    ]);
    // Its thread by name.
    const moved = await t.hippo(['memory', 'thread', '--from', 'errands', '--set', 'chores', '--json']);
    expect(json<{ moved: string[] }>(moved).moved.sort()).toEqual([id('call the dentist'), id('buy milk')].sort());
    expect((await threads(t))['buy milk']).toBe('chores');

    // Refusals: an unknown id changes nothing (exit 3); nothing chosen or no target (exit 2).
    const unknown = await t.hippo(['memory', 'thread', id('buy milk'), 'mem_01JD3Z8N6Q2W4E5R7T9Y1V3J5M', '--clear']);
    expect(unknown.exitCode).toBe(3);
    expect((await threads(t))['buy milk']).toBe('chores');
    const nothing = await t.hippo(['memory', 'thread', '--clear', '--json']);
    expect([nothing.exitCode, json<{ error: { code: string } }>(nothing).error.code]).toEqual([2, 'nothing_to_thread']);
    const nowhere = await t.hippo(['memory', 'thread', id('buy milk')]);
    expect(nowhere.exitCode).toBe(2);
    expect(String(nowhere.stderr)).toContain('--set NAME');
    expect((await t.hippo(['memory', 'thread', '--from', 'no such thread', '--clear'])).exitCode).toBe(3);
  });

  it('memory thread names a few unknown ids and counts the rest, says when only the case is wrong, and refuses a name on two lines', async () => {
    const t = await box(engine);
    const notes = join(t.dir, 'notes.txt');
    writeFileSync(notes, 'call the dentist\n');
    await imported(t, [notes]);
    const id = json<{ memories: { id: string }[] }>(await t.hippo(['memory', 'list', '--json'])).memories[0]!.id;
    const unknown = Array.from({ length: 40 }, (_, index) => `mem_${String(index).padStart(26, '0')}`);
    const many = await t.hippo(['memory', 'thread', id, ...unknown, '--set', 'big']);
    expect(many.exitCode).toBe(3);
    expect(String(many.stderr)).toContain(`no memory ${unknown.slice(0, 5).join(', ')} and 35 more for agent "default"`);
    expect(String(many.stderr)).not.toContain(unknown[5]!);
    const lower = await t.hippo(['memory', 'thread', id.toLowerCase(), '--set', 'q']);
    expect(lower.exitCode).toBe(3);
    expect(String(lower.stderr)).toContain(`ids are case-sensitive: ${id} exists`);
    for (const name of ['a\u2028b', '\u0301x']) {
      const refused = await t.hippo(['memory', 'thread', id, '--set', name, '--json']);
      expect(refused.exitCode).toBe(2);
      expect(json<{ error: { code: string } }>(refused).error.code).toBe('bad_thread');
    }
    expect(Object.values(await threads(t))).toEqual([null]);
  });
});
