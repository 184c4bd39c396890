import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';
import { stageCandidates } from '../helpers/candidates.js';
import { requireTool, TOOLS } from '../helpers/requirements.js';
import { hippoCommand, Terminal } from '../helpers/tmux.js';
import { openStore } from '../../src/core/store/store.js';

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

/** Two memories at known times (09:30 UTC on 2 and 3 November 2026), one with a CJK tag. */
async function importKnownTimes(): Promise<void> {
  const file = join(box.dir, 'known.jsonl');
  writeFileSync(
    file,
    [
      { content: 'Moved the billing cron to 02:30 UTC to avoid the backup window', createdAt: '2026-11-02T09:30:00.000Z', tags: ['東京', 'billing'] },
      { content: 'Rotated the staging password', createdAt: '2026-11-03T09:30:00.000Z', tags: ['ops'] },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n'),
  );
  expect((await box.hippo(['memory', 'import', file])).exitCode).toBe(0);
}

describe('times in local time with the zone, or UTC with --utc', () => {
  it('renders stored UTC times in the zone TZ names, with its offset; --utc and --json keep UTC', async () => {
    await importKnownTimes();
    const kolkata = await box.hippo(['memory', 'list'], { env: { TZ: 'Asia/Kolkata' } });
    expect(String(kolkata.stdout)).toContain('2026-11-02 15:00 +05:30');
    const newYork = await box.hippo(['memory', 'list'], { env: { TZ: 'America/New_York' } });
    expect(String(newYork.stdout)).toContain('2026-11-02 04:30 -05:00');
    const utc = await box.hippo(['memory', 'list', '--utc'], { env: { TZ: 'Asia/Kolkata' } });
    expect(String(utc.stdout)).toContain('2026-11-02 09:30 +00:00');
    const [id] = json<{ memories: { id: string; createdAt: string }[] }>(await box.hippo(['memory', 'list', '--json'], { env: { TZ: 'Asia/Kolkata' } }))
      .memories.filter((memory) => memory.createdAt === '2026-11-02T09:30:00.000Z')
      .map((memory) => memory.id);
    const show = await box.hippo(['memory', 'show', id!], { env: { TZ: 'Asia/Kolkata' } });
    expect(String(show.stdout)).toMatch(/created\s+2026-11-02 15:00:00 \+05:30/);
    const search = await box.hippo(['search', 'billing'], { env: { TZ: 'Asia/Kolkata' } });
    expect(String(search.stdout)).toContain('2026-11-02 15:00 +05:30');
  });
});

describe('tables', () => {
  it('memory list: column headers on a terminal, CJK cells aligned by the columns they take, lines cut at a word to the width', async (context) => {
    requireTool(context, TOOLS.tmux);
    await importKnownTimes();
    terminal = Terminal.start(box.dir, hippoCommand(['memory', 'list'], { ...box.env, TZ: 'UTC' }), { columns: 100, rows: 20 });
    const screen = await terminal.waitFor('[exit 0]');
    const lines = screen.split('\n').filter((line) => line.trim() !== '');
    expect(lines[0]).toMatch(/^ID\s+CREATED \(\+00:00\)\s+DURABILITY\s+TAGS\s+CONTENT$/);
    expect(lines[1]).toMatch(/^mem_\w{26} {2}2026-11-03 09:30 {2}standard/);
    // The content column starts at the same terminal column on every line, a CJK tag or not.
    const contentColumn = (line: string, text: string) => stringWidth(line.slice(0, line.indexOf(text)));
    const header = contentColumn(lines[0]!, 'CONTENT');
    expect(
      contentColumn(
        lines.find((line) => line.includes('Rotated'))!,
        'Rotated',
      ),
    ).toBe(header);
    const billing = lines.find((line) => line.includes('東京'))!;
    expect(contentColumn(billing, 'Moved')).toBe(header);
    // Cut to the 100 columns at a word boundary, not wrapped onto a second line.
    expect(stringWidth(billing)).toBeLessThanOrEqual(100);
    expect(billing).toMatch(/ …$/);
    expect(lines.some((line) => line.startsWith('window'))).toBe(false);
  });

  it('a terminal too narrow for the fixed columns gets each line cut to its width, never wrapped', async (context) => {
    requireTool(context, TOOLS.tmux);
    await importKnownTimes();
    terminal = Terminal.start(box.dir, hippoCommand(['memory', 'list'], { ...box.env, TZ: 'UTC' }), { columns: 60, rows: 20 });
    const lines = (await terminal.waitFor('[exit 0]')).split('\n').filter((line) => line.trim() !== '' && !line.startsWith('[exit'));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ID +CREATED/);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(60);
  });

  it('an 80-column terminal leaves out tags and durability rather than the content', async (context) => {
    requireTool(context, TOOLS.tmux);
    await importKnownTimes();
    terminal = Terminal.start(box.dir, hippoCommand(['memory', 'list'], { ...box.env, TZ: 'UTC' }), { columns: 80, rows: 20 });
    const lines = (await terminal.waitFor('[exit 0]')).split('\n').filter((line) => line.trim() !== '' && !line.startsWith('[exit'));
    expect(lines[0]).toMatch(/^ID\s+CREATED \(\+00:00\)\s+CONTENT$/);
    expect(lines.find((line) => line.startsWith('mem_') && line.includes('Rotated the staging password'))).toBeDefined();
    expect(lines.find((line) => line.startsWith('mem_') && line.includes('Moved the billing cron'))).toBeDefined();
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(80);
  });

  it('off a terminal the rows come alone (no header), for scripts', async () => {
    await importKnownTimes();
    const lines = String((await box.hippo(['memory', 'list'])).stdout)
      .trim()
      .split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.every((line) => line.startsWith('mem_'))).toBe(true);
  });

  it('rem candidates labels what its numbers are; rem runs show is rendered for people', async () => {
    const store = await openStore({ path: box.db });
    const { candidates } = await stageCandidates(store, [{ claim: 'Friday deploys fail on the migration lock.', sources: ['m1', 'm2'] }]);
    await store.close();
    const run = { id: candidates[0]!.runId };
    const list = String((await box.hippo(['rem', 'candidates', '--agent', 'ops'])).stdout);
    expect(list).toMatch(/^cand_\w{26} {2}pending {2}(<1m|\d+m) ago {2}2 cited {2}Friday deploys fail on the migration lock\.$/m);
    const shown = String((await box.hippo(['rem', 'runs', 'show', run.id, '--agent', 'ops'], { env: { TZ: 'UTC' } })).stdout);
    expect(shown).toMatch(/^status +completed$/m);
    expect(shown).toMatch(/^started +\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \+00:00$/m);
    expect(shown).toMatch(/^counts +.*staged 1/m);
    expect(shown).toContain('candidates (1)');
    expect(shown).toContain('review: hippo rem candidates --agent ops');
    expect(shown).not.toMatch(/[{}"]/);
  });

  it('search scores on a small store do not all print as 0.00', async () => {
    for (const text of ['deploy failed', 'deploy again', 'deploy fixed']) expect((await box.hippo(['memory', 'add', text])).exitCode).toBe(0);
    const result = await box.hippo(['search', 'deploy']);
    const scores = [...String(result.stdout).matchAll(/score (\S+)/g)].map((match) => match[1]!);
    expect(scores).toHaveLength(3);
    for (const score of scores) {
      expect(score).not.toBe('0.00');
      expect(Number(score)).toBeGreaterThan(0);
    }
  });
});

describe('colour', () => {
  it('FORCE_COLOR forces colour into a pipe, FORCE_COLOR=0 and NO_COLOR keep it out', async () => {
    await importKnownTimes();
    const forced = await box.hippo(['memory', 'list'], { env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(String(forced.stdout)).toContain('\u001b[');
    for (const env of [{ NO_COLOR: '1' }, { NO_COLOR: '', FORCE_COLOR: '0' }]) {
      expect(String((await box.hippo(['memory', 'list'], { env })).stdout)).not.toContain('\u001b[');
    }
  });
});

describe('filters: memory list takes the same time, tag and durability flags as search', () => {
  it('--since in words, -t, --durability, -n', async () => {
    await importKnownTimes();
    expect((await box.hippo(['memory', 'add', 'Fresh note', '-t', 'ops', '--durability', 'persistent'])).exitCode).toBe(0);
    const ids = async (...args: string[]) =>
      json<{ memories: { content: string }[] }>(await box.hippo(['memory', 'list', ...args, '--json'])).memories.map((memory) => memory.content);
    expect(await ids('--since', 'yesterday')).toEqual(['Fresh note']);
    expect(await ids('--since', '2026-11-03')).toEqual(['Fresh note', 'Rotated the staging password']);
    expect(await ids('-t', 'ops')).toEqual(['Fresh note', 'Rotated the staging password']);
    expect(await ids('--durability', 'persistent')).toEqual(['Fresh note']);
    expect(await ids('-n', '1')).toEqual(['Fresh note']);
    const searched = json<{ results: unknown[] }>(await box.hippo(['search', 'note', '--since', '3 days ago', '--json'])).results;
    expect(searched).toHaveLength(1);
    const bad = await box.hippo(['memory', 'list', '--since', 'whenever', '--json']);
    expect(bad.exitCode).toBe(2);
    expect(json(bad)).toMatchObject({ error: { code: 'bad_duration' } });
  });
});
