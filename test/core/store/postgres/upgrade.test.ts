/**
 * Upgrading an existing PostgreSQL store to search in context (schema 2): threads, the neighbours' text and the date in
 * words are added, and the new weighted tsvector is computed for every memory inside the migration's transaction.
 */
import type { Pool } from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { search } from '../../../../src/core/search.js';
import { dateWords } from '../../../../src/core/store/context.js';
import { openPostgresStore } from '../../../../src/core/store/postgres/adapter.js';
import { createPool, parsePostgresUrl } from '../../../../src/core/store/postgres/connect.js';
import { migrate } from '../../../../src/core/store/postgres/migrate.js';
import { POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION, SCHEMA_TABLE_SQL } from '../../../../src/core/store/postgres/schema.js';
import { freshDatabase, withClient, type FreshDatabase } from '../../../helpers/postgres.js';

const opened: { pools: Pool[]; databases: FreshDatabase[] } = { pools: [], databases: [] };
afterEach(async () => {
  for (const pool of opened.pools.splice(0)) await pool.end();
  for (const database of opened.databases.splice(0)) await database.drop();
});

/** A database as hippo's schema 1 left it (before threads), holding `count` memories of agent `ops`. */
async function schemaOneDatabase(count: number): Promise<FreshDatabase> {
  const database = await freshDatabase();
  opened.databases.push(database);
  await withClient(database.url, async (client) => {
    await client.query('CREATE EXTENSION IF NOT EXISTS unaccent');
    await client.query(SCHEMA_TABLE_SQL);
    await client.query((POSTGRES_MIGRATIONS[0] as string).replaceAll('{{unaccent}}', 'public.unaccent'));
    await client.query("INSERT INTO hippo_schema (application, version) VALUES ('hippo', 1)");
    await client.query(
      `INSERT INTO memories (id, agent_id, content, created_at, updated_at, content_hash)
       SELECT 'mem_' || lpad(n::text, 26, '0'), 'ops',
              CASE WHEN n = 0 THEN 'Moved the billing cron to 02:30 UTC.' ELSE 'Routine note number ' || n END,
              timestamptz '2023-05-08 00:00:00+00' + n * interval '1 minute', timestamptz '2023-05-08 00:00:00+00', n::text
       FROM generate_series(0, $1 - 1) AS n`,
      [count],
    );
  });
  return database;
}

describe('upgrading a PostgreSQL store to search in context', () => {
  it('adds threads, context and dates and indexes every memory in the migration, reporting its start and end', async () => {
    const database = await schemaOneDatabase(120);
    const pool = await createPool(parsePostgresUrl(database.url, {}), {});
    opened.pools.push(pool);
    const progress: [number, number][] = [];
    expect(await migrate(pool, undefined, { onProgress: (step, done, total) => step === 'search-index' && progress.push([done, total]) })).toMatchObject({
      from: 1,
      to: POSTGRES_SCHEMA_VERSION,
    });
    expect(progress).toEqual([
      [0, 120],
      [120, 120],
    ]);
    const unindexed = await withClient(
      database.url,
      async (client) => (await client.query('SELECT count(*)::int AS n FROM memories WHERE fts_context IS NULL OR seq IS NULL')).rows[0],
    );
    expect(unindexed).toEqual({ n: 0 });

    const store = await openPostgresStore(parsePostgresUrl(database.url, {}), {});
    try {
      const hits = await search(store, { agentId: 'ops', query: 'billing cron', recordRetrieval: false });
      expect(hits.map((hit) => [hit.memory.content, hit.memory.thread, hit.matched])).toEqual([['Moved the billing cron to 02:30 UTC.', null, ['content']]]);
      expect(await search(store, { agentId: 'ops', query: 'May 2023 Monday', limit: 3, recordRetrieval: false })).toHaveLength(3);
    } finally {
      await store.close();
    }
  });

  it('reports nothing for a new database, nor for one already upgraded', async () => {
    const database = await freshDatabase();
    opened.databases.push(database);
    const pool = await createPool(parsePostgresUrl(database.url, {}), {});
    opened.pools.push(pool);
    const progress: number[] = [];
    await migrate(pool, undefined, { onProgress: (_step, done) => progress.push(done) });
    await migrate(pool, undefined, { onProgress: (_step, done) => progress.push(done) });
    expect(progress).toEqual([]);
  });

  it('computes the date words in SQL exactly as dateWords does, in UTC, whatever the session time zone', async () => {
    const database = await freshDatabase();
    opened.databases.push(database);
    const pool = await createPool(parsePostgresUrl(database.url, {}), {});
    opened.pools.push(pool);
    await migrate(pool);
    const times: string[] = [];
    for (let day = 0; day < 800; day += 3) times.push(new Date(Date.UTC(2023, 0, 1, day % 24, 59, 59, 999) + day * 86_400_000).toISOString());
    times.push('2024-02-29T23:59:59.999Z', '1999-12-31T00:00:00.000Z', '2100-03-01T12:00:00.000Z');
    const words = await withClient(database.url, async (client) => {
      await client.query("SET TIME ZONE 'Pacific/Kiritimati'");
      return (await client.query<{ words: string }>('SELECT hippo_date_words(t::timestamptz) AS words FROM unnest($1::text[]) AS t', [times])).rows.map(
        (row) => row.words,
      );
    });
    expect(words).toEqual(times.map(dateWords));
  });
});
