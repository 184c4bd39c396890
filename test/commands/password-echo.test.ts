/**
 * Issue 27, defect 2, through the built CLI: a password in a URL — on the command line (a flag's value, an argument
 * after `--`, next to a typo of a command or of a flag), in `HIPPO_DB`, `HIPPO_BASE_URL` or the config file — never
 * appears on stdout or stderr, in text or `--json`, in a message, an error's details or a "did you mean" line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from '../helpers/cli.js';

const SECRET = 'Pw27s3cretX';
const SPACED = 'Pw 27 sp4ced';
const ENCODED = 'Pw%2027%40enc';
const FORMS = [SECRET, SPACED, ENCODED, 'Pw 27@enc', 's3cretX', 'sp4ced', '27%40enc'];
/** Each case runs about twenty CLI starts: a long deadline on a shared machine (no timed assertion). */
const url = (password: string) => `postgres://hippo:${password}@127.0.0.1:1/x`;
// The last: a password with an unencoded `/` (not a valid URL, but typed), which a "did you mean" line echoed whole.
const URLS = [url(SECRET), url(SPACED), url(ENCODED), `postgres://hippo@127.0.0.1:1/x?password=${SECRET}`, url(`Pw27/${SECRET}`)];

let box: Sandbox;
beforeEach(async () => {
  box = sandbox();
  // A store in place, so each path gets as far as its own check.
  expect((await box.hippo(['memory', 'add', 'a note', '--agent', 'ops'])).exitCode).toBe(0);
});
afterEach(() => box.cleanup());

async function expectNoPassword(args: string[], env: Record<string, string | undefined> = {}, exitCodes: readonly number[] = [2]) {
  for (const json of [false, true]) {
    const argv = json ? [...args, '--json'] : args;
    const result = await box.hippo(argv, { env: { HIPPO_AGENT: 'ops', ...env } });
    const output = `${String(result.stdout)}\n${String(result.stderr)}`;
    for (const form of FORMS) expect(output, `${JSON.stringify(argv)} ${JSON.stringify(env)} printed ${form}`).not.toContain(form);
    expect(exitCodes, `${JSON.stringify(argv)}: exit ${result.exitCode}\n${output}`).toContain(result.exitCode);
    expect(output.trim(), JSON.stringify(argv)).not.toBe('');
  }
}

describe('a password on the command line is never echoed', () => {
  for (const db of URLS) {
    it(`in every error path it reaches: ${db.replace(/:[^:@]+@/, ':…@')}`, async () => {
      // Arguments after `--` (unexpected arguments), typos of a command (one word, two words, the URL as the command).
      await expectNoPassword(['search', '--', 'foo', '--db', db]);
      await expectNoPassword(['memory', 'lst', '--db', db]);
      await expectNoPassword(['serch', 'foo', '--db', db]);
      await expectNoPassword(['memroy', 'list', db]);
      await expectNoPassword([db]);
      // Typos of a flag, with its value after it or glued with `=`; a bad value; a value no choice allows.
      await expectNoPassword(['search', 'foo', '--dbb', db]);
      await expectNoPassword(['search', 'foo', `--dbb=${db}`]);
      await expectNoPassword(['search', 'foo', '--limit', db]);
      await expectNoPassword(['memory', 'add', 'a note', '--durability', db]);
      await expectNoPassword(['memory', 'list', '--since', db]);
      // A missing argument, and a store that cannot be reached (exit 8) or a URL that is not one (exit 2).
      await expectNoPassword(['memory', 'show', '--db', db], {}, [2, 8]);
      await expectNoPassword(['search', 'foo', '--db', db], {}, [2, 8]);
      await expectNoPassword(['search', 'foo', '--db', db.replace(':1/', ':notaport/')], {}, [2]);
    }, 240_000);
  }
});

describe('a password in the environment or the config file is never echoed', () => {
  for (const db of URLS) {
    it(`HIPPO_DB, on its own and with typos and bad flags: ${db.replace(/:[^:@]+@/, ':…@')}`, async () => {
      await expectNoPassword(['memory', 'list'], { HIPPO_DB: db }, [2, 8]);
      await expectNoPassword(['memory', 'lst'], { HIPPO_DB: db });
      await expectNoPassword(['search', 'foo', '--limit', 'x'], { HIPPO_DB: db });
      await expectNoPassword(['db', 'check'], { HIPPO_DB: db }, [2, 8]);
      await expectNoPassword(['config', 'list'], { HIPPO_DB: db }, [0]);
    }, 240_000);

    it(`a hand-edited config file: ${db.replace(/:[^:@]+@/, ':…@')}`, async () => {
      mkdirSync(join(box.env.XDG_CONFIG_HOME!, 'hippo'), { recursive: true });
      writeFileSync(join(box.env.XDG_CONFIG_HOME!, 'hippo', 'config.json'), JSON.stringify({ db }));
      // No HIPPO_DB: the config file's `db` is the store.
      const env = { HIPPO_DB: undefined };
      await expectNoPassword(['memory', 'list'], env);
      await expectNoPassword(['config', 'list'], env, [0, 2]);
      await expectNoPassword(['config', 'get', 'db'], env, [0, 2]);
      await expectNoPassword(['serch', 'foo'], env);
    }, 240_000);
  }
});

describe('a base URL with credentials (issue 27, defect 3)', () => {
  const BASE = `http://user:${SECRET}@127.0.0.1:11434`;
  const configPath = () => join(box.env.XDG_CONFIG_HOME!, 'hippo', 'config.json');

  it('config set baseUrl refuses it as config set db refuses a password: exit 2, nothing written, never echoed', async () => {
    await expectNoPassword(['config', 'set', 'baseUrl', BASE]);
    await expectNoPassword(['config', 'set', 'baseUrl', `https://${SECRET}@api.example.com/v1`]);
    await expectNoPassword(['config', 'set', 'db', url(SECRET)]);
    const list = await box.hippo(['config', 'list', '--json']);
    expect(JSON.parse(String(list.stdout)).keys.find((entry: { key: string }) => entry.key === 'baseUrl').value).toBeNull();
  }, 240_000);

  it('from HIPPO_BASE_URL or a hand-edited file: refused when a model is used (exit 2), masked and warned by config list', async () => {
    await expectNoPassword(['model', 'check', '--offline'], { HIPPO_MODEL: 'ollama:m', HIPPO_BASE_URL: BASE });
    await expectNoPassword(['rem', 'rapid'], { HIPPO_MODEL: 'ollama:m', HIPPO_BASE_URL: BASE });
    mkdirSync(join(box.env.XDG_CONFIG_HOME!, 'hippo'), { recursive: true });
    writeFileSync(configPath(), JSON.stringify({ model: 'ollama:m', baseUrl: BASE }));
    await expectNoPassword(['model', 'check', '--offline']);
    await expectNoPassword(['extract', 'address', '-'], {}, [0, 2]);
    await expectNoPassword(['config', 'list'], {}, [0]);
    await expectNoPassword(['config', 'get', 'baseUrl'], {}, [0]);
    const list = await box.hippo(['config', 'list', '--json']);
    const report = JSON.parse(String(list.stdout)) as { keys: { key: string; value: unknown }[]; warnings: string[] };
    expect(report.keys.find((entry) => entry.key === 'baseUrl')!.value).toBe('http://***@127.0.0.1:11434');
    expect(report.warnings.join(' ')).toContain('"baseUrl" holds a user name or password');
  }, 240_000);
});
