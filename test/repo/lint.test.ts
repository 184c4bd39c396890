import { ESLint } from 'eslint';
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/**
 * `npm run lint` is the guard rail for the layering (docs/design.md §9, docs/store.md) and for formatting: it must
 * fail on a core → cli import, a driver outside its adapter, an unawaited store call, and unformatted code. The
 * probes are linted as text under a path inside src/ with the repository's own config (eslint.config.js, as `eslint .`
 * loads it; one instance, so the type-aware rules load the TypeScript project once), and no file is written into the
 * tree.
 */
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
const linter = new ESLint({ cwd: ROOT });

async function eslint(path: string, code: string): Promise<{ exitCode: number; stdout: string }> {
  const results = await linter.lintText(code, { filePath: join(ROOT, path) });
  const errors = results.flatMap((result) => result.messages.filter((message) => message.severity === 2));
  return { exitCode: errors.length > 0 ? 1 : 0, stdout: errors.map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`).join('\n') };
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
    ['src/cli from src/core', 'src/core/probe.ts', "import { cliMessage } from '../cli/error-words.js';\n\nexport const words = cliMessage;\n"],
    ['src/views from src/core/rem', 'src/core/rem/probe.ts', "import { printable } from '../../views/output.js';\n\nexport const text = printable;\n"],
    ['src/entry from src/core', 'src/core/probe.ts', "export { COMMANDS } from '../entry/commands.js';\n"],
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
    [
      'src/views, through core and back out',
      'src/core/probe.ts',
      "import { printable } from '../core/../views/output.js';\n\nexport const text = printable;\n",
    ],
    ['src/cli, spelled ./../', 'src/core/nightly/probe.ts', "import { cliMessage } from './../../cli/error-words.js';\n\nexport const words = cliMessage;\n"],
    ['src/commands, re-exported', 'src/core/probe.ts', "export { default } from '../commands/search.js';\n"],
    ['src/ui, as a type', 'src/core/rem/probe.ts', "export type Screen = typeof import('../../ui/review/run.js');\n"],
    ['src/views, in a template literal', 'src/core/probe.ts', 'export const load = () => import(`../views/output.js`);\n'],
  ])('fails when core imports %s (any spelling of the path)', async (_what, path, code) => {
    const result = await eslint(path, code);
    expect(result.exitCode).toBe(1);
    expect(String(result.stdout)).toMatch(/src\/core must not depend on the CLI or the terminal UI/);
  });

  it('passes a facts module importing facts and the shared core leaves (errors, the text guard)', async () => {
    const code =
      "import { UsageError } from '../../errors.js';\nimport { MARKER } from '../../text-guard.js';\nimport { KINDS } from '../kinds.js';\n\nexport const all = [UsageError, MARKER, KINDS];\n";
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

  it.each([
    [
      'better-sqlite3 outside the SQLite adapter',
      'src/core/search.ts',
      "import Database from 'better-sqlite3';\n\nexport const open = Database;\n",
      /better-sqlite3 belongs to the SQLite adapter/,
    ],
    ['pg outside the PostgreSQL adapter', 'src/core/nightly/probe.ts', "export const load = () => import('pg');\n", /pg belongs to the PostgreSQL adapter/],
    [
      'pg in the SQLite adapter',
      'src/core/store/sqlite/probe.ts',
      "import pg from 'pg';\n\nexport const driver = pg;\n",
      /pg belongs to the PostgreSQL adapter/,
    ],
    [
      'better-sqlite3 in the PostgreSQL adapter',
      'src/core/store/postgres/probe.ts',
      "import Database from 'better-sqlite3';\n\nexport const driver = Database;\n",
      /better-sqlite3 belongs to the SQLite adapter/,
    ],
    [
      'an adapter from the core',
      'src/core/rem/probe.ts',
      "import { openSqliteStore } from '../store/sqlite/adapter.js';\n\nexport const open = openSqliteStore;\n",
      /open a store with openStore/,
    ],
    [
      'an adapter from a command',
      'src/commands/probe.ts',
      "export const open = () => import('../core/store/postgres/connect.js');\n",
      /open a store with openStore/,
    ],
  ])('fails when %s is imported', async (_what, path, code, message) => {
    const result = await eslint(path, code);
    expect(result.exitCode).toBe(1);
    expect(String(result.stdout)).toMatch(message);
  });

  it('lets each adapter import its own driver, and openStore import the adapters (so the failures above are the rule)', async () => {
    for (const [path, code] of [
      ['src/core/store/sqlite/probe.ts', "import Database from 'better-sqlite3';\n\nexport const driver = Database;\n"],
      ['src/core/store/postgres/probe.ts', "import type { Pool } from 'pg';\n\nexport type Driver = Pool;\n"],
      ['src/core/store/probe.ts', "export const open = () => import('./sqlite/adapter.js');\n"],
    ]) {
      const result = await eslint(path!, code!);
      expect(result.exitCode, String(result.stdout)).toBe(0);
    }
  });

  it.each([
    [
      'the MCP SDK in core',
      'src/core/probe.ts',
      "import { Server } from '@modelcontextprotocol/sdk/server/index.js';\n\nexport const server = Server;\n",
      /the MCP SDK belongs to the MCP server/,
    ],
    [
      'the MCP SDK in a command',
      'src/commands/probe.ts',
      "export const sdk = () => import('@modelcontextprotocol/sdk/types.js');\n",
      /the MCP SDK belongs to the MCP server/,
    ],
    [
      'the MCP SDK in the CLI views',
      'src/cli/probe.ts',
      "import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';\n\nexport type T = Transport;\n",
      /the MCP SDK belongs to the MCP server/,
    ],
    ['src/mcp from core', 'src/core/probe.ts', "export const serve = () => import('../mcp/index.js');\n", /nor on the MCP server/],
    ['oclif from src/mcp', 'src/mcp/probe.ts', "import { Command } from '@oclif/core';\n\nexport const base = Command;\n", /src\/mcp is a front end/],
    ['a command from src/mcp', 'src/mcp/probe.ts', "export { default } from '../commands/search.js';\n", /src\/mcp is a front end/],
    [
      'src/cli from src/mcp',
      'src/mcp/probe.ts',
      "import { lazyModel } from '../cli/model.js';\n\nexport const model = lazyModel;\n",
      /src\/mcp is a front end/,
    ],
  ])('fails when %s is imported', async (_what, path, code, message) => {
    const result = await eslint(path, code);
    expect(result.exitCode).toBe(1);
    expect(String(result.stdout)).toMatch(message);
  });

  it.each([
    [
      'src/cli from a view',
      'src/views/probe.ts',
      "import { cliMessage } from '../cli/error-words.js';\n\nexport const words = cliMessage;\n",
      /src\/views serves the CLI/,
    ],
    ['src/mcp from a view', 'src/views/probe.ts', "export const tools = () => import('../mcp/tools.js');\n", /src\/views serves the CLI/],
    ['src/ui from a view, as a type', 'src/views/probe.ts', "export type Screen = typeof import('../ui/review/run.js');\n", /src\/views serves the CLI/],
    ['a command from a view', 'src/views/probe.ts', "export { default } from '../commands/search.js';\n", /src\/views serves the CLI/],
    ['src/entry from a view', 'src/views/probe.ts', "export { COMMANDS } from '../entry/commands.js';\n", /src\/views serves the CLI/],
    ['ink from a view', 'src/views/probe.ts', "import { Text } from 'ink';\n\nexport const text = Text;\n", /src\/views serves the CLI/],
    ['oclif from a view', 'src/views/probe.ts', "import { Command } from '@oclif/core';\n\nexport const base = Command;\n", /src\/views serves the CLI/],
    ['src/entry from src/cli', 'src/cli/probe.ts', "export { COMMANDS } from '../entry/commands.js';\n", /src\/cli is the command line toolkit/],
    ['a command from src/cli', 'src/cli/probe.ts', "export { default } from '../commands/search.js';\n", /src\/cli is the command line toolkit/],
    ['src/mcp from src/cli', 'src/cli/probe.ts', "export const serve = () => import('../mcp/index.js');\n", /src\/cli is the command line toolkit/],
    ['src/ui from src/cli', 'src/cli/probe.ts', "export const screen = () => import('../ui/review/run.js');\n", /src\/cli is the command line toolkit/],
    ['src/entry from src/mcp', 'src/mcp/probe.ts', "export { COMMANDS } from '../entry/commands.js';\n", /src\/mcp is a front end/],
    [
      'src/cli from src/ui',
      'src/ui/probe.ts',
      "import { cliMessage } from '../cli/error-words.js';\n\nexport const words = cliMessage;\n",
      /src\/ui is the review screen/,
    ],
    ['a command from src/ui', 'src/ui/probe.ts', "export { default } from '../commands/search.js';\n", /src\/ui is the review screen/],
    ['src/entry from src/ui', 'src/ui/probe.ts', "export const entry = () => import('../entry/main.js');\n", /src\/ui is the review screen/],
    ['oclif from src/ui', 'src/ui/probe.ts', "import { Command } from '@oclif/core';\n\nexport const base = Command;\n", /src\/ui is the review screen/],
    ['src/entry from a command', 'src/commands/probe.ts', "export { COMMANDS } from '../entry/commands.js';\n", /src\/entry is the top floor/],
  ])('fails when %s is imported (views below the faces, the entry on top)', async (_what, path, code, message) => {
    const result = await eslint(path, code);
    expect(result.exitCode).toBe(1);
    expect(String(result.stdout)).toMatch(message);
  });

  it('lets each floor import the floors below it (so the failures above are the rule)', async () => {
    for (const [path, code] of [
      [
        'src/views/probe.ts',
        "import { safeText } from '../core/text-guard.js';\nimport { table } from './output.js';\n\nexport const all = [safeText, table];\n",
      ],
      [
        'src/cli/probe.ts',
        "import { hintBuilder } from '../views/hints.js';\nimport { ExitCode } from '../core/errors.js';\n\nexport const all = [hintBuilder, ExitCode];\n",
      ],
      ['src/ui/probe.ts', "import { formatTime } from '../views/output.js';\n\nexport const date = formatTime;\n"],
      [
        'src/commands/probe.ts',
        "import { HippoCommand } from '../cli/base-command.js';\nimport { searchView } from '../views/render-search.js';\n\nexport const all = [HippoCommand, searchView];\n",
      ],
      [
        'src/entry/probe.ts',
        "import Search from '../commands/search.js';\nimport { wantsJson } from '../cli/base-command.js';\nimport { jsonGuard } from './main.js';\n\nexport const all = [Search, wantsJson, jsonGuard];\n",
      ],
    ]) {
      const result = await eslint(path!, code!);
      expect(result.exitCode, `${path}: ${String(result.stdout)}`).toBe(0);
    }
  });

  it('lets src/mcp import the MCP SDK, core and the views (so the failures above are the rule)', async () => {
    const code =
      "import { Server } from '@modelcontextprotocol/sdk/server/index.js';\nimport { memoryListView } from '../views/render-memory.js';\nimport { search } from '../core/search.js';\n\nexport const all = [Server, memoryListView, search];\n";
    const result = await eslint('src/mcp/probe.ts', code);
    expect(result.exitCode, String(result.stdout)).toBe(0);
  });

  describe('import cycles between files of src/ (issue 24)', () => {
    // The probe stands in for src/core/ids.ts, which src/core/memory/memory.ts imports: an import of memory.ts from
    // it closes a loop through the files on disk.
    const probe = 'src/core/ids.ts';
    it('the loop the probes close is there (memory.ts imports ids.ts), so the failures below are the rule', () => {
      expect(readFileSync(join(ROOT, 'src/core/memory/memory.ts'), 'utf8')).toMatch(/from '\.\.\/ids\.js'/);
    });

    it.each([
      ['a static import', "import { addMemory } from './memory/memory.js';\n\nexport const add = addMemory;\n"],
      ['a re-export', "export { addMemory } from './memory/memory.js';\n"],
      ['a dynamic import', "export const load = () => import('./memory/memory.js');\n"],
    ])('fails on %s closing a cycle', async (_what, code) => {
      const result = await eslint(probe, code);
      expect(result.exitCode).toBe(1);
      expect(String(result.stdout)).toMatch(/import-x\/no-cycle: Dependency cycle/);
    });

    it('lets a type-only import close the loop: it is erased before the code runs', async () => {
      const code = "import type { Memory } from './memory/memory.js';\n\nexport type Stored = Memory;\n";
      const result = await eslint(probe, code);
      expect(result.exitCode, String(result.stdout)).toBe(0);
    });
  });

  it('fails on a store call left unawaited (type-aware rules)', async () => {
    const code = "import type { Store } from './store/port.js';\n\nexport function forget(store: Store): void {\n  store.close();\n}\n";
    const result = await eslint('src/core/probe.ts', code);
    expect(result.exitCode).toBe(1);
    expect(String(result.stdout)).toMatch(/no-floating-promises/);
  });

  it('fails on unformatted code', async () => {
    const result = await prettierCheck('src/core/probe.ts', "import {parseSince} from './time.js'\nexport const since=parseSince\n");
    expect(result.exitCode).toBe(1);
  });
});
