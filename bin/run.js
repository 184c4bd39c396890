#!/usr/bin/env node
// ink and its colour library read FORCE_COLOR when first loaded; NO_COLOR alone is not enough for them
// (docs/design.md §3). A FORCE_COLOR the user set is left as it is: it wins over NO_COLOR, as in Node.
if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '' && process.env.FORCE_COLOR === undefined) {
  process.env.FORCE_COLOR = '0';
}

// oclif checks its own engines range with semver on every start; npm already checks ours at install. Skip it.
process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1';

// The built CLI runs the built JavaScript: oclif never looks for TypeScript sources of a command or hook to transpile,
// which under NODE_ENV=test or development would load tsx on every start. bin/dev.js runs the sources.
globalThis.oclif = { ...globalThis.oclif, enableAutoTranspile: false };

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version' && !process.env.DEBUG) {
  // `hippo --version` alone: the line oclif would print, without loading oclif (docs/decisions.md, "`--version`
  // without oclif"). With DEBUG set oclif answers, so its debug output stays.
  const { versionLine } = await import('../dist/entry/version.js');
  process.stdout.write(`${versionLine(new URL('..', import.meta.url))}\n`);
} else {
  // oclif as one bundled file (`npm run build`, scripts/bundle.mjs); the commands are a second bundle that oclif loads
  // only to run one (package.json's oclif config), so --help never reads them.
  const { execute } = await import('../dist/entry/main.js');
  await execute({ dir: import.meta.url });
}
