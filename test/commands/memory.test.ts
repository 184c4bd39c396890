import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';
import { openStore } from '../../src/core/store/store.js';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

interface MemoryJson {
  id: string;
  content: string;
  durability: string;
  tags: string[];
  expiresAt: string | null;
  agentId: string;
}

describe('hippo memory (built CLI)', () => {
  it('adds from an argument and from stdin, creating the database 0600, and shows and lists them', async () => {
    const added = await box.hippo(['memory', 'add', 'Moved the billing cron to 02:30', '--tag', 'billing', '--json']);
    expect(added.exitCode).toBe(0);
    const { memory } = json<{ memory: MemoryJson }>(added);
    expect(memory).toMatchObject({ content: 'Moved the billing cron to 02:30', tags: ['billing'], durability: 'standard', agentId: 'default' });
    expect(statSync(box.db).mode & 0o777).toBe(0o600);

    const piped = await box.hippo(['memory', 'add', '--durability', 'ephemeral', '--agent', 'ops'], { input: 'Standup at 10 today\n' });
    expect(piped.exitCode).toBe(0);
    expect(String(piped.stdout)).toMatch(/^added mem_\w{26} \(ephemeral, expires /);

    const shown = json<{ memory: MemoryJson }>(await box.hippo(['memory', 'show', memory.id, '--json']));
    expect(shown.memory).toEqual(memory);
    const text = await box.hippo(['memory', 'show', memory.id]);
    expect(String(text.stdout)).toContain('Moved the billing cron to 02:30');

    const listed = json<{ memories: MemoryJson[] }>(await box.hippo(['memory', 'list', '--agent', 'ops', '--json']));
    expect(listed.memories.map((item) => item.content)).toEqual(['Standup at 10 today']);
  });

  it('warns on stderr about a duplicate, keeping stdout one JSON document', async () => {
    await box.hippo(['memory', 'add', 'same text']);
    const second = await box.hippo(['memory', 'add', 'same   text', '--json']);
    expect(second.exitCode).toBe(0);
    expect(json<{ duplicateOf: string[] }>(second).duplicateOf).toHaveLength(1);
    expect(String(second.stderr)).toContain('warning: same text as mem_');
  });

  it.each([
    [['memory', 'add', '   '], 2, 'empty_content'],
    [['memory', 'add', 'x', '--durability', 'persistent', '--expires', '7d'], 2, 'expires_on_durable'],
    [['memory', 'add', 'x', '--expires', 'next blursday'], 2, 'bad_date'],
    [['memory', 'add', 'x', '--bogus'], 2, 'usage'],
    [['memory', 'list', '--limit', 'ten'], 2, 'bad_limit'],
    [['memory', 'show', 'mem_01JD0000000000000000000000'], 3, 'memory_not_found'],
    [['memory', 'archive', 'mem_01JD0000000000000000000000'], 3, 'memory_not_found'],
    [['memory', 'import', '/nonexistent/file.jsonl'], 2, 'file_not_found'],
  ])('%j exits %i with a clear error, the same with --json', async (args, exitCode, code) => {
    // A store that exists (an empty one): without it, show and archive are `store_not_found` before they look for the id.
    await (await openStore({ path: box.db })).close();
    const text = await box.hippo(args);
    expect(text.exitCode).toBe(exitCode);
    expect(String(text.stderr)).toMatch(/^Error: /);
    expect(String(text.stdout)).toBe('');
    const withJson = await box.hippo([...args, '--json']);
    expect(withJson.exitCode).toBe(exitCode);
    expect(json<{ error: { code: string; message: string } }>(withJson).error.code).toBe(code);
  });

  it('refuses text over 64 KiB from stdin', async () => {
    const result = await box.hippo(['memory', 'add', '--json'], { input: 'x'.repeat(64 * 1024 + 1) });
    expect(result.exitCode).toBe(2);
    expect(json<{ error: { code: string } }>(result).error.code).toBe('content_too_large');
  });

  it('refuses non-UTF-8 stdin', async () => {
    const result = await box.hippo(['memory', 'add'], { input: Buffer.from([0x63, 0x61, 0x66, 0xe9]) });
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr)).toContain('not valid UTF-8');
  });

  it('archives, and exports JSONL that imports back losslessly into another database', async () => {
    const a = json<{ memory: MemoryJson }>(
      await box.hippo(['memory', 'add', 'Office: +353 1 234 5678', '--durability', 'persistent', '--subject', 'dublin', '--json']),
    ).memory;
    await box.hippo(['memory', 'add', 'second note', '--tag', 't']);
    expect((await box.hippo(['memory', 'archive', a.id, '--reason', 'moved office'])).stdout).toContain(`archived ${a.id}`);
    const exportPath = join(box.dir, 'export.jsonl');
    const exported = await box.hippo(['memory', 'export', '--output', exportPath, '--json']);
    expect(json(exported)).toEqual({ exported: 2, path: exportPath });
    const other = join(box.dir, 'other.db');
    const imported = await box.hippo(['memory', 'import', exportPath, '--db', other, '--json']);
    expect(json(imported)).toMatchObject({ imported: 2 });
    const again = await box.hippo(['memory', 'export', '--db', other]);
    expect(`${String(again.stdout)}\n`).toBe(readFileSync(exportPath, 'utf8')); // execa strips the final newline
  });

  it('imports a directory; a bad file fails whole with file:line and exit 2 while the good files land', async () => {
    writeFileSync(join(box.dir, 'good.md'), 'first paragraph\n\nsecond paragraph\n');
    writeFileSync(join(box.dir, 'bad.jsonl'), '{"content":"a"}\n42\n');
    const result = await box.hippo(['memory', 'import', box.dir, '--json']);
    expect(result.exitCode).toBe(2);
    const { error } = json<{ error: { code: string; message: string; details: { imported: number } } }>(result);
    expect(error.code).toBe('import_failed');
    expect(error.message).toContain(`${join(box.dir, 'bad.jsonl')}:2`);
    expect(error.details.imported).toBe(2);
    const listed = json<{ memories: MemoryJson[] }>(await box.hippo(['memory', 'list', '--json']));
    expect(listed.memories.map((memory) => memory.content).sort()).toEqual(['first paragraph', 'second paragraph']);
  });

  it('lets two imports write one database at once: both complete and the counts add up', async () => {
    // Ten files a worker, one transaction each, so the two writers really interleave on the one file.
    for (const worker of ['one', 'two']) {
      mkdirSync(join(box.dir, worker));
      for (let file = 0; file < 10; file++) {
        const lines = Array.from({ length: 300 }, (_, index) => JSON.stringify({ content: `${worker} file ${file} note ${index}` }));
        writeFileSync(join(box.dir, worker, `part-${file}.jsonl`), lines.join('\n'));
      }
    }
    const runs = await Promise.all(['one', 'two'].map((worker) => box.hippo(['memory', 'import', join(box.dir, worker), '--json'])));
    for (const run of runs) {
      expect(run.exitCode).toBe(0);
      expect(json(run)).toMatchObject({ imported: 3000 });
    }
    const listed = json<{ memories: unknown[] }>(await box.hippo(['memory', 'list', '--limit', '10000', '--json']));
    expect(listed.memories).toHaveLength(6000);
  });
});
