import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getMemory } from '../../src/core/memory/memory.js';
import { getCandidate, type Candidate } from '../../src/core/rem/candidates.js';
import { openSqliteStore, type SqliteStore } from '../../src/core/store/sqlite/adapter.js';
import { stageCandidates } from '../helpers/candidates.js';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { needsTool, TOOLS } from '../helpers/requirements.js';
import { colourCodes, hippoCommand, Terminal, tmuxVersion } from '../helpers/tmux.js';

const TMUX = tmuxVersion();

const MIGRATIONS = 'Run database migrations outside the Friday release train; they lock the payments table.';
const VAGUE = 'Friday deploys fail.';

let box: Sandbox;
let terminal: Terminal | undefined;
let candidates: Candidate[]; // list order: [0] MIGRATIONS, [1] VAGUE

beforeEach(async () => {
  box = sandbox();
  const store = await openSqliteStore({ path: box.db });
  ({ candidates } = await stageCandidates(store, [
    { claim: VAGUE, sources: ['m2'] },
    { claim: MIGRATIONS, sources: ['m3', 'm2'], tags: ['deploy'] },
  ]));
  await store.close();
});

afterEach(async () => {
  terminal?.kill();
  terminal = undefined;
  box.cleanup();
});

/** Reads the database as another process would, while the review may still hold it open. */
async function inDatabase<T>(read: (store: SqliteStore) => T | Promise<T>): Promise<T> {
  const store = await openSqliteStore({ path: box.db });
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

const env = (extra: Record<string, string | undefined> = {}) => ({ ...box.env, HIPPO_AGENT: 'ops', NO_COLOR: '1', ...extra });

describe(`hippo rem candidates in a real terminal (${TMUX ?? 'tmux missing'})`, () => {
  // Without tmux these are skipped and named in the run's summary; in CI (which installs tmux) they fail instead.
  needsTool(TOOLS.tmux);

  it('promotes one candidate and rejects another through keystrokes, each written at once, then prints a summary', async () => {
    terminal = Terminal.start(box.dir, hippoCommand(['rem', 'candidates', '--reviewer', 'e2e'], env()), { columns: 120, rows: 40 });
    let screen = await terminal.waitFor('Pending candidates (2)');
    expect(screen).toContain('╮╭'); // side by side at 120 columns
    expect(screen).toMatch(/› Run database migrations/);
    // NO_COLOR: not one colour code anywhere on the screen.
    expect(colourCodes(terminal.screen(true))).toEqual([]);

    terminal.keys('p');
    await terminal.waitFor('why keep it?');
    terminal.text('matches the post-mortem');
    await terminal.waitFor('› matches the post-mortem');
    terminal.keys('Enter');
    screen = await terminal.waitFor('promoted 1 · rejected 0');
    const promoted = await inDatabase((store) => getCandidate(store, 'ops', candidates[0]!.id));
    expect(promoted).toMatchObject({ status: 'promoted', reviewer: 'e2e', reviewRationale: 'matches the post-mortem' });
    expect(await inDatabase((store) => getMemory(store, 'ops', promoted.promotedMemoryId!))).toMatchObject({ content: MIGRATIONS, durability: 'persistent' });
    expect(screen).toContain(`✓ promoted ${candidates[0]!.id} → ${promoted.promotedMemoryId}`);

    terminal.keys('r');
    await terminal.waitFor('why is it wrong or not worth keeping?');
    terminal.text('one Friday is not a pattern');
    await terminal.waitFor('› one Friday is not a pattern');
    terminal.keys('Enter');
    await terminal.waitFor('promoted 1 · rejected 1');
    expect(await inDatabase((store) => getCandidate(store, 'ops', candidates[1]!.id))).toMatchObject({
      status: 'rejected',
      reviewer: 'e2e',
      reviewRationale: 'one Friday is not a pattern',
    });

    terminal.keys('q');
    screen = await terminal.waitFor('[exit 0]');
    expect(screen).toContain('review finished: 1 promoted, 1 rejected, 0 skipped — 0 still pending');
    expect(screen).toContain(`promoted ${candidates[0]!.id} → ${promoted.promotedMemoryId}`);
    expect(screen).toContain(`rejected ${candidates[1]!.id}`);
    expect(screen).not.toContain('Pending candidates'); // the review screen is gone; the summary stays
  });

  it('uses colour when allowed, stacks at 80 columns, and Ctrl-C leaves with exit 130 keeping what was decided', async () => {
    terminal = Terminal.start(box.dir, hippoCommand(['rem', 'candidates'], env({ NO_COLOR: undefined })), { columns: 80, rows: 24 });
    const screen = await terminal.waitFor('Pending candidates (2)');
    expect(screen).not.toContain('╮╭');
    expect(colourCodes(terminal.screen(true)).length).toBeGreaterThan(0); // so the NO_COLOR check above can fail
    terminal.keys('r');
    await terminal.waitFor('why is it wrong');
    terminal.text('not now');
    await terminal.waitFor('› not now');
    terminal.keys('Enter');
    await terminal.waitFor('rejected 1');
    terminal.keys('C-c');
    const after = await terminal.waitFor(/\[exit \d+\]/);
    expect(after).toContain('[exit 130]');
    expect(after).toContain('review interrupted: 0 promoted, 1 rejected, 0 skipped — 1 still pending');
    expect((await inDatabase((store) => getCandidate(store, 'ops', candidates[0]!.id))).status).toBe('rejected');
  });

  it.each(['SIGTERM', 'SIGHUP'] as const)('on %s leaves the alternate screen and prints the summary of what was decided', async (signal) => {
    terminal = Terminal.start(box.dir, hippoCommand(['rem', 'candidates'], env()), { columns: 100, rows: 30 });
    await terminal.waitFor('Pending candidates (2)');
    terminal.keys('r');
    await terminal.waitFor('why is it wrong');
    terminal.text('not now');
    await terminal.waitFor('› not now');
    terminal.keys('Enter');
    await terminal.waitFor('rejected 1');
    terminal.signal(signal);
    const after = await terminal.waitFor(/\[exit \d+\]/);
    // The command handles the signal like Ctrl-C: the screen closes, the command prints the summary, exit 130.
    expect(after).toContain('[exit 130]');
    expect(after).toContain('review interrupted: 0 promoted, 1 rejected, 0 skipped — 1 still pending');
    expect(after).toContain(`rejected ${candidates[0]!.id}`);
    expect(after).not.toContain('Pending candidates'); // back on the normal screen
  });

  it('never opens the review with CI set or under --json, even on a terminal', async () => {
    const script = [hippoCommand(['rem', 'candidates'], env({ CI: 'true' })), hippoCommand(['rem', 'candidates', '--json'], env())].join('; ');
    terminal = Terminal.start(box.dir, script, { columns: 200, rows: 20 });
    const screen = await terminal.waitFor(/\[exit \d+\][\s\S]*\[exit \d+\]/);
    expect(screen).not.toContain('Pending candidates');
    expect(screen).toMatch(new RegExp(`${candidates[0]!.id}\\s+pending .*Run database migrations`));
    expect(screen).toContain('{"candidates":[{');
    expect(screen.match(/\[exit 0\]/g)).toHaveLength(2);
  });
  it('shows a model id holding an escape sequence inert in the detail pane, with NO_COLOR: the terminal title stays', async () => {
    await inDatabase((store) => store.db.prepare('UPDATE candidates SET generated_by = ?').run('evil-model\u001B]0;pwned\u0007'));
    terminal = Terminal.start(box.dir, hippoCommand(['rem', 'candidates', '--reviewer', 'e2e'], env()), { columns: 120, rows: 40 });
    const screen = await terminal.waitFor('Pending candidates (2)');
    expect(screen).toContain('model evil-model\uFFFD]0;pwned\uFFFD (handoff)');
    expect(terminal.title()).not.toContain('pwned');
    terminal.keys('q');
    await terminal.waitFor('[exit 0]');
    expect(terminal.title()).not.toContain('pwned');
  });
});
