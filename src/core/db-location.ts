/**
 * Which store a command uses (docs/design.md §2), decided in one place: the caller's own choice (the CLI's `--db`, a
 * command's argument) > `HIPPO_DB` > the config file's `db` > the default file. The config file is read only when
 * neither of the first two names a store.
 */
import { configuredDb } from './config.js';
import { resolveDbPath } from './paths.js';

/** Where the store came from: the caller's choice, the environment, the config file, or the default. */
export type DbSource = 'flag' | 'HIPPO_DB' | 'config' | 'default';

export interface DbChoice {
  /** A SQLite file path (absolute) or a PostgreSQL URL, as `resolveDbPath` gives it. */
  location: string;
  source: DbSource;
}

/**
 * The store `flag` (else HIPPO_DB, else config `db`, else the default file) names. `unnamed` replaces the config file
 * and the default when neither `flag` nor HIPPO_DB names a store (`hippo demo` loads into a store of its own then).
 */
export function resolveDb(flag: string | undefined, options: { env?: NodeJS.ProcessEnv; unnamed?: (env: NodeJS.ProcessEnv) => string } = {}): DbChoice {
  const env = options.env ?? process.env;
  const named = flag !== undefined || env.HIPPO_DB !== undefined;
  if (!named && options.unnamed) return { location: resolveDbPath(options.unnamed(env), env), source: 'default' };
  const configured = named ? undefined : configuredDb(env);
  const location = resolveDbPath(flag, env, configured);
  return { location, source: flag !== undefined ? 'flag' : env.HIPPO_DB !== undefined ? 'HIPPO_DB' : configured !== undefined ? 'config' : 'default' };
}
