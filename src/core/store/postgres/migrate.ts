/**
 * Bringing a PostgreSQL schema to hippo's current version: every pending migration in one transaction under a
 * transaction-level advisory lock, so two processes opening a fresh database at once cannot both migrate it (the
 * second waits, then finds the work done). A schema written by a newer hippo, or one that holds someone else's
 * tables, is refused (exit 2) before anything is written. hippo lives in the session's current schema (the first
 * existing one on search_path, normally `public`; `?options=-c%20search_path%3Dhippo` in the URL picks another).
 */
import type { Pool, PoolClient } from 'pg';
import { HippoError, NotFoundError, UsageError } from '../../errors.js';
import { describeTarget, mapPgError, type PostgresTarget } from './connect.js';
import { POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION, SCHEMA_TABLE_SQL, type RebuildMigration } from './schema.js';
import { DEFAULT_PARTITIONS } from './partition.js';

/** Advisory lock keys (two int4): 'Hipp' and what is locked. The nightly lock uses its own (lock.ts). */
export const LOCK_CLASS = 0x48697070;
export const MIGRATE_LOCK = 1;

export type SchemaState = { state: 'empty'; schema: string } | { state: 'hippo'; schema: string; version: number };

function where(schema: string, target?: PostgresTarget): string {
  return target ? `schema "${schema}" (${describeTarget(target)})` : `schema "${schema}"`;
}

/**
 * Says whether the session's current schema is hippo's (and at which version) or empty. Refuses, without changing
 * anything: no current schema, a hippo schema newer than this hippo, and a schema holding relations that are not
 * hippo's (tables, views, sequences… of another application).
 */
export async function checkIsHippoDatabase(client: Pick<PoolClient, 'query'>, target?: PostgresTarget): Promise<SchemaState> {
  const { rows } = await client.query<{ schema: string | null; marker: boolean; relations: number }>(`
    SELECT current_schema() AS schema,
           -- CASE, not AND: format('%I', NULL) raises, and a search_path naming no existing schema gives NULL here.
           CASE WHEN current_schema() IS NULL THEN false
                ELSE to_regclass(format('%I.hippo_schema', current_schema())) IS NOT NULL END AS marker,
           (SELECT count(*) FROM pg_class c
             WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
               AND c.relkind IN ('r','p','v','m','f','S'))::int AS relations`);
  const row = rows[0]!;
  if (row.schema === null) {
    throw new UsageError(
      'not_a_hippo_database',
      `no schema to use in ${target ? describeTarget(target) : 'this database'}: none of the schemas on search_path exists; create one or fix search_path`,
    );
  }
  const schema = row.schema;
  if (!row.marker) {
    if (row.relations > 0) {
      throw new UsageError(
        'not_a_hippo_database',
        `${where(schema, target)} holds tables that are not hippo's; nothing was changed. Use an empty database or schema for hippo.`,
      );
    }
    return { state: 'empty', schema };
  }
  let found: { application: string; version: number } | undefined;
  try {
    const marker = await client.query<{ application: string; version: number }>('SELECT application, version FROM hippo_schema');
    found = marker.rows.length === 1 ? marker.rows[0]! : undefined;
  } catch (error) {
    // A table of that name with other columns: someone else's.
    if ((error as { code?: string }).code !== '42703') throw error;
  }
  if (!found || found.application !== 'hippo') {
    throw new UsageError('not_a_hippo_database', `${where(schema, target)} has a hippo_schema table that is not hippo's; nothing was changed.`);
  }
  if (found.version > POSTGRES_SCHEMA_VERSION) {
    throw new UsageError(
      'database_too_new',
      `${where(schema, target)} was written by a newer hippo (schema ${found.version}; this hippo knows up to ${POSTGRES_SCHEMA_VERSION}). Upgrade hippo; nothing was changed.`,
    );
  }
  return { state: 'hippo', schema, version: found.version };
}

/** The SQL text for `{{unaccent}}`: the dictionary in whatever schema holds the extension. */
async function ensureUnaccent(client: PoolClient, database: string): Promise<string> {
  try {
    await client.query('SAVEPOINT hippo_unaccent');
    await client.query('CREATE EXTENSION IF NOT EXISTS unaccent');
    await client.query('RELEASE SAVEPOINT hippo_unaccent');
  } catch (error) {
    await client.query('ROLLBACK TO SAVEPOINT hippo_unaccent');
    const code = (error as { code?: string }).code;
    // Installed already (by an administrator) but we may not create it ourselves: that is fine, the check below finds it.
    if (code !== '42501' && code !== '58P01' && code !== '0A000' && code !== '22023') throw error;
  }
  const { rows } = await client.query<{ dictionary: string | null }>(`
    SELECT format('%I.unaccent', n.nspname) AS dictionary
      FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     WHERE e.extname = 'unaccent'`);
  const dictionary = rows[0]?.dictionary;
  if (!dictionary) {
    throw new UsageError(
      'postgres_extension_missing',
      `hippo's search needs the unaccent extension (it ships with PostgreSQL: Debian's postgresql package, postgresql-contrib elsewhere) ` +
        `and it could not be created in database "${database}": the server may lack it, or this user may not create extensions there. ` +
        `Ask an administrator to run CREATE EXTENSION unaccent; in that database (or make this user its owner). Nothing was changed.`,
    );
  }
  return dictionary;
}

export interface MigrateResult {
  schema: string;
  from: number;
  to: number;
}

/** The first migration that rebuilds the search index for every memory (schema.ts: 2, search in context). */
const SEARCH_INDEX_MIGRATION = 2;

/**
 * Progress of a long migration. `search-index`: PostgreSQL recomputes it in one statement, so the caller hears of the
 * start (`done` 0) and the end (`done` = `total`). `keys` (issue 25's rebuild of the agents' tables): rows copied of
 * all the rebuilt tables', chunk by chunk.
 */
export type MigrateProgress = (step: 'search-index' | 'keys', done: number, total: number) => void;

/** Rows per chunk when a migration copies a table into its rebuilt form (progress is reported between chunks). */
export const COPY_CHUNK = 10_000;

export interface MigrateOptions {
  /** Refuse (store_not_found) rather than create a schema in an empty database: a command that only reads. */
  mustExist?: boolean;
  onProgress?: MigrateProgress;
  /**
   * Partitions of each agent table, asked for only when a migration creates them (partition.ts: HIPPO_PG_PARTITIONS,
   * default 16); a store that has them already ignores it.
   */
  partitions?: () => number;
}

/**
 * Applies every pending migration in one transaction under `pg_advisory_xact_lock`. Returns the versions before
 * and after (equal when there was nothing to do). Connection failures are StoreUnavailableError (exit 8); a missing
 * permission is a UsageError naming what to grant; either way the transaction is rolled back whole.
 */
export async function migrate(pool: Pool, target?: PostgresTarget, options: MigrateOptions = {}): Promise<MigrateResult> {
  const { onProgress } = options;
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw target ? mapPgError(error, target) : error;
  }
  let broken = false;
  try {
    // Cheap check first, without a lock: an up-to-date store (every command's case) costs one round trip.
    const before = await checkIsHippoDatabase(client, target);
    if (before.state === 'empty' && options.mustExist) {
      // A command that only reads creates no schema where there is none.
      const where = target ? target.display : `schema "${before.schema}"`;
      throw new NotFoundError('store_not_found', `no hippo store at ${where}`, { details: { path: where, schema: before.schema } });
    }
    if (before.state === 'hippo' && before.version === POSTGRES_SCHEMA_VERSION) {
      return { schema: before.schema, from: before.version, to: before.version };
    }
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_CLASS, MIGRATE_LOCK]);
      // Again under the lock: another process may have migrated (or someone created tables) meanwhile.
      const state = await checkIsHippoDatabase(client, target);
      const from = state.state === 'hippo' ? state.version : 0;
      if (from < POSTGRES_SCHEMA_VERSION) {
        const database = target?.database ?? (await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!.db;
        const unaccent = await ensureUnaccent(client, database);
        if (from === 0) await client.query(SCHEMA_TABLE_SQL);
        const reindexes = from > 0 && from < SEARCH_INDEX_MIGRATION && SEARCH_INDEX_MIGRATION <= POSTGRES_SCHEMA_VERSION;
        const total = reindexes && onProgress ? (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM memories')).rows[0]!.n : 0;
        if (reindexes) onProgress?.('search-index', 0, total);
        for (let index = from; index < POSTGRES_SCHEMA_VERSION; index++) {
          const migration = POSTGRES_MIGRATIONS[index]!;
          if (typeof migration === 'string') await client.query(migration.replaceAll('{{unaccent}}', unaccent));
          else if ('create' in migration) await client.query(migration.create(await storePartitions(client, options.partitions)));
          else await rebuild(client, migration, options.partitions?.() ?? DEFAULT_PARTITIONS, from > 0 ? onProgress : undefined);
        }
        if (reindexes) onProgress?.('search-index', total, total);
        await client.query(
          `INSERT INTO hippo_schema (application, version) VALUES ('hippo', $1)
           ON CONFLICT (application) DO UPDATE SET version = excluded.version, migrated_at = now()`,
          [POSTGRES_SCHEMA_VERSION],
        );
      }
      await client.query('COMMIT');
      return { schema: state.schema, from, to: POSTGRES_SCHEMA_VERSION };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    }
  } catch (error) {
    throw mapMigrateError(error, target);
  } finally {
    client.release(broken);
  }
}

/**
 * The partition count of this store's agent tables: what `memories` was created with, once it is partitioned (a new
 * agent table joins its siblings' count); before that (a fresh store), the count chosen for a new store.
 */
async function storePartitions(client: PoolClient, chosen: (() => number) | undefined): Promise<number> {
  const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = to_regclass('memories')");
  const existing = rows[0]!.n;
  return existing > 0 ? existing : (chosen?.() ?? DEFAULT_PARTITIONS);
}

/**
 * A migration that rebuilds tables: the new tables, then the rows copied across in chunks of COPY_CHUNK in the old
 * key's order (each chunk one statement, all inside the migration's transaction), then the old tables dropped and the
 * indexes built.
 */
async function rebuild(client: PoolClient, migration: RebuildMigration, partitions: number, onProgress?: MigrateProgress): Promise<void> {
  await client.query(migration.before(partitions));
  let total = 0;
  if (onProgress) {
    for (const copy of migration.copies) {
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${copy.from} WHERE ${copy.where ?? 'TRUE'}`);
      total += rows[0]!.n;
    }
    onProgress('keys', 0, total);
  }
  let done = 0;
  for (const copy of migration.copies) {
    let after: string | null = null;
    for (;;) {
      const result: { rows: { n: number; last: string | null }[] } = await client.query<{ n: number; last: string | null }>(
        `WITH moved AS (
           INSERT INTO ${copy.to} (${copy.columns})
           SELECT ${copy.columns} FROM ${copy.from} WHERE (${copy.where ?? 'TRUE'}) AND ($1::text IS NULL OR id > $1) ORDER BY id LIMIT ${COPY_CHUNK}
           RETURNING id)
         SELECT count(*)::int AS n, max(id) AS last FROM moved`,
        [after],
      );
      const { n, last } = result.rows[0]!;
      if (n === 0 || last === null) break;
      done += n;
      after = last;
      onProgress?.('keys', done, total);
      if (n < COPY_CHUNK) break;
    }
  }
  await client.query(migration.after);
}

function mapMigrateError(error: unknown, target?: PostgresTarget): unknown {
  if (error instanceof HippoError) return error;
  const code = (error as { code?: string }).code;
  if (code === '42501') {
    return new UsageError(
      'postgres_permission_denied',
      `hippo may not create its tables in ${target ? describeTarget(target) : 'this database'}: ${(error as Error).message}. ` +
        'Make this user the owner of the database (or of the schema on search_path), or GRANT CREATE ON SCHEMA to it. Nothing was changed.',
    );
  }
  return target ? mapPgError(error, target) : error;
}
