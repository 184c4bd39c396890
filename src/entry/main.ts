// The CLI's production entry (bin/run.js imports it): oclif itself. `npm run build` bundles this file with esbuild
// into dist/entry/main.js (over tsc's output of it; scripts/bundle.mjs), so a start reads one file instead of the
// hundred-odd modules of oclif and its dependencies. The commands are a second bundle, dist/entry/commands.js, which
// oclif loads only to run one (docs/decisions.md, "One bundled entry").
export { execute } from '@oclif/core/execute';
// The init hook runs on every start, --version included, so it lives here rather than in the commands' bundle
// (package.json's oclif.hooks.init); it is small and imports nothing heavy.
export { default as jsonGuard } from './json-guard.js';
