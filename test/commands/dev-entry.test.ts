import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, sandbox, type Sandbox } from '../helpers/cli.js';

const DEV = join(ROOT, 'bin', 'dev.js');
const RECORDER = join(ROOT, 'test', 'fixtures', 'record-imports.mjs');
let box: Sandbox;

beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

describe('bin/dev.js: the CLI from the TypeScript sources', () => {
  it('runs as an executable (its shebang) and loads the commands from src/, not from the build', async () => {
    const file = join(box.dir, 'imports.txt');
    const env = { ...box.env, HIPPO_RECORD_IMPORTS: file, NODE_OPTIONS: `--import ${RECORDER}` };
    const added = await execa(DEV, ['memory', 'add', 'The dev entry runs from the sources', '--agent', 'me'], { reject: false, input: '', env });
    expect(added.exitCode, String(added.stderr)).toBe(0);
    const urls = readFileSync(file, 'utf8').trim().split('\n');
    expect(urls.some((url) => url.endsWith('/src/entry/commands.ts'))).toBe(true);
    expect(urls.filter((url) => url.includes(`${ROOT}/dist/`))).toEqual([]);

    const found = await execa(DEV, ['search', 'dev entry', '--agent', 'me', '--json'], { reject: false, input: '', env: box.env });
    expect(found.exitCode, String(found.stderr)).toBe(0);
    expect(JSON.parse(String(found.stdout)).results.map((hit: { memory: { content: string } }) => hit.memory.content)).toEqual([
      'The dev entry runs from the sources',
    ]);
  });
});
