import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** XDG base directories (https://specifications.freedesktop.org/basedir-spec/), read from the given environment. */
export function dataHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.XDG_DATA_HOME;
  return fromEnv && fromEnv.startsWith('/') ? fromEnv : join(homedir(), '.local', 'share');
}

export function configHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.XDG_CONFIG_HOME;
  return fromEnv && fromEnv.startsWith('/') ? fromEnv : join(homedir(), '.config');
}

/** `<XDG data>/hippo`: the database and its snapshots live here unless `--db`/`HIPPO_DB` says otherwise. */
export function hippoDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataHome(env), 'hippo');
}

/** `<XDG config>/hippo/config.json`. */
export function configFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configHome(env), 'hippo', 'config.json');
}

/** SPEC §2: `--db` > `$HIPPO_DB` > `<XDG data>/hippo/hippo.db`. */
export function resolveDbPath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? (env.HIPPO_DB ? env.HIPPO_DB : undefined);
  return chosen ? resolve(chosen) : join(hippoDataDir(env), 'hippo.db');
}
