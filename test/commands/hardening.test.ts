import Database from 'better-sqlite3';
import { execa } from 'execa';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMemory } from '../../src/core/memory/memory.js';
import { openSqliteStore } from '../../src/core/store/sqlite/adapter.js';
import { BIN, json, sandbox, type Sandbox } from '../helpers/cli.js';
import { reply, useModelServer } from '../helpers/model-server.js';

let box: Sandbox;
const server = useModelServer({ per: 'suite' });
beforeEach(async () => {
  box = sandbox();
  server.respondWith(reply.json({ candidates: [] }));
});
afterEach(() => box.cleanup());

async function seed(count: number, agentId = 'ops'): Promise<string[]> {
  const store = await openSqliteStore({ path: box.db });
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    ids.push((await addMemory(store, { agentId, content: `note ${index} about the billing cron ${'x'.repeat(200)}` })).memory.id);
  }
  await store.close();
  return ids;
}
const modelEnv = () => ({ HIPPO_MODEL: 'ollama:m', HIPPO_BASE_URL: server.baseUrl('ollama'), HIPPO_AGENT: 'ops' });

describe('output', () => {
  it('exports everything to a slow pipe (no EAGAIN, no truncated backup)', async () => {
    await seed(3000);
    const result = await execa('bash', ['-c', `node ${BIN} memory export --agent ops | (sleep 1; cat) | wc -l`], { env: box.env, reject: false });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim()).toBe('3000');
  });

  it('refuses an --output it cannot write with exit 2, and never clobbers an old backup when an export fails midway', async () => {
    await seed(2);
    const bad = await box.hippo(['memory', 'export', '--agent', 'ops', '--output', '/nonexistent/dir/x.jsonl', '--json']);
    expect(bad.exitCode).toBe(2);
    expect(json<{ error: { code: string } }>(bad).error.code).toBe('cannot_write_output');
    expect((await box.hippo(['memory', 'export', '--agent', 'ops', '--output', box.dir])).exitCode).toBe(2);
    const path = join(box.dir, 'backup.jsonl');
    expect((await box.hippo(['memory', 'export', '--agent', 'ops', '--output', path])).exitCode).toBe(0);
    const oldBackup = readFileSync(path, 'utf8');
    expect(oldBackup.trim().split('\n')).toHaveLength(2);
    // An export that fails after it began writing (a row it cannot read, past the first) leaves the old backup byte
    // for byte, and no temp file beside it.
    await seed(3000);
    const db = new Database(box.db);
    db.pragma('ignore_check_constraints = ON');
    db.prepare("UPDATE memories SET tags = 'not json' WHERE id = (SELECT id FROM memories ORDER BY created_at DESC, id DESC LIMIT 1)").run();
    db.close();
    const failed = await box.hippo(['memory', 'export', '--agent', 'ops', '--output', path]);
    expect(failed.exitCode).not.toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(oldBackup);
    expect(readdirSync(box.dir).filter((name) => name.includes('backup.jsonl'))).toEqual(['backup.jsonl']);
  });

  it('exports every agent with --all-agents', async () => {
    await seed(2, 'a');
    await seed(3, 'b');
    const result = await box.hippo(['memory', 'export', '--all-agents']);
    expect(String(result.stdout).trim().split('\n')).toHaveLength(5);
  });

  it('prints stored escape sequences as U+FFFD, never raw, in list, show and search', async () => {
    const store = await openSqliteStore({ path: box.db });
    const { memory } = await addMemory(store, { agentId: 'ops', content: 'billing \u001b[2J\u001b]0;owned\u0007 cron' });
    await store.close();
    for (const args of [
      ['memory', 'list'],
      ['memory', 'show', memory.id],
      ['search', 'billing'],
    ]) {
      const result = await box.hippo([...args, '--agent', 'ops']);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).not.toContain('\u001b');
      expect(result.stdout).not.toContain('\u0007');
      expect(result.stdout).toContain('\uFFFD');
    }
  });

  it('treats a literal --json after -- as data', async () => {
    const result = await box.hippo(['memory', 'add', '--', '--json']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^added mem_/);
  });
});

describe('usage errors keep their reason', () => {
  it.each([
    [['memory', 'list', '--limit', '0'], '--limit must be a whole number from 1 to 1000000'],
    [['rem', 'rapid', '--via', 'x', '--prompt-only'], '--via and --prompt-only cannot be used together (see --help)'],
    [['search', 'x', '--since', '99999999999d'], 'reaches past the years'],
    [['memory', 'add', 'x', '--expires', '2027-02-31T10:00:00Z'], 'neither a duration'],
    [['memory', 'add', 'x', '--expires', '2001-01-01'], 'in the past'],
  ])('%j → exit 2 saying why', async (args, reason) => {
    await seed(0); // a store to read: without one, a read command is exit 3 before it looks at its flags
    const result = await box.hippo(args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(reason);
  });

  it('names flags that exclude each other once, by name, never with their values (a password in one stays out)', async () => {
    await seed(0);
    const result = await box.hippo(['memory', 'thread', 'mem_x', '--set', 'pw=hunter2', '--clear', '--json']);
    expect(result.exitCode).toBe(2);
    expect(json<{ error: { code: string; message: string } }>(result).error).toMatchObject({
      code: 'usage',
      message: '--set and --clear cannot be used together (see --help)',
    });
    expect(result.stdout).not.toContain('hunter2');
    const text = await box.hippo(['memory', 'thread', '--set', 't', '--clear', '--from', 'a', '--file', 'b']);
    expect(text.exitCode).toBe(2);
    expect(text.stderr).not.toContain('cannot also be provided');
    // The first line (under NODE_ENV=test oclif adds a warning of its own after it).
    expect(String(text.stderr).split('\n')[0]).toMatch(
      /^Error: --\S+ and --\S+ cannot be used together(; --\S+ and --\S+ cannot be used together)* \(see --help\)$/,
    );
  });

  it('answers an unknown command with exit 2, as JSON under --json', async () => {
    const result = await box.hippo(['nonexistent', '--json']);
    expect(result.exitCode).toBe(2);
    expect(json<{ error: { code: string } }>(result).error.code).toBe('unknown_command');
  });

  it('refuses a database URL of another engine instead of creating a file named like it', async () => {
    const result = await box.hippo(['memory', 'add', 'x', '--json'], { env: { HIPPO_DB: 'mysql://user:secret@dbhost/hippo' }, cwd: box.dir });
    expect(result.exitCode).toBe(2);
    expect(json<{ error: { code: string; message: string } }>(result).error).toMatchObject({ code: 'unsupported_database' });
    expect(result.stdout).not.toContain('secret');
  });
});

describe('several processes on one database', () => {
  it('answers a search at once while another process holds the write lock (the counter bump is best effort)', async () => {
    await seed(3);
    const holder = new Database(box.db);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const result = await box.hippo(['search', 'billing', '--agent', 'ops', '--json']);
      expect(result.exitCode).toBe(0);
      expect(json<{ results: unknown[] }>(result).results).toHaveLength(3);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    // With the lock free again, the counters are recorded (best effort: allow one retry for a slow checkpoint).
    await box.hippo(['search', 'billing', '--agent', 'ops']);
    const after = json<{ results: { memory: { retrievalCount: number } }[] }>(await box.hippo(['search', 'billing', '--agent', 'ops', '--json']));
    expect(after.results[0]!.memory.retrievalCount).toBeGreaterThanOrEqual(1);
  });

  it('re-importing an export counts existing ids, not false duplicates', async () => {
    await seed(4);
    const path = join(box.dir, 'e.jsonl');
    await box.hippo(['memory', 'export', '--agent', 'ops', '--output', path]);
    const again = await box.hippo(['memory', 'import', path, '--json']);
    expect(json(again)).toMatchObject({ imported: 0, existing: 4, duplicates: 0 });
    expect(again.stderr).not.toContain('repeat text');
  });
});

describe('runs, review and demo edges', () => {
  it("does not show another agent's run", async () => {
    await seed(2);
    const run = json<{ run: { id: string } }>(await box.hippo(['rem', 'rapid', '--json'], { env: modelEnv() })).run;
    expect((await box.hippo(['rem', 'runs', 'show', run.id, '--agent', 'ops'])).exitCode).toBe(0);
    expect((await box.hippo(['rem', 'runs', 'show', run.id, '--agent', 'alice'])).exitCode).toBe(3);
    expect((await box.hippo(['rem', 'runs', 'show', run.id, '--all-agents'])).exitCode).toBe(0);
  });

  it('promotes an id given twice once', async () => {
    await seed(1);
    server.respondWith(reply.json({ candidates: [{ claim: 'One lesson.', sources: ['m1'] }] }));
    const [candidate] = json<{ candidates: { id: string }[] }>(await box.hippo(['rem', 'rapid', '--json'], { env: modelEnv() })).candidates;
    const result = await box.hippo(['rem', 'promote', candidate!.id, candidate!.id, '--rationale', 'x', '--json'], { env: { HIPPO_AGENT: 'ops' } });
    expect(result.exitCode).toBe(0);
    expect(json<{ promoted: unknown[] }>(result).promoted).toHaveLength(1);
  });

  it('stages nothing from a claim carrying terminal escape codes (exit 6)', async () => {
    await seed(1);
    server.respondWith(reply.json({ candidates: [{ claim: 'Fine claim \u001b[2J\u001b]0;owned\u0007', sources: ['m1'] }] }));
    const result = await box.hippo(['rem', 'rapid', '--json'], { env: modelEnv() });
    expect(result.exitCode).toBe(6);
    expect(json<{ error: { code: string; details: { reason: string } } }>(result).error).toMatchObject({
      code: 'model_output_invalid',
      details: { reason: 'control_characters' },
    });
  });

  it('keeps the prompt that produced the answer: after a retry, the retry prompt', async () => {
    await seed(1);
    server.queue(reply.text('not json'), reply.json({ candidates: [{ claim: 'Retried lesson.', sources: ['m1'] }] }));
    expect((await box.hippo(['rem', 'rapid'], { env: modelEnv() })).exitCode).toBe(0);
    const store = await openSqliteStore({ path: box.db });
    const row = store.db.prepare('SELECT prompt, prompt_sha256 FROM candidates').get() as { prompt: string; prompt_sha256: string };
    await store.close();
    const sent = server.requests[1]!.body.messages.map((message: { content: string }) => message.content).join('\n');
    expect(row.prompt).toContain('Your previous answer was rejected');
    expect(sent).toContain(row.prompt);
  });

  it('refuses to stage an ingested answer citing a memory archived since the handoff (exit 6)', async () => {
    const [first] = await seed(2);
    const { handoff } = json<{ handoff: { id: string; refs: Record<string, string> } }>(
      await box.hippo(['rem', 'rapid', '--prompt-only', '--json'], { env: { HIPPO_AGENT: 'ops' } }),
    );
    const ref = Object.entries(handoff.refs).find(([, id]) => id === first)![0];
    await box.hippo(['memory', 'archive', first!, '--agent', 'ops']);
    const result = await box.hippo(['rem', 'ingest', handoff.id, '--json'], {
      env: { HIPPO_AGENT: 'ops' },
      input: JSON.stringify({ candidates: [{ claim: 'x', sources: [ref] }] }),
    });
    expect(result.exitCode).toBe(6);
    expect(json<{ error: { code: string; details: { reason: string } } }>(result).error).toMatchObject({
      code: 'model_output_invalid',
      details: { reason: 'source_unavailable' },
    });
  });

  it('demo --force leaves your own notes alone even if their source says demo', async () => {
    await box.hippo(['memory', 'add', 'my own precious note', '--source', 'demo', '--agent', 'me']);
    expect((await box.hippo(['demo', '--force', '--yes'])).exitCode).toBe(0);
    const mine = json<{ memories: { content: string }[] }>(await box.hippo(['memory', 'list', '--agent', 'me', '--json']));
    expect(mine.memories.map((memory) => memory.content)).toEqual(['my own precious note']);
  });
});

describe('model calls never follow a redirect', () => {
  it('fails the call instead of re-sending the prompt to the redirect target', async () => {
    await seed(1);
    const redirector = createServer((request, response) => {
      response.writeHead(307, { location: `${server.url}/api/chat` });
      response.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const port = (redirector.address() as AddressInfo).port;
      const result = await box.hippo(['rem', 'rapid', '--json'], { env: { ...modelEnv(), HIPPO_BASE_URL: `http://127.0.0.1:${port}` } });
      expect(result.exitCode).toBe(5);
      expect(server.requests).toHaveLength(0);
    } finally {
      redirector.close();
    }
  });
});
