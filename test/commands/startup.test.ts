import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMemory } from '../../src/core/memory/memory.js';
import { openStore } from '../../src/core/store/store.js';
import { BIN, ROOT, sandbox, type Sandbox } from '../helpers/cli.js';

const RECORDER = join(ROOT, 'test', 'fixtures', 'record-imports.mjs');
let box: Sandbox;

beforeEach(async () => {
  box = sandbox();
  // A store that exists, as a user has it: commands that only read refuse a missing one (exit 3) and create nothing.
  await (await openStore({ path: box.db })).close();
});
afterEach(() => box.cleanup());

/** The module URLs a run of the built CLI loaded. */
async function modulesLoadedBy(args: string[]): Promise<string[]> {
  const file = join(box.dir, `imports-${args.join('-').replace(/[^a-z-]/gi, '')}.txt`);
  const result = await execa('node', ['--import', RECORDER, BIN, ...args], { reject: false, input: '', env: { ...box.env, HIPPO_RECORD_IMPORTS: file } });
  expect(result.exitCode, String(result.stderr)).toBe(0);
  return readFileSync(file, 'utf8').trim().split('\n');
}

const heavy = (urls: string[]) => urls.filter((url) => /\/node_modules\/(ink|react|react-reconciler|yoga-layout)\//.test(url) || /\/dist\/ui\//.test(url));

/** The MCP SDK and what it pulls in (express, hono, ajv, …), and hippo's own server modules. */
const mcpModules = (urls: string[]) =>
  urls.filter((url) => /\/node_modules\/(@modelcontextprotocol|express|hono|@hono|ajv|eventsource|jose)\//.test(url) || /\/dist\/mcp\//.test(url));

describe('startup cost (docs/design.md §11): ink and React load only for the review screen', () => {
  it('the recorder sees ink when it is loaded (so the checks below can fail)', async () => {
    const file = join(box.dir, 'control.txt');
    await execa('node', ['--import', RECORDER, '--input-type=module', '-e', "await import('ink')"], { cwd: ROOT, env: { HIPPO_RECORD_IMPORTS: file } });
    expect(heavy(readFileSync(file, 'utf8').trim().split('\n')).length).toBeGreaterThan(0);
  });

  it('`hippo --version` answers without loading oclif or the commands: a handful of small files', async () => {
    const urls = (await modulesLoadedBy(['--version'])).filter((url) => url.startsWith('file:'));
    expect(urls.some((url) => url.endsWith('/dist/entry/version.js'))).toBe(true);
    expect(urls.filter((url) => /\/dist\/cli\/(main|commands)\.js$/.test(url) || url.includes('/node_modules/'))).toEqual([]);
    // No chunk holding oclif's code (its CommonJS wrappers keep the package path).
    expect(urls.filter((url) => url.includes('/dist/chunks/') && readFileSync(new URL(url), 'utf8').includes('node_modules/@oclif/core/'))).toEqual([]);
    // bin/run.js and the version entry (is-wsl bundled into it).
    expect(new Set(urls).size).toBe(2);
  });

  it('`hippo --version` prints byte for byte what oclif prints for the same build, and oclif still answers otherwise', async () => {
    // oclif's own answer: its execute() from the built entry, given `--version` as the whole command line.
    const script = `const { execute } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'entry', 'main.js')).href)});
await execute({ dir: ${JSON.stringify(pathToFileURL(BIN).href)}, args: ['--version'] });`;
    const oclif = await execa('node', ['--input-type=module', '-e', script], { env: box.env, stripFinalNewline: false });
    expect(oclif.stdout).toMatch(/^hippo\/\d+\.\d+\.\d+\S* \S+-\S+ node-v\d+/);
    const fast = await execa('node', [BIN, '--version'], { env: box.env, stripFinalNewline: false });
    expect(fast.stdout).toBe(oclif.stdout);
    expect(fast.stderr).toBe(oclif.stderr);
    // Anything more on the line, or DEBUG set, goes through oclif: the same line (oclif reads only the first word).
    const more = await execa('node', [BIN, '--version', '--json'], { env: box.env, stripFinalNewline: false });
    expect(more.stdout).toBe(oclif.stdout);
    const debug = await execa('node', [BIN, '--version'], { env: { ...box.env, DEBUG: 'hippo:nothing' }, stripFinalNewline: false });
    expect(debug.stdout).toBe(oclif.stdout);
  });

  it('`hippo search` loads neither ink nor React nor the review screen', async () => {
    const urls = await modulesLoadedBy(['search', 'deploy']);
    expect(urls.some((url) => url.includes('/dist/entry/commands.js'))).toBe(true);
    expect(heavy(urls)).toEqual([]);
  });

  it('string-width loads when a width is measured (a table), never for `search --json`', async () => {
    // Loaded with require() at the first measure (src/views/width.ts), which the import recorder does not see: Node's
    // module debug log names every require.
    const store = await openStore({ path: box.db });
    await addMemory(store, { agentId: 'default', content: 'Deploys on Tuesdays, after the stand-up.' });
    await store.close();
    const requires = async (args: string[]) => {
      const result = await execa('node', [BIN, ...args], { reject: false, input: '', env: { ...box.env, NODE_DEBUG: 'module' } });
      expect(result.exitCode, String(result.stderr).slice(-500)).toBe(0);
      return String(result.stderr).includes('/node_modules/string-width/');
    };
    expect(await requires(['memory', 'list'])).toBe(true);
    expect(await requires(['search', 'deploys', '--json'])).toBe(false);
  });

  it('`hippo rem candidates` off a terminal prints its list without loading them either', async () => {
    const urls = await modulesLoadedBy(['rem', 'candidates']);
    expect(urls.some((url) => url.includes('/dist/entry/commands.js'))).toBe(true);
    expect(heavy(urls)).toEqual([]);
  });
  it('`hippo search` loads the recognisers and the model layer only when the query names a kind of fact', async () => {
    const factModules = (urls: string[]) =>
      urls.filter((url) => /\/dist\/chunks\/(extract|client|facts)-/.test(url) || /\/node_modules\/(zod|ai|libphonenumber-js|chrono-node)\//.test(url));
    const store = await openStore({ path: box.db });
    await addMemory(store, { agentId: 'default', content: 'Dublin office: +353 1 234 5678. Deploys on Tuesdays.' });
    await store.close();
    expect(factModules(await modulesLoadedBy(['search', 'deploy']))).toEqual([]);
    expect(factModules(await modulesLoadedBy(['search', 'phone of the Dublin office'])).length).toBeGreaterThan(0);
  });

  it('no command reaches the recognisers at load: a plain search reads no bundled chunk holding them', async () => {
    // The recognisers' libraries are bundled into hashed chunks; their CommonJS wrappers keep the package path.
    const recognisers = (urls: string[]) =>
      urls.filter(
        (url) =>
          url.startsWith('file:') && url.includes('/dist/') && /node_modules\/(tldts|postcode-validator|ipaddr\.js)\//.test(readFileSync(new URL(url), 'utf8')),
      );
    const store = await openStore({ path: box.db });
    await addMemory(store, { agentId: 'default', content: 'Dublin office: +353 1 234 5678. Deploys on Tuesdays.' });
    await store.close();
    expect(recognisers(await modulesLoadedBy(['search', 'deploy']))).toEqual([]);
    expect(recognisers(await modulesLoadedBy(['search', 'phone of the Dublin office'])).length).toBeGreaterThan(0);
  });

  it('only `hippo mcp` loads the MCP SDK: search, the candidates list, token commands and help do not', async () => {
    const served = await modulesLoadedBy(['mcp', '--agent', 'me']);
    expect(mcpModules(served).some((url) => url.includes('/node_modules/@modelcontextprotocol/sdk/'))).toBe(true);
    for (const args of [
      ['search', 'deploy'],
      ['rem', 'candidates'],
      ['mcp', 'token', 'list'],
      ['memory', 'list'],
      ['mcp', '--help'],
    ]) {
      expect(mcpModules(await modulesLoadedBy(args)), args.join(' ')).toEqual([]);
    }
  });
});
