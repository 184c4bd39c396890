import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/**
 * `npm run lint` is the guard rail for the layering (docs/design.md §9) and for formatting: it must fail on a core →
 * cli import and on unformatted code. The probes are linted from stdin under a path inside src/, so the repository's own
 * config applies and no file is written into the tree.
 */
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

async function eslint(path: string, code: string) {
  return execa(bin('eslint'), ['--stdin', '--stdin-filename', path], { cwd: ROOT, input: code, reject: false });
}

async function prettierCheck(path: string, code: string) {
  return execa(bin('prettier'), ['--check', '--stdin-filepath', path], { cwd: ROOT, input: code, reject: false });
}

describe('npm run lint', () => {
  it('runs eslint and prettier --check over the whole tree', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.lint).toBe('eslint . && prettier --check .');
  });

  it('passes a well-formed core module that imports only core (so the failures below are the rule, not the probe)', async () => {
    const code = "import { parseSince } from './time.js';\n\nexport const since = parseSince;\n";
    expect((await eslint('src/core/probe.ts', code)).exitCode).toBe(0);
    expect((await prettierCheck('src/core/probe.ts', code)).exitCode).toBe(0);
  });

  it.each([
    ['src/cli from src/core', 'src/core/probe.ts', "import { printable } from '../cli/output.js';\n\nexport const text = printable;\n"],
    ['src/cli from src/core/rem', 'src/core/rem/probe.ts', "import { printable } from '../../cli/output.js';\n\nexport const text = printable;\n"],
    ['src/ui, dynamically', 'src/core/probe.ts', "export const screen = () => import('../ui/review/run.js');\n"],
    ['@oclif/core', 'src/core/probe.ts', "import { Command } from '@oclif/core';\n\nexport const base = Command;\n"],
    ['ink', 'src/core/nightly/probe.ts', "import { render } from 'ink';\n\nexport const draw = render;\n"],
    ['react, dynamically', 'src/core/probe.ts', "export const ui = () => import('react');\n"],
  ])('fails when core imports %s', async (_what, path, code) => {
    const result = await eslint(path, code);
    expect(result.exitCode).toBe(1);
    expect(String(result.stdout)).toMatch(/src\/core must not depend on the CLI or the terminal UI/);
  });

  it.each([
    ['src/cli, through core and back out', 'src/core/probe.ts', "import { printable } from '../core/../cli/output.js';\n\nexport const text = printable;\n"],
    ['src/cli, spelled ./../', 'src/core/nightly/probe.ts', "import { printable } from './../../cli/output.js';\n\nexport const text = printable;\n"],
    ['src/commands, re-exported', 'src/core/probe.ts', "export { default } from '../commands/search.js';\n"],
    ['src/ui, as a type', 'src/core/rem/probe.ts', "export type Screen = typeof import('../../ui/review/run.js');\n"],
    ['src/cli, in a template literal', 'src/core/probe.ts', 'export const load = () => import(`../cli/output.js`);\n'],
  ])('fails when core imports %s (any spelling of the path)', async (_what, path, code) => {
    const result = await eslint(path, code);
    expect(result.exitCode).toBe(1);
    expect(String(result.stdout)).toMatch(/src\/core must not depend on the CLI or the terminal UI/);
  });

  it('passes a facts module importing facts and the shared core leaves (errors, text)', async () => {
    const code =
      "import { UsageError } from '../../errors.js';\nimport { MARKER } from '../../text.js';\nimport { KINDS } from '../kinds.js';\n\nexport const all = [UsageError, MARKER, KINDS];\n";
    expect((await eslint('src/core/facts/recognisers/probe.ts', code)).exitCode).toBe(0);
  });

  it.each([
    ['the store', 'src/core/facts/probe.ts', "import { openStore } from '../store/store.js';\n\nexport const open = openStore;\n"],
    [
      'the model client',
      'src/core/facts/recognisers/probe.ts',
      "import { createModelClient } from '../../model/client.js';\n\nexport const client = createModelClient;\n",
    ],
    ['the store, through src/core', 'src/core/facts/probe.ts', "import { openStore } from '../../core/store/store.js';\n\nexport const open = openStore;\n"],
    ['the store, spelled ./../', 'src/core/facts/probe.ts', "import { openStore } from './../store/store.js';\n\nexport const open = openStore;\n"],
    [
      'the model, through facts and back out',
      'src/core/facts/probe.ts',
      "import { createModelClient } from '../facts/../model/client.js';\n\nexport const client = createModelClient;\n",
    ],
    ['the model, from above src', 'src/core/facts/recognisers/probe.ts', "export { createModelClient } from '../../../../src/core/model/client.js';\n"],
    ['the store port, as a type', 'src/core/facts/probe.ts', "import type { Engine } from '../../core/store/port.js';\n\nexport type Kind = Engine;\n"],
    ['the model, dynamically', 'src/core/facts/probe.ts', "export const model = () => import('../../core/model/client.js');\n"],
    ['the postgres store, as a directory', 'src/core/facts/probe.ts', "export * from '../store/postgres';\n"],
  ])('fails when core/facts imports %s', async (_what, path, code) => {
    const result = await eslint(path, code);
    expect(result.exitCode).toBe(1);
    expect(String(result.stdout)).toMatch(/src\/core\/facts is pure/);
  });

  it('fails on an integer flag without a stated range (Flags.integer) in a command', async () => {
    const code = "import { Flags } from '@oclif/core';\n\nexport const limit = Flags.integer({ min: 1 });\n";
    const result = await eslint('src/commands/probe.ts', code);
    expect(result.exitCode).toBe(1);
    expect(String(result.stdout)).toMatch(/Use intFlag\(\{min, max, …\}\) from src\/cli\/int-flag\.ts/);
    const ranged = "import { intFlag } from '../cli/int-flag.js';\n\nexport const limit = intFlag({ min: 1, max: 10 });\n";
    expect((await eslint('src/commands/probe.ts', ranged)).exitCode).toBe(0);
  });

  it.each([
    ['src/core/facts', 'src/core/facts/probe.ts', "import { search } from '../../index.js';\n\nexport const find = search;\n"],
    ['src/core/facts/recognisers, as src', 'src/core/facts/recognisers/probe.ts', "export * from '../../../';\n"],
    ['src/core', 'src/core/probe.ts', "import { search } from '../index.js';\n\nexport const find = search;\n"],
  ])('fails when %s imports the library index', async (_what, path, code) => {
    const result = await eslint(path, code);
    expect(result.exitCode).toBe(1);
    expect(String(result.stdout)).toMatch(/src\/core must not import the library surface/);
  });

  it('fails on unformatted code', async () => {
    const result = await prettierCheck('src/core/probe.ts', "import {parseSince} from './time.js'\nexport const since=parseSince\n");
    expect(result.exitCode).toBe(1);
  });
});
