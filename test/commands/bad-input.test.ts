/**
 * Bad input, through the real built CLI, refused where it enters with exit 2 (or 6 for a model's answer) and a message
 * that says what is wrong — never stored mangled, never read without bound (docs/design.md §10, issue 13).
 */
import { execa, type Result } from 'execa';
import { existsSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, json, sandbox, type Sandbox } from '../helpers/cli.js';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

interface ErrorJson {
  error: { code: string; message: string; details?: Record<string, unknown> };
}
const errorOf = (result: Result) => json<ErrorJson>(result).error;
/** Runs `script` in bash with hippo as `$HIPPO` and the sandbox's environment (for raw bytes and pipes execa cannot pass). */
const bash = (script: string, env: Record<string, string> = {}) =>
  execa('bash', ['-c', script], { env: { ...box.env, ...env, HIPPO: `node ${BIN}` }, reject: false, timeout: 60_000 });
/** The agent's memories; none when a refused command left no store at all (read commands never create one). */
const memories = async (agent = 'default') => {
  const result = await box.hippo(['memory', 'list', '--agent', agent, '--json']);
  if (result.exitCode === 3 && json<{ error?: { code: string } }>(result).error?.code === 'store_not_found') return [];
  return json<{ memories: { content: string; tags: string[] }[] }>(result).memories;
};
const add = async (text: string, agent = 'ops') => expect((await box.hippo(['memory', 'add', text, '--agent', agent])).exitCode).toBe(0);

describe('lone surrogates (JSON escapes no UTF-8 can hold) are refused, never stored', () => {
  it('memory import: a line {"content":"\\ud800 lone"} fails its file naming file:line and the field; nothing from it lands', async () => {
    const file = join(box.dir, 'lone.jsonl');
    writeFileSync(file, `{"content":"a fine note"}\n{"content":"\\ud800 lone"}\n`);
    const result = await box.hippo(['memory', 'import', file, '--json']);
    expect(result.exitCode).toBe(2);
    const { details } = errorOf(result);
    expect(details?.files).toEqual([
      expect.objectContaining({
        imported: 0,
        error: {
          code: 'bad_import_line',
          message: `${file}:2: field "content" holds a lone surrogate (an unpaired \\ud800–\\udfff escape), which is not Unicode text and cannot be stored as UTF-8; nothing from this file was imported`,
        },
      }),
    ]);
    expect(await memories()).toEqual([]);
  });

  it('memory import: one in a tag is refused the same way', async () => {
    const file = join(box.dir, 'tag.jsonl');
    writeFileSync(file, `{"content":"note","tags":["ok","x\\udc00"]}\n`);
    const result = await box.hippo(['memory', 'import', file]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`${file}:1: field "tags.1" holds a lone surrogate`);
    expect(await memories()).toEqual([]);
  });

  it('an escaped surrogate pair is a character: imported, exported and imported again unchanged', async () => {
    const file = join(box.dir, 'pair.jsonl');
    writeFileSync(file, `{"content":"shipped \\ud83d\\ude80","tags":["\\ud83d\\ude80"]}\n`);
    expect((await box.hippo(['memory', 'import', file])).exitCode).toBe(0);
    const exported = join(box.dir, 'export.jsonl');
    expect((await box.hippo(['memory', 'export', '--output', exported])).exitCode).toBe(0);
    const again = await box.hippo(['memory', 'import', exported, '--db', join(box.dir, 'other.db'), '--json']);
    expect(json<{ imported: number }>(again).imported).toBe(1);
    const copied = json<{ memories: { content: string; tags: string[] }[] }>(await box.hippo(['memory', 'list', '--db', join(box.dir, 'other.db'), '--json']));
    expect(copied.memories).toEqual([expect.objectContaining({ content: 'shipped 🚀', tags: ['🚀'] })]);
  });

  it('rem rapid: a model claim holding one is rejected (exit 6, reason lone_surrogate); nothing is staged', async () => {
    await add('Deploy of api v2.14 stalled on a migration lock.');
    const answer = '{"candidates":[{"claim":"Deploys \\ud800 stall on locks.","sources":["m1"]}]}';
    const result = await box.hippo(['rem', 'rapid', '--agent', 'ops', '--json', '--via', `cat > /dev/null; printf '%s' '${answer}'`]);
    expect(result.exitCode).toBe(6);
    expect(errorOf(result)).toMatchObject({ code: 'model_output_invalid', details: { reason: 'lone_surrogate', index: 0 } });
    expect(json<{ candidates: unknown[] }>(await box.hippo(['rem', 'candidates', '--agent', 'ops', '--json'])).candidates).toEqual([]);
  });

  it('rem ingest: a tag holding one is rejected (exit 6, reason lone_surrogate); the handoff stays open', async () => {
    await add('Deploy of api v2.14 stalled on a migration lock.');
    const handoff = json<{ handoff: { id: string } }>(await box.hippo(['rem', 'rapid', '--prompt-only', '--agent', 'ops', '--json'])).handoff.id;
    const bad = '{"candidates":[{"claim":"Deploys stall on locks.","sources":["m1"],"tags":["\\udbff"]}]}';
    const result = await box.hippo(['rem', 'ingest', handoff, '-', '--agent', 'ops', '--json'], { input: bad });
    expect(result.exitCode).toBe(6);
    expect(errorOf(result).details).toMatchObject({ reason: 'lone_surrogate' });
    const good = await box.hippo(['rem', 'ingest', handoff, '-', '--agent', 'ops', '--json'], { input: bad.replace('\\udbff', 'deploy') });
    expect(good.exitCode).toBe(0);
  });
});

describe('arguments that are not UTF-8 are refused (exit 2), as stdin is', () => {
  it('memory add "$(printf \'bad \\xff\\xfe\')": not_utf8, nothing stored', async () => {
    const result = await bash(`$HIPPO memory add "$(printf 'bad \\xff\\xfe')" --json`);
    expect(result.exitCode).toBe(2);
    expect(errorOf(result)).toMatchObject({ code: 'not_utf8', details: { argument: 1 } });
    expect(errorOf(result).message).toMatch(/^argument 1 after the command name is not valid UTF-8 text/);
    expect(await memories()).toEqual([]);
  });

  it('the same in a flag value (--tag), and in the text mode message', async () => {
    const result = await bash(`$HIPPO memory add fine --tag "$(printf 't\\xc3')"`);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('argument 3 after the command name is not valid UTF-8 text');
    expect(await memories()).toEqual([]);
  });

  it('a U+FFFD the user really typed is text like any other', async () => {
    const result = await bash(`$HIPPO memory add "$(printf 'typed \\xef\\xbf\\xbd here')"`);
    expect(result.exitCode).toBe(0);
    expect((await memories()).map((memory) => memory.content)).toEqual(['typed \uFFFD here']);
  });
});

describe('reads are bounded and say what is wrong', () => {
  it('1 GB on stdin to memory add stops at the 64 KiB limit: content_too_large, "stdin is over 64 KiB"', async () => {
    const result = await bash('head -c 1000000000 /dev/zero | $HIPPO memory add --json');
    expect(result.exitCode).toBe(2);
    expect(errorOf(result)).toMatchObject({
      code: 'content_too_large',
      message: expect.stringMatching(/^stdin is over 64 KiB: memory text is at most 64 KiB/),
    });
    expect(await memories()).toEqual([]);
  });

  it('memory add from stdin: 64 KiB plus the trailing newline is taken, one byte more is refused', async () => {
    const exact = await box.hippo(['memory', 'add', '--json'], { input: `${'x'.repeat(65_536)}\n` });
    expect(exact.exitCode).toBe(0);
    const over = await box.hippo(['memory', 'add', '--json'], { input: 'y'.repeat(65_537) });
    expect(over.exitCode).toBe(2);
    expect(errorOf(over).code).toBe('content_too_large');
    expect((await memories()).map((memory) => memory.content.length)).toEqual([65_536]);
  });

  it('extract of a 600 MiB file is refused by its size, before reading it (input_too_large)', async () => {
    const big = join(box.dir, 'big.txt');
    writeFileSync(big, 'mail ops@example.com\n');
    truncateSync(big, 600 * 1024 * 1024); // sparse: no disk used
    const result = await box.hippo(['extract', 'email', big, '--json']);
    expect(result.exitCode).toBe(2);
    expect(errorOf(result)).toMatchObject({
      code: 'input_too_large',
      message: expect.stringMatching(/big\.txt is over 64 MiB \(600 MiB\): text to extract from \(one file, or stdin\) is at most 64 MiB; split it/),
      details: { maxBytes: 64 * 1024 * 1024, sizeBytes: 600 * 1024 * 1024 },
    });
  });

  it('extract email /dev/zero ends at once: not a regular file', async () => {
    const result = await box.hippo(['extract', 'email', '/dev/zero', '--json'], { timeout: 30_000 });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(2);
    expect(errorOf(result)).toMatchObject({ code: 'not_a_regular_file', message: '/dev/zero is a character device, not a regular file' });
  });

  it('a named pipe nobody writes to never hangs extract: it reads as empty, whatever its name', async () => {
    for (const name of ['pipe.jsonl', 'pipe']) {
      const fifo = join(box.dir, name);
      await execa('mkfifo', [fifo]);
      const extracted = await box.hippo(['extract', 'email', fifo, '--json'], { timeout: 30_000 });
      expect(extracted.timedOut).toBe(false);
      expect(extracted.exitCode).toBe(0);
      expect(json<{ facts: unknown[] }>(extracted).facts).toEqual([]);
    }
  });

  it('memory import refuses a named pipe by what it is, never by its name: x.jsonl, x.md and x alike (exit 2), other files land', async () => {
    const good = join(box.dir, 'good.md');
    writeFileSync(good, 'A note from a file.\n');
    for (const name of ['x.jsonl', 'x.md', 'x']) {
      const fifo = join(box.dir, name);
      await execa('mkfifo', [fifo]);
      const result = await box.hippo(['memory', 'import', fifo, good, '--json'], { timeout: 30_000 });
      expect(result.timedOut).toBe(false);
      expect(result.exitCode).toBe(2);
      expect(errorOf(result).details?.files).toEqual([
        expect.objectContaining({ path: fifo, imported: 0, error: { code: 'not_a_regular_file', message: `${fifo} is a named pipe, not a regular file` } }),
        expect.objectContaining({ path: good, imported: 1 }),
      ]);
    }
  });

  it('extract from stdin stops past 64 MiB; a pipe given as a file (process substitution) is still read', async () => {
    const over = await bash('head -c 100000000 /dev/zero | $HIPPO extract email --json');
    expect(over.exitCode).toBe(2);
    expect(errorOf(over)).toMatchObject({ code: 'input_too_large', message: expect.stringMatching(/^stdin is over 64 MiB/) });
    const piped = await bash(`$HIPPO extract email <(printf 'write to ops@example.com\\n') --json`);
    expect(piped.exitCode).toBe(0);
    expect(json<{ facts: { value: string }[] }>(piped).facts.map((fact) => fact.value)).toEqual(['ops@example.com']);
  });

  it('memory import /dev/zero fails that file at once (not a regular file), other files land', async () => {
    const good = join(box.dir, 'good.md');
    writeFileSync(good, 'A note from a file.\n');
    const result = await box.hippo(['memory', 'import', '/dev/zero', good, '--json'], { timeout: 30_000 });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(2);
    expect(errorOf(result).details?.files).toEqual([
      expect.objectContaining({ path: '/dev/zero', error: { code: 'not_a_regular_file', message: '/dev/zero is a character device, not a regular file' } }),
      expect.objectContaining({ imported: 1 }),
    ]);
  });

  it('rem ingest stops reading an answer past 16 MiB', async () => {
    await add('Deploy of api v2.14 stalled on a migration lock.');
    const handoff = json<{ handoff: { id: string } }>(await box.hippo(['rem', 'rapid', '--prompt-only', '--agent', 'ops', '--json'])).handoff.id;
    const result = await bash(`head -c 100000000 /dev/zero | $HIPPO rem ingest ${handoff} --agent ops --json`);
    expect(result.exitCode).toBe(2);
    expect(errorOf(result)).toMatchObject({ code: 'input_too_large', message: 'stdin is over 16 MiB: an answer to a handoff is at most 16 MiB' });
  });
});

describe('an empty store path is refused (exit 2), never the default store', () => {
  const defaultStore = () => join(box.env.XDG_DATA_HOME!, 'hippo');

  it.each([
    ['--db ""', ['--db', ''], {}],
    ['--db "  "', ['--db', '  '], {}],
    ['HIPPO_DB= (set but empty)', [], { HIPPO_DB: '' }],
  ])('%s: empty_db_path, and nothing is written anywhere', async (_what, args, env) => {
    const result = await box.hippo(['memory', 'add', 'a note for the real store?', '--json', ...args], { env, cwd: box.dir });
    expect(result.exitCode).toBe(2);
    expect(errorOf(result).code).toBe('empty_db_path');
    expect(existsSync(defaultStore())).toBe(false);
    expect(existsSync(box.db)).toBe(false);
    expect(existsSync(join(box.dir, '  '))).toBe(false);
  });

  it('says which one was empty', async () => {
    expect((await box.hippo(['memory', 'list', '--db', ''])).stderr).toContain(
      'Error: --db is empty\nGive a database file path or a postgres:// URL, or leave --db out for the default store.',
    );
    expect((await box.hippo(['memory', 'list'], { env: { HIPPO_DB: '' } })).stderr).toContain(
      'HIPPO_DB is set but empty; set it to a file path or a postgres:// URL, or unset it',
    );
  });

  it('a --db path wins over an empty HIPPO_DB', async () => {
    const result = await box.hippo(['memory', 'add', 'note', '--db', join(box.dir, 'mine.db')], { env: { HIPPO_DB: '' } });
    expect(result.exitCode).toBe(0);
    expect(existsSync(join(box.dir, 'mine.db'))).toBe(true);
  });
});

describe('integer flags out of range are usage errors (exit 2), on every command that has one', () => {
  const HUGE = '99999999999999999999';
  it.each([
    [['memory', 'list', '--limit', HUGE], 'bad_limit'],
    [['search', 'deploy', '--limit', HUGE], 'bad_limit'],
    [['rem', 'candidates', '--limit', HUGE], 'bad_limit'],
    [['rem', 'runs', '--limit', HUGE], 'bad_limit'],
    [['extract', 'email', '--query', 'deploy', '--top', HUGE], 'bad_top'],
    [['extract', 'email', '--query', 'deploy', '--limit', HUGE], 'bad_limit'],
    [['rem', 'rapid', '--dry-run', '--max-memories', HUGE], 'bad_max_memories'],
    [['rem', 'rapid', '--dry-run', '--max-candidates', HUGE], 'bad_max_candidates'],
    [['rem', 'nightly', 'run-once', '--dry-run', '--keep-days', HUGE], 'bad_keep_days'],
    [['memory', 'list', '--limit', '0'], 'bad_limit'],
    [['memory', 'list', '--limit', '2.5'], 'bad_limit'],
    [['rem', 'nightly', 'run-once', '--dry-run', '--keep-days', '-1'], 'bad_keep_days'],
  ])('%j → %s', async (args, code) => {
    await add('Deploy of api v2.14 stalled on a migration lock.', 'default');
    const result = await box.hippo([...args, '--json']);
    expect(result.exitCode).toBe(2);
    const error = errorOf(result);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(/^--[a-z-]+ must be a whole number from \d+ to \d+ \(got "/);
  });

  it('the range is inclusive: the top of it works', async () => {
    await add('Deploy of api v2.14 stalled on a migration lock.', 'default');
    expect((await box.hippo(['memory', 'list', '--limit', '1000000'])).exitCode).toBe(0);
    expect((await box.hippo(['rem', 'nightly', 'run-once', '--dry-run', '--keep-days', '36500'])).exitCode).toBe(0);
  });
});
