#!/usr/bin/env -S node --import=tsx
// Runs the CLI from the TypeScript sources, without a build: tsx (the `--import=tsx` above; written with `=` because
// tsx's module lexer reads `--import tsx` in a shebang as an import statement and fails to parse this file) compiles
// the .ts files as they load, and oclif reads the command list and hooks from src/ instead of dist/ (package.json's
// targets with dist/…js turned into src/…ts; oclif's own dist-to-src lookup is off: it expects tsconfig's rootDir
// to be src/).
import { readFileSync } from 'node:fs';

if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '' && process.env.FORCE_COLOR === undefined) {
  process.env.FORCE_COLOR = '0';
}

const { execute, settings } = await import('@oclif/core');
settings.enableAutoTranspile = false;
const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const toSource = (entry) => ({ ...entry, target: entry.target.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts') });
pjson.oclif.commands = toSource(pjson.oclif.commands);
for (const [name, hook] of Object.entries(pjson.oclif.hooks)) pjson.oclif.hooks[name] = toSource(hook);
await execute({ development: true, dir: import.meta.url, loadOptions: { root: new URL('..', import.meta.url).pathname, pjson } });
