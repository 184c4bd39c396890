import { execa } from 'execa';
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, json, ROOT, sandbox, type Sandbox } from '../helpers/cli.js';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

/** The sandbox's environment without HIPPO_DB: commands then use the default store (and `demo` its demo store). */
/** The sandbox's environment without HIPPO_DB (unset: an empty one is refused, exit 2 `empty_db_path`). */
const noDb = () => ({ ...box.env, HIPPO_DB: undefined });
const dataDir = () => join(box.dir, 'xdg-data', 'hippo');

/**
 * Runs a line of shell the way a person pasting it would: `sh -c`, with a `hippo` on the PATH that is the built CLI,
 * in the sandbox's environment (and `cwd`).
 */
async function pasted(line: string, options: { env?: Record<string, string | undefined>; cwd?: string } = {}) {
  const bin = join(box.dir, 'path-bin');
  if (!existsSync(join(bin, 'hippo'))) {
    mkdirSync(bin, { recursive: true });
    symlinkSync(BIN, join(bin, 'hippo'));
  }
  const env = { ...box.env, ...options.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
  return execa('sh', ['-c', line], { reject: false, env, cwd: options.cwd ?? box.dir, input: '' });
}

/** The lines of stderr that are commands to paste (they start with `hippo ` or `export `, after a label). */
function hintLines(stderr: string): string[] {
  return String(stderr)
    .split('\n')
    .map((line) => /(?:^|\s)((?:hippo|export) .*)$/.exec(line.trim())?.[1])
    .filter((line): line is string => line !== undefined);
}

describe('did you mean: unknown commands and flags (exit 2, one JSON document under --json, text guarded)', () => {
  it('suggests the command a typo meant, keeping the arguments, and says it in JSON too', async () => {
    const text = await box.hippo(['serch', 'foo']);
    expect(text.exitCode).toBe(2);
    expect(String(text.stderr)).toContain('"serch" is not a hippo command; did you mean: hippo search foo');
    expect(String(text.stdout)).toBe('');

    const nested = await box.hippo(['rem', 'candidats', '--json']);
    expect(nested.exitCode).toBe(2);
    expect(json(nested)).toEqual({
      error: {
        code: 'unknown_command',
        message: expect.stringContaining('did you mean: hippo rem candidates --json'),
        details: { command: 'rem candidats', suggestion: 'rem candidates' },
      },
    });
  });

  it('keeps every argument and flag typed after the misspelt name, a short argument and one holding a colon included, and the suggestion works pasted', async () => {
    expect((await box.hippo(['memory', 'add', 'see a:b c for the deploy x'])).exitCode).toBe(0);
    const short = await box.hippo(['serch', 'x']);
    expect(String(short.stderr)).toContain('"serch" is not a hippo command; did you mean: hippo search x (see');
    const colon = await box.hippo(['serch', 'a:b c', '--limit', '2', '--json']);
    expect(colon.exitCode).toBe(2);
    const { message } = json<{ error: { message: string; details: { command: string } } }>(colon).error;
    expect(message).toContain("did you mean: hippo search 'a:b c' --limit 2 --json (see");
    const again = await pasted(/did you mean: (hippo .*) \(see/.exec(message)![1]!);
    expect(again.exitCode, String(again.stderr)).toBe(0);
    expect(json<{ results: unknown[] }>(again).results).toHaveLength(1);
    const nested = await box.hippo(['memory', 'lst', 'x', '-n', '2']);
    expect(String(nested.stderr)).toContain('"memory lst" is not a hippo command; did you mean: hippo memory list x -n 2 (see');
    // A topic typed right is never read as a typo of a command ("rem" is not "demo").
    expect(String((await box.hippo(['rem', 'bogus'])).stderr)).toContain('"rem bogus" is not a hippo command (see');
  });

  it('names a command that is near nothing without a suggestion, and never prints what was typed raw', async () => {
    const result = await box.hippo(['bogus\u001b]0;T\u0007']);
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr)).not.toContain('\u001b');
    expect(String(result.stderr)).toContain('"bogus\uFFFD]0;T\uFFFD" is not a hippo command (see hippo --help)');
    const asJson = await box.hippo(['bogus\u001b]0;T\u0007', '--json']);
    expect(String(asJson.stdout)).not.toContain('\u0007');
    expect(json<{ error: { code: string; details: { command: string } } }>(asJson).error.details.command).toBe('bogus\u001b]0;T\u0007');
  });

  it('suggests the flag a typo meant', async () => {
    const result = await box.hippo(['search', 'deploy', '--limt', '3', '--json']);
    expect(result.exitCode).toBe(2);
    expect(json<{ error: { code: string; message: string } }>(result).error).toMatchObject({
      code: 'usage',
      message: expect.stringContaining('--limt is not a flag of hippo search; did you mean --limit?'),
    });
  });

  it('a query starting with "-" gets told to go after --, and the command it prints works when pasted', async () => {
    expect((await box.hippo(['memory', 'add', 'flag -verbose breaks the gateway'])).exitCode).toBe(0);
    const result = await box.hippo(['search', '-verbose']);
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr)).toContain('if it is text that starts with "-", put it after --: hippo search -- -verbose');
    const line = /put it after --: (hippo .*?) \(see --help\)/.exec(String(result.stderr))![1]!;
    const again = await pasted(line.replace('-- -verbose', '--json -- -verbose'));
    expect(again.exitCode, String(again.stderr)).toBe(0);
    expect(json<{ results: unknown[] }>(again).results).toHaveLength(1);
  });

  it('under --json a topic named alone and a plugin command are still one JSON document (exit 2); --help still shows help', async () => {
    for (const args of [
      ['memory', '--json'],
      ['rem', 'nightly', '--json'],
      ['autocomplete', 'bash', '--json'],
    ]) {
      const result = await box.hippo(args);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(json<{ error: { code: string } }>(result).error.code).toBe('usage');
      expect(String(result.stderr)).toBe('');
    }
    const help = await box.hippo(['memory', '--json', '--help']);
    expect(help.exitCode).toBe(0);
    expect(String(help.stdout)).toContain('memory list');
  });

  it('shows a required flag as required, and says which one is missing', async () => {
    const help = await box.hippo(['rem', 'promote', '--help']);
    expect(String(help.stdout)).toMatch(/hippo rem promote IDS\.\.\. --rationale <value>/);
    const missing = await box.hippo(['rem', 'reject', 'cand_x', '--json']);
    expect(missing.exitCode).toBe(2);
    expect(json<{ error: { message: string } }>(missing).error.message).toContain('--reason is required');
  });
});

describe('-h, version, completion', () => {
  it('-h is --help, for a command and for the whole CLI', async () => {
    const command = await box.hippo(['search', '-h']);
    expect(command.exitCode).toBe(0);
    expect(String(command.stdout)).toContain('$ hippo search QUERY');
    expect(String((await box.hippo(['-h'])).stdout)).toContain('TOPICS');
  });

  it('`hippo version` prints what --version does, and a JSON document with --json', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const text = await box.hippo(['version']);
    expect(text.exitCode).toBe(0);
    expect(String(text.stdout).trim()).toBe(String((await box.hippo(['--version'])).stdout).trim());
    expect(String(text.stdout)).toContain(`hippo/${pkg.version}`);
    expect(json(await box.hippo(['version', '--json']))).toEqual({
      name: 'hippo',
      version: pkg.version,
      node: process.version,
      platform: process.platform,
      arch: process.arch,
    });
  });

  it('generates a bash completion script that completes hippo commands', async () => {
    const env = { XDG_CACHE_HOME: join(box.dir, 'cache') };
    const setup = await box.hippo(['autocomplete', 'script', 'bash'], { env });
    expect(setup.exitCode).toBe(0);
    expect(String(setup.stdout)).toContain('HIPPO_AC_BASH_SETUP_PATH=');
    expect((await box.hippo(['autocomplete', 'bash'], { env })).exitCode).toBe(0);
    for (const shell of ['zsh', 'powershell']) expect((await box.hippo(['autocomplete', 'script', shell], { env })).exitCode).toBe(0);
    // What the user puts in ~/.bashrc, then a <TAB> after `hippo rem cand`.
    const complete = await execa(
      'bash',
      [
        '-c',
        `eval "$(node ${BIN} autocomplete script bash)"; COMP_WORDS=(hippo rem cand); COMP_CWORD=2; COMP_LINE="hippo rem cand"; _hippo_autocomplete; echo "\${COMPREPLY[@]}"`,
      ],
      { env: { ...box.env, ...env }, reject: false },
    );
    expect(complete.exitCode, String(complete.stderr)).toBe(0);
    expect(String(complete.stdout)).toContain('candidates');
  });

  it('no help text cites a document outside the repository', () => {
    const manifest = readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8');
    expect(manifest).not.toMatch(/SPEC\b/);
    // Section signs cite docs/design.md, which ships with hippo's sources.
    expect(manifest.match(/.{0,16}§\d/g)?.every((cite) => cite.includes('docs/design.md §')) ?? true).toBe(true);
  });

  it('example ids in help and the README are made of ULID characters only (no I, L, O, U)', () => {
    for (const file of ['oclif.manifest.json', 'README.md']) {
      const ids = readFileSync(join(ROOT, file), 'utf8').match(/\b(?:mem|cand|run|hof)_01[0-9A-Z]{24}\b/g) ?? [];
      for (const id of ids) expect(id, file).toMatch(/^[a-z]+_[0-9A-HJKMNP-TV-Z]{26}$/);
    }
  });
});

describe('config: a schema over the config file', () => {
  const configPath = () => join(box.dir, 'xdg-config', 'hippo', 'config.json');

  it('round-trips set, get, list and unset; the file is written whole at mode 0600; values are normalised', async () => {
    expect(String((await box.hippo(['config', 'path'])).stdout).trim()).toBe(configPath());
    expect((await box.hippo(['config', 'set', 'model', 'ollama:llama3.2'])).exitCode).toBe(0);
    expect((await box.hippo(['config', 'set', 'region', 'ie'])).exitCode).toBe(0);
    expect((await box.hippo(['config', 'set', 'regions', 'GB', 'us,DE'])).exitCode).toBe(0);
    expect((await box.hippo(['config', 'set', 'timeoutMs', '5000'])).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(configPath(), 'utf8'))).toEqual({ model: 'ollama:llama3.2', region: 'IE', regions: ['GB', 'US', 'DE'], timeoutMs: 5000 });
    expect(statSync(configPath()).mode & 0o777).toBe(0o600);

    expect(String((await box.hippo(['config', 'get', 'regions'])).stdout).trim()).toBe('GB US DE');
    expect(json(await box.hippo(['config', 'get', 'timeoutMs', '--json']))).toEqual({ key: 'timeoutMs', value: 5000, path: configPath() });
    const list = json<{ keys: { key: string; value: unknown }[] }>(await box.hippo(['config', 'list', '--json']));
    expect(list.keys.map((entry) => entry.key)).toEqual([
      'model',
      'baseUrl',
      'timeoutMs',
      'maxBytes',
      'region',
      'regions',
      'redact',
      'redactKinds',
      'db',
      'audit.cliReads',
    ]);
    expect(list.keys.find((entry) => entry.key === 'baseUrl')!.value).toBeNull();
    // What was set is what hippo uses.
    expect(String((await box.hippo(['extract', '--kinds'])).stdout)).toContain('home region: IE (config "region"); then GB US DE (config "regions")');
    expect(json(await box.hippo(['model', 'check', '--offline', '--json']))).toMatchObject({ provider: 'ollama', model: 'llama3.2', timeoutMs: 5000 });

    expect(String((await box.hippo(['config', 'unset', 'region'])).stdout)).toContain('region removed');
    expect(String((await box.hippo(['config', 'get', 'region'])).stdout).trim()).toBe('');
    expect(JSON.parse(readFileSync(configPath(), 'utf8'))).not.toHaveProperty('region');
  });

  it('refuses an unknown key with the key meant, a bad value naming the key, and an API key with where keys go; the file is unchanged', async () => {
    expect((await box.hippo(['config', 'set', 'model', 'ollama:llama3.2'])).exitCode).toBe(0);
    const before = readFileSync(configPath(), 'utf8');
    const typo = await box.hippo(['config', 'set', 'modle', 'openai:gpt-4o', '--json']);
    expect(typo.exitCode).toBe(2);
    expect(json(typo)).toMatchObject({
      error: {
        code: 'unknown_config_key',
        message: expect.stringContaining('"modle" is not a config key; did you mean "model"?'),
        details: { suggestion: 'model' },
      },
    });
    for (const [args, code, words] of [
      [['region', 'XX'], 'unknown_region', 'unknown region "XX"'],
      [['model', 'llama3.2'], 'bad_model_config', 'is not provider:model'],
      [['baseUrl', 'ftp://example.com'], 'bad_model_config', 'http:// or https://'],
      [['timeoutMs', 'soon'], 'bad_model_config', 'whole number'],
      [['maxBytes', '0'], 'bad_model_config', 'whole number between 1'],
    ] as const) {
      const result = await box.hippo(['config', 'set', ...args, '--json']);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(json(result)).toMatchObject({ error: { code, message: expect.stringContaining(words) } });
    }
    const key = await box.hippo(['config', 'set', 'apiKey', 'sk-secret-123456']);
    expect(key.exitCode).toBe(2);
    expect(String(key.stderr)).toContain('API keys are never kept in the config file: set HIPPO_API_KEY');
    expect(String(key.stderr)).not.toContain('sk-secret');
    expect(readFileSync(configPath(), 'utf8')).toBe(before);
  });

  it('a file holding an unknown key is refused by every command that reads it, naming the key meant; unset cleans it up', async () => {
    mkdirSync(join(box.dir, 'xdg-config', 'hippo'), { recursive: true });
    writeFileSync(configPath(), JSON.stringify({ modle: 'ollama:llama3.2', region: 'IE' }));
    const check = await box.hippo(['model', 'check', '--offline', '--json']);
    expect(check.exitCode).toBe(2);
    expect(json(check)).toMatchObject({ error: { code: 'unknown_config_key', message: expect.stringContaining('did you mean "model"?') } });
    const list = await box.hippo(['config', 'list']);
    expect(list.exitCode).toBe(0);
    expect(String(list.stderr)).toContain('"modle" is not a config key; did you mean "model"?');
    expect((await box.hippo(['config', 'unset', 'modle'])).exitCode).toBe(0);
    expect((await box.hippo(['model', 'check', '--offline'])).exitCode).toBe(5);
    expect(JSON.parse(readFileSync(configPath(), 'utf8'))).toEqual({ region: 'IE' });
  });

  it('a password written into "db" by hand is shown masked by config get and config list, as every command shows a store', async () => {
    mkdirSync(join(box.dir, 'xdg-config', 'hippo'), { recursive: true });
    const secret = 'S3cret-pw';
    writeFileSync(configPath(), JSON.stringify({ db: `postgres://ana:${secret}@db.example.com:5432/hippo?sslmode=require&password=${secret}` }));
    const masked = 'postgres://ana:***@db.example.com:5432/hippo?sslmode=require&password=***';
    const text = await box.hippo(['config', 'get', 'db']);
    expect(text.exitCode).toBe(0);
    expect(String(text.stdout).trim()).toBe(masked);
    const asJson = await box.hippo(['config', 'get', 'db', '--json']);
    expect(json(asJson)).toEqual({ key: 'db', value: masked, path: configPath() });
    const list = await box.hippo(['config', 'list', '--json']);
    expect(json<{ keys: { key: string; value: unknown }[] }>(list).keys.find((entry) => entry.key === 'db')!.value).toBe(masked);
    for (const result of [text, asJson, list, await box.hippo(['config', 'list'])])
      expect(`${String(result.stdout)}${String(result.stderr)}`).not.toContain(secret);
  });
});

describe('the demo store', () => {
  it('`npm run quickstart` (its commands) runs twice in a row, never creating or touching the default store', async () => {
    for (const run of [1, 2]) {
      const result = await execa('node', ['scripts/quickstart.js'], { cwd: ROOT, env: { ...box.env, HIPPO_DB: join(box.dir, 'mine.db') }, reject: false });
      expect(result.exitCode, `run ${run}: ${String(result.stderr)}`).toBe(0);
      expect(String(result.stdout)).toContain(run === 1 ? 'loaded 203 demo memories into' : 'the demo is already loaded in');
      expect(String(result.stdout)).toMatch(/mem_\w{26} .* score /);
    }
    expect(existsSync(join(box.dir, 'mine.db'))).toBe(false);
    expect(existsSync(join(dataDir(), 'hippo.db'))).toBe(false);
    expect(existsSync(join(dataDir(), 'demo.db'))).toBe(true);
  });

  it('prints how to use the demo store; the export line pasted into a shell points hippo at it', async () => {
    const demo = await box.hippo(['demo'], { env: noDb() });
    expect(demo.exitCode).toBe(0);
    const exportLine = hintLines(String(demo.stderr)).find((line) => line.startsWith('export '));
    expect(exportLine).toBe(`export HIPPO_DB=${join(dataDir(), 'demo.db')} HIPPO_AGENT=ops-agent`);
    const search = await pasted(`${exportLine} && hippo search deploy --json`, { env: noDb() });
    expect(search.exitCode, String(search.stderr)).toBe(0);
    expect(json<{ results: unknown[] }>(search).results.length).toBeGreaterThan(0);
    const oneLine = hintLines(String(demo.stderr)).find((line) => line.startsWith('hippo search') && line.includes('--agent'));
    const again = await pasted(`${oneLine} --json`, { env: noDb() });
    expect(json<{ results: unknown[] }>(again).results.length).toBeGreaterThan(0);
    // Experiments in the demo store do not make the demo fail next time.
    expect((await box.hippo(['memory', 'add', 'my own note', '--db', join(dataDir(), 'demo.db')])).exitCode).toBe(0);
    expect((await box.hippo(['demo', '--json'], { env: noDb() })).exitCode).toBe(0);
    expect(existsSync(join(dataDir(), 'hippo.db'))).toBe(false);
  });

  it('with --db or HIPPO_DB, loads there, and only into an empty store (exit 4 otherwise)', async () => {
    const loaded = json<{ status: string; path: string; demoStore: boolean }>(await box.hippo(['demo', '--json']));
    expect(loaded).toMatchObject({ status: 'loaded', path: box.db, demoStore: false });
    expect((await box.hippo(['memory', 'add', 'a note of mine', '--agent', 'me'])).exitCode).toBe(0);
    const refused = await box.hippo(['demo', '--json']);
    expect(refused.exitCode).toBe(4);
    expect(json(refused)).toMatchObject({ error: { code: 'database_not_empty' } });
    expect(existsSync(join(dataDir(), 'demo.db'))).toBe(false);
  });
});

describe('the demo refuses a store holding one note of yours', () => {
  it('says "1 memory", not "1 memories"', async () => {
    expect((await box.hippo(['memory', 'add', 'a note of mine'])).exitCode).toBe(0);
    const refused = await box.hippo(['demo']);
    expect(refused.exitCode).toBe(4);
    expect(String(refused.stderr)).toContain('the database already holds 1 memory; the demo loads only into an empty one');
  });
});

describe('hints that work when pasted', () => {
  it('`rem rapid --prompt-only` with --agent and --db names both in the ingest it prints, and that line works', async () => {
    const db = join(box.dir, 'elsewhere', 'team store.db');
    mkdirSync(join(box.dir, 'elsewhere'));
    expect((await box.hippo(['demo', '--db', db])).exitCode).toBe(0);
    const handoff = await box.hippo(['rem', 'rapid', '--prompt-only', '--agent', 'ops-agent', '--db', db, '--since', '7d']);
    expect(handoff.exitCode, String(handoff.stderr)).toBe(0);
    const line = hintLines(String(handoff.stderr)).find((text) => text.startsWith('hippo rem ingest'));
    expect(line).toMatch(/^hippo rem ingest hof_\w{26} answer\.json --agent ops-agent --db '.*team store\.db'$/);
    writeFileSync(join(box.dir, 'answer.json'), JSON.stringify({ candidates: [{ claim: 'Friday deploys fail on the migration lock.', sources: ['m1'] }] }));
    // Another shell: no HIPPO_DB, no HIPPO_AGENT; the line alone must find the handoff.
    const ingested = await pasted(line!, { env: noDb() });
    expect(ingested.exitCode, String(ingested.stderr)).toBe(0);
    expect(String(ingested.stdout)).toContain('staged 1');
    // A hint: on stderr, so stdout holds only the result.
    expect(String(ingested.stdout)).not.toContain('review:');
    const review = hintLines(String(ingested.stderr)).find((text) => text.startsWith('hippo rem candidates'));
    expect(review).toBe(`hippo rem candidates --agent ops-agent --db '${db}'`);
    const listed = await pasted(`${review} --json`, { env: noDb() });
    expect(json<{ candidates: unknown[] }>(listed).candidates).toHaveLength(1);
  });

  it('hints carry nothing when the agent and the database are the defaults', async () => {
    expect((await box.hippo(['memory', 'add', 'Deploy failed on the migration lock'], { env: noDb() })).exitCode).toBe(0);
    const handoff = await box.hippo(['rem', 'rapid', '--prompt-only'], { env: noDb() });
    expect(hintLines(String(handoff.stderr)).find((text) => text.startsWith('hippo rem ingest'))).toMatch(/^hippo rem ingest hof_\w{26} answer\.json$/);
  });
});

describe('hints that work when pasted: hostile agent ids and a shell that sets HIPPO_AGENT / HIPPO_DB', () => {
  const answer = () =>
    writeFileSync(join(box.dir, 'answer.json'), JSON.stringify({ candidates: [{ claim: 'Friday deploys fail on the migration lock.', sources: ['m1'] }] }));

  it.each(['-h', '--json', 'it\'s "odd" $HOME'])('an agent id %j is carried so the pasted ingest finds its handoff', async (agent) => {
    const db = join(box.dir, 'it\'s a "db" $x', 'h.db');
    mkdirSync(join(box.dir, 'it\'s a "db" $x'));
    const env = { HIPPO_DB: db, HIPPO_AGENT: agent };
    expect((await box.hippo(['memory', 'add', 'Deploy failed on the migration lock'], { env })).exitCode).toBe(0);
    const handoff = await box.hippo(['rem', 'rapid', '--prompt-only'], { env });
    expect(handoff.exitCode, String(handoff.stderr)).toBe(0);
    const line = String(handoff.stderr)
      .split('\n')
      .map((text) => text.trim())
      .find((text) => /hippo rem ingest/.test(text));
    answer();
    const ingested = await pasted(`${line!} --json`, { env: { HIPPO_DB: undefined, HIPPO_AGENT: undefined } });
    expect(ingested.exitCode, `${line!}\n${String(ingested.stdout)}${String(ingested.stderr)}`).toBe(0);
    expect(json<{ candidates: { agentId: string }[] }>(ingested).candidates.map((candidate) => candidate.agentId)).toEqual([agent]);
  });

  it('a hint for the default agent and the default store says so when the shell has HIPPO_AGENT and HIPPO_DB set', async () => {
    const env = { HIPPO_DB: undefined, HIPPO_AGENT: 'ops-agent' };
    const defaultDb = join(dataDir(), 'hippo.db');
    expect((await box.hippo(['memory', 'add', 'Deploy failed on the migration lock', '--agent', 'default'], { env })).exitCode).toBe(0);
    const handoff = await box.hippo(['rem', 'rapid', '--prompt-only', '--agent', 'default', '--db', defaultDb], {
      env: { ...env, HIPPO_DB: join(box.dir, 'other.db') },
    });
    const line = hintLines(String(handoff.stderr)).find((text) => text.startsWith('hippo rem ingest'));
    expect(line).toMatch(/^hippo rem ingest hof_\w{26} answer\.json --agent default --db \S+hippo\.db$/);
    answer();
    // Pasted into the same shell: HIPPO_AGENT and HIPPO_DB still point elsewhere.
    const ingested = await pasted(line!, { env: { HIPPO_DB: join(box.dir, 'other.db'), HIPPO_AGENT: 'ops-agent' } });
    expect(ingested.exitCode, String(ingested.stderr)).toBe(0);
  });
});

describe('the default agent finds nothing while others have memories', () => {
  it('memory list and search say so on stderr and in warnings, with the agents and their counts', async () => {
    expect((await box.hippo(['demo'])).exitCode).toBe(0);
    const list = await box.hippo(['memory', 'list']);
    expect(String(list.stdout).trim()).toBe('no memories');
    expect(String(list.stderr)).toContain('no memories for agent default; other agents have memories: ops-agent (122), alice (81)');
    expect(json(await box.hippo(['memory', 'list', '--json']))).toEqual({
      memories: [],
      total: 0,
      truncated: false,
      warnings: ['no memories for agent default; other agents have memories: ops-agent (122), alice (81)'],
    });
    const search = json<{ warnings: string[] }>(await box.hippo(['search', 'deploy', '--json']));
    expect(search.warnings).toEqual(['no matches for agent default; other agents have memories: ops-agent (122), alice (81)']);
    expect(json<{ warnings: string[] }>(await box.hippo(['memory', 'list', '--agent', 'alice', '--json'])).warnings).toEqual([]);
  });

  it('rem rapid --prompt-only for the default agent names the agents that have memories instead of blaming the scope', async () => {
    expect((await box.hippo(['demo'])).exitCode).toBe(0);
    const result = await box.hippo(['rem', 'rapid', '--prompt-only', '--json']);
    expect(result.exitCode).toBe(3);
    // The next step is its own field under --json (`actions`), after the message in text.
    expect(json(result)).toEqual({
      error: {
        code: 'nothing_to_distill',
        message: 'no memories in scope to distill: no memories for agent default; other agents have memories: ops-agent (122), alice (81)',
        details: expect.any(Object),
        actions: ['Give --agent.'],
      },
    });
    // An agent that has memories, only none in scope, is still told to widen the scope.
    const narrow = await box.hippo(['rem', 'rapid', '--prompt-only', '--agent', 'alice', '--since', '1m']);
    expect(String(narrow.stderr)).toBe('Error: no memories in scope to distill\nTry --since 7d or --scope all.');
    const narrowJson = json<{ error: { message: string; actions: string[] } }>(
      await box.hippo(['rem', 'rapid', '--prompt-only', '--agent', 'alice', '--since', '1m', '--json']),
    );
    expect(narrowJson.error).toMatchObject({ message: 'no memories in scope to distill', actions: ['Try --since 7d or --scope all.'] });
  });
});
