// `hippo --version` without oclif (docs/decisions.md, "`--version` without oclif"): bin/run.js imports this module,
// bundled on its own as dist/entry/version.js (scripts/bundle.mjs), when `--version` is the whole command line. It
// prints exactly the line oclif prints for `--version` — its Config's `userAgent` — which
// test/commands/startup.test.ts compares with oclif's own answer for the same build.
import isWsl from 'is-wsl';
import { readFileSync } from 'node:fs';
import { arch } from 'node:os';

/**
 * `<name>/<version> <platform>-<arch> node-<node version>`, as oclif's Config builds it: the name and version from
 * the package.json at `root`, the platform `wsl` under WSL (oclif asks is-wsl, through wsl-utils) or else Node's, and
 * the architecture `x86` for ia32.
 */
export function versionLine(root: URL): string {
  const pjson = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { name: string; version?: string };
  const platform = isWsl ? 'wsl' : process.platform;
  const cpu = arch() === 'ia32' ? 'x86' : arch();
  return `${pjson.name}/${pjson.version || '0.0.0'} ${platform}-${cpu} node-${process.version}`;
}
