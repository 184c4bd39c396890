import { execa, type Options, type Result } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'run.js');

export interface Sandbox {
  dir: string;
  db: string;
  env: Record<string, string>;
  /** Runs the real built CLI (`bin/run.js`) with this sandbox's database and an isolated home. */
  hippo(args: string[], options?: Options): Promise<Result>;
  cleanup(): void;
}

/** A temp dir with its own HOME/XDG dirs and database path, so a test never touches the user's real store. */
export function sandbox(): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), 'hippo-test-'));
  const db = join(dir, 'data', 'hippo.db');
  const env: Record<string, string> = {
    HOME: dir,
    XDG_DATA_HOME: join(dir, 'xdg-data'),
    XDG_CONFIG_HOME: join(dir, 'xdg-config'),
    HIPPO_DB: db,
    HIPPO_AGENT: '',
    HIPPO_MODEL: '',
    HIPPO_BASE_URL: '',
    HIPPO_API_KEY: '',
    OPENAI_API_KEY: '',
    ANTHROPIC_API_KEY: '',
    NO_COLOR: '1',
  };
  return {
    dir,
    db,
    env,
    hippo: (args, options = {}) =>
      execa('node', [BIN, ...args], {
        reject: false,
        input: '',
        ...options,
        // A FORCE_COLOR in the runner's own environment would force colour (it wins over NO_COLOR): tests set their own.
        env: { ...env, FORCE_COLOR: undefined, ...(options.env as Record<string, string> | undefined) },
        extendEnv: true,
      }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Parses the single JSON document a `--json` command must print on stdout. */
export function json<T = Record<string, unknown>>(result: Result): T {
  const stdout = String(result.stdout).trim();
  try {
    return JSON.parse(stdout) as T;
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${result.exitCode}):\n${stdout}\n--- stderr:\n${String(result.stderr)}`);
  }
}
