import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from './errors.js';

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

/** `postgres://…` or `postgresql://…` (any case): a PostgreSQL store (store/postgres/connect.ts's test, without loading it). */
export function isPostgresLocation(location: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(location.trim());
}

/**
 * A PostgreSQL URL without its password (the user-info's `:password` and a `password=` parameter dropped): what hints
 * and schedule lines may print. The command pasted back finds the password where libpq would (PGPASSWORD, ~/.pgpass).
 */
export function withoutPassword(url: string): string {
  return replacePassword(url, null);
}

/**
 * A PostgreSQL URL with its password (the user-info's and a `password=` parameter's) shown as `***`, the way every
 * command shows a store: what `config get db` prints of a URL someone wrote into the config file by hand.
 */
export function maskPassword(url: string): string {
  return replacePassword(url, '***');
}

function replacePassword(url: string, mask: string | null): string {
  const trimmed = url.trim();
  const scheme = /^postgres(?:ql)?:\/\//i.exec(trimmed);
  if (!scheme) return trimmed;
  const rest = trimmed.slice(scheme[0].length);
  const authorityEnd = rest.search(/[/?#]|$/);
  const authority = rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf('@');
  const userInfo = at < 0 ? '' : authority.slice(0, at);
  const colon = userInfo.indexOf(':');
  const user = colon < 0 ? userInfo : `${userInfo.slice(0, colon)}${mask === null ? '' : `:${mask}`}`;
  const keptAuthority = at < 0 ? authority : `${user}@${authority.slice(at + 1)}`;
  let tail = rest.slice(authorityEnd);
  const query = tail.indexOf('?');
  if (query >= 0) {
    const parameters = tail
      .slice(query + 1)
      .split('&')
      .filter((pair) => pair !== '' && (mask !== null || !/^password(=|$)/i.test(pair)))
      .map((pair) => (/^password(=|$)/i.test(pair) ? `password=${mask}` : pair));
    tail = `${tail.slice(0, query)}${parameters.length > 0 ? `?${parameters.join('&')}` : ''}`;
  }
  return `${scheme[0]}${keptAuthority}${tail}`;
}

/**
 * docs/design.md §2: `--db` > `$HIPPO_DB` > the config file's `db` (`configured`, checked by config.ts) >
 * `<XDG data>/hippo/hippo.db`. A `postgres://`/`postgresql://` URL is a
 * PostgreSQL store and comes back as given (trimmed; it is parsed and checked when opened); any other URL scheme is
 * refused, not made a file. So is an empty (or blank) path, given or in HIPPO_DB set but empty:
 * `HIPPO_DB=$UNSET_VARIABLE hippo …` in a script must not write to the user's real store (docs/decisions.md, "An empty
 * store path"). Anything else is a SQLite file path, made absolute.
 */
export function resolveDbPath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env, configured?: string): string {
  if (flag !== undefined && flag.trim() === '') {
    throw new UsageError('empty_db_path', 'the database path is empty; give a file path or a postgres:// URL (or leave it out for the default store)', {
      details: { from: 'path' },
    });
  }
  if (flag === undefined && env.HIPPO_DB !== undefined && env.HIPPO_DB.trim() === '') {
    throw new UsageError('empty_db_path', 'HIPPO_DB is set but empty; set it to a file path or a postgres:// URL, or unset it for the default store', {
      details: { from: 'HIPPO_DB' },
    });
  }
  const chosen = flag ?? env.HIPPO_DB ?? configured;
  if (chosen && isPostgresLocation(chosen)) return chosen.trim();
  // `postgres:/host/db` or `postgresql:host/db` (a slash short) is a mistyped URL, not a file to create in the
  // current directory while the user believes they wrote to the team store.
  if (chosen && /^\s*postgres(?:ql)?:/i.test(chosen)) {
    throw new UsageError('bad_postgres_url', 'the PostgreSQL URL must start with postgres:// or postgresql:// (two slashes)');
  }
  if (chosen && /^[a-z][a-z0-9+.-]*:\/\//i.test(chosen)) {
    const scheme = chosen.slice(0, chosen.indexOf(':'));
    const from = flag === undefined ? 'HIPPO_DB' : 'path';
    throw new UsageError(
      'unsupported_database',
      `${from === 'HIPPO_DB' ? 'HIPPO_DB' : 'the database path'} is a ${scheme}:// URL; give a SQLite file path or a postgres:// URL`,
      { details: { from, scheme } },
    );
  }
  return chosen ? resolve(chosen) : defaultDbPath(env);
}

/** `<XDG data>/hippo/hippo.db`: the store used when neither `--db` nor `HIPPO_DB` names one. */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(hippoDataDir(env), 'hippo.db');
}

/**
 * `<XDG data>/hippo/demo.db`: the demo store, beside the default database. `hippo demo` loads here unless `--db` or
 * `HIPPO_DB` names a store, so trying hippo never puts sample notes into the store you keep (docs/decisions.md).
 */
export function demoDbPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(hippoDataDir(env), 'demo.db');
}
