/**
 * Connecting to a PostgreSQL store: the `postgres://` URL (libpq conventions), a display form with the password
 * masked, a small `pg` pool with timeouts, and the mapping of connection failures to `StoreUnavailableError` (exit 8).
 *
 * This module must stay cheap to import: `pg` is loaded only inside `createPool`, so a SQLite user never pays for it.
 * The password never appears in a message, a display form, `details`, or anything JSON.stringify or util.inspect shows
 * of the objects made here: it is kept in a WeakMap beside the target, never on it.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import type { Client, Pool, PoolConfig } from 'pg';
import { HippoError, StoreUnavailableError, UsageError } from '../../errors.js';

export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

/** Query parameters hippo understands (libpq's names); anything else is refused so a typo is not silently ignored. */
const KNOWN_PARAMETERS = [
  'host',
  'port',
  'user',
  'password',
  'dbname',
  'sslmode',
  'sslrootcert',
  'sslcert',
  'sslkey',
  'application_name',
  'connect_timeout',
  'options',
] as const;

/** Where hippo's data lives on a server: everything needed to connect, and to name it in a message. */
export interface PostgresTarget {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  readonly sslmode: SslMode;
  /** `application_name` from the URL (else PGAPPNAME, else hippo). */
  readonly applicationName?: string;
  /** `options` from the URL (libpq's command-line options for the server session, e.g. `-c search_path=hippo`). */
  readonly options?: string;
  /** libpq's `connect_timeout`, in seconds, when the URL gives one. */
  readonly connectTimeoutSeconds?: number;
  readonly sslrootcert?: string;
  readonly sslcert?: string;
  readonly sslkey?: string;
  /** True when the URL itself carries a password (shown as `***`). */
  readonly urlHasPassword: boolean;
  /** `postgres://user:***@host:5432/db` — safe to print, log, or put in JSON. */
  readonly display: string;
}

/** Passwords given in URLs, kept beside (never on) their targets. */
const passwords = new WeakMap<PostgresTarget, string>();
/** Targets for which the server asked for a password and none was found (URL, PGPASSWORD, ~/.pgpass). */
const withoutPassword = new WeakSet<PostgresTarget>();

/** `postgres://…` or `postgresql://…` (any case): a PostgreSQL store; anything else is a SQLite path. */
export function isPostgresUrl(text: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(text.trim());
}

function badUrl(problem: string): UsageError {
  return new UsageError('bad_postgres_url', `the PostgreSQL URL ${problem}`);
}

function decode(text: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw badUrl(`has a broken %-escape in the ${what}`);
  }
}

/**
 * Parses and checks a `postgres://user:password@host:port/database?param=value` URL. Missing parts fall back the libpq
 * way: PGHOST/PGPORT/PGUSER/PGDATABASE, then localhost, 5432, the OS user, and the user's name as database. A
 * malformed URL is a UsageError (exit 2) naming the problem; no message ever echoes the URL (it may hold a password).
 */
export function parsePostgresUrl(text: string, env: NodeJS.ProcessEnv = process.env): PostgresTarget {
  const trimmed = text.trim();
  const scheme = /^(postgres(?:ql)?):\/\//i.exec(trimmed);
  if (!scheme) throw badUrl('must start with postgres:// or postgresql://');
  if (/\s/.test(trimmed)) throw badUrl('contains white space (percent-encode it as %20)');
  const rest = trimmed.slice(scheme[0].length);
  const authority = rest.slice(0, rest.search(/[/?#]|$/));
  if (authority.slice(authority.lastIndexOf('@') + 1).includes(',')) {
    throw badUrl('names several hosts; hippo connects to one (put a load balancer or pgbouncer in front for failover)');
  }
  // libpq allows an empty host after credentials (`postgres://ana@/db`, `postgres://ana:pw@:5433/db`); the URL parser
  // does not, so such a host is parsed as a placeholder and read back as empty.
  const hostStart = authority.lastIndexOf('@') + 1;
  const emptyHost = hostStart > 0 && /^(:|$)/.test(authority.slice(hostStart));
  const parseable = emptyHost ? `${authority.slice(0, hostStart)}empty.invalid${rest.slice(hostStart)}` : rest;
  let url: URL;
  try {
    url = new URL(`postgres://${parseable}`);
  } catch {
    throw badUrl(
      'is not a valid URL: expected postgres://user:password@host:port/database (percent-encode @ : / ? # in the user name and password), and a port from 1 to 65535',
    );
  }
  if (url.hash !== '') throw badUrl('has a # fragment (a # in a password must be written %23)');

  const parameters = new Map<string, string>();
  for (const pair of url.search.slice(1).split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = decode(at < 0 ? pair : pair.slice(0, at), 'query');
    if (at < 0) throw badUrl(`has the parameter "${name}" without a value`);
    if (!(KNOWN_PARAMETERS as readonly string[]).includes(name)) {
      throw badUrl(`has the unknown parameter "${name}" (hippo understands ${KNOWN_PARAMETERS.join(', ')})`);
    }
    parameters.set(name, decode(pair.slice(at + 1), `${name} parameter`));
  }

  const path = url.pathname === '' || url.pathname === '/' ? '' : url.pathname.slice(1);
  if (path.includes('/')) throw badUrl('has more than a database name in its path (a / in the name must be written %2F)');

  const hostText = parameters.get('host') ?? (emptyHost ? '' : decode(url.hostname.replace(/^\[(.*)\]$/, '$1'), 'host'));
  const host = hostText || env.PGHOST || 'localhost';
  const portText = parameters.get('port') ?? (url.port || env.PGPORT || '5432');
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65535) throw badUrl('has a port that is not a number from 1 to 65535');
  const user = parameters.get('user') ?? (decode(url.username, 'user name') || env.PGUSER || osUser());
  if (user === '') throw badUrl('has no user name, and none is set in PGUSER');
  const database = parameters.get('dbname') ?? (decode(path, 'database name') || env.PGDATABASE || user);
  const password = parameters.get('password') ?? (url.password === '' ? undefined : decode(url.password, 'password'));

  const sslmodeText = parameters.get('sslmode') ?? env.PGSSLMODE ?? 'disable';
  if (!(SSL_MODES as readonly string[]).includes(sslmodeText)) throw badUrl(`has sslmode=${sslmodeText}; use one of ${SSL_MODES.join(', ')}`);
  const sslmode = sslmodeText as SslMode;
  const sslrootcert = parameters.get('sslrootcert');
  if (sslmode === 'verify-ca' && sslrootcert === undefined) throw badUrl('has sslmode=verify-ca without sslrootcert (the CA file to verify against)');

  let connectTimeoutSeconds: number | undefined;
  const timeoutText = parameters.get('connect_timeout');
  if (timeoutText !== undefined) {
    connectTimeoutSeconds = Number(timeoutText);
    if (!/^\d+$/.test(timeoutText)) throw badUrl('has a connect_timeout that is not a whole number of seconds');
  }

  const target: PostgresTarget = {
    host,
    port,
    database,
    user,
    sslmode,
    ...(parameters.has('application_name') ? { applicationName: parameters.get('application_name') } : {}),
    ...(parameters.has('options') ? { options: parameters.get('options') } : {}),
    ...(connectTimeoutSeconds !== undefined ? { connectTimeoutSeconds } : {}),
    ...(sslrootcert !== undefined ? { sslrootcert } : {}),
    ...(parameters.has('sslcert') ? { sslcert: parameters.get('sslcert') } : {}),
    ...(parameters.has('sslkey') ? { sslkey: parameters.get('sslkey') } : {}),
    urlHasPassword: password !== undefined,
    display: displayUrl({ host, port, database, user, sslmode, urlHasPassword: password !== undefined }),
  };
  if (password !== undefined) passwords.set(target, password);
  return target;
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? '';
  }
}

function displayUrl(target: Pick<PostgresTarget, 'host' | 'port' | 'database' | 'user' | 'sslmode' | 'urlHasPassword'>): string {
  const host = target.host.startsWith('/') ? encodeURIComponent(target.host) : target.host.includes(':') ? `[${target.host}]` : target.host;
  const password = target.urlHasPassword ? ':***' : '';
  const ssl = target.sslmode === 'disable' ? '' : `?sslmode=${target.sslmode}`;
  return `postgres://${encodeURIComponent(target.user)}${password}@${host}:${target.port}/${encodeURIComponent(target.database)}${ssl}`;
}

/** "127.0.0.1:5432, database "hippo", user "ana"" — how messages name a server (never with the password). */
export function describeTarget(target: PostgresTarget): string {
  const host = target.host.includes(':') ? `[${target.host}]` : target.host;
  return `${host}:${target.port}, database "${target.database}", user "${target.user}"`;
}

/** Replaces the target's password (raw and %-encoded) in any text with `***`: a last guard for messages. */
export function redact(text: string, target: PostgresTarget): string {
  const password = passwords.get(target) ?? process.env.PGPASSWORD;
  if (!password) return text;
  let result = text;
  for (const form of new Set([password, encodeURIComponent(password)])) result = result.split(form).join('***');
  return result;
}

export interface Timeouts {
  /** Server-side `statement_timeout` for every statement; 0 = none. */
  statementMs: number;
  /** How long to wait for a connection (TCP, TLS and authentication), also for a free pooled client. */
  connectMs: number;
  /** Server-side `idle_in_transaction_session_timeout`: a client that stalls inside a transaction loses it. */
  idleInTransactionMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { statementMs: 60_000, connectMs: 10_000, idleInTransactionMs: 60_000 };

function msFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError('bad_config', `${name} must be a whole number of milliseconds (0 for no limit)`);
  return Number(raw);
}

/**
 * The timeouts in force: `HIPPO_PG_STATEMENT_TIMEOUT_MS`, `HIPPO_PG_CONNECT_TIMEOUT_MS` and
 * `HIPPO_PG_IDLE_IN_TRANSACTION_TIMEOUT_MS` override the defaults; the URL's `connect_timeout` (libpq, seconds) wins
 * over the environment for the connect timeout.
 */
export function timeoutsFor(target: PostgresTarget, env: NodeJS.ProcessEnv = process.env): Timeouts {
  const connectFromEnv = msFromEnv(env, 'HIPPO_PG_CONNECT_TIMEOUT_MS');
  return {
    statementMs: msFromEnv(env, 'HIPPO_PG_STATEMENT_TIMEOUT_MS') ?? DEFAULT_TIMEOUTS.statementMs,
    connectMs: target.connectTimeoutSeconds !== undefined ? target.connectTimeoutSeconds * 1000 : (connectFromEnv ?? DEFAULT_TIMEOUTS.connectMs),
    idleInTransactionMs: msFromEnv(env, 'HIPPO_PG_IDLE_IN_TRANSACTION_TIMEOUT_MS') ?? DEFAULT_TIMEOUTS.idleInTransactionMs,
  };
}

function readTlsFile(path: string, parameter: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      'bad_postgres_url',
      `cannot read the ${parameter} file ${path} named in the PostgreSQL URL: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
}

/**
 * TLS the libpq way, as far as `pg` can: disable/allow/prefer → no TLS (`pg` cannot fall back, so prefer means plain
 * text; a server that demands TLS says so and the error says to use sslmode=require); require → encrypted, the
 * certificate not checked (with sslrootcert: checked against it, like verify-ca); verify-ca → chain checked against
 * sslrootcert, not the host name; verify-full → chain (sslrootcert, else the system CAs) and host name checked.
 */
export function tlsOptions(target: PostgresTarget): PoolConfig['ssl'] {
  if (target.sslmode === 'disable' || target.sslmode === 'allow' || target.sslmode === 'prefer') return false;
  const ca = target.sslrootcert === undefined ? undefined : readTlsFile(target.sslrootcert, 'sslrootcert');
  const cert = target.sslcert === undefined ? undefined : readTlsFile(target.sslcert, 'sslcert');
  const key = target.sslkey === undefined ? undefined : readTlsFile(target.sslkey, 'sslkey');
  const files = { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
  if (target.sslmode === 'verify-full') return { ...files, rejectUnauthorized: true };
  if (target.sslmode === 'require' && ca === undefined) return { ...files, rejectUnauthorized: false };
  // verify-ca, or require with a root certificate: the chain is verified, the host name is not.
  return { ...files, rejectUnauthorized: true, checkServerIdentity: () => undefined };
}

/**
 * The password the libpq way: the URL's, else PGPASSWORD, else the matching line of ~/.pgpass (or PGPASSFILE), read
 * by the `pgpass` package only when the server asks for a password. (`pg`'s own ~/.pgpass support prints a
 * deprecation warning, so hippo does the look-up itself.)
 */
function passwordFor(target: PostgresTarget, env: NodeJS.ProcessEnv): string | (() => Promise<string>) {
  const fromUrl = passwords.get(target);
  if (fromUrl !== undefined) return fromUrl;
  if (env.PGPASSWORD) return env.PGPASSWORD;
  // Called only when the server asks for a password. With none found, a random one nobody holds is sent so the server
  // refuses it and closes the connection (28P01, mapped to password_missing): letting `pg` fail on the client side
  // instead (it refuses a missing or empty password) leaves the half-open connection on the server until its
  // authentication_timeout (a minute), which also blocks DROP DATABASE for that long.
  return async () => {
    const { default: pgpass } = await import('pgpass');
    const found = await new Promise<string | undefined>((resolve) => {
      pgpass({ host: target.host, port: target.port, database: target.database, user: target.user }, resolve);
    });
    if (found === undefined) {
      withoutPassword.add(target);
      return randomBytes(24).toString('base64url');
    }
    withoutPassword.delete(target);
    return found;
  };
}

/** ISO-8601 UTC with milliseconds from PostgreSQL's ISO text of a timestamptz (`2026-01-02 03:04:05.678+00`). */
export function timestamptzToIso(text: string): string {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?([+-]\d{2})(?::(\d{2}))?(?::(\d{2}))?$/.exec(text);
  if (!match) throw new Error(`unexpected timestamptz text from the server: ${JSON.stringify(text)}`);
  const [, date, time, fraction = '', offsetHours, offsetMinutes = '00', offsetSeconds = '00'] = match;
  const millis = fraction.padEnd(3, '0').slice(0, 3);
  if (offsetHours === '+00' && offsetMinutes === '00' && offsetSeconds === '00') return `${date}T${time}.${millis}Z`;
  const sign = offsetHours!.startsWith('-') ? -1 : 1;
  const offsetMs = sign * (Math.abs(Number(offsetHours)) * 3_600_000 + Number(offsetMinutes) * 60_000 + Number(offsetSeconds) * 1000);
  return new Date(Date.parse(`${date}T${time}.${millis}Z`) - offsetMs).toISOString();
}

/** bigint (count(*), identities) as a JS number; a value past 2^53 would lose digits, so it fails instead. */
export function int8ToNumber(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`a bigint from the server is too large for a JS number: ${text}`);
  return value;
}

/**
 * The `pg` pool settings for a target: at most 4 connections, application_name hippo (unless the URL or PGAPPNAME
 * names another), the session in UTC with ISO dates (so timestamps come back as `…Z` strings exactly as stored),
 * server-side statement and idle-in-transaction timeouts, a client-side query timeout a little longer than the
 * statement timeout (a server that stops answering cannot hang a cron job), and TCP keep-alive.
 */
export function poolConfig(target: PostgresTarget, env: NodeJS.ProcessEnv = process.env): PoolConfig {
  const timeouts = timeoutsFor(target, env);
  const sessionOptions = ['-c TimeZone=UTC', '-c DateStyle=ISO,YMD', '-c IntervalStyle=iso_8601', target.options].filter(Boolean).join(' ');
  return {
    host: target.host,
    port: target.port,
    user: target.user,
    database: target.database,
    password: passwordFor(target, env),
    ssl: tlsOptions(target),
    ...(target.applicationName !== undefined ? { application_name: target.applicationName } : {}),
    fallback_application_name: 'hippo',
    options: sessionOptions,
    max: 4,
    idleTimeoutMillis: 10_000,
    allowExitOnIdle: true,
    connectionTimeoutMillis: timeouts.connectMs,
    ...(timeouts.statementMs > 0 ? { statement_timeout: timeouts.statementMs, query_timeout: timeouts.statementMs + 10_000 } : {}),
    ...(timeouts.idleInTransactionMs > 0 ? { idle_in_transaction_session_timeout: timeouts.idleInTransactionMs } : {}),
    keepAlive: true,
  };
}

/**
 * Creates the pool (loading `pg` now, not at startup) with hippo's type parsers: timestamptz → ISO string, bigint →
 * number. Connection errors outside a query (the server restarting) are swallowed here so they cannot crash the
 * process; the next query on the pool meets the failure and maps it with `mapPgError`.
 */
export async function createPool(target: PostgresTarget, env: NodeJS.ProcessEnv = process.env): Promise<Pool> {
  const config = poolConfig(target, env);
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ ...config, types: hippoTypes(pg) });
  // Without these listeners a connection dying (server stopped, backend terminated) emits an unhandled 'error' and
  // kills the process: `pool` covers idle clients, and each client gets its own for while it is checked out. The
  // query in flight still rejects, and that rejection is what callers map.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** hippo's type parsers: timestamptz → ISO string exactly as stored, bigint → number; the rest as `pg` does. */
function hippoTypes(pg: { types: typeof import('pg').types }): NonNullable<PoolConfig['types']> {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (oid === Number(pg.types.builtins.TIMESTAMPTZ)) return timestamptzToIso;
      if (oid === Number(pg.types.builtins.INT8)) return int8ToNumber;
      // pg's own parser for everything else (typed loosely by @types/pg: it parses to any).
      return (format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text')) as (value: string | Buffer) => unknown;
    }) as typeof pg.types.getTypeParser,
  };
}

/**
 * One connection outside the pool, with the same settings (for a session that must stay the same for a whole run:
 * the nightly lock). Not yet connected; its 'error' event is handled so a dying connection cannot crash the process.
 */
export async function createClient(target: PostgresTarget, env: NodeJS.ProcessEnv = process.env): Promise<Client> {
  const { max: _max, idleTimeoutMillis: _idle, allowExitOnIdle: _exit, ...config } = poolConfig(target, env);
  const { default: pg } = await import('pg');
  const client = new pg.Client({ ...config, types: hippoTypes(pg) });
  client.on('error', () => undefined);
  return client;
}

/** Oldest server hippo runs on: trusted extensions (unaccent) and DROP DATABASE … WITH (FORCE) arrived in 13. */
export const MIN_SERVER_VERSION = 130000;

/**
 * Opens a pool and checks the server once (one round trip): it answers, and it is new enough. Any failure is mapped
 * (exit 8 for an unreachable or refusing server, exit 2 for one too old) and the pool is closed again.
 */
export async function connectPool(target: PostgresTarget, env: NodeJS.ProcessEnv = process.env): Promise<{ pool: Pool; serverVersion: string }> {
  const pool = await createPool(target, env);
  try {
    const { rows } = await pool.query<{ num: string; version: string }>(
      "SELECT current_setting('server_version_num') AS num, current_setting('server_version') AS version",
    );
    const row = rows[0]!;
    if (Number(row.num) < MIN_SERVER_VERSION) {
      throw new UsageError('postgres_too_old', `PostgreSQL ${row.version} at ${describeTarget(target)} is too old; hippo needs 13 or newer`);
    }
    return { pool, serverVersion: row.version };
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw mapPgError(error, target);
  }
}

/** Why a connection failed or went away, as a stable reason in `details.reason`. */
export type UnavailableReason =
  | 'connection_refused'
  | 'host_not_found'
  | 'unreachable'
  | 'connect_timeout'
  | 'connection_lost'
  | 'server_shutdown'
  | 'server_starting'
  | 'too_many_connections'
  | 'bad_password'
  | 'password_missing'
  | 'no_access'
  | 'tls_required'
  | 'tls_unavailable'
  | 'tls_certificate'
  | 'database_missing'
  | 'statement_timeout';

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|SELF_SIGNED_CERT|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_|HOSTNAME_MISMATCH)/;

interface ErrorShape {
  code?: unknown;
  message?: unknown;
  errors?: unknown;
}

function classify(error: unknown, noPassword: boolean): { reason: UnavailableReason; why: string } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const shape = error as ErrorShape;
  const nested = Array.isArray(shape.errors) ? (shape.errors[0] as ErrorShape | undefined) : undefined;
  const code = typeof shape.code === 'string' ? shape.code : typeof nested?.code === 'string' ? nested.code : '';
  const message = typeof shape.message === 'string' ? shape.message : '';
  switch (code) {
    case 'ECONNREFUSED':
      return { reason: 'connection_refused', why: 'connection refused (is the server running and listening on that port?)' };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return { reason: 'host_not_found', why: 'the host name does not resolve' };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return { reason: 'unreachable', why: 'the host cannot be reached' };
    case 'ETIMEDOUT':
      return { reason: 'connect_timeout', why: 'the connection timed out' };
    case 'ECONNRESET':
    case 'EPIPE':
      return { reason: 'connection_lost', why: 'the server closed the connection' };
    case 'ENOENT':
      return { reason: 'connection_refused', why: 'no server socket at that path (is the server running?)' };
    case 'EACCES':
      return { reason: 'no_access', why: 'permission denied on the server socket' };
    case '28P01':
      return noPassword
        ? { reason: 'password_missing', why: 'the server asks for a password and none was given (in the URL, PGPASSWORD or ~/.pgpass)' }
        : { reason: 'bad_password', why: 'password authentication failed (check the password in the URL, PGPASSWORD or ~/.pgpass)' };
    case '28000':
      return /no encryption/i.test(message)
        ? { reason: 'tls_required', why: 'the server accepts this connection only over TLS: add sslmode=require (or verify-full) to the URL' }
        : { reason: 'no_access', why: `the server refused the connection: ${message}` };
    case '3D000':
      return { reason: 'database_missing', why: 'the database does not exist (create it first: createdb, or CREATE DATABASE)' };
    case '42501':
      return /permission denied for database/i.test(message) ? { reason: 'no_access', why: 'the user may not connect to this database' } : undefined;
    case '53300':
      return { reason: 'too_many_connections', why: 'the server has no free connection slot' };
    case '57P01':
    case '57P02':
      return { reason: 'server_shutdown', why: 'the server shut down or ended the connection mid-command' };
    case '57P03':
      return { reason: 'server_starting', why: 'the server is starting up or shutting down; try again shortly' };
    case '57014':
      return /statement timeout/i.test(message)
        ? { reason: 'statement_timeout', why: 'a statement ran past the statement timeout (HIPPO_PG_STATEMENT_TIMEOUT_MS)' }
        : undefined;
    case '25P03':
      return { reason: 'connection_lost', why: 'the server ended an idle transaction (HIPPO_PG_IDLE_IN_TRANSACTION_TIMEOUT_MS)' };
  }
  if (code.startsWith('08')) return { reason: 'connection_lost', why: `the connection failed: ${message}` };
  if (TLS_CODES.test(code)) return { reason: 'tls_certificate', why: `the server's TLS certificate was not accepted (${code})` };
  if (/does not support SSL/i.test(message)) return { reason: 'tls_unavailable', why: 'the server does not offer TLS: drop sslmode or use sslmode=disable' };
  if (/password must be a string|no password supplied/i.test(message)) {
    return { reason: 'password_missing', why: 'the server asks for a password and none was given (in the URL, PGPASSWORD or ~/.pgpass)' };
  }
  if (/timeout expired|connection timeout|timeout exceeded when trying to connect/i.test(message)) {
    return { reason: 'connect_timeout', why: 'no connection within the connect timeout (HIPPO_PG_CONNECT_TIMEOUT_MS)' };
  }
  if (/Query read timeout/i.test(message)) return { reason: 'statement_timeout', why: 'the server did not answer within the statement timeout' };
  if (/Connection terminated|not queryable|connection error/i.test(message)) return { reason: 'connection_lost', why: 'the connection to the server was lost' };
  return undefined;
}

/**
 * Turns a `pg` or network error meaning "the server is not there for us" into a StoreUnavailableError (exit 8) naming
 * host, port, database and user; `details` carry them with a stable `reason` and the SQLSTATE or errno. Any other
 * error (a constraint, a bug) passes through unchanged for the caller to map. HippoErrors pass through as they are.
 */
export function mapPgError(error: unknown, target: PostgresTarget): unknown {
  if (error instanceof HippoError) return error;
  const found = classify(error, withoutPassword.has(target));
  if (!found) return error;
  const code = (error as ErrorShape).code;
  const message = redact(`cannot use the PostgreSQL store at ${describeTarget(target)}: ${found.why}`, target);
  return new StoreUnavailableError(message, {
    details: {
      reason: found.reason,
      host: target.host,
      port: target.port,
      database: target.database,
      user: target.user,
      ...(typeof code === 'string' ? { serverCode: code } : {}),
    },
  });
}
