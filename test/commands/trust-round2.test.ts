/**
 * Issue 30, points 13–17, through the built CLI on both engines (and a real terminal where a terminal is the point):
 * one time formatter, tables cut to the width, one time-words parser leaning the right way for each flag, `memory
 * edit` with an editor and without a silent tag wipe, and the smaller points of 17.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { engineSandbox, json, sandbox, type EngineSandbox, type Sandbox, type SandboxEngine } from '../helpers/cli.js';
import { call, stdioClient, textOf } from '../helpers/mcp.js';
import { requireTool, TOOLS } from '../helpers/requirements.js';
import { hippoCommand, Terminal } from '../helpers/tmux.js';

const ENGINES: readonly SandboxEngine[] = ['sqlite', 'postgres'];
const boxes: EngineSandbox[] = [];
const plain: Sandbox[] = [];
let terminal: Terminal | undefined;
afterEach(async () => {
  terminal?.kill();
  terminal = undefined;
  for (const box of boxes.splice(0)) await box.dispose();
  for (const box of plain.splice(0)) box.cleanup();
});

async function engineBox(engine: SandboxEngine): Promise<EngineSandbox> {
  const box = await engineSandbox(engine);
  boxes.push(box);
  return box;
}

function plainBox(): Sandbox {
  const box = sandbox();
  plain.push(box);
  return box;
}

const ops = { env: { HIPPO_AGENT: 'ops', TZ: 'UTC' } };
const DAY = 86_400_000;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const utcMidnight = (time: number) => {
  const date = new Date(time);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
};

/** Imports `lines` (JSONL memory objects) for agent ops; returns the ids in line order. */
async function importLines(box: Sandbox, lines: Record<string, unknown>[]): Promise<string[]> {
  const file = join(box.dir, `seed-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n'));
  const result = await box.hippo(['memory', 'import', file, '--json'], ops);
  expect(result.exitCode, String(result.stderr)).toBe(0);
  const listed = json<{ memories: { id: string; content: string }[] }>(
    await box.hippo(['memory', 'list', '-n', '1000', '--include-archived', '--json'], ops),
  ).memories;
  return lines.map((line) => listed.find((memory) => memory.content === line.content)!.id);
}

/** Stages one candidate for `agent` through a command model (`rem rapid --via`). */
async function stageFor(box: Sandbox, agent: string, claim: string): Promise<void> {
  expect((await box.hippo(['memory', 'add', `note of ${agent}`, '--agent', agent])).exitCode).toBe(0);
  const answer = JSON.stringify({ candidates: [{ claim, sources: ['m1'] }] });
  const rapid = await box.hippo(['rem', 'rapid', '--agent', agent, '--scope', 'all', '--via', `cat >/dev/null; echo '${answer}'`, '--json']);
  expect(rapid.exitCode, String(rapid.stderr)).toBe(0);
}

describe.each(ENGINES)('time words, one parser leaning the right way (%s)', (engine) => {
  it('--since WEEKDAY means the last one (tomorrow’s weekday is six days back); --since tomorrow is refused', async () => {
    const box = await engineBox(engine);
    const now = Date.now();
    const [recent, old] = await importLines(box, [
      { content: 'two days old', createdAt: new Date(now - 2 * DAY).toISOString() },
      { content: 'eight days old', createdAt: new Date(now - 8 * DAY).toISOString() },
    ]);
    const tomorrowsWeekday = WEEKDAYS[(new Date(now).getUTCDay() + 1) % 7]!;
    const since = await box.hippo(['memory', 'list', '--since', tomorrowsWeekday, '--json'], ops);
    expect(since.exitCode, String(since.stderr)).toBe(0);
    expect(json<{ memories: { id: string }[] }>(since).memories.map((memory) => memory.id)).toEqual([recent]);
    expect(old).toBeDefined();
    const ahead = await box.hippo(['memory', 'list', '--since', 'tomorrow', '--json'], ops);
    expect(ahead.exitCode).toBe(2);
    expect(json<{ error: { message: string } }>(ahead).error.message).toContain('is in the future');
  });

  it('--expires reads words forwards: tomorrow is the coming midnight, yesterday’s weekday is six days ahead', async () => {
    const box = await engineBox(engine);
    const now = Date.now();
    const tomorrow = await box.hippo(['memory', 'add', 'gone by tomorrow', '--expires', 'tomorrow', '--json'], ops);
    expect(tomorrow.exitCode, String(tomorrow.stderr)).toBe(0);
    expect(Date.parse(json<{ memory: { expiresAt: string } }>(tomorrow).memory.expiresAt)).toBe(utcMidnight(now) + DAY);
    const yesterdaysWeekday = WEEKDAYS[(new Date(now).getUTCDay() + 6) % 7]!;
    const weekday = await box.hippo(['memory', 'add', 'gone next week', '--expires', yesterdaysWeekday, '--json'], ops);
    expect(weekday.exitCode, String(weekday.stderr)).toBe(0);
    expect(Date.parse(json<{ memory: { expiresAt: string } }>(weekday).memory.expiresAt)).toBe(utcMidnight(now) + 6 * DAY);
    // ISO and relative forms still work; a time already past is still refused.
    expect((await box.hippo(['memory', 'add', 'a week', '--expires', '7d'], ops)).exitCode).toBe(0);
    expect((await box.hippo(['memory', 'add', 'new year', '--expires', '2999-01-01'], ops)).exitCode).toBe(0);
    const past = await box.hippo(['memory', 'add', 'too late', '--expires', 'yesterday', '--json'], ops);
    expect([past.exitCode, json<{ error: { code: string } }>(past).error.code]).toEqual([2, 'bad_date']);
  });
});

describe('one time formatter (TZ, and the offset written the same way everywhere)', () => {
  it('mcp token list honours TZ with the offset; --utc writes +00:00 as every other view', async () => {
    const box = plainBox();
    expect((await box.hippo(['mcp', 'token', 'create', '--agent', 'alice', '--label', 'laptop'])).exitCode).toBe(0);
    const kolkata = String((await box.hippo(['mcp', 'token', 'list'], { env: { TZ: 'Asia/Kolkata' } })).stdout);
    expect(kolkata).toMatch(/^tok_\w{26} {2}\d{4}-\d{2}-\d{2} \d{2}:\d{2} \+05:30 {2}alice {2}live {2}laptop$/m);
    const utc = String((await box.hippo(['mcp', 'token', 'list', '--utc'], { env: { TZ: 'Asia/Kolkata' } })).stdout);
    expect(utc).toMatch(/\d{2}:\d{2} \+00:00 {2}alice/);
    expect(utc).not.toContain('UTC');
  });

  it('a paused night prints its time as people read it, not a raw ISO string', async () => {
    const box = plainBox();
    expect((await box.hippo(['memory', 'add', 'something'])).exitCode).toBe(0);
    expect((await box.hippo(['rem', 'pause'])).exitCode).toBe(0);
    const night = await box.hippo(['rem', 'nightly', 'run-once'], { env: { TZ: 'Asia/Kolkata' } });
    expect(night.exitCode, String(night.stderr)).toBe(0);
    expect(String(night.stdout)).toMatch(/paused by hippo rem pause since \d{4}-\d{2}-\d{2} \d{2}:\d{2} \+05:30: nothing done/);
    expect(String(night.stdout)).not.toMatch(/\d{2}T\d{2}:\d{2}/);
  });

  it('MCP text writes times with +00:00, as the CLI does with --utc (never "UTC")', async () => {
    const box = plainBox();
    expect((await box.hippo(['memory', 'add', 'the billing cron moved', '--agent', 'ops'])).exitCode).toBe(0);
    const session = await stdioClient(box, ['--agent', 'ops']);
    try {
      const listed = await session.client.callTool({ name: 'memory_list', arguments: {} });
      const text = textOf(listed as never);
      expect(text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} \+00:00/);
      expect(text).not.toMatch(/ UTC\b/);
      expect(await call(session.client, 'memory_list')).toBeDefined();
    } finally {
      await session.close();
    }
  });
});

describe('tables in a real terminal: a header, cut to the width', () => {
  it('mcp token list at 80 columns: a header with the zone, the label left out before the times', async (context) => {
    requireTool(context, TOOLS.tmux);
    const box = plainBox();
    for (const agent of ['alice', 'bob']) {
      expect((await box.hippo(['mcp', 'token', 'create', '--agent', agent, '--label', 'a rather long label for the laptop in the office'])).exitCode).toBe(0);
    }
    terminal = Terminal.start(box.dir, hippoCommand(['mcp', 'token', 'list'], { ...box.env, TZ: 'UTC' }), { columns: 80, rows: 20 });
    const lines = (await terminal.waitFor('[exit 0]')).split('\n').filter((line) => line.trim() !== '' && !line.startsWith('[exit'));
    expect(lines[0]).toMatch(/^ID\s+CREATED \(\+00:00\)\s+AGENT\s+STATE$/);
    expect(lines.filter((line) => /^tok_\w{26} {2}\d{4}-\d{2}-\d{2} \d{2}:\d{2}\s+(alice|bob)\s+live$/.test(line))).toHaveLength(2);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(80);
  });

  it('extract --kinds at 60 columns: a header, and every row of the table cut to the width', async (context) => {
    requireTool(context, TOOLS.tmux);
    const box = plainBox();
    terminal = Terminal.start(box.dir, hippoCommand(['extract', '--kinds'], { ...box.env, LANG: 'C' }), { columns: 60, rows: 30 });
    const screen = await terminal.waitFor('[exit 0]');
    const lines = screen.split('\n');
    expect(lines[0]).toMatch(/^KIND\s+CHECK\s+FINDS$/);
    const rows = lines.slice(
      1,
      lines.findIndex((line, index) => index > 0 && line.trim() === ''),
    );
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(['email', 'phone', 'iban', 'card', 'url', 'ip', 'date', 'address']);
    for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(60);
  });

  it('rem runs at 60 columns keeps STATUS: the agent, the counts and the kind go first', async (context) => {
    requireTool(context, TOOLS.tmux);
    const box = plainBox();
    expect((await box.hippo(['memory', 'add', 'something'])).exitCode).toBe(0);
    expect((await box.hippo(['rem', 'pause'])).exitCode).toBe(0);
    expect((await box.hippo(['rem', 'nightly', 'run-once'])).exitCode).toBe(0);
    terminal = Terminal.start(box.dir, hippoCommand(['rem', 'runs'], { ...box.env, TZ: 'UTC' }), { columns: 60, rows: 20 });
    const lines = (await terminal.waitFor('[exit 0]')).split('\n').filter((line) => line.trim() !== '' && !line.startsWith('[exit'));
    expect(lines[0]).toMatch(/^ID\s+STARTED \(\+00:00\)\s+STATUS$/);
    expect(lines[1]).toMatch(/^run_\w{26} {2}\d{4}-\d{2}-\d{2} \d{2}:\d{2} {2}paused$/);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(60);
  });
});

describe.each(ENGINES)('memory edit: an editor, and no silent tag wipe (%s)', (engine) => {
  it('--tag is refused naming --add-tag and --set-tags, nothing changed; --set-tags replaces them', async () => {
    const box = await engineBox(engine);
    const [id] = await importLines(box, [{ content: 'The billing cron runs at 02:00.', tags: ['billing', 'decision'] }]);
    const refused = await box.hippo(['memory', 'edit', id!, '--tag', 'cron'], ops);
    expect(refused.exitCode).toBe(2);
    expect(String(refused.stderr)).toContain('--add-tag "cron"');
    expect(String(refused.stderr)).toContain('--set-tags "cron"');
    const shown = async () => json<{ memory: { tags: string[]; content: string } }>(await box.hippo(['memory', 'show', id!, '--json'], ops)).memory;
    expect((await shown()).tags).toEqual(['billing', 'decision']);
    expect((await box.hippo(['memory', 'edit', id!, '--set-tags', 'cron', '--set-tags', 'ops'], ops)).exitCode).toBe(0);
    expect((await shown()).tags).toEqual(['cron', 'ops']);
    expect((await box.hippo(['memory', 'edit', id!, '--add-tag', 'billing'], ops)).exitCode).toBe(0);
    expect((await shown()).tags).toEqual(['cron', 'ops', 'billing']);
  });

  it('without a flag, off a terminal: exit 2 naming $VISUAL/$EDITOR and the flags, nothing changed', async () => {
    const box = await engineBox(engine);
    const [id] = await importLines(box, [{ content: 'Unchanged text.' }]);
    const result = await box.hippo(['memory', 'edit', id!, '--json'], { env: { ...ops.env, EDITOR: 'false' } });
    expect(result.exitCode).toBe(2);
    const { error } = json<{ error: { code: string; message: string } }>(result);
    expect(error.code).toBe('needs_terminal');
    expect(error.message).toContain('$VISUAL or $EDITOR');
    expect(error.message).toContain('--content');
    expect(json<{ memory: { content: string } }>(await box.hippo(['memory', 'show', id!, '--json'], ops)).memory.content).toBe('Unchanged text.');
  });
});

describe('memory edit on a terminal opens $EDITOR on the text', () => {
  it('saves what the editor wrote back', async (context) => {
    requireTool(context, TOOLS.tmux);
    const box = plainBox();
    const [id] = await importLines(box, [{ content: 'The billing cron runs at 02:00.' }]);
    const env = { ...box.env, HIPPO_AGENT: 'ops', VISUAL: '', EDITOR: 'sed -i s/02:00/03:30/' };
    terminal = Terminal.start(box.dir, hippoCommand(['memory', 'edit', id!], env), { columns: 100, rows: 20 });
    const screen = await terminal.waitFor('[exit 0]', 30_000);
    expect(screen).toContain(`edited ${id}: content`);
    expect(json<{ memory: { content: string } }>(await box.hippo(['memory', 'show', id!, '--json'], ops)).memory.content).toBe(
      'The billing cron runs at 03:30.',
    );
  });
});

describe.each(ENGINES)('the smaller points (%s)', (engine) => {
  it('a markdown heading alone is not a memory: it is the subject of its section', async () => {
    const box = await engineBox(engine);
    const file = join(box.dir, 'week.md');
    writeFileSync(file, '# Week 49\n\nDentist on Tuesday.\n\n## Monday\n\nRenew the passport.\n');
    expect((await box.hippo(['memory', 'import', file], ops)).exitCode).toBe(0);
    const memories = json<{ memories: { content: string; subject: string | null }[] }>(await box.hippo(['memory', 'list', '--json'], ops)).memories;
    expect(memories.map((memory) => [memory.content, memory.subject]).sort()).toEqual([
      ['Dentist on Tuesday.', 'Week 49'],
      ['Renew the passport.', 'Week 49 / Monday'],
    ]);
  });

  it('memory import --dry-run says what would be added, skipped and refused, and writes nothing', async () => {
    const box = await engineBox(engine);
    const [kept] = await importLines(box, [{ content: 'already here' }]);
    const exported = json<{ memory: Record<string, unknown> }>(await box.hippo(['memory', 'show', kept!, '--json'], ops)).memory;
    const good = join(box.dir, 'good.jsonl');
    writeFileSync(good, [JSON.stringify(exported), JSON.stringify({ content: 'new one' }), JSON.stringify({ content: 'already here' })].join('\n'));
    const bad = join(box.dir, 'bad.jsonl');
    writeFileSync(bad, '{"content": "fine"}\n{not json\n');
    const before = json<{ memories: unknown[] }>(await box.hippo(['memory', 'list', '-n', '1000', '--include-archived', '--json'], ops)).memories;
    const dry = await box.hippo(['memory', 'import', good, bad, '--dry-run'], ops);
    expect(dry.exitCode).toBe(2);
    const out = String(dry.stdout);
    expect(out).toContain('dry run: would add 2 memories, skip 1 already present, refuse 1 file');
    expect(out).toMatch(/would add 2, 1 of them repeat text already stored, skip 1 already present {2}\S*good\.jsonl/);
    expect(out).toMatch(/refuse {2}\S*bad\.jsonl:2: not valid JSON/);
    expect(out).toContain('nothing written (dry run)');
    const asJson = json<{ dryRun: boolean; imported: number; existing: number }>(await box.hippo(['memory', 'import', good, '--dry-run', '--json'], ops));
    expect(asJson).toMatchObject({ dryRun: true, imported: 2, existing: 1 });
    expect(json<{ memories: unknown[] }>(await box.hippo(['memory', 'list', '-n', '1000', '--include-archived', '--json'], ops)).memories).toEqual(before);
  });

  it('a failed import of one file says nothing of "other files" that were not there', async () => {
    const box = await engineBox(engine);
    const bad = join(box.dir, 'bad.jsonl');
    writeFileSync(bad, '{not json\n');
    const alone = await box.hippo(['memory', 'import', bad], ops);
    expect(alone.exitCode).toBe(2);
    expect(String(alone.stderr)).not.toContain('other files');
    const good = join(box.dir, 'good.jsonl');
    writeFileSync(good, '{"content":"fine"}\n');
    expect(String((await box.hippo(['memory', 'import', bad, good], ops)).stderr)).toContain('1 memories imported from the other 1 file');
  });

  it('rem candidates for the default agent names the agents that have pending candidates', async () => {
    const box = await engineBox(engine);
    await stageFor(box, 'ops', 'Deploys wait for the lock.');
    const mine = await box.hippo(['rem', 'candidates']);
    expect(mine.exitCode).toBe(0);
    expect(String(mine.stdout).trim()).toBe('no pending candidates');
    expect(String(mine.stderr)).toContain(
      'no pending candidates for agent default; other agents have some: ops (1) — review with: hippo rem candidates --agent ops',
    );
    const asJson = json<{ candidates: unknown[]; warnings: string[] }>(await box.hippo(['rem', 'candidates', '--json']));
    expect(asJson.warnings).toEqual([expect.stringContaining('ops (1)')]);
    expect(String((await box.hippo(['rem', 'candidates', '--agent', 'ops'])).stderr)).not.toContain('other agents');
  });

  it('a lowercase id says ids are case-sensitive when the right one exists', async () => {
    const box = await engineBox(engine);
    const [id] = await importLines(box, [{ content: 'case matters' }]);
    const lower = `mem_${id!.slice(4).toLowerCase()}`;
    const result = await box.hippo(['memory', 'show', lower, '--json'], ops);
    expect(result.exitCode).toBe(3);
    expect(json<{ error: { message: string } }>(result).error.message).toBe(`no memory ${lower} for agent "ops"; ids are case-sensitive: ${id} exists`);
    const unknown = await box.hippo(['memory', 'show', 'mem_01jd0000000000000000000000', '--json'], ops);
    expect(json<{ error: { message: string } }>(unknown).error.message).not.toContain('case-sensitive');
  });

  it('extract reads memories by id (--memory), as the MCP tool can', async () => {
    const box = await engineBox(engine);
    const [dublin, other] = await importLines(box, [{ content: 'Dublin office: +353 1 234 5678.' }, { content: 'Mail ana@example.com' }]);
    const result = await box.hippo(['extract', 'phone,email', '--memory', dublin!, '--region', 'IE', '--json'], ops);
    expect(result.exitCode, String(result.stderr)).toBe(0);
    const { facts } = json<{ facts: { kind: string; value: string; occurrences: { source: string }[] }[] }>(result);
    expect(facts.map((fact) => [fact.kind, fact.value, fact.occurrences[0]!.source])).toEqual([['phone', '+353 1 234 5678', dublin]]);
    expect(other).toBeDefined();
    const missing = await box.hippo(['extract', 'phone', '--memory', 'mem_01JD0000000000000000000000', '--json'], ops);
    expect(missing.exitCode).toBe(3);
    const both = await box.hippo(['extract', 'phone', '--memory', dublin!, '--query', 'Dublin', '--json'], ops);
    expect([both.exitCode, json<{ error: { message: string } }>(both).error.message]).toEqual([
      2,
      'give one of FILE arguments, --query or --memory, not --query and --memory',
    ]);
  });

  it('"Credit note CN-2026-0142" reaches a redacted prompt as written, never as a phone placeholder', async () => {
    const box = await engineBox(engine);
    await importLines(box, [{ content: 'Credit note CN-2026-0142 was issued for the March refund.' }, { content: 'Call Jonas on +49 30 1234567.' }]);
    for (const region of ['IE', 'FR', 'AU']) {
      const result = await box.hippo(['rem', 'rapid', '--prompt-only', '--redact', '--json'], { env: { ...ops.env, HIPPO_REGION: region } });
      expect(result.exitCode, String(result.stderr)).toBe(0);
      const { prompt } = json<{ prompt: string }>(result);
      expect(prompt, region).toContain('Credit note CN-2026-0142 was issued');
      expect(prompt, region).toContain('Call Jonas on ⟦phone 1⟧.');
      expect(prompt, region).not.toContain('⟦phone 2⟧');
    }
  });
});

describe('config and model check', () => {
  it('config list shows the value in effect and where it comes from: environment, file, default', async () => {
    const box = plainBox();
    expect((await box.hippo(['config', 'set', 'region', 'IE'])).exitCode).toBe(0);
    expect((await box.hippo(['config', 'set', 'model', 'ollama:llama3.2'])).exitCode).toBe(0);
    const env = { env: { HIPPO_MODEL: 'ollama:qwen2.5:7b' } };
    const { keys } = json<{ keys: { key: string; value: unknown; effective: unknown; source: string; env?: string }[] }>(
      await box.hippo(['config', 'list', '--json'], env),
    );
    const entry = (name: string) => keys.find((key) => key.key === name);
    expect(entry('model')).toMatchObject({ value: 'ollama:llama3.2', effective: 'ollama:qwen2.5:7b', source: 'env', env: 'HIPPO_MODEL' });
    expect(entry('region')).toMatchObject({ value: 'IE', effective: 'IE', source: 'file' });
    expect(entry('timeoutMs')).toMatchObject({ value: null, effective: 120000, source: 'default' });
    expect(entry('baseUrl')).toMatchObject({ effective: 'http://127.0.0.1:11434', source: 'default' });
    const text = String((await box.hippo(['config', 'list'], env)).stdout);
    expect(text).toMatch(/^model\s+ollama:qwen2\.5:7b\s+HIPPO_MODEL\s/m);
    expect(text).toMatch(/^region\s+IE\s+file\s/m);
    expect(text).toMatch(/^timeoutMs\s+120000\s+default\s/m);
  });

  it('model check with the model from the config file never suggests export HIPPO_MODEL', async () => {
    const box = plainBox();
    // A port nothing listens on: taken, then released.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: taken } = probe.address() as { port: number };
        probe.close(() => resolve(taken));
      });
    });
    expect((await box.hippo(['config', 'set', 'model', 'ollama:llama3.2'])).exitCode).toBe(0);
    expect((await box.hippo(['config', 'set', 'baseUrl', `http://127.0.0.1:${port}`])).exitCode).toBe(0);
    const check = await box.hippo(['model', 'check']);
    expect(check.exitCode).toBe(5);
    expect(String(check.stderr)).toContain('ollama serve');
    expect(String(check.stderr)).not.toContain('export HIPPO_MODEL');
  });
});
