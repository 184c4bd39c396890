/**
 * The memory lifecycle through the built CLI (issue 13): memory edit, forget, unarchive; rem reopen; agents; rem runs
 * prune — each with its bad input (unknown id, another agent's id, forgotten twice, a snapshot that cannot be rewritten).
 */
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, truncateSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addMemory } from '../../src/core/memory/memory.js';
import { openSqliteStore } from '../../src/core/store/sqlite/adapter.js';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';
import { ALL_RUNS } from '../helpers/rows.js';

// Each test runs the built CLI a dozen times or more: on a loaded machine that outlasts the default minute.
vi.setConfig({ testTimeout: 180_000 });

let box: Sandbox;
const ids: Record<string, string> = {};
const SECRET = 'sk-live-zqx4242';

beforeEach(async () => {
  box = sandbox();
  const store = await openSqliteStore({ path: box.db });
  const add = async (key: string, memory: Parameters<typeof addMemory>[1]) => {
    ids[key] = (await addMemory(store, memory)).memory.id;
  };
  const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
  // Newest first in a prompt: m1 is deploy, m2 secret, m3 billing.
  await add('billing', { agentId: 'ops', content: 'The billing cron runs at 02:00 UTC.', tags: ['billing', 'draft'], createdAt: ago(3) });
  await add('secret', { agentId: 'ops', content: `Pasted by mistake: the key is ${SECRET}.`, createdAt: ago(2) });
  await add('deploy', { agentId: 'ops', content: 'Deploys stall on the migration lock.', createdAt: ago(1) });
  await add('theirs', { agentId: 'other', content: "Another agent's note." });
  await store.close();
});
afterEach(() => box.cleanup());

const ops = { env: { HIPPO_AGENT: 'ops' } };
const hippo = (args: string[], input = '') => box.hippo(args, { ...ops, input });
const errorOf = (result: { stdout: unknown }) => json<{ error: { code: string; message: string } }>(result as never).error;
/** What the database file holds, as bytes: a forgotten text must be in none of them. */
const fileHolds = (path: string, text: string) => readFileSync(path).includes(Buffer.from(text));
function query<T = unknown>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(box.db, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
/** Stages two candidates citing the billing and the deploy memory through a command model. */
async function stage(): Promise<{ id: string; claim: string; sourceMemoryIds: string[] }[]> {
  const answer = JSON.stringify({
    candidates: [
      { claim: 'Billing runs at night.', sources: ['m3'] },
      { claim: 'Migrations block deploys.', sources: ['m1'] },
    ],
  });
  const rapid = await hippo(['rem', 'rapid', '--scope', 'all', '--via', `cat >/dev/null; echo '${answer}'`, '--json']);
  expect(rapid.exitCode, String(rapid.stderr)).toBe(0);
  const staged = json<{ candidates: { id: string; claim: string; sourceMemoryIds: string[] }[] }>(await hippo(['rem', 'candidates', '--json'])).candidates;
  const billing = staged.find((candidate) => candidate.claim === 'Billing runs at night.')!;
  const migrations = staged.find((candidate) => candidate.claim === 'Migrations block deploys.')!;
  expect([billing.sourceMemoryIds, migrations.sourceMemoryIds]).toEqual([[ids.billing], [ids.deploy]]);
  return [billing, migrations];
}

describe('hippo memory edit', () => {
  it('rewrites text, tags, subject and durability in place; search follows; the old text is gone unless --keep-history', async () => {
    const edited = await hippo([
      'memory',
      'edit',
      ids.billing!,
      '--content',
      'The invoicing job runs at 03:30 UTC.',
      '--remove-tag',
      'draft',
      '--subject',
      'jobs',
      '--json',
    ]);
    expect(edited.exitCode, String(edited.stderr)).toBe(0);
    const body = json<{
      memory: { id: string; content: string; tags: string[]; subject: string; updatedAt: string; createdAt: string };
      changed: string[];
      previous: null;
    }>(edited);
    expect(body.memory).toMatchObject({ id: ids.billing, content: 'The invoicing job runs at 03:30 UTC.', tags: ['billing'], subject: 'jobs' });
    expect(body.changed).toEqual(['content', 'tags', 'subject']);
    expect(body.previous).toBeNull();
    expect(body.memory.updatedAt > body.memory.createdAt).toBe(true);
    const found = async (text: string) =>
      json<{ results: { memory: { id: string } }[] }>(await hippo(['search', text, '--json'])).results.map((hit) => hit.memory.id);
    expect(await found('invoicing')).toEqual([ids.billing]);
    expect(await found('cron')).toEqual([]);
    expect(fileHolds(box.db, 'The billing cron runs')).toBe(false);

    const kept = await hippo([
      'memory',
      'edit',
      ids.billing!,
      '--content',
      'The invoicing job runs at 04:00 UTC.',
      '--keep-history',
      '--durability',
      'persistent',
    ]);
    expect(kept.exitCode).toBe(0);
    expect(String(kept.stdout)).toMatch(new RegExp(`^edited ${ids.billing}: content, durability; the old version is kept as mem_\\w+ \\(archived\\)`));
    const versions = query<{ id: string; content: string; version_of: string; archived_at: string | null }>(
      'SELECT id, content, version_of, archived_at FROM memories WHERE version_of IS NOT NULL',
    );
    expect(versions).toEqual([expect.objectContaining({ content: 'The invoicing job runs at 03:30 UTC.', version_of: ids.billing })]);
    expect(versions[0]!.archived_at).not.toBeNull();
    expect(await found('03:30')).toEqual([]);
    // An older version cannot itself be edited; the same text again is "unchanged".
    expect((await hippo(['memory', 'edit', versions[0]!.id, '--content', 'x'])).exitCode).toBe(4);
    const same = await hippo(['memory', 'edit', ids.billing!, '--durability', 'persistent']);
    expect([same.exitCode, String(same.stdout)]).toEqual([0, `${ids.billing} unchanged (it already says that)\n`.trimEnd()]);
  });

  it('memory show lists the older versions --keep-history kept; an older version stays archived (unarchive is exit 4)', async () => {
    expect((await hippo(['memory', 'edit', ids.billing!, '--content', 'The billing cron runs at 03:00 UTC.', '--keep-history'])).exitCode).toBe(0);
    const shown = json<{ memory: { id: string }; versions: { id: string; versionOf: string; content: string }[] }>(
      await hippo(['memory', 'show', ids.billing!, '--json']),
    );
    expect(shown.versions).toEqual([expect.objectContaining({ versionOf: ids.billing, content: 'The billing cron runs at 02:00 UTC.' })]);
    const version = shown.versions[0]!.id;
    const text = await hippo(['memory', 'show', ids.billing!]);
    expect(String(text.stdout)).toContain('older versions (1, newest first; archived):');
    expect(String(text.stdout)).toContain(version);
    const before = query('SELECT * FROM memories ORDER BY id');
    const unarchive = await hippo(['memory', 'unarchive', ids.deploy!, version, '--json']);
    expect([unarchive.exitCode, errorOf(unarchive).code]).toEqual([4, 'older_version']);
    expect(query('SELECT * FROM memories ORDER BY id')).toEqual(before);
  });

  it('reads new text from stdin with --content -', async () => {
    const result = await hippo(['memory', 'edit', ids.deploy!, '--content', '-', '--json'], 'Deploys wait for the lock now.\n');
    expect(result.exitCode).toBe(0);
    expect(json<{ memory: { content: string } }>(result).memory.content).toBe('Deploys wait for the lock now.');
  });

  it.each([
    ['no change off a terminal (no editor can open)', (id: string) => ['memory', 'edit', id], 2, 'needs_terminal'],
    ['--tag, which on edit would replace every tag', (id: string) => ['memory', 'edit', id, '--tag', 'x'], 2, 'tag_flag_ambiguous'],
    ['an empty text', (id: string) => ['memory', 'edit', id, '--content', '   '], 2, 'empty_content'],
    ['an expiry on a persistent memory', (id: string) => ['memory', 'edit', id, '--durability', 'persistent', '--expires', '7d'], 2, 'expires_on_durable'],
    ['a tag both added and removed', (id: string) => ['memory', 'edit', id, '--add-tag', 'x', '--remove-tag', 'x'], 2, 'tag_added_and_removed'],
    [
      'a tag both set and removed',
      (id: string) => ['memory', 'edit', id, '--set-tags', 'a', '--set-tags', 'x', '--remove-tag', 'x'],
      2,
      'tag_added_and_removed',
    ],
    ['an unknown id', () => ['memory', 'edit', 'mem_01JD0000000000000000000000', '--content', 'x'], 3, 'memory_not_found'],
    ['another agent’s id', () => ['memory', 'edit', ids.theirs!, '--content', 'hijacked'], 3, 'memory_not_found'],
  ])('%s: exit %i, nothing changed', async (_what, args, exitCode, code) => {
    const before = query('SELECT * FROM memories ORDER BY id');
    const result = await hippo([...args(ids.deploy!), '--json']);
    expect([result.exitCode, errorOf(result).code]).toEqual([exitCode, code]);
    expect(query('SELECT * FROM memories ORDER BY id')).toEqual(before);
  });
});

describe('hippo memory forget', () => {
  it('--dry-run lists what holds the text and changes nothing; forget deletes it everywhere and audits ids, never text', async () => {
    const [, migrations] = await stage();
    const before = query('SELECT * FROM memories ORDER BY id');
    const dry = await hippo(['memory', 'forget', '--match', 'migration lock', '--dry-run']);
    expect(dry.exitCode).toBe(0);
    expect(String(dry.stdout)).toContain('would forget 1 memory of agent "ops"');
    expect(String(dry.stdout)).toContain(ids.deploy);
    expect(String(dry.stderr)).toContain('nothing changed (dry run)');
    expect(query('SELECT * FROM memories ORDER BY id')).toEqual(before);

    const forgotten = await hippo(['memory', 'forget', ids.deploy!, '--yes', '--json']);
    expect(forgotten.exitCode, String(forgotten.stderr)).toBe(0);
    const body = json<{
      run: { id: string; kind: string; counts: Record<string, number>; memoryIds: string[] };
      forgotten: { id: string }[];
      candidatesChanged: string[];
    }>(forgotten);
    expect(body.forgotten.map((memory) => memory.id)).toEqual([ids.deploy]);
    expect(body.candidatesChanged).toContain(migrations!.id);
    expect(query('SELECT id FROM memories WHERE id = ?', ids.deploy)).toEqual([]);
    expect(query("SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'migration'")).toEqual([]);
    expect(fileHolds(box.db, 'Deploys stall on the migration lock')).toBe(false);
    const shown = json<{ candidate: { forgottenSourceIds: string[] } }>(await hippo(['rem', 'show', migrations!.id, '--json']));
    expect(shown.candidate.forgottenSourceIds).toEqual([ids.deploy]);
    const audit = await hippo(['rem', 'runs', 'show', body.run.id, '--json']);
    expect(String(audit.stdout)).toContain(ids.deploy);
    expect(String(audit.stdout)).not.toContain('migration lock');

    // Forgotten twice: exit 3, nothing else touched.
    const again = await hippo(['memory', 'forget', ids.deploy!, '--yes', '--json']);
    expect([again.exitCode, errorOf(again).code]).toEqual([3, 'memory_not_found']);
  });

  it('deletes the candidate a forgotten memory was promoted from: its claim is the memory’s text', async () => {
    const [billing] = await stage();
    const claim = 'Billing runs at night.';
    expect((await hippo(['rem', 'promote', billing!.id, '--rationale', 'seen twice'])).exitCode).toBe(0);
    const [promoted] = query<{ id: string }>('SELECT id FROM memories WHERE promoted_from = ?', billing!.id);
    const dry = json<{ candidatesDeleted: { id: string }[] }>(await hippo(['memory', 'forget', promoted!.id, '--dry-run', '--json']));
    expect(dry.candidatesDeleted.map((candidate) => candidate.id)).toEqual([billing!.id]);

    const forgotten = await hippo(['memory', 'forget', promoted!.id, '--yes', '--json']);
    expect(forgotten.exitCode, String(forgotten.stderr)).toBe(0);
    expect(json<{ candidatesDeleted: string[] }>(forgotten).candidatesDeleted).toEqual([billing!.id]);
    expect(query('SELECT id FROM candidates WHERE id = ?', billing!.id)).toEqual([]);
    // (Not the file: the command model's own text, kept as the candidates' and the run's model, holds the claim.)
    expect(query('SELECT id FROM candidates WHERE instr(claim, ?) > 0 OR instr(prompt, ?) > 0', claim, claim)).toEqual([]);
    expect(query('SELECT id FROM memories WHERE instr(content, ?) > 0', claim)).toEqual([]);
    // The memory it was distilled from is not touched.
    expect(query('SELECT id FROM memories WHERE id = ?', ids.billing)).toHaveLength(1);
  });

  it('never forgets another agent’s memory, needs --yes off a terminal, and says what to forget', async () => {
    const theirs = await hippo(['memory', 'forget', ids.theirs!, '--yes', '--json']);
    expect([theirs.exitCode, errorOf(theirs).code]).toEqual([3, 'memory_not_found']);
    expect(query('SELECT id FROM memories WHERE id = ?', ids.theirs)).toHaveLength(1);
    expect((await hippo(['memory', 'forget', ids.deploy!])).exitCode).toBe(2);
    expect(query('SELECT id FROM memories WHERE id = ?', ids.deploy)).toHaveLength(1);
    const nothing = await hippo(['memory', 'forget', '--yes', '--json']);
    expect([nothing.exitCode, errorOf(nothing).code]).toEqual([2, 'nothing_to_forget']);
    const unmatched = await hippo(['memory', 'forget', '--match', 'no such text', '--yes', '--json']);
    expect([unmatched.exitCode, errorOf(unmatched).code]).toEqual([3, 'nothing_matches']);
    expect(String(unmatched.stdout)).not.toContain('no such text');
  });

  it('--purge-snapshots rewrites every snapshot that holds the text (read from stdin); without it a note says they may', async () => {
    const night = await box.hippo(['rem', 'nightly', 'run-once', '--json']);
    expect(night.exitCode, String(night.stderr)).toBe(0);
    const snapshot = json<{ run: { snapshotPath: string } }>(night).run.snapshotPath;
    expect(fileHolds(snapshot, SECRET)).toBe(true);
    const dry = await hippo(['memory', 'forget', '--match', '-', '--dry-run', '--json'], SECRET);
    const plan = json<{ memories: { id: string }[]; snapshots: { name: string; memoryIds: string[] }[] }>(dry);
    expect(plan.memories.map((memory) => memory.id)).toEqual([ids.secret]);
    expect(plan.snapshots).toEqual([expect.objectContaining({ memoryIds: [ids.secret] })]);
    // The dry run lists the memories as they are (that is its point); it writes no audit row.
    expect(String(dry.stderr)).not.toContain(SECRET);

    const purged = await hippo(['memory', 'forget', '--match', '-', '--purge-snapshots', '--yes', '--json'], SECRET);
    expect(purged.exitCode, String(purged.stderr)).toBe(0);
    expect(json<{ snapshotsRewritten: string[] }>(purged).snapshotsRewritten).toHaveLength(1);
    expect(fileHolds(snapshot, SECRET)).toBe(false);
    expect(fileHolds(box.db, SECRET)).toBe(false);
    expect(String(purged.stdout) + String(purged.stderr)).not.toContain(SECRET);
    const listed = json<{ snapshots: { integrity: string }[] }>(await box.hippo(['rem', 'snapshots', '--check', '--json'])).snapshots;
    expect(listed.map((item) => item.integrity)).toEqual(['ok']);

    // Without --purge-snapshots the snapshots keep theirs, and the CLI says so.
    const plain = await hippo(['memory', 'forget', ids.billing!, '--yes']);
    expect(plain.exitCode).toBe(0);
    expect(String(plain.stderr)).toContain('1 snapshot taken earlier may still hold it');
  });

  it('a snapshot that cannot be read stops a purge before anything is forgotten (exit 4)', async () => {
    const night = json<{ run: { snapshotPath: string } }>(await box.hippo(['rem', 'nightly', 'run-once', '--json']));
    truncateSync(night.run.snapshotPath, 1000);
    const before = query('SELECT * FROM memories ORDER BY id');
    const result = await hippo(['memory', 'forget', ids.secret!, '--purge-snapshots', '--yes', '--json']);
    expect([result.exitCode, errorOf(result).code]).toEqual([4, 'snapshot_not_rewritable']);
    expect(query('SELECT * FROM memories ORDER BY id')).toEqual(before);
    // The lock was released: the next night runs.
    expect((await box.hippo(['rem', 'nightly', 'run-once', '--json'])).exitCode).toBe(0);
  });
});

describe('a snapshot its owner protected', () => {
  /** Makes a file unwritable even for root (chattr +i), else by its mode; returns how to undo it. */
  function protect(path: string): () => void {
    if (process.getuid?.() === 0) {
      execFileSync('chattr', ['+i', path]);
      return () => execFileSync('chattr', ['-i', path]);
    }
    chmodSync(path, 0o400);
    return () => chmodSync(path, 0o600);
  }

  it('--purge-snapshots stops before anything is forgotten (exit 4, naming it) when a holding snapshot cannot be written', async () => {
    const night = json<{ run: { snapshotPath: string } }>(await box.hippo(['rem', 'nightly', 'run-once', '--json']));
    const snapshot = night.run.snapshotPath;
    const bytes = readFileSync(snapshot);
    const before = query('SELECT * FROM memories ORDER BY id');
    const undo = protect(snapshot);
    try {
      const result = await hippo(['memory', 'forget', ids.secret!, '--purge-snapshots', '--yes', '--json']);
      expect([result.exitCode, errorOf(result).code]).toEqual([4, 'snapshot_not_rewritable']);
      expect(errorOf(result).message).toContain(basename(snapshot));
      expect(errorOf(result).message).toContain('nothing was forgotten');
    } finally {
      undo();
    }
    expect(query('SELECT * FROM memories ORDER BY id')).toEqual(before);
    expect(readFileSync(snapshot).equals(bytes)).toBe(true);
    expect(query(`SELECT * FROM ${ALL_RUNS} WHERE kind = 'memory forget'`)).toEqual([]);
  });
});

describe('hippo memory unarchive, rem reopen, agents, rem runs prune', () => {
  it('unarchives the agent’s archived memories; an unknown or another agent’s id changes nothing (exit 3)', async () => {
    expect((await hippo(['memory', 'archive', ids.billing!])).exitCode).toBe(0);
    for (const bad of ['mem_01JD0000000000000000000000', ids.theirs!]) {
      const result = await hippo(['memory', 'unarchive', ids.billing!, bad, '--json']);
      expect([result.exitCode, errorOf(result).code]).toEqual([3, 'memory_not_found']);
      expect(query<{ archived_at: string | null }>('SELECT archived_at FROM memories WHERE id = ?', ids.billing)[0]!.archived_at).not.toBeNull();
    }
    const result = await hippo(['memory', 'unarchive', ids.billing!, ids.deploy!]);
    expect(result.exitCode).toBe(0);
    expect(String(result.stdout)).toBe(`unarchived ${ids.billing}\n${ids.deploy} was not archived`);
    expect(query<{ archived_at: string | null }>('SELECT archived_at FROM memories WHERE id = ?', ids.billing)[0]!.archived_at).toBeNull();
  });

  it('reopens a rejected candidate with who and why; a promoted one is exit 4, a pending one stays, no reason is exit 2', async () => {
    const [billing, migrations] = await stage();
    expect((await hippo(['rem', 'reject', billing!.id, '--reason', 'too vague'])).exitCode).toBe(0);
    expect((await hippo(['rem', 'promote', migrations!.id, '--rationale', 'seen twice'])).exitCode).toBe(0);
    const noReason = await hippo(['rem', 'reopen', billing!.id, '--json']);
    expect([noReason.exitCode, errorOf(noReason).code]).toEqual([2, 'reason_required']);
    const essay = await hippo(['rem', 'reopen', billing!.id, '--reason', 'why '.repeat(2000), '--json']);
    expect([essay.exitCode, errorOf(essay).code]).toEqual([2, 'reason_too_long']);
    const longName = await hippo(['rem', 'reopen', billing!.id, '--reason', 'why', '--reviewer', 'r'.repeat(129), '--json']);
    expect([longName.exitCode, errorOf(longName).code]).toEqual([2, 'reviewer_too_long']);
    const promoted = await hippo(['rem', 'reopen', migrations!.id, billing!.id, '--reason', 'again', '--json']);
    expect([promoted.exitCode, errorOf(promoted).code]).toEqual([4, 'candidate_promoted']);
    const other = await box.hippo(['rem', 'reopen', billing!.id, '--reason', 'mine now', '--agent', 'other', '--json']);
    expect(other.exitCode).toBe(3);
    expect(json<{ candidate: { status: string } }>(await hippo(['rem', 'show', billing!.id, '--json'])).candidate.status).toBe('rejected');

    const reopened = await hippo(['rem', 'reopen', billing!.id, '--reason', 'rejected by mistake', '--reviewer', 'bo', '--json']);
    expect(reopened.exitCode).toBe(0);
    expect(json<{ reopened: { id: string; status: string; reopenedBy: string; reopenReason: string; reviewer: null }[] }>(reopened).reopened).toEqual([
      expect.objectContaining({ id: billing!.id, status: 'pending', reopenedBy: 'bo', reopenReason: 'rejected by mistake', reviewer: null }),
    ]);
    // rem show says who reopened it, when (as people read times) and why.
    expect(String((await hippo(['rem', 'show', billing!.id])).stdout)).toMatch(/reopened +\d{4}-\d\d-\d\d \d\d:\d\d \S+ by bo: rejected by mistake/);
    const twice = await hippo(['rem', 'reopen', billing!.id, '--reason', 'again']);
    expect([twice.exitCode, String(twice.stdout)]).toEqual([0, `${billing!.id} was already pending`]);
  });

  it('agents: every agent with live and archived counts, newest memory and pending candidates, text and --json', async () => {
    await stage();
    expect((await hippo(['memory', 'archive', ids.billing!])).exitCode).toBe(0);
    const listed = json<{ agents: { agentId: string; memories: number; archived: number; newest: string | null; pendingCandidates: number }[] }>(
      await box.hippo(['agents', '--json']),
    ).agents;
    expect(listed.map(({ newest: _newest, ...agent }) => agent)).toEqual([
      { agentId: 'ops', memories: 2, archived: 1, pendingCandidates: 2 },
      { agentId: 'other', memories: 1, archived: 0, pendingCandidates: 0 },
    ]);
    expect(listed.every((agent) => typeof agent.newest === 'string')).toBe(true);
    const text = await box.hippo(['agents']);
    expect(text.exitCode).toBe(0);
    // Off a terminal: the rows alone (no header), the newest memory in local time with its zone.
    expect(String(text.stdout).split('\n')).toEqual([
      expect.stringMatching(/^ops\s+2\s+1\s+\d{4}-\d\d-\d\d \d\d:\d\d \S+\s+2$/),
      expect.stringMatching(/^other\s+1\s+0\s+\d{4}-\d\d-\d\d \d\d:\d\d \S+\s+0$/),
    ]);
  });

  it('rem runs prune --older-than deletes old finished runs of every agent, records itself, and --dry-run only counts', async () => {
    await stage();
    const old = new Date(Date.now() - 100 * 86_400_000).toISOString();
    const db = new Database(box.db);
    db.prepare('UPDATE runs SET started_at = ?').run(old);
    db.close();
    const runs = () => query<{ kind: string }>(`SELECT kind FROM ${ALL_RUNS} ORDER BY id`).map((row) => row.kind);
    expect(runs()).toEqual(['rem rapid']);
    const dry = await box.hippo(['rem', 'runs', 'prune', '--older-than', '90d', '--dry-run', '--json']);
    expect(json<{ pruned: number; dryRun: boolean }>(dry)).toMatchObject({ pruned: 1, dryRun: true });
    expect(runs()).toEqual(['rem rapid']);
    const pruned = await box.hippo(['rem', 'runs', 'prune', '--older-than', '90d']);
    expect(pruned.exitCode).toBe(0);
    expect(String(pruned.stdout)).toMatch(/^pruned 1 run started before /);
    expect(runs()).toEqual(['rem runs prune']);
    for (const bad of [[], ['--older-than', 'banana'], ['--older-than', 'tomorrow'], ['--older-than', '-5d']]) {
      expect((await box.hippo(['rem', 'runs', 'prune', ...bad])).exitCode).toBe(2);
    }
  });
});

describe('stores that are not there', () => {
  it('every lifecycle command on a path with no store exits 3 and creates nothing', async () => {
    const missing = join(box.dir, 'nodir', 'typo.db');
    for (const args of [
      ['agents'],
      ['memory', 'edit', ids.billing!, '--content', 'x'],
      ['memory', 'forget', ids.billing!, '--yes'],
      ['memory', 'unarchive', ids.billing!],
      ['rem', 'reopen', 'cand_01JD0000000000000000000000', '--reason', 'x'],
      ['rem', 'runs', 'prune', '--older-than', '90d'],
    ]) {
      const result = await hippo([...args, '--db', missing, '--json']);
      expect([args.join(' '), result.exitCode, errorOf(result).code]).toEqual([args.join(' '), 3, 'store_not_found']);
    }
    expect(readdirSync(box.dir)).not.toContain('nodir');
  });
});
