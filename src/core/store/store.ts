/**
 * Opening a store (docs/design.md §2, docs/store.md): the one door to the adapters. The location picks the engine —
 * a `postgres://`/`postgresql://` URL is a PostgreSQL store, anything else a SQLite file — and the adapter is loaded
 * only then, so a command that opens no store loads no driver, and SQLite users never load PostgreSQL's.
 */
import { UsageError } from '../errors.js';
import { isPostgresLocation } from '../paths.js';
import type { Clock } from '../time.js';
import type { Store } from './port.js';

/** The store's schema version is `describe().schemaVersion`: each engine numbers its own migrations. */
export type { Engine, Store, StoreDescription, StoreOps } from './port.js';

export interface StoreOptions {
  /** A SQLite file path, or `:memory:` for a throwaway store (library use and unit tests). */
  path?: string;
  /** A `postgres://` or `postgresql://` URL (a path that is such a URL means the same). */
  url?: string;
  clock?: Clock;
  /** SQLite: milliseconds to wait for another process's lock before failing with "database is busy". */
  busyTimeoutMs?: number;
  /**
   * Progress of a long upgrade while opening: `search-index` (a migration rebuilding the search index: `done` of
   * `total` memories; SQLite reports it chunk by chunk, PostgreSQL in one statement, so its start and its end) or
   * `keys` (issue 25's rebuild of the agents' tables: rows copied of all, chunk by chunk on both engines).
   */
  onProgress?: (step: 'search-index' | 'keys', done: number, total: number) => void;
  /** PostgreSQL: read for PGPASSWORD, PGHOST…, PGPASSFILE, the timeouts and XDG_DATA_HOME (snapshots). Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * Only open a store that exists: the mode of every command that only reads (and of those acting on existing rows).
   * Where there is no hippo store — no file, an empty one, a database without hippo's tables — it is NotFoundError
   * `store_not_found` (exit 3, "no hippo store at …") and nothing is created: no file, no directory, no schema.
   */
  mustExist?: boolean;
}

/**
 * Opens (creating or migrating if needed) the store at `options.url` or `options.path`. A newer or foreign store is
 * refused with exit 2 and left unchanged; a PostgreSQL server that cannot be used is exit 8 (`store_unavailable`).
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  const location = options.url ?? options.path;
  if (location === undefined || location === '') {
    throw new UsageError('no_database', 'give the store: a SQLite file path, or a postgres:// URL', { details: { option: 'path' } });
  }
  if (isPostgresLocation(location)) {
    // Both modules are loaded only here: connect.ts is cheap, adapter.ts brings pg in when it connects.
    const { parsePostgresUrl } = await import('./postgres/connect.js');
    const target = parsePostgresUrl(location, options.env);
    const { openPostgresStore } = await import('./postgres/adapter.js');
    return openPostgresStore(target, { clock: options.clock, env: options.env, onProgress: options.onProgress, mustExist: options.mustExist });
  }
  if (options.url !== undefined) {
    throw new UsageError('unsupported_database', 'the store URL is not a postgres:// URL; give a SQLite file as a path', { details: { option: 'url' } });
  }
  const { openSqliteStore } = await import('./sqlite/adapter.js');
  return openSqliteStore({
    path: location,
    clock: options.clock,
    busyTimeoutMs: options.busyTimeoutMs,
    onProgress: options.onProgress,
    mustExist: options.mustExist,
  });
}
