/**
 * Review of issue 26 (rev26b): a memory text with nothing before its first NUL (U+0000) was an unexpected error on
 * SQLite (exit 1, "CHECK constraint failed": SQLite's `length()` stops at a NUL). Now `nul_in_text`, exit 2, on both
 * engines, through `memory add` and `memory import` (file:line), nothing written; a text with words before a NUL is
 * stored on SQLite as before (PostgreSQL refuses any NUL).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { engineSandbox, json, type EngineSandbox, type SandboxEngine } from '../helpers/cli.js';

const ENGINES: readonly SandboxEngine[] = ['sqlite', 'postgres'];
const boxes: EngineSandbox[] = [];
afterEach(async () => {
  for (const box of boxes.splice(0)) await box.dispose();
});

interface Failure {
  error: { code: string; message: string; details?: { files?: { imported: number; error?: { code: string; message: string } }[] } };
}

describe.each(ENGINES)('a memory text opening with a NUL (%s)', (engine) => {
  it('is refused with nul_in_text, exit 2, by memory add and memory import; nothing is written', async () => {
    const box = await engineSandbox(engine);
    boxes.push(box);
    const env = { HIPPO_AGENT: 'ana' };
    const seed = await box.hippo(['memory', 'add', 'a first clean memory', '--json'], { env });
    expect(seed.exitCode, String(seed.stderr)).toBe(0);

    for (const input of ['\u0000secret after a NUL', '  \u0000 secret after blanks and a NUL']) {
      const added = await box.hippo(['memory', 'add', '--json'], { env, input });
      expect(added.exitCode, String(added.stderr)).toBe(2);
      const { error } = json<Failure>(added);
      expect(error.code).toBe('nul_in_text');
      expect(error.message).not.toContain('secret');
    }

    const file = join(box.dir, 'nul.jsonl');
    writeFileSync(file, `${JSON.stringify({ content: 'a clean line' })}\n${JSON.stringify({ content: '\u0000secret line' })}\n`);
    const imported = await box.hippo(['memory', 'import', file, '--json'], { env });
    expect(imported.exitCode, String(imported.stderr)).toBe(2);
    const output = `${String(imported.stdout)}${String(imported.stderr)}`;
    expect(output).toContain('bad_import_line');
    expect(output).toContain('nul.jsonl:2: memory text has nothing before its first NUL character');
    expect(output).not.toContain('secret');

    const listed = json<{ memories: { content: string }[] }>(await box.hippo(['memory', 'list', '--json'], { env }));
    expect(listed.memories.map((memory) => memory.content)).toEqual(['a first clean memory']);
  });

  it(engine === 'sqlite' ? 'stores a text with words before a NUL (SQLite)' : 'refuses any NUL (PostgreSQL)', async () => {
    const box = await engineSandbox(engine);
    boxes.push(box);
    const added = await box.hippo(['memory', 'add', '--json'], { env: { HIPPO_AGENT: 'ana' }, input: 'words before\u0000 and after' });
    expect(added.exitCode, String(added.stderr)).toBe(engine === 'sqlite' ? 0 : 2);
    if (engine === 'postgres') expect(json<Failure>(added).error.code).toBe('nul_in_text');
  });
});
