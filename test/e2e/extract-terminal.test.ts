/**
 * `extract` in a real terminal (tmux): a long extraction draws a byte progress bar on stderr, a quick one draws none,
 * and Ctrl-C stops it where it is — no facts table, the interruption said, exit 130 (issue 30, point 1).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { writeNotes } from '../helpers/notes.js';
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

describe(`hippo extract in a real terminal (${TMUX ?? 'tmux missing'})`, () => {
  beforeAll(() => {
    if (!TMUX) throw new Error('tmux is not installed: the terminal end-to-end tests need it (apt-get install tmux)');
  });

  it('shows a byte progress bar for a long extraction, and Ctrl-C stops it with no facts printed (exit 130)', { timeout: 180_000 }, async () => {
    const big = join(box.dir, 'notes.txt');
    writeNotes(big, 16);
    terminal = Terminal.start(box.dir, hippoCommand(['extract', '--all', big], { ...box.env, NO_COLOR: '1' }), { columns: 120, rows: 20 });
    const screen = await terminal.waitFor(/extracting \[[^\]]*\] \d+% \| \d+(\.\d)? MiB of 16(\.\d)? MiB/, 60_000);
    expect(screen).not.toContain('KIND');
    terminal.keys('C-c');
    const after = await terminal.waitFor('[exit 130]', 60_000);
    expect(after).toContain('Error: interrupted');
    // No table of what was found so far: the facts of a part-read file are never shown as the file's.
    expect(after).not.toContain('KIND');
    expect(after).not.toContain('@example.com');
  });

  it('draws no bar for a quick extraction', async () => {
    const small = join(box.dir, 'small.txt');
    writeFileSync(small, 'Mail anna@example.com\n');
    terminal = Terminal.start(box.dir, hippoCommand(['extract', 'email', small], { ...box.env, NO_COLOR: '1' }), { columns: 120, rows: 20 });
    const screen = await terminal.waitFor('[exit 0]', 30_000);
    expect(screen).toContain('anna@example.com');
    expect(screen).not.toContain('extracting');
  });
});
