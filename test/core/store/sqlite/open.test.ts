import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode, HippoError } from '../../../../src/core/errors.js';
import { openSqliteStore } from '../../../../src/core/store/sqlite/adapter.js';
import { APPLICATION_ID, MIGRATIONS, migrationSql, SCHEMA_VERSION } from '../../../../src/core/store/sqlite/migrations.js';

let dir: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hippo-open-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function expectUsageError(fn: () => unknown, code: string): Promise<void> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HippoError);
    expect((error as HippoError).code).toBe(code);
    expect((error as HippoError).exitCode).toBe(ExitCode.usage);
    return;
  }
  throw new Error(`expected a ${code} error`);
}

describe('opening a SQLite store', () => {
  it('creates the file 0600 in a new 0700 directory, in WAL mode, at the current schema', async () => {
    const path = join(dir, 'nested', 'hippo', 'hippo.db');
    const store = await openSqliteStore({ path });
    try {
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'nested', 'hippo')).mode & 0o777).toBe(0o700);
      expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(store.db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
      expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(Number(store.db.pragma('busy_timeout', { simple: true }))).toBeGreaterThanOrEqual(5000);
    } finally {
      await store.close();
    }
  });

  it('reopens an existing database without migrating it again', async () => {
    const path = join(dir, 'hippo.db');
    const first = await openSqliteStore({ path });
    first.db.prepare("INSERT INTO settings (key, value) VALUES ('k', 'v')").run();
    await first.close();
    const second = await openSqliteStore({ path });
    expect(second.db.prepare('SELECT value FROM settings').pluck().get()).toBe('v');
    await second.close();
  });

  it('migrates a schema-2 database to 3: the runs table rebuilt with every row and index, and the status interrupted allowed', async () => {
    const path = join(dir, 'hippo.db');
    const raw = new Database(path);
    raw.exec(migrationSql(MIGRATIONS[0]!) + migrationSql(MIGRATIONS[1]!));
    raw.pragma(`application_id = ${APPLICATION_ID}`);
    raw.pragma('user_version = 2');
    const insert = raw.prepare(
      'INSERT INTO runs (id, kind, agent_id, started_at, finished_at, status, counts, errors, parent_run_id, steps) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    insert.run('run_a', 'rem rapid', 'ops', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z', 'completed', '{"staged":2}', '[]', null, '{}');
    insert.run('run_b', 'rem nightly run-once', null, '2026-01-02T00:00:00.000Z', null, 'failed', '{}', '["interrupted"]', null, '{"lock":"acquired"}');
    insert.run('run_c', 'rem nightly run-once', 'ops', '2026-01-02T00:00:01.000Z', null, 'failed', '{}', '["model_unreachable"]', 'run_b', '{}');
    expect(() => insert.run('run_d', 'rem rapid', 'ops', '2026-01-03T00:00:00.000Z', null, 'interrupted', '{}', '[]', null, '{}')).toThrow(/CHECK/);
    const before = raw.prepare('SELECT * FROM runs ORDER BY id').all() as Record<string, unknown>[];
    raw.close();

    const store = await openSqliteStore({ path });
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      // Migration 9 keeps the runs over every agent apart (store_runs): both tables read together, in the old columns.
      const columns = [...Object.keys(before[0]!), 'memory_ids'];
      const withAgent = columns.join(', ');
      const withoutAgent = columns.map((name) => (name === 'agent_id' ? 'NULL AS agent_id' : name)).join(', ');
      const after = store.db
        .prepare(`SELECT * FROM (SELECT ${withAgent} FROM runs UNION ALL SELECT ${withoutAgent} FROM store_runs) ORDER BY id`)
        .all() as Record<string, unknown>[];
      // Every row and column kept (migration 5 adds memory_ids after them); the old way of recording an interruption
      // now says so.
      expect(after.map((row) => Object.keys(row))).toEqual(before.map((row) => [...Object.keys(row), 'memory_ids']));
      expect(after).toEqual(before.map((row) => ({ ...row, ...(row.id === 'run_b' ? { status: 'interrupted' } : {}), memory_ids: '[]' })));
      const indexes = store.db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'runs' AND sql IS NOT NULL ORDER BY name")
        .pluck()
        .all();
      expect(indexes).toEqual(['runs_agent_started', 'runs_parent']);
      store.db
        .prepare("INSERT INTO runs (id, kind, agent_id, started_at, status) VALUES ('run_e', 'rem rapid', 'ops', '2026-01-04T00:00:00.000Z', 'interrupted')")
        .run();
      expect(() => store.db.prepare("UPDATE runs SET status = 'gone' WHERE id = 'run_e'").run()).toThrow(/CHECK/);
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      await store.close();
    }
  });

  it('refuses a database written by a newer hippo and leaves it unchanged', async () => {
    const path = join(dir, 'hippo.db');
    await (await openSqliteStore({ path })).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const before = readFileSync(path);
    await expectUsageError(() => openSqliteStore({ path }), 'database_too_new');
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("refuses a SQLite database that is not hippo's and leaves it unchanged", async () => {
    const path = join(dir, 'other.db');
    const raw = new Database(path);
    raw.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')");
    raw.close();
    const before = readFileSync(path);
    await expectUsageError(() => openSqliteStore({ path }), 'not_a_hippo_database');
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a file that is not SQLite at all, and a directory', async () => {
    const path = join(dir, 'notes.txt');
    writeFileSync(path, 'just some text, definitely not a database header\n'.repeat(100));
    await expectUsageError(() => openSqliteStore({ path }), 'not_a_database');
    expect(readFileSync(path, 'utf8')).toContain('just some text');
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    await expectUsageError(() => openSqliteStore({ path: folder }), 'not_a_database');
  });

  it('keeps the FTS index in sync through triggers on insert, update and delete', async () => {
    const store = await openSqliteStore({ path: join(dir, 'hippo.db') });
    const insert = store.db.prepare(
      "INSERT INTO memories (id, agent_id, content, created_at, updated_at, content_hash) VALUES (?, 'a', ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'h')",
    );
    insert.run('mem_1', 'the zebra crossed');
    const count = (term: string): number => store.db.prepare('SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?').pluck().get(term) as number;
    expect(count('zebra')).toBe(1);
    store.db.prepare("UPDATE memories SET content = 'the giraffe crossed' WHERE id = 'mem_1'").run();
    expect(count('zebra')).toBe(0);
    expect(count('giraffe')).toBe(1);
    store.db.prepare("DELETE FROM memories WHERE id = 'mem_1'").run();
    expect(count('giraffe')).toBe(0);
    // FTS5's integrity-check with rank 1 also compares the index with the external content table (the memories rows)
    // and throws SQLITE_CORRUPT_VTAB on any mismatch.
    const integrityCheck = () => store.db.prepare("INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)").run();
    expect(integrityCheck).not.toThrow();
    // Control: an index entry written behind the triggers' back (no such memory row) is caught by the same check.
    store.db.prepare("INSERT INTO memories_fts (rowid, content, tags, subject, agent_id) VALUES (999, 'phantom', '', '', 'a')").run();
    expect(integrityCheck).toThrow();
    await store.close();
  });
});
