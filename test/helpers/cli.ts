import { execa, type Options, type Result } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'run.js');

export type SandboxEngine = 'sqlite' | 'postgres';

export interface Sandbox {
  dir: string;
  /** The store: a SQLite file path, or (engine postgres) the URL of a fresh database of its own, with its password. */
  db: string;
  engine: SandboxEngine;
  env: Record<string, string>;
  /** Runs the real built CLI (`bin/run.js`) with this sandbox's database and an isolated home. */
  hippo(args: string[], options?: Options): Promise<Result>;
  cleanup(): void;
}

export interface EngineSandbox extends Sandbox {
  /** Removes the temp dir and (postgres) drops the sandbox's database. */
  dispose(): Promise<void>;
}

/**
 * A sandbox on either engine: SQLite as `sandbox()`, or PostgreSQL with a fresh empty database of its own on the test
 * server (HIPPO_DB is its URL). No server → the global setup has already failed the run: nothing is skipped.
 */
export async function engineSandbox(engine: SandboxEngine): Promise<EngineSandbox> {
  if (engine === 'sqlite') {
    const box = sandbox();
    return { ...box, dispose: async () => box.cleanup() };
  }
  // Loaded only here: a SQLite-only test file must not need the global setup's injected server.
  const { freshDatabase } = await import('./postgres.js');
  const database = await freshDatabase();
  const box = sandbox(database.url, 'postgres');
  return {
    ...box,
    dispose: async () => {
      box.cleanup();
      await database.drop();
    },
  };
}

/** A temp dir with its own HOME/XDG dirs and database path, so a test never touches the user's real store. */
export function sandbox(store?: string, engine: SandboxEngine = 'sqlite'): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), 'hippo-test-'));
  const db = store ?? join(dir, 'data', 'hippo.db');
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
    engine,
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
