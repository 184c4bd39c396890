/**
 * `memory import` in a real terminal (tmux): the progress bar counts bytes (one large file moves it), and Ctrl-C
 * inside that file stops it — the file's transaction rolled back, what landed said, exit 130.
 */
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { needsTool, TOOLS } from '../helpers/requirements.js';
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

describe(`hippo memory import in a real terminal (${TMUX ?? 'tmux missing'})`, () => {
  // Without tmux these are skipped and named in the run's summary; in CI (which installs tmux) they fail instead.
  needsTool(TOOLS.tmux);

  // A real terminal, a big file and a Ctrl-C: slow on a loaded machine, so a longer limit than the default.
  it('shows a byte progress bar for one big file, and Ctrl-C stops it inside the file with nothing from it (exit 130)', { timeout: 180_000 }, async () => {
    const small = join(box.dir, 'a-small.jsonl');
    writeFileSync(small, '{"content":"landed whole"}\n');
    const big = join(box.dir, 'b-big.jsonl');
    const lines = Array.from({ length: 400_000 }, (_, index) => JSON.stringify({ content: `imported note number ${index} ${'x'.repeat(40)}` }));
    writeFileSync(big, `${lines.join('\n')}\n`);
    const env = { ...box.env, HIPPO_AGENT: 'ops', NO_COLOR: '1' };
    terminal = Terminal.start(box.dir, hippoCommand(['memory', 'import', small, big], env), { columns: 120, rows: 20 });
    // Past 0 % of the bytes, inside the big file (the small one is 28 bytes of ~34 MiB).
    const screen = await terminal.waitFor(/importing \[[^\]]*\] \d+% \| \d+(\.\d)? MiB of 3\d(\.\d)? MiB/, 60_000);
    expect(screen).not.toMatch(/\d+\/\d+ files/);
    terminal.keys('C-c');
    const after = await terminal.waitFor('[exit 130]', 60_000);
    expect(after.replaceAll('\n', '')).toContain('(its transaction was rolled back)');
    const db = new Database(box.db, { readonly: true });
    try {
      expect(db.prepare('SELECT content FROM memories').all()).toEqual([{ content: 'landed whole' }]);
    } finally {
      db.close();
    }
  });
});
