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

/**
 * Every URL in a text (any scheme: a store's `postgres://`, a model's `http://`) with its password shown as `***`, by
 * `maskPassword`: what an error message, a `--json` error or a "did you mean" line may echo of what was typed, set in
 * the environment or written in the config file (issue 27).
 */
export function maskPasswordsIn(text: string): string {
  return text.replace(/\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'<>`]+/g, (url) => replacePassword(url, '***', true)).replace(KEYWORD_PASSWORD, '$1***');
}

/**
 * A libpq keyword string's password (`host=db password=secret`, or `password = 'a b'`) outside a URL: not a store
 * location hippo reads (it is taken for a file path), but someone may type one, and the error naming that path or
 * the "did you mean" line echoing it must not show the password (issue 27 review).
 */
const KEYWORD_PASSWORD = /(\b(?:ssl)?password\s*=\s*)('[^']*'?|[^\s&'"]+)/gi;

/** A URL parameter holding a secret: libpq's `password` and `sslpassword` (the client key's passphrase). */
const PASSWORD_PARAMETER = /^(?:ssl)?password(=|$)/i;

/**
 * The passwords in some URLs (the user-info's and a `password=` parameter's, as written and decoded): the secrets
 * `maskPasswordsIn` also hides wherever they appear on their own — quoted with a space in them, or split from their
 * URL by a message. Only passwords of 4 characters or more: a shorter one would mask ordinary words.
 */
export function passwordsIn(values: readonly (string | undefined)[]): string[] {
  const found = new Set<string>();
  for (const value of values) {
    if (value === undefined) continue;
    const url = /[A-Za-z][A-Za-z0-9+.-]*:\/\/.*/s.exec(value)?.[0];
    if (url === undefined) continue;
    const rest = url.slice(url.indexOf('://') + 3);
    const authority = rest.slice(0, authorityEnd(rest));
    const at = authority.lastIndexOf('@');
    const colon = authority.indexOf(':');
    const candidates = [at > 0 && colon >= 0 && colon < at ? authority.slice(colon + 1, at) : ''];
    for (const match of rest.matchAll(/[?&](?:ssl)?password=([^&#]*)/gi)) candidates.push(match[1]!);
    for (const candidate of candidates) {
      for (const form of [candidate, safeDecode(candidate)]) if (form.length >= 4) found.add(form);
    }
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/**
 * Where a URL's authority ends (`rest` is what follows `://`): at the first `/`, `?` or `#` — unless a password holds
 * one of them unencoded (`postgres://u:pa/ss@h/db`, not a valid URL, yet typed and echoed back by a "did you mean"
 * line): when the text from the first `:` to that character is not a port and an `@` follows, the authority runs on
 * to the host after the last `@`, so the whole password counts as one (issue 27 review).
 */
function authorityEnd(rest: string): number {
  const plain = rest.search(/[/?#]|$/);
  const colon = rest.indexOf(':');
  const at = rest.lastIndexOf('@');
  if (colon < 0 || colon > plain || at < plain || /^\d*$/.test(rest.slice(colon + 1, plain))) return plain;
  return at + 1 + rest.slice(at + 1).search(/[/?#]|$/);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `maskPasswordsIn`, and then every one of `secrets` (from `passwordsIn`) shown as `***` wherever it stands. */
export function maskSecrets(text: string, secrets: readonly string[] = []): string {
  let masked = maskPasswordsIn(text);
  for (const secret of secrets) masked = masked.split(secret).join('***');
  return masked;
}

/** `maskSecrets` over every string in a JSON value (an error's details). */
export function maskSecretsInValue<T>(value: T, secrets: readonly string[] = []): T {
  if (typeof value === 'string') return maskSecrets(value, secrets) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => maskSecretsInValue(item, secrets)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskSecretsInValue(item, secrets)])) as T;
  }
  return value;
}

function replacePassword(url: string, mask: string | null, anyScheme = false): string {
  const trimmed = url.trim();
  const scheme = (anyScheme ? /^[A-Za-z][A-Za-z0-9+.-]*:\/\//i : /^postgres(?:ql)?:\/\//i).exec(trimmed);
  if (!scheme) return trimmed;
  const rest = trimmed.slice(scheme[0].length);
  const end = authorityEnd(rest);
  const authority = rest.slice(0, end);
  const at = authority.lastIndexOf('@');
  const userInfo = at < 0 ? '' : authority.slice(0, at);
  const colon = userInfo.indexOf(':');
  // A store's user name is shown (it says whose store it is); any other URL's user-info is masked whole: a token
  // often sits in the user-name slot (`https://TOKEN@host`).
  const database = /^postgres/i.test(scheme[0]);
  const user = !database && mask !== null && userInfo !== '' ? mask : colon < 0 ? userInfo : `${userInfo.slice(0, colon)}${mask === null ? '' : `:${mask}`}`;
  const keptAuthority = at < 0 ? authority : `${user}@${authority.slice(at + 1)}`;
  let tail = rest.slice(end);
  const query = tail.indexOf('?');
  if (query >= 0) {
    const parameters = tail
      .slice(query + 1)
      .split('&')
      .filter((pair) => pair !== '' && (mask !== null || !PASSWORD_PARAMETER.test(pair)))
      .map((pair) => (PASSWORD_PARAMETER.test(pair) ? `${pair.split('=')[0]}=${mask}` : pair));
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
