import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hintBuilder } from '../../src/views/hints.js';
import { formatTime, table, type TextContext } from '../../src/views/output.js';
import { cutAtWord, displayWidth } from '../../src/views/width.js';
import { closest } from '../../src/core/suggest.js';

const plain = Object.assign((_style: unknown, text: string) => text, { enabled: false }) as TextContext['paint'];
const context = (width: number, terminal = true): TextContext => ({
  paint: plain,
  width,
  terminal,
  time: (isoTime) => isoTime,
  zone: () => 'UTC',
  hint: hintBuilder({}),
});

describe('hints', () => {
  it('carry --agent and --db only when they are not the defaults, quoted for a shell, before a --', () => {
    expect(hintBuilder({})(['rem', 'candidates'])).toBe('hippo rem candidates');
    const hint = hintBuilder({ agent: "o'brien", db: '/tmp/my store.db' });
    expect(hint(['rem', 'ingest', 'hof_1', 'answer.json'])).toBe(`hippo rem ingest hof_1 answer.json --agent "o'brien" --db '/tmp/my store.db'`);
    expect(hint(['search', '--', '-x'])).toBe(`hippo search --agent "o'brien" --db '/tmp/my store.db' -- -x`);
    expect(hint(['rem', 'resume'], { agent: null })).toBe(`hippo rem resume --db '/tmp/my store.db'`);
    expect(hint.exportLine({ HIPPO_DB: '/tmp/my store.db', HIPPO_AGENT: 'ops' })).toBe(`export HIPPO_DB='/tmp/my store.db' HIPPO_AGENT=ops`);
  });

  it('print a postgres URL whole: bare when a shell takes it literally, else single-quoted as a whole, never a backslash before : or @', () => {
    const bare = 'postgres://hippo@db.example.com:5432/hippo';
    expect(hintBuilder({ db: bare })(['search', 'x'])).toBe(`hippo search x --db ${bare}`);
    const special = 'postgres://hippo@db.example.com:5432/hippo?sslmode=require&application_name=team one';
    expect(hintBuilder({ db: special })(['db', 'check'])).toBe(`hippo db check --db '${special}'`);
    expect(hintBuilder({}).exportLine({ HIPPO_DB: special })).toBe(`export HIPPO_DB='${special}'`);
    // What a shell makes of the words again: exactly the words.
    const words = [bare, special, "o'brien", '', '=x', 'a b', '$HOME', '*'];
    const line = hintBuilder({})(words).replace(/^hippo /, '');
    const echoed = execFileSync('sh', ['-c', `printf '%s\\n' ${line}`], { encoding: 'utf8' });
    expect(echoed).toBe(words.map((word) => `${word}\n`).join(''));
  });
});

describe('did you mean', () => {
  it('finds the near name, and nothing when none is near', () => {
    expect(closest('modle', ['model', 'baseUrl', 'region'])).toBe('model');
    expect(closest('serch', ['search', 'demo'])).toBe('search');
    expect(closest('regoins', ['region', 'regions'])).toBe('regions');
    expect(closest('bogus', ['search', 'demo', 'extract'])).toBeUndefined();
  });
});

describe('times and tables', () => {
  it('formats a stored time in the process zone with its offset, or in UTC', () => {
    // The process zone is whatever the test runs in: compare with what Date says about it.
    const at = '2026-11-02T09:30:00.000Z';
    const offset = -new Date(at).getTimezoneOffset();
    expect(formatTime(at, 'utc')).toBe('2026-11-02 09:30 +00:00');
    expect(formatTime(at, 'utc', { seconds: true, zone: false })).toBe('2026-11-02 09:30:00');
    expect(formatTime(at, 'local')).toMatch(new RegExp(`^2026-11-0[12] \\d{2}:\\d{2} ${offset < 0 ? '-' : '\\+'}\\d{2}:\\d{2}$`));
  });

  it('aligns cells by the terminal columns they take (CJK is two a character) and cuts the flexible column at a word', () => {
    const text = table(
      [{ header: 'KEY' }, { header: 'LABEL' }, { header: 'TEXT', flex: true }],
      [
        ['a', '電話', 'one two three four five six seven eight nine ten eleven twelve'],
        ['b', 'tel', 'short'],
      ],
      context(40),
    );
    const lines = text.split('\n');
    expect(lines[0]).toBe('KEY  LABEL  TEXT');
    const column = (line: string, word: string) => displayWidth(line.slice(0, line.indexOf(word)));
    expect(column(lines[1]!, 'one')).toBe(column(lines[0]!, 'TEXT'));
    expect(column(lines[2]!, 'short')).toBe(column(lines[0]!, 'TEXT'));
    expect(displayWidth(lines[1]!)).toBeLessThanOrEqual(40);
    expect(lines[1]).toMatch(/ \w+ …$/);
    expect(table([{ header: 'KEY' }], [['a']], context(40, false))).toBe('a');
  });

  it('cuts at the last whole word when one is near the end, else mid-word, by display width', () => {
    expect(cutAtWord('alpha beta gamma delta', 14)).toBe('alpha beta …');
    expect(cutAtWord('supercalifragilistic', 10)).toBe('supercali…');
    expect(displayWidth(cutAtWord('東京東京東京東京', 7))).toBeLessThanOrEqual(7);
  });
});
