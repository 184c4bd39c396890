import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/**
 * Words the repository settled on, checked over every tracked text file: comments cite docs/design.md (a document in
 * the repository), never the spec it was written from; and one spelling of "distill" (the American one, as in
 * `hippo --help`). docs/decisions.md may name the old spelling of a code it replaced, inside that code's name.
 */
const SELF = relative(ROOT, import.meta.filename);

async function trackedText(): Promise<{ path: string; text: string }[]> {
  const { stdout } = await execa('git', ['ls-files', '-z'], { cwd: ROOT });
  return stdout
    .split('\0')
    .filter((path) => path !== '' && path !== SELF)
    .map((path) => ({ path, bytes: readFileSync(join(ROOT, path)) }))
    .filter(({ bytes }) => !bytes.includes(0))
    .map(({ path, bytes }) => ({ path, text: bytes.toString('utf8') }));
}

function offending(files: { path: string; text: string }[], pattern: RegExp): string[] {
  return files.flatMap(({ path, text }) =>
    text
      .split('\n')
      .map((line, index) => ({ line, index }))
      .filter(({ line }) => pattern.test(line))
      .map(({ line, index }) => `${path}:${index + 1}: ${line.trim()}`),
  );
}

describe('repository wording', () => {
  it('cites docs/design.md, never "SPEC §…"', async () => {
    const files = await trackedText();
    expect(files.length).toBeGreaterThan(100);
    expect(offending(files, /\bSPEC\s*§/)).toEqual([]);
  });

  it('spells distill one way (not "distil" or "distils")', async () => {
    expect(offending(await trackedText(), /\bdistils?\b/i)).toEqual([]);
  });
});
