/**
 * Issue 25's upgrade of an existing store, on both engines (SQLite migration 9, PostgreSQL migration 6): a populated
 * store of the previous schema — three agents' memories (threaded, tagged, archived), candidates, handoffs, an agent's
 * runs and runs over every agent — is opened by this hippo. Every row comes through intact and counted, the runs over
 * every agent land in store_runs and still read back through the port, the search finds what it found before, the keys
 * are the agent's, and the copy reports its progress chunk by chunk.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { search } from '../../../src/core/search.js';
import type { Store } from '../../../src/core/store/port.js';
import { openStore } from '../../../src/core/store/store.js';
import { APPLICATION_ID, MIGRATIONS, migrationSql } from '../../../src/core/store/sqlite/migrations.js';
import { FILL_CHUNK } from '../../../src/core/store/sqlite/open.js';

const AGENTS = ['ana', 'bo', 'cy'];
/** Memories per agent: the three agents' together span more than one chunk of the copy. */
const PER_AGENT = Math.ceil(FILL_CHUNK / 3) + 5;
const MEMORIES = AGENTS.length * PER_AGENT;

/** The previous schema's rows, as SQL both engines take (`?` placeholders; lists and documents as the engine keeps them). */
interface Seed {
  memory(agent: string, index: number): unknown[];
}

const stamp = (index: number) => new Date(Date.UTC(2023, 4, 8) + index * 60_000).toISOString();
const seed: Seed = {
  memory: (agent, index) => [
    `mem_${agent}_${String(index).padStart(20, '0')}`,
    agent,
    index === 0 ? `Moved the billing cron of ${agent} to 02:30 UTC.` : `Routine note number ${index} of ${agent}.`,
    stamp(index),
    stamp(index),
    `${agent}${index}`,
    index % 10 === 0 ? 'chat' : null,
    index === 3 ? stamp(index) : null,
  ],
};

/** What the port gives back after the upgrade, engine-neutral. */
async function snapshotOf(store: Store) {
  const counts = (await store.describe()).counts;
  const agents = await store.memories.agentCounts();
  const runs = await store.runs.list({ limit: 100 });
  const night = await store.runs.get('run_night');
  const ofAna = await store.runs.list({ limit: 100, agentId: 'ana' });
  const hits = await search(store, { agentId: 'bo', query: 'billing cron', recordRetrieval: false });
  const thread = await store.memories.list({ agentId: 'cy', thread: 'chat', limit: 3 });
  return { counts, agents, runs: runs.map((run) => [run.id, run.agentId, run.parentRunId]), night, ofAna: ofAna.map((run) => run.id), hits, thread };
}

function expectUpgraded(after: Awaited<ReturnType<typeof snapshotOf>>, progress: [string, number, number][]) {
  expect(after.counts).toEqual({ memories: MEMORIES, candidates: 3, runs: 4, handoffs: 3, settings: expect.any(Number) });
  expect(after.agents).toEqual(AGENTS.map((agentId) => ({ agentId, memories: PER_AGENT - 1, archived: 1, newest: stamp(PER_AGENT - 1) })));
  // The runs over every agent came through with no agent; a night's child run still points at it.
  expect(after.night).toMatchObject({ id: 'run_night', agentId: null, kind: 'rem nightly run-once', status: 'completed' });
  expect(after.runs).toEqual(
    expect.arrayContaining([
      ['run_night', null, null],
      ['run_child_ana', 'ana', 'run_night'],
      ['run_bo', 'bo', null],
      ['run_prune', null, null],
    ]),
  );
  expect(after.ofAna.sort()).toEqual(['run_child_ana', 'run_night', 'run_prune']);
  // The one memory whose own text matches comes first. The seed writes threaded rows without their neighbours' text:
  // PostgreSQL keeps them so (no context), SQLite computes every context from the thread since migration 13, so there
  // its thread neighbours follow, matched by their context alone.
  expect(after.hits[0]!.memory.content).toBe('Moved the billing cron of bo to 02:30 UTC.');
  expect(after.hits.slice(1).map((hit) => hit.matched)).toEqual(after.hits.slice(1).map(() => ['context']));
  expect(after.thread).toHaveLength(3);
  // Progress of the copy: from 0, chunk by chunk, to every row of the rebuilt tables.
  const keys = progress.filter(([step]) => step === 'keys');
  const total = MEMORIES + 3 + 4 + 3;
  expect(keys[0]).toEqual(['keys', 0, total]);
  expect(keys.at(-1)).toEqual(['keys', total, total]);
  expect(keys.length).toBeGreaterThan(3);
}

const RUNS: [string, string | null, string, string | null][] = [
  ['run_night', null, 'rem nightly run-once', null],
  ['run_child_ana', 'ana', 'rem nightly run-once', 'run_night'],
  ['run_bo', 'bo', 'rem rapid', null],
  ['run_prune', null, 'rem runs prune', null],
];

describe('upgrading a SQLite store of schema 8 to keys by agent (migration 9)', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('rebuilds the tables in place with every row, rowids and the search index kept, reporting progress', async () => {
    dir = mkdtempSync(join(tmpdir(), 'hippo-rekey-'));
    const path = join(dir, 'hippo.db');
    const raw = new Database(path);
    raw.exec(MIGRATIONS.slice(0, 8).map(migrationSql).join('\n'));
    raw.pragma(`application_id = ${APPLICATION_ID}`);
    raw.pragma('user_version = 8');
    const insert = raw.prepare(
      'INSERT INTO memories (id, agent_id, content, created_at, updated_at, content_hash, thread, archived_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    raw.transaction(() => {
      for (let index = 0; index < PER_AGENT; index++) for (const agent of AGENTS) insert.run(...seed.memory(agent, index));
      for (const agent of AGENTS) {
        raw
          .prepare(
            `INSERT INTO candidates (id, agent_id, claim, claim_norm, source_memory_ids, generated_by, provider, generated_at, run_id, prompt_sha256, prompt)
             VALUES (?, ?, 'a claim', 'a claim', '[]', 'm', 'p', ?, 'run_bo', 'x', 'prompt')`,
          )
          .run(`cand_${agent}`, agent, stamp(0));
        raw
          .prepare(
            `INSERT INTO handoffs (id, agent_id, created_at, focus, refs, prompt_sha256, prompt, max_candidates, expires_at) VALUES (?, ?, ?, 'f', '{}', 'x', 'p', 3, ?)`,
          )
          .run(`hof_${agent}`, agent, stamp(0), stamp(9999));
      }
      for (const [id, agent, kind, parent] of RUNS) {
        raw
          .prepare(`INSERT INTO runs (id, kind, agent_id, started_at, status, parent_run_id) VALUES (?, ?, ?, ?, 'completed', ?)`)
          .run(id, kind, agent, stamp(1), parent);
      }
    })();
    const rowids = raw.prepare('SELECT id, rowid FROM memories ORDER BY rowid').all();
    raw.close();

    const progress: [string, number, number][] = [];
    const store = await openStore({ path, onProgress: (step, done, total) => progress.push([step, done, total]) });
    try {
      expectUpgraded(await snapshotOf(store), progress);
      const db = new Database(path, { readonly: true });
      try {
        expect(db.prepare('SELECT id, rowid FROM memories ORDER BY rowid').all()).toEqual(rowids);
        // FTS5's own check of the index against the rebuilt table.
        expect(() => db.prepare("INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)").run()).toThrow(/readonly/);
        // store_runs holds no agent at all.
        expect(db.prepare("SELECT count(*) AS n FROM pragma_table_info('store_runs') WHERE name = 'agent_id'").get()).toEqual({ n: 0 });
        expect(db.prepare('SELECT count(*) AS n FROM store_runs').get()).toEqual({ n: 2 });
        expect(db.prepare("SELECT name, pk FROM pragma_table_info('candidates') WHERE pk > 0 ORDER BY pk").all()).toEqual([
          { name: 'agent_id', pk: 1 },
          { name: 'id', pk: 2 },
        ]);
      } finally {
        db.close();
      }
      const writable = new Database(path);
      try {
        expect(() => writable.prepare("INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
      } finally {
        writable.close();
      }
    } finally {
      await store.close();
    }
  });
});

describe('upgrading a PostgreSQL store of schema 5 to keys by agent, hash-partitioned (migration 6)', () => {
  it('rebuilds the tables partitioned with every row kept, seq and its sequence too, reporting progress', async () => {
    const { freshDatabase, withClient } = await import('../../helpers/postgres.js');
    const { POSTGRES_MIGRATIONS, SCHEMA_TABLE_SQL } = await import('../../../src/core/store/postgres/schema.js');
    const database = await freshDatabase();
    try {
      let seqs: unknown[] = [];
      await withClient(database.url, async (client) => {
        await client.query('CREATE EXTENSION IF NOT EXISTS unaccent');
        await client.query(SCHEMA_TABLE_SQL);
        for (const migration of POSTGRES_MIGRATIONS.slice(0, 5)) await client.query((migration as string).replaceAll('{{unaccent}}', 'public.unaccent'));
        await client.query("INSERT INTO hippo_schema (application, version) VALUES ('hippo', 5)");
        const rows: unknown[][] = Array.from({ length: PER_AGENT }, (_, index) => AGENTS.map((agent) => seed.memory(agent, index))).flat();
        const column = (at: number) => rows.map((row) => row[at]);
        await client.query(
          `INSERT INTO memories (id, agent_id, content, created_at, updated_at, content_hash, thread, archived_at)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::text[], $7::text[], $8::timestamptz[])`,
          [0, 1, 2, 3, 4, 5, 6, 7].map(column),
        );
        for (const agent of AGENTS) {
          await client.query(
            `INSERT INTO candidates (id, agent_id, claim, claim_norm, source_memory_ids, generated_by, provider, generated_at, run_id, prompt_sha256, prompt)
             VALUES ($1, $2, 'a claim', 'a claim', '{}', 'm', 'p', $3, 'run_bo', 'x', 'prompt')`,
            [`cand_${agent}`, agent, stamp(0)],
          );
          await client.query(
            `INSERT INTO handoffs (id, agent_id, created_at, focus, refs, prompt_sha256, prompt, max_candidates, expires_at) VALUES ($1, $2, $3, 'f', '{}', 'x', 'p', 3, $4)`,
            [`hof_${agent}`, agent, stamp(0), stamp(9999)],
          );
        }
        for (const [id, agent, kind, parent] of RUNS) {
          await client.query(`INSERT INTO runs (id, kind, agent_id, started_at, status, parent_run_id) VALUES ($1, $2, $3, $4, 'completed', $5)`, [
            id,
            kind,
            agent,
            stamp(1),
            parent,
          ]);
        }
        seqs = (await client.query('SELECT id, seq FROM memories ORDER BY seq')).rows;
      });

      const progress: [string, number, number][] = [];
      const store = await openStore({
        url: database.url,
        env: { ...process.env, HIPPO_PG_PARTITIONS: '4' },
        onProgress: (step, done, total) => progress.push([step, done, total]),
      });
      try {
        expectUpgraded(await snapshotOf(store), progress);
        // A new memory continues the old sequence.
        await store.memories.insert({ ...(await store.memories.get('ana', 'mem_ana_00000000000000000001'))!, id: 'mem_new' });
      } finally {
        await store.close();
      }
      await withClient(database.url, async (client) => {
        expect((await client.query("SELECT id, seq FROM memories WHERE id <> 'mem_new' ORDER BY seq")).rows).toEqual(seqs);
        const last = (await client.query("SELECT seq FROM memories WHERE id = 'mem_new'")).rows[0]!.seq;
        expect(Number(last)).toBeGreaterThan(Math.max(...seqs.map((row) => Number((row as { seq: string }).seq))));
        const { rows: parts } = await client.query(
          `SELECT c.relname AS table, (SELECT count(*)::int FROM pg_inherits i WHERE i.inhparent = c.oid) AS n
           FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid ORDER BY 1`,
        );
        // Issue 29's tables, created after the rebuild, take the store's count too.
        expect(parts).toEqual(['candidates', 'forget_receipts', 'handoffs', 'memories', 'read_audit', 'runs'].map((table) => ({ table, n: 4 })));
        expect((await client.query('SELECT count(*)::int AS n FROM store_runs')).rows).toEqual([{ n: 2 }]);
        // No old table is left behind.
        expect((await client.query("SELECT relname FROM pg_class WHERE relname LIKE '%\\_v5%'")).rows).toEqual([]);
      });
    } finally {
      await database.drop();
    }
  });
});
