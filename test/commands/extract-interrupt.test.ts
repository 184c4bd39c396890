/**
 * Ctrl-C during `extract` over a large file (issue 30, point 1): the scan turns to the event loop between its steps,
 * so the signal stops it there — exit 130, the interrupted error document under --json, never the facts of a
 * part-read file, and long before the scan would have ended. The real built CLI, a real signal.
 */
import { join } from 'node:path';
import type { Result, ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';
import { writeNotes } from '../helpers/notes.js';

let box: Sandbox;
let big: string;
/** The whole scan of `big`, timed on this machine now: what an interruption must come well within. */
let fullMs: number;

beforeAll(async () => {
  box = sandbox();
  big = join(box.dir, 'notes.txt');
  writeNotes(big, 8);
  const started = Date.now();
  const full = await box.hippo(['extract', '--all', big, '--json']);
  fullMs = Date.now() - started;
  if (full.exitCode !== 0 || json<{ facts: unknown[] }>(full).facts.length < 1000) throw new Error(`the full scan failed: ${String(full.stderr)}`);
}, 240_000);
afterAll(() => box.cleanup());

/** Starts `extract --all big` with `args`, sends SIGINT a third of a full scan in (long past start-up, far from the end). */
async function interrupted(args: string[]): Promise<{ result: Result; afterSignalMs: number }> {
  const child = box.hippo(['extract', '--all', big, ...args]) as unknown as ResultPromise;
  await new Promise((resolve) => setTimeout(resolve, fullMs / 3));
  const signalled = Date.now();
  child.kill('SIGINT');
  const result = (await child) as Result;
  return { result, afterSignalMs: Date.now() - signalled };
}

describe('hippo extract: Ctrl-C over a large file', () => {
  it('stops at once with exit 130 and the interrupted error document, never a success document', { timeout: 240_000 }, async () => {
    const { result, afterSignalMs } = await interrupted(['--json']);
    expect(result.signal).toBeUndefined();
    expect(result.exitCode).toBe(130);
    expect(json(result)).toEqual({ error: { code: 'interrupted', message: 'interrupted' } });
    expect(String(result.stderr)).toContain('stopping…');
    // Loose on purpose (no timing in tests): the old scan ran on to the end, two thirds of a full scan after the signal.
    expect(afterSignalMs).toBeLessThan(fullMs / 3);
  });

  it('in text mode prints no facts table, only the interruption (exit 130)', { timeout: 240_000 }, async () => {
    const { result } = await interrupted([]);
    expect(result.exitCode).toBe(130);
    expect(String(result.stdout)).toBe('');
    expect(String(result.stderr)).toBe('stopping…\nError: interrupted');
  });
});
