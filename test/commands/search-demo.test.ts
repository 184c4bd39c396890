import Database from 'better-sqlite3';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

/** Every file under `dir` (relative path → bytes, hex-encoded so a difference shows in the diff). */
function contentsOf(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return new Map(
    files
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
      .sort()
      .map((path) => [path, readFileSync(join(dir, path)).toString('hex')]),
  );
}

interface SearchJson {
  results: { memory: { id: string; content: string; agentId: string; retrievalCount: number }; score: number; snippet: string }[];
  facts: unknown[];
}

describe('hippo demo', () => {
  it('loads two agents with recent notes, then finds it already loaded instead of duplicating', async () => {
    const first = await box.hippo(['demo', '--json']);
    expect(first.exitCode).toBe(0);
    const loaded = json<{ status: string; memories: number; agents: { agentId: string; memories: number; newest: string }[] }>(first);
    expect(loaded.status).toBe('loaded');
    expect(loaded.memories).toBeGreaterThanOrEqual(150);
    expect(loaded.agents).toHaveLength(2);
    for (const agent of loaded.agents) expect(Date.now() - Date.parse(agent.newest)).toBeLessThan(24 * 3_600_000);
    const second = json<{ status: string; memories: number }>(await box.hippo(['demo', '--json']));
    expect(second).toMatchObject({ status: 'already-loaded', memories: loaded.memories });
  });

  it('refuses a database with other memories (exit 4), and --force needs --yes without a terminal', async () => {
    await box.hippo(['memory', 'add', 'my own note']);
    const refused = await box.hippo(['demo', '--json']);
    expect(refused.exitCode).toBe(4);
    expect(json<{ error: { code: string } }>(refused).error.code).toBe('database_not_empty');
    const noYes = await box.hippo(['demo', '--force']);
    expect(noYes.exitCode).toBe(2);
    expect(String(noYes.stderr)).toContain('--yes');
    const forced = await box.hippo(['demo', '--force', '--yes', '--json']);
    expect(forced.exitCode).toBe(0);
    const again = json<{ memories: number; replaced: number }>(await box.hippo(['demo', '--force', '--yes', '--json']));
    expect(again.replaced).toBe(again.memories);
    const mine = json<{ memories: { content: string }[] }>(await box.hippo(['memory', 'list', '--json']));
    expect(mine.memories.map((memory) => memory.content)).toEqual(['my own note']);
  });
});

describe('hippo search (built CLI)', () => {
  beforeEach(async () => {
    expect((await box.hippo(['demo'])).exitCode).toBe(0);
  });

  it('finds the note about moving the billing cron from a plain question', async () => {
    const result = await box.hippo(['search', 'when did we move the billing cron?', '--agent', 'ops-agent', '--json']);
    expect(result.exitCode).toBe(0);
    const { results, facts } = json<SearchJson>(result);
    expect(facts).toEqual([]);
    expect(results.length).toBeGreaterThan(0);
    expect(results.slice(0, 3).some(({ memory }) => /moved the billing cron|moving the cron/i.test(memory.content))).toBe(true);
    for (const { memory, snippet } of results) {
      expect(memory.agentId).toBe('ops-agent');
      expect(snippet).toMatch(/\*\*\w+\*\*/);
    }
    const again = json<SearchJson>(await box.hippo(['search', 'when did we move the billing cron?', '--agent', 'ops-agent', '--json']));
    expect(again.results[0]!.memory.retrievalCount).toBe(results[0]!.memory.retrievalCount + 1);
  });

  it('prints id, date, score and a snippet in text mode', async () => {
    const result = await box.hippo(['search', 'deploy', '--agent', 'ops-agent', '--limit', '2']);
    expect(result.exitCode).toBe(0);
    const lines = String(result.stdout).trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^mem_\w{26} {2}\d{4}-\d{2}-\d{2} \d{2}:\d{2} [+-]\d{2}:\d{2} {2}score \d+\.\d{2}$/);
    expect(lines[1]).toMatch(/^ {2}.*\*\*deploy/i);
  });

  it.each(['"billing cron', 'NEAR(deploy', 'deploy AND OR migration', 'rollback:lock -friday (deploy', 'it\'s "reports-weekly"'])(
    'accepts %j as a query: its punctuation and operators are plain text',
    async (query) => {
      const ids = async (text: string) => {
        const result = await box.hippo(['search', text, '--agent', 'ops-agent', '--json']);
        expect(result.exitCode, String(result.stderr)).toBe(0);
        return json<SearchJson>(result).results.map(({ memory }) => memory.id);
      };
      const found = await ids(query);
      expect(found.length).toBeGreaterThan(0);
      // The same words with every quote, colon, dash and bracket blanked out find the same memories in the same order.
      expect(found).toEqual(await ids(query.replace(/[^\p{L}\p{N}\s]/gu, ' ')));
    },
  );

  it('accepts a query with no words at all and finds nothing', async () => {
    const result = await box.hippo(['search', '*', '--agent', 'ops-agent', '--json']);
    expect(result.exitCode).toBe(0);
    expect(json<SearchJson>(result).results).toEqual([]);
  });

  it('reports bad --raw syntax and bad --since as usage errors (exit 2)', async () => {
    for (const args of [
      ['search', '"unbalanced', '--raw'],
      ['search', 'x', '--since', 'a while back'],
      ['search', 'x', '--since', 'next tuesday'],
    ]) {
      const result = await box.hippo([...args, '--json']);
      expect(result.exitCode).toBe(2);
      expect(json<{ error: { code: string } }>(result).error.code).toMatch(/fts_syntax|bad_duration/);
    }
  });
});

describe("databases that are not hippo's", () => {
  it('refuses a directory, a non-SQLite file, a foreign SQLite file and a newer schema with exit 2, unchanged', async () => {
    const text = join(box.dir, 'notes.txt');
    writeFileSync(text, 'hello, this is not a database\n'.repeat(50));
    const foreign = join(box.dir, 'foreign.db');
    const raw = new Database(foreign);
    raw.exec('CREATE TABLE t (x)');
    raw.close();
    const newer = join(box.dir, 'newer.db');
    await box.hippo(['memory', 'add', 'x', '--db', newer]);
    const bump = new Database(newer);
    bump.pragma('user_version = 999');
    bump.close();
    const before = contentsOf(box.dir);
    expect([...before.keys()]).toEqual(expect.arrayContaining(['notes.txt', 'foreign.db', 'newer.db']));
    for (const [db, code] of [
      [box.dir, 'not_a_database'],
      [text, 'not_a_database'],
      [foreign, 'not_a_hippo_database'],
      [newer, 'database_too_new'],
    ]) {
      const result = await box.hippo(['memory', 'list', '--db', db!, '--json']);
      expect(result.exitCode).toBe(2);
      expect(json<{ error: { code: string } }>(result).error.code).toBe(code);
    }
    // Unchanged: every file in the sandbox (the three databases included) has the same bytes, and none was added
    // (no -wal, -shm or -journal beside a refused file).
    expect(contentsOf(box.dir)).toEqual(before);
  });
});
