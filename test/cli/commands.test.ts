import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/entry/commands.js';
import { ROOT } from '../helpers/cli.js';

/** The oclif id of every file under src/commands (`rem/runs/index.ts` is `rem:runs`), as the pattern strategy names them. */
function commandFiles(dir = join(ROOT, 'src', 'commands')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return commandFiles(path);
    return [
      relative(join(ROOT, 'src', 'commands'), path)
        .replace(/\.ts$/, '')
        .replace(/\/index$/, '')
        .split('/')
        .join(':'),
    ];
  });
}

describe('the command list oclif loads (src/entry/commands.ts, docs/decisions.md "One bundled entry")', () => {
  it('names every file in src/commands under its id, and nothing else', () => {
    expect(Object.keys(COMMANDS).sort()).toEqual(commandFiles().sort());
  });

  it('is what package.json tells oclif to load, and the manifest lists the same commands', () => {
    const { oclif } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      oclif: { commands: { strategy: string; target: string; identifier: string }; hooks: Record<string, { target: string; identifier: string }> };
    };
    expect(oclif.commands).toEqual({ strategy: 'explicit', target: './dist/entry/commands.js', identifier: 'COMMANDS' });
    expect(oclif.hooks.command_not_found).toEqual({ target: './dist/entry/commands.js', identifier: 'commandNotFound' });
    // The init hook runs on every start (--version too), so it is in oclif's own bundle, never the commands'.
    expect(oclif.hooks.init).toEqual({ target: './dist/entry/main.js', identifier: 'jsonGuard' });
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, unknown> };
    expect(Object.keys(manifest.commands).sort()).toEqual(Object.keys(COMMANDS).sort());
  });
});
