import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';

/**
 * The editor people chose, as git and gh read it: `$VISUAL`, else `$EDITOR`, else `vi`. It may carry arguments
 * (`code --wait`), so it runs through the shell with the file as its last argument.
 */
export function chosenEditor(env: NodeJS.ProcessEnv = process.env): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
}

/** Refuses (exit 2) when stdin or stdout is not a terminal: an editor cannot run there. */
export function requireTerminal({ what, instead }: { what: string; instead: string }): void {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UsageError('needs_terminal', `${what} opens $VISUAL or $EDITOR, which needs a terminal: ${instead}`);
  }
}

/**
 * Opens `text` in the user's editor on the terminal and returns what was saved (one trailing newline dropped, as an
 * editor adds one). Refused (exit 2) off a terminal: nobody could type into the editor. The text goes into a file
 * only the user can read, in a fresh private directory, removed afterwards whatever happens.
 */
export function editInEditor(text: string, refusal: { what: string; instead: string }): string {
  requireTerminal(refusal);
  const dir = mkdtempSync(join(tmpdir(), 'hippo-edit-'));
  try {
    const file = join(dir, 'memory.txt');
    writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`, { mode: 0o600 });
    const editor = chosenEditor();
    const result = spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'editor', file], { stdio: 'inherit' });
    if (result.error || result.status !== 0) {
      const how = result.error ? 'could not be started' : result.signal ? `was stopped by ${result.signal}` : `exited with status ${result.status}`;
      throw new UsageError('editor_failed', `the editor (${editor}) ${how}: nothing changed`);
    }
    return readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
