/**
 * `db copy` in a real terminal (tmux): the progress line names each phase — copying, then verifying (the rows read
 * back), then committing — instead of sitting at 100 % while the copy is verified and committed (issue 30, point 5).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { hippoCommand, Terminal, tmuxVersion } from '../helpers/tmux.js';

const TMUX = tmuxVersion();
let box: Sandbox;
let terminal: Terminal | undefined;

beforeEach(() => {
  box = sandbox();
});
afterEach(() => {
  terminal?.kill();
  terminal = undefined;
  box.cleanup();
});

describe(`hippo db copy in a real terminal (${TMUX ?? 'tmux missing'})`, () => {
  beforeAll(() => {
    if (!TMUX) throw new Error('tmux is not installed: the terminal end-to-end tests need it (apt-get install tmux)');
  });

  it('names the phase on its progress line: copying, then verifying', { timeout: 240_000 }, async () => {
    const notes = join(box.dir, 'notes.jsonl');
    writeFileSync(
      notes,
      `${Array.from({ length: 60_000 }, (_, index) => JSON.stringify({ content: `note ${index} ${'x'.repeat(200)}`, thread: null })).join('\n')}\n`,
    );
    const imported = await box.hippo(['memory', 'import', notes, '--agent', 'ops']);
    expect(imported.exitCode, String(imported.stderr)).toBe(0);
    const target = join(box.dir, 'copy.db');
    terminal = Terminal.start(box.dir, hippoCommand(['db', 'copy', box.db, target], { ...box.env, NO_COLOR: '1' }), { columns: 120, rows: 20 });
    const copying = await terminal.waitFor(/copying \[[^\]]*\] \d+\/60000 rows/, 120_000);
    expect(copying).not.toContain('verifying');
    await terminal.waitFor(/verifying \[[^\]]*\] \d+\/60000 rows/, 120_000);
    const done = await terminal.waitFor('[exit 0]', 120_000);
    expect(done).toContain('copied 60000 rows');
    // The bar is gone once the copy is done: the phase line does not stay on the screen.
    expect(done).not.toMatch(/verifying \[|committing/);
  });
});
