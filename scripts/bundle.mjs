// `npm run build`, after tsc: bundles the CLI's entry (src/entry/main.ts: oclif and the init hook) into dist/entry/main.js
// and the commands (src/entry/commands.ts: every command and the command_not_found hook) into dist/entry/commands.js, over
// tsc's output of those files, so a start reads one file instead of a few hundred; and, on its own, `hippo --version`'s
// answer (src/entry/version-line.ts) into dist/entry/version.js, which bin/run.js loads instead of oclif. Code a command
// imports lazily (`await import(…)`) becomes its own chunk in dist/chunks/, loaded only when that path runs. Heavy
// or native libraries stay outside and load from node_modules where they are imported: the startup test
// (test/commands/startup.test.ts) watches exactly those. The library surface (dist/index.js) is tsc's, unbundled.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const external = [
  'better-sqlite3',
  'ink',
  'react',
  'react/*',
  'react-reconciler',
  'yoga-layout',
  'ai',
  '@ai-sdk/*',
  'ollama-ai-provider-v2',
  '@modelcontextprotocol/*',
  'pg',
  'pg-copy-streams',
  'pgpass',
  'zod',
  // CommonJS loaded with import() on a terminal only: left to Node, whose import gives its named exports.
  'cli-progress',
  // oclif requires these only to run TypeScript sources in development.
  'typescript',
  'ts-node',
  'tsx',
];

rmSync(new URL('dist/chunks', root), { recursive: true, force: true });
const result = await build({
  absWorkingDir: new URL('.', root).pathname,
  entryPoints: { 'entry/main': 'src/entry/main.ts', 'entry/commands': 'src/entry/commands.ts' },
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  logLevel: 'warning',
  metafile: process.env.HIPPO_BUNDLE_META === '1',
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  // oclif is CommonJS: give its require() calls of Node built-ins and of the externals a real require.
  banner: { js: "import { createRequire as __hippoCreateRequire } from 'node:module';\nconst require = __hippoCreateRequire(import.meta.url);" },
});
// `hippo --version`'s answer on its own, one self-contained file (no shared chunks to load): is-wsl and the line.
await build({
  absWorkingDir: new URL('.', root).pathname,
  entryPoints: { 'entry/version': 'src/entry/version-line.ts' },
  outdir: 'dist',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
});
if (result.metafile) {
  // HIPPO_BUNDLE_META=1: what each output holds, by package (to see what a start pays for).
  for (const [output, { inputs }] of Object.entries(result.metafile.outputs)) {
    const byPackage = {};
    for (const [file, { bytesInOutput }] of Object.entries(inputs)) {
      const name = file.match(/node_modules\/((@[^/]+\/)?[^/]+)/)?.[1] ?? 'hippo';
      byPackage[name] = (byPackage[name] ?? 0) + bytesInOutput;
    }
    const top = Object.entries(byPackage)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12);
    process.stdout.write(`${output} ${top.map(([name, bytes]) => `${name} ${Math.round(bytes / 1024)}k`).join(', ')}\n`);
  }
}
