/**
 * `hippo db copy` and `hippo db check` through the built CLI, between a SQLite file and a fresh PostgreSQL database
 * (both directions), and what a team store must survive on PostgreSQL: two reviewers promoting one candidate, two
 * nightlies at once, kill -9 in the middle of an import and of a copy, a server that cannot be reached, a wrong
 * password (never printed).
 */
import { execa } from 'execa';
import Database from 'better-sqlite3';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse as parseShell } from 'shell-quote';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/core/store/store.js';
import { BIN, engineSandbox, json, sandbox, type EngineSandbox } from '../helpers/cli.js';
import { reply, useModelServer } from '../helpers/model-server.js';
import { freePort, freshDatabase, withClient, type FreshDatabase } from '../helpers/postgres.js';

const server = useModelServer({ per: 'suite' });
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function pgBox(): Promise<EngineSandbox> {
  const box = await engineSandbox('postgres');
  cleanups.push(() => box.dispose());
  return box;
}

async function database(): Promise<FreshDatabase> {
  const fresh = await freshDatabase();
  cleanups.push(() => fresh.drop());
  return fresh;
}

interface CheckJson {
  engine: string;
  location: string;
  schemaVersion: number;
  counts: Record<string, number>;
  tables: { table: string; rows: number; sha256: string }[];
}
interface CopyJson {
  from: { engine: string; location: string };
  to: { engine: string; location: string };
  tables: { table: string; rows: number; sha256: string }[];
  rows: number;
  verified: boolean;
}

const modelEnv = () => ({ HIPPO_MODEL: 'ollama:test-model', HIPPO_BASE_URL: server.baseUrl('ollama') });

/** A SQLite store with memories of two agents, a promoted and a pending candidate, runs, a handoff and a pause. */
async function filledSqlite(box: ReturnType<typeof sandbox>): Promise<void> {
  expect((await box.hippo(['demo'])).exitCode).toBe(0);
  server.respondWith(
    reply.json({
      candidates: [
        { claim: 'Billing jobs move at night.', sources: ['m1'] },
        { claim: 'Deploys stall.', sources: ['m2'] },
      ],
    }),
  );
  const rapid = json<{ candidates: { id: string }[] }>(
    await box.hippo(['rem', 'rapid', '--json', '--agent', 'ops-agent', '--scope', 'all'], { env: modelEnv() }),
  );
  expect(rapid.candidates).toHaveLength(2);
  expect((await box.hippo(['rem', 'promote', rapid.candidates[0]!.id, '--agent', 'ops-agent', '--rationale', 'seen twice'])).exitCode).toBe(0);
  expect((await box.hippo(['rem', 'rapid', '--prompt-only', '--agent', 'ops-agent', '--scope', 'all'])).exitCode).toBe(0);
  expect((await box.hippo(['memory', 'add', 'Ünïcode, "quotes", tabs\tand\nnew lines.', '--tag', 'odd', '--agent', 'x'])).exitCode).toBe(0);
  expect((await box.hippo(['rem', 'pause'])).exitCode).toBe(0);
}

describe('hippo db copy and db check', { timeout: 900_000 }, () => {
  it('copies SQLite → PostgreSQL → SQLite losslessly: every table the same count and content hash, the lock never copied', async () => {
    const box = sandbox();
    cleanups.push(() => box.cleanup());
    await filledSqlite(box);
    // A nightly lock's record in the source (a crashed run's) must not travel.
    const source = await openStore({ path: box.db });
    await source.settings.set(
      'nightly.lock',
      JSON.stringify({ pid: 1, hostname: 'elsewhere', runId: 'run_x', kind: 'rem nightly run-once', startedAt: new Date().toISOString() }),
    );
    await source.close();

    const sqliteCheck = json<CheckJson>(await box.hippo(['db', 'check', '--json']));
    expect(sqliteCheck).toMatchObject({ engine: 'sqlite', location: box.db });
    const pg = await database();
    const copied = await box.hippo(['db', 'copy', box.db, pg.url, '--json']);
    expect(copied.exitCode, String(copied.stderr)).toBe(0);
    const copy = json<CopyJson>(copied);
    expect(copy).toMatchObject({ from: { engine: 'sqlite', location: box.db }, to: { engine: 'postgres' }, verified: true });
    expect(copy.to.location).toMatch(/^postgres:\/\/[^:@]+:\*\*\*@127\.0\.0\.1:\d+\//);
    expect(String(copied.stdout) + String(copied.stderr)).not.toContain(new URL(pg.url).password);

    const pgCheck = json<CheckJson>(await box.hippo(['db', 'check', '--json', '--db', pg.url]));
    expect(pgCheck.engine).toBe('postgres');
    // Every table's rows and hash are identical (a check leaves the lock's record out); the record itself stayed behind.
    expect(pgCheck.tables).toEqual(sqliteCheck.tables);
    expect(copy.tables).toEqual(pgCheck.tables);
    expect([sqliteCheck.counts.settings, pgCheck.counts.settings]).toEqual([2, 1]);
    expect(pgCheck.counts.memories).toBeGreaterThan(50);
    expect(pgCheck.counts.candidates).toBe(2);
    expect(pgCheck.counts.handoffs).toBe(1);

    // Commands read the copy as they read the original.
    const search = (db: string) => box.hippo(['search', 'billing cron', '--agent', 'ops-agent', '--json', '--db', db]);
    const ids = (result: Awaited<ReturnType<typeof search>>) => json<{ results: { memory: { id: string } }[] }>(result).results.map((hit) => hit.memory.id);
    // As many hits and the same top one; the order below it is each engine's ranking (docs/postgres.md).
    const [onPostgres, onSqlite] = [ids(await search(pg.url)), ids(await search(box.db))];
    expect(onPostgres[0]).toBe(onSqlite[0]);
    expect(onPostgres.length).toBe(onSqlite.length);
    // The pause travelled with the settings: a night on the copy is paused, as it would be on the original.
    const paused = await box.hippo(['rem', 'nightly', 'run-once', '--json', '--db', pg.url], { env: modelEnv() });
    expect(paused.exitCode).toBe(0);
    expect(json<{ run: { status: string } }>(paused).run.status).toBe('paused');

    // And back: PostgreSQL → a new SQLite file, the same hashes again.
    const back = join(box.dir, 'back', 'hippo.db');
    const returned = await box.hippo(['db', 'copy', pg.url, back, '--json']);
    expect(returned.exitCode, String(returned.stderr)).toBe(0);
    const backCheck = json<CheckJson>(await box.hippo(['db', 'check', '--json', '--db', back]));
    // (The searches bumped retrieval counters and the paused night added a run row: compared with the copy as it is now.)
    expect(backCheck.tables).toEqual(json<CheckJson>(await box.hippo(['db', 'check', '--json', '--db', pg.url])).tables);
  });

  it('says which MCP tokens it left behind, both ways, with the command that creates each anew on the copy', async () => {
    const box = sandbox();
    cleanups.push(() => box.cleanup());
    expect((await box.hippo(['memory', 'add', 'a note', '--agent', 'ops'])).exitCode).toBe(0);
    for (const args of [
      ['--agent', 'ops', '--label', 'ci runner'],
      ['--agent', 'ops'],
      ['--agent', 'alice', '--label', 'laptop'],
    ]) {
      expect((await box.hippo(['mcp', 'token', 'create', ...args])).exitCode).toBe(0);
    }
    const revoked = json<{ token: { id: string } }>(await box.hippo(['mcp', 'token', 'create', '--agent', 'bob', '--json']));
    expect((await box.hippo(['mcp', 'token', 'revoke', revoked.token.id])).exitCode).toBe(0);

    // SQLite → PostgreSQL: named in --json and in the text, with a command per live token.
    const pg = await database();
    const copied = await box.hippo(['db', 'copy', box.db, pg.url, '--json']);
    expect(copied.exitCode, String(copied.stderr)).toBe(0);
    expect(json<CopyJson & { tokensNotCopied: unknown }>(copied).tokensNotCopied).toEqual({
      live: 3,
      agents: [
        { agentId: 'alice', labels: ['laptop'] },
        { agentId: 'ops', labels: ['ci runner', null] },
      ],
    });
    const pgAgain = await database();
    const text = await box.hippo(['db', 'copy', box.db, pgAgain.url]);
    expect(text.exitCode).toBe(0);
    expect(String(text.stdout)).toContain('MCP tokens are not copied');
    const target = new URL(pgAgain.url);
    target.password = '';
    const commands = String(text.stdout)
      .split('\n')
      .filter((line) => line.startsWith('  hippo mcp token create'));
    expect(commands).toEqual([
      `  hippo mcp token create --label laptop --agent alice --db ${target.href}`,
      `  hippo mcp token create --label 'ci runner' --agent ops --db ${target.href}`,
      `  hippo mcp token create --agent ops --db ${target.href}`,
    ]);
    expect(text.stdout).not.toContain(new URL(pg.url).password);
    // The printed command works as written (the password from the environment, as libpq finds it).
    const [, ...words] = parseShell(commands[0]!.trim()) as string[];
    const created = await execa('node', [BIN, ...words], { env: { ...box.env, PGPASSWORD: new URL(pg.url).password }, reject: false });
    expect(created.exitCode, String(created.stderr)).toBe(0);
    expect(json<{ tokens: unknown[] }>(await box.hippo(['mcp', 'token', 'list', '--json', '--db', pgAgain.url])).tokens).toHaveLength(1);

    // PostgreSQL → SQLite: the one token made there is left behind too.
    const back = join(box.dir, 'back.db');
    const returned = await box.hippo(['db', 'copy', pgAgain.url, back, '--json']);
    expect(returned.exitCode, String(returned.stderr)).toBe(0);
    expect(json<{ tokensNotCopied: unknown }>(returned).tokensNotCopied).toEqual({ live: 1, agents: [{ agentId: 'alice', labels: ['laptop'] }] });
    expect(json<{ tokens: unknown[] }>(await box.hippo(['mcp', 'token', 'list', '--json', '--db', back])).tokens).toEqual([]);
  });

  it('refuses a target that is not empty (exit 4), the same store twice (exit 2), a source that does not exist (exit 3)', async () => {
    const box = await pgBox();
    expect((await box.hippo(['memory', 'add', 'already here'])).exitCode).toBe(0);
    const file = join(box.dir, 'src.db');
    expect((await box.hippo(['memory', 'add', 'to copy', '--db', file])).exitCode).toBe(0);

    const full = await box.hippo(['db', 'copy', file, box.db, '--json']);
    expect(full.exitCode).toBe(4);
    expect(json<{ error: { code: string; details: { counts: Record<string, number> } } }>(full).error).toMatchObject({
      code: 'copy_target_not_empty',
      details: { counts: { memories: 1 } },
    });
    const text = await box.hippo(['db', 'copy', file, box.db]);
    expect(text.exitCode).toBe(4);
    expect(text.stderr).toMatch(/^Error: the target store is not empty \(1 memories\); nothing was copied/);
    expect(text.stderr).not.toContain(new URL(box.db).password);
    expect(json<{ memories: unknown[] }>(await box.hippo(['memory', 'list', '--json'])).memories).toHaveLength(1);

    expect((await box.hippo(['db', 'copy', file, file, '--json'])).exitCode).toBe(2);
    expect((await box.hippo(['db', 'copy', box.db, box.db, '--json'])).exitCode).toBe(2);
    const missing = await box.hippo(['db', 'copy', join(box.dir, 'nothing.db'), join(box.dir, 'new.db'), '--json']);
    expect(missing.exitCode).toBe(3);
    expect(existsSync(join(box.dir, 'nothing.db'))).toBe(false);
    // FROM is an argument: the message does not send the user to --db or HIPPO_DB.
    const missingText = await box.hippo(['db', 'copy', join(box.dir, 'nothing.db'), join(box.dir, 'new.db')]);
    expect(missingText.exitCode).toBe(3);
    expect(missingText.stderr).toContain('there is no store at');
    expect(missingText.stderr).not.toMatch(/--db|HIPPO_DB/);
  });
});

/** Polls the server until a COPY … FROM STDIN into `database` is running (or fails after the timeout). */
async function waitForCopy(serverUrl: string, databaseName: string, timeoutMs = 120_000): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const running = await withClient(serverUrl, async (client) => {
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND query ILIKE 'COPY %FROM STDIN%'",
        [databaseName],
      );
      return rows[0]!.n > 0;
    });
    if (running) return;
    await sleep(20);
  }
  throw new Error('no COPY started in time');
}

async function memoryCount(url: string): Promise<number> {
  return withClient(url, async (client) => Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM memories')).rows[0]!.n));
}

describe('a team store on PostgreSQL: concurrency, crashes, unreachable servers', { timeout: 900_000 }, () => {
  it('two reviewers promoting the same candidate at once: exactly one wins, the other exits 4', async () => {
    const box = await pgBox();
    for (const note of ['Deploy stalled on a migration lock.', 'Migrations run on Tuesdays.']) {
      expect((await box.hippo(['memory', 'add', note, '--agent', 'ops'])).exitCode).toBe(0);
    }
    server.respondWith(reply.json({ candidates: [1, 2, 3].map((n) => ({ claim: `Lesson ${n}.`, sources: ['m1'] })) }));
    const { candidates } = json<{ candidates: { id: string }[] }>(await box.hippo(['rem', 'rapid', '--json', '--agent', 'ops'], { env: modelEnv() }));
    expect(candidates).toHaveLength(3);
    for (const candidate of candidates) {
      const promote = (who: string) => box.hippo(['rem', 'promote', candidate.id, '--agent', 'ops', '--rationale', `by ${who}`, '--reviewer', who, '--json']);
      const results = await Promise.all([promote('ana'), promote('ben')]);
      expect(results.map((result) => result.exitCode).sort()).toEqual([0, 4]);
      const loser = results.find((result) => result.exitCode === 4)!;
      expect(json<{ error: { code: string } }>(loser).error.code).toMatch(/already|decided|not_pending/);
    }
    const promoted = json<{ memories: { promotedFrom: string | null }[] }>(await box.hippo(['memory', 'list', '--agent', 'ops', '--json']));
    expect(promoted.memories.filter((memory) => memory.promotedFrom)).toHaveLength(3);
  });

  it('two nightlies at once: one runs, the other exits 4 at once', async () => {
    const box = await pgBox();
    expect((await box.hippo(['memory', 'add', 'Deploy stalled on a migration lock.', '--agent', 'ops'])).exitCode).toBe(0);
    server.respondWith(reply.slow(20_000, reply.json({ candidates: [] })));
    const night = () => box.hippo(['rem', 'nightly', 'run-once', '--json'], { env: modelEnv() });
    const before = server.requests.length;
    const first = night();
    // The second starts once the first holds the lock (its model call is in flight).
    const started = Date.now();
    while (server.requests.length === before && Date.now() - started < 120_000) await sleep(50);
    expect(server.requests.length).toBeGreaterThan(before);
    const second = await night();
    expect(second.exitCode).toBe(4);
    expect(json<{ error: { code: string } }>(second).error.code).toBe('nightly_running');
    expect((await first).exitCode).toBe(0);
  });

  it('kill -9 during an import and during a db copy leaves nothing half-done; a rerun completes', async () => {
    const box = await pgBox();
    const lines = Array.from({ length: 30_000 }, (_, index) => JSON.stringify({ content: `Note ${index}: the billing cron moved to ${index % 24}:30.` }));
    const file = join(box.dir, 'many.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const dbName = new URL(box.db).pathname.slice(1);
    const serverUrl = box.db.replace(/\/[^/?]+(\?.*)?$/, '/postgres');

    const importing = execa('node', [BIN, 'memory', 'import', file, '--json'], { env: { ...box.env }, reject: false });
    await waitForCopy(serverUrl, dbName);
    importing.kill('SIGKILL');
    expect((await importing).signal).toBe('SIGKILL');
    expect(await memoryCount(box.db)).toBe(0);
    const rerun = await box.hippo(['memory', 'import', file, '--json']);
    expect(rerun.exitCode).toBe(0);
    expect(await memoryCount(box.db)).toBe(30_000);

    const target = await database();
    const copying = execa('node', [BIN, 'db', 'copy', box.db, target.url, '--json'], { env: { ...box.env }, reject: false });
    await waitForCopy(serverUrl, target.name);
    copying.kill('SIGKILL');
    expect((await copying).signal).toBe('SIGKILL');
    expect(await memoryCount(target.url)).toBe(0);
    const again = await box.hippo(['db', 'copy', box.db, target.url, '--json']);
    expect(again.exitCode, String(again.stderr)).toBe(0);
    expect(await memoryCount(target.url)).toBe(30_000);
  });

  it('Ctrl-C during db copy: exit 130, "interrupted" said once, then what was left behind; the target stays empty', async () => {
    const box = sandbox();
    cleanups.push(() => box.cleanup());
    const lines = Array.from({ length: 20_000 }, (_, index) => JSON.stringify({ content: `Note ${index}: the invoice job moved to ${index % 24}:15.` }));
    const file = join(box.dir, 'many.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    expect((await box.hippo(['memory', 'import', file])).exitCode).toBe(0);
    const target = await database();
    const serverUrl = target.url.replace(/\/[^/?]+(\?.*)?$/, '/postgres');
    const copying = execa('node', [BIN, 'db', 'copy', box.db, target.url], { env: { ...box.env }, reject: false });
    await waitForCopy(serverUrl, target.name);
    copying.kill('SIGINT');
    const result = await copying;
    expect(result.exitCode).toBe(130);
    const stderr = String(result.stderr);
    expect(stderr.match(/interrupted/g), stderr).toEqual(['interrupted']);
    expect(stderr).toContain('Error: interrupted: the copy was stopped before it finished: nothing was copied');
    expect(await memoryCount(target.url)).toBe(0);
  });

  it('a NUL character in a SQLite memory: db copy to PostgreSQL refuses (exit 2) naming the memory, never its text; nothing copied', async () => {
    const box = sandbox();
    cleanups.push(() => box.cleanup());
    const added = json<{ memory: { id: string } }>(await box.hippo(['memory', 'add', 'secret words around a NUL', '--json']));
    expect((await box.hippo(['memory', 'add', 'a clean one'])).exitCode).toBe(0);
    const raw = new Database(box.db);
    raw.prepare("UPDATE memories SET content = 'secret words' || char(0) || 'around a NUL' WHERE id = ?").run(added.memory.id);
    raw.close();
    const target = await database();
    const copy = await box.hippo(['db', 'copy', box.db, target.url, '--json']);
    expect(copy.exitCode).toBe(2);
    const { error } = json<{ error: { code: string; message: string; details: Record<string, unknown> } }>(copy);
    expect(error).toMatchObject({ code: 'nul_in_text', details: { table: 'memories', key: added.memory.id, field: 'memories.content' } });
    expect(error.message).toContain(`memories.content of "${added.memory.id}" contains a NUL character`);
    const text = await box.hippo(['db', 'copy', box.db, target.url]);
    expect(text.exitCode).toBe(2);
    expect(String(text.stderr)).toContain(added.memory.id);
    expect(String(text.stdout) + String(text.stderr) + String(copy.stdout)).not.toContain('secret words');
    expect(await memoryCount(target.url)).toBe(0);
  });

  it('config db names the store when neither --db nor HIPPO_DB does; a password in it is refused', async () => {
    const box = await pgBox();
    const url = new URL(box.db);
    const password = decodeURIComponent(url.password);
    const refused = await box.hippo(['config', 'set', 'db', box.db, '--json']);
    expect(refused.exitCode).toBe(2);
    expect(String(refused.stdout) + String(refused.stderr)).not.toContain(password);
    url.password = '';
    expect((await box.hippo(['config', 'set', 'db', url.toString()])).exitCode).toBe(0);
    const env = { HIPPO_DB: undefined as unknown as string, PGPASSWORD: password };
    const added = await box.hippo(['memory', 'add', 'Stored through the config file.', '--json'], { env });
    expect(added.exitCode, String(added.stderr)).toBe(0);
    const listed = json<{ memories: { content: string }[] }>(await box.hippo(['memory', 'list', '--json']));
    expect(listed.memories.map((memory) => memory.content)).toEqual(['Stored through the config file.']);
    const schedule = await box.hippo(['rem', 'nightly', 'schedule', '--json'], { env });
    expect(json<{ cron: string; backup: { cron: string } }>(schedule).backup.cron).toContain('pg_dump --format=custom');
    expect(String(schedule.stdout)).not.toContain(password);
  });

  it('hints name a PostgreSQL store without its password, and the line pasted in another shell works with PGPASSWORD', async () => {
    const box = await pgBox();
    const password = decodeURIComponent(new URL(box.db).password);
    expect((await box.hippo(['memory', 'add', 'Migrations run on Tuesday mornings.', '--agent', 'ops'])).exitCode).toBe(0);
    const handoff = await box.hippo(['rem', 'rapid', '--prompt-only', '--agent', 'ops']);
    expect(handoff.exitCode, String(handoff.stderr)).toBe(0);
    expect(String(handoff.stdout) + String(handoff.stderr)).not.toContain(password);
    const line = String(handoff.stderr)
      .split('\n')
      .map((text) => /(?:^|\s)(hippo rem ingest .*)$/.exec(text.trim())?.[1])
      .find((text) => text !== undefined);
    const withoutPassword = new URL(box.db);
    withoutPassword.password = '';
    expect(line).toMatch(/^hippo rem ingest hof_\w{26} answer\.json --agent ops --db \S+$/);
    // The URL whole, as a person would write it: no backslash before its ':' and '@'.
    expect(line).not.toContain('\\');
    const words = parseShell(line!) as string[];
    expect(new URL(words[words.indexOf('--db') + 1]!).toString()).toBe(withoutPassword.toString());
    writeFileSync(join(box.dir, 'answer.json'), '{"candidates":[{"claim":"Migrations belong on Tuesdays.","sources":["m1"]}]}');
    // Another shell: no HIPPO_DB; the password where libpq looks for it.
    const pasted = await execa('sh', ['-c', line!.replace(/^hippo /, `node ${BIN} `)], {
      reject: false,
      cwd: box.dir,
      env: { ...box.env, HIPPO_DB: undefined, PGPASSWORD: password },
      extendEnv: true,
      input: '',
    });
    expect(pasted.exitCode, String(pasted.stderr)).toBe(0);
    expect(String(pasted.stdout) + String(pasted.stderr)).not.toContain(password);
  });

  it('a server that cannot be reached, or refuses the password: exit 8 naming host, port and database, the password never printed', async () => {
    const box = sandbox();
    cleanups.push(() => box.cleanup());
    const port = await freePort();
    const secret = 'Sup3r-S3cret-pw';
    const unreachable = `postgres://hippo:${secret}@127.0.0.1:${port}/teamdb`;
    for (const args of [
      ['memory', 'list'],
      ['memory', 'list', '--json'],
      ['db', 'check', '--json'],
    ]) {
      const result = await box.hippo([...args, '--db', unreachable]);
      expect(result.exitCode, args.join(' ')).toBe(8);
      const out = String(result.stdout) + String(result.stderr);
      expect(out).not.toContain(secret);
      expect(out).toContain(`127.0.0.1:${port}`);
      expect(out).toContain('teamdb');
      if (args.includes('--json')) expect(json<{ error: { code: string } }>(result).error.code).toBe('store_unavailable');
    }

    const pg = await database();
    const url = new URL(pg.url);
    url.password = secret;
    for (const env of [{ HIPPO_DB: url.toString() }, { HIPPO_DB: pg.url.replace(/:[^:@/]+@/, '@'), PGPASSWORD: secret }]) {
      for (const json of [false, true]) {
        const result = await box.hippo(['search', 'x', ...(json ? ['--json'] : [])], { env });
        expect(result.exitCode).toBe(8);
        const out = String(result.stdout) + String(result.stderr);
        expect(out).not.toContain(secret);
        expect(out).toMatch(/password/i);
        expect(out).toContain(pg.name);
      }
    }
    // A malformed URL is a usage error (exit 2), the URL not echoed.
    const bad = await box.hippo(['memory', 'list', '--json', '--db', `postgres://hippo:${secret}@127.0.0.1:99999/x`]);
    expect(bad.exitCode).toBe(2);
    expect(json<{ error: { code: string } }>(bad).error.code).toBe('bad_postgres_url');
    expect(String(bad.stdout) + String(bad.stderr)).not.toContain(secret);
  });
});
