import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';

/** The demo notes are data (data/demo.jsonl), read by `hippo demo` only: docs/design.md §3, §9. */
const RECORDER = join(ROOT, 'test', 'fixtures', 'record-reads.mjs');
const DEMO_FILE = join(ROOT, 'data', 'demo.jsonl');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hippo-reads-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The files a node process read, as recorded by the preloaded fs hook. */
async function filesReadBy(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const file = join(dir, 'reads.txt');
  const result = await execa('node', ['--import', RECORDER, ...args], { cwd: ROOT, reject: false, input: '', env: { ...env, HIPPO_RECORD_READS: file } });
  expect(result.exitCode, String(result.stderr)).toBe(0);
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
}

describe('the demo notes are a data file, read only by `hippo demo`', () => {
  it('ships as JSONL beside dist/, one note a line', () => {
    const lines = readFileSync(DEMO_FILE, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(100);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ agent: expect.any(String), ageHours: expect.any(Number), content: expect.any(String) });
  });

  it('`hippo demo` reads it (so the check below can fail)', async () => {
    const reads = await filesReadBy([BIN, 'demo', '--db', join(dir, 'demo.db'), '--json'], { HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir });
    expect(reads).toContain(DEMO_FILE);
  });

  it("`import 'hippo'` does not read it", async () => {
    const reads = await filesReadBy([
      '--input-type=module',
      '-e',
      "const hippo = await import('hippo'); if (typeof hippo.loadDemo !== 'function') process.exit(9);",
    ]);
    expect(reads.some((path) => path.endsWith(join('dist', 'index.js')) || path.endsWith('package.json'))).toBe(true);
    expect(reads).not.toContain(DEMO_FILE);
  });

  it('`npm pack` includes it', async () => {
    const { stdout } = await execa('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT });
    const [pack] = JSON.parse(stdout) as { files: { path: string }[] }[];
    expect(pack?.files.map((entry) => entry.path)).toContain('data/demo.jsonl');
  });
});
