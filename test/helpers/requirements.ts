/**
 * Tests that need a program npm cannot install (tmux, for a real terminal). Where it is missing they are skipped —
 * visibly: each skipped test carries the tool's name in its task meta, and the summary reporter
 * (`test/helpers/skip-summary.ts`) prints one line per missing tool naming the files and the install command. In CI
 * (`CI` set to anything but "", "0" or "false") a missing tool fails those tests instead, so nothing is skipped
 * where it counts (`.ci/run` installs them).
 */
import { spawnSync } from 'node:child_process';
import { beforeEach, type TestContext } from 'vitest';

export interface Tool {
  name: string;
  /** How to install it, paste-ready. */
  install: string;
  /** Its version line, or undefined when it is not installed. */
  version(): string | undefined;
}

export interface MissingTool {
  name: string;
  install: string;
}

declare module 'vitest' {
  interface TaskMeta {
    /** Set on a test skipped because a program it needs is not installed (read by the skip-summary reporter). */
    missingTool?: MissingTool;
  }
}

export const TOOLS = {
  tmux: {
    name: 'tmux',
    install: 'apt-get install tmux (Debian/Ubuntu), brew install tmux (macOS)',
    version() {
      const result = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
      return result.status === 0 ? result.stdout.trim() : undefined;
    },
  },
} satisfies Record<string, Tool>;

/** Whether this run is CI's: `CI` set to anything but "", "0" or "false" (CI=true on every CI service). */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

const versions = new Map<Tool, string | undefined>();

/** The tool's version line (probed once per file), or undefined when it is not installed. */
export function toolVersion(tool: Tool): string | undefined {
  if (!versions.has(tool)) versions.set(tool, tool.version());
  return versions.get(tool);
}

/**
 * Inside a test (or a beforeEach): returns when `tool` is installed; otherwise skips this test with the tool named
 * (outside CI) or fails it (in CI).
 */
export function requireTool(context: TestContext, tool: Tool): void {
  if (toolVersion(tool) !== undefined) return;
  if (inCi()) throw new Error(`${tool.name} is not installed, and CI runs every test: install it (${tool.install})`);
  context.task.meta.missingTool = { name: tool.name, install: tool.install };
  context.skip(`${tool.name} is not installed (${tool.install})`);
}

/** For every test of the enclosing describe (or file): `requireTool` before each. Returns the version line, if any. */
export function needsTool(tool: Tool): string | undefined {
  beforeEach((context) => requireTool(context, tool));
  return toolVersion(tool);
}
