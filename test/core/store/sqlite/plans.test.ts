/**
 * The SQLite adapter's statement plans (issue 25, SQLite's side of the statement catalogue): every statement the
 * adapter runs while the port workload (test/helpers/store-workload.ts) exercises every operation on a populated
 * multi-agent store is recorded with its parameters, then planned with EXPLAIN QUERY PLAN on that store. A statement
 * that reads an agent table whole (`SCAN memories`, with or without an index: its cost follows the store, not the
 * agent) must be on ALL_AGENTS below with its reason. Keying memories (agent_id, id) once left `existingIds` — an
 * import's check of a chunk's ids — scanning the table per id, and an import grew with the square of the store; this
 * test fails on that.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../../src/core/store/sqlite/adapter.js';
import type { Store } from '../../../../src/core/store/port.js';
import { AGENT_TABLES } from '../../../../src/core/store/tables.js';
import { T0 } from '../../../helpers/postgres-store.js';
import { workload } from '../../../helpers/store-workload.js';

/** Statements that read an agent table whole, each with why (matched against the statement, whitespace collapsed). */
const ALL_AGENTS: readonly { pattern: RegExp; reason: string }[] = [
  { pattern: /^WITH RECURSIVE agents|SELECT DISTINCT agent_id FROM memories/, reason: 'the nightly’s scan for agents with something new (agentsWithNew)' },
  { pattern: /FROM memories (WHERE source = @source )?GROUP BY agent_id/, reason: '`agents`: every agent’s counts' },
  { pattern: /FROM memories WHERE archived_at IS NULL/, reason: 'the nightly’s maintenance plan and its archiving, over every agent' },
  { pattern: /^UPDATE memories SET archived_reason = CASE/, reason: 'the nightly’s maintenance' },
  { pattern: /^DELETE FROM memories WHERE (agent_id IS NULL|expires_at)/, reason: 'the nightly’s maintenance' },
  { pattern: /FROM memories WHERE source = \?|count\(\*\) FILTER \(WHERE source = \?\)|SUM\(source = \?\)/, reason: 'the demo’s check of the whole store' },
  { pattern: /^DELETE FROM memories WHERE source = \?/, reason: 'the demo’s rows of its named agents' },
  { pattern: /FROM candidates WHERE status = 'pending' GROUP BY agent_id/, reason: 'pending candidates of every agent (`rem status`)' },
  { pattern: /FROM candidates WHERE id IN \(SELECT value FROM json_each/, reason: '`memory import`: whose candidate a line’s promotedFrom names' },
  { pattern: /FROM runs WHERE id = \?|UPDATE runs SET snapshot_path = \? WHERE id = \?$/, reason: 'a run looked up by id alone (its agent not known)' },
  { pattern: /UPDATE runs SET .* \(id = @runId OR parent_run_id = @runId\)/, reason: 'the lock’s take-over: a dead night’s child runs span the agents' },
  { pattern: /FROM runs WHERE started_at < \?|DELETE FROM runs WHERE/, reason: '`rem runs prune`: the audit log of every agent' },
  {
    pattern: /FROM runs UNION ALL|UNION ALL SELECT .* FROM runs|FROM runs( r)?( ORDER BY| WHERE TRUE|$)|count\(\*\) AS n FROM runs/,
    reason: '`rem runs --all-agents`, copies and snapshots of every agent',
  },
  { pattern: /FROM read_audit WHERE at < \?|DELETE FROM read_audit WHERE at/, reason: '`audit prune`: the retention of every agent’s read records' },
  {
    pattern: /FROM (memories|candidates|runs|handoffs|read_audit|forget_receipts)( WHERE 1)?( AND id > \?)?( ORDER BY [^?]*)?( LIMIT \d+)?$/,
    reason: '`db copy`, snapshots, `memory export --all-agents`: whole tables',
  },
  {
    pattern: /^SELECT count\(\*\)( AS n)? FROM (memories|candidates|runs|handoffs)( WHERE 1)?$|^SELECT \(SELECT count\(\*\) FROM runs \) \+/,
    reason: '`db check`, `describe`: counts of every table',
  },
  { pattern: /^DELETE FROM (memories|candidates|runs|handoffs)( WHERE 1)?$/, reason: 'a restore of every agent' },
  {
    pattern: /thread IS NOT NULL AND archived_at IS NULL|\(thread IS NULL OR archived_at IS NOT NULL\)/,
    reason: 'a restore or load of every agent re-indexes every thread',
  },
];

const AGENT_TABLE_NAMES = AGENT_TABLES.map((spec) => spec.name);
/** A plan step reading an agent table whole: `SCAN memories`, `SCAN memories USING INDEX …` (not a virtual table). */
const WHOLE = new RegExp(`^SCAN (${AGENT_TABLE_NAMES.join('|')})( USING (COVERING )?INDEX \\S+)?$`);

interface Recorded {
  source: string;
  args: unknown[];
}

interface Verdict {
  text: string;
  /** The plan steps that read an agent table whole. */
  whole: string[];
  listed: string | undefined;
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Records every statement better-sqlite3 runs in this process (its SQL and parameters) until `stop`. */
function recorder(): { recorded: Recorded[]; stop: () => void } {
  const recorded: Recorded[] = [];
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  const originals = new Map<string, (...args: unknown[]) => unknown>();
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = proto[method]!;
    originals.set(method, original);
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      recorded.push({ source: this.source, args });
      return original.apply(this, args);
    };
  }
  return {
    recorded,
    stop: () => {
      for (const [method, original] of originals) proto[method] = original;
    },
  };
}

/** The plan of one statement, with its own parameters, on `db` (a second connection to the store's file). */
function classify(db: Database.Database, statement: Recorded): Verdict | undefined {
  const text = normalise(statement.source);
  if (!/^(SELECT|INSERT|UPDATE|DELETE|WITH|REPLACE)\b/i.test(text)) return undefined;
  // A snapshot's statements read its attached file (`snapshot.memories`), which this connection does not have.
  if (/\bsnapshot\./.test(text)) return undefined;
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${statement.source}`).all(...(statement.args as [])) as { detail: string }[];
  const whole = plan.map((step) => step.detail).filter((detail) => WHOLE.test(detail));
  return { text, whole, listed: ALL_AGENTS.find((entry) => entry.pattern.test(text))?.reason };
}

let dir: string;
let store: Store;
let check: Database.Database;
const verdicts: Verdict[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hippo-plans-'));
  const clock = () => new Date(T0);
  store = await openSqliteStore({ path: join(dir, 'store.db'), clock });
  const other = await openSqliteStore({ path: join(dir, 'other.db'), clock });
  const recording = recorder();
  try {
    await workload(store, other);
  } finally {
    recording.stop();
    await other.close();
  }
  check = new Database(join(dir, 'store.db'));
  // The search's match tally (sqlite/search.ts) is a function of the store's connection: the planning one needs it too.
  check.function('hippo_tally', { deterministic: false }, () => 1);
  check.exec('ANALYZE');
  const seen = new Set<string>();
  for (const statement of recording.recorded) {
    const key = normalise(statement.source);
    if (seen.has(key)) continue;
    seen.add(key);
    const verdict = classify(check, statement);
    if (verdict) verdicts.push(verdict);
  }
}, 300_000);

afterAll(async () => {
  if (process.env.HIPPO_CATALOGUE_PRINT) for (const v of verdicts) if (v.whole.length > 0) console.log(v.whole.join('; '), '|', v.listed ?? '-', '|', v.text);
  check?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the statement plans of the SQLite adapter', () => {
  it('covers reads and writes on every agent table', () => {
    expect(verdicts.length).toBeGreaterThan(80);
    for (const table of AGENT_TABLE_NAMES) {
      expect(
        verdicts.some((verdict) => verdict.text.includes(`INSERT INTO ${table}`) || verdict.text.includes(`INSERT OR IGNORE INTO ${table}`)),
        table,
      ).toBe(true);
      expect(
        verdicts.some((verdict) => verdict.text.includes(`FROM ${table}`)),
        table,
      ).toBe(true);
    }
  });

  it('reads an agent table whole only in a statement listed as over every agent, with its reason', () => {
    const unlisted = verdicts.filter((verdict) => verdict.whole.length > 0 && verdict.listed === undefined).map((v) => `${v.whole.join('; ')} ← ${v.text}`);
    expect(unlisted).toEqual([]);
    expect(verdicts.filter((verdict) => verdict.whole.length === 0).length).toBeGreaterThan(50);
  });

  it('finds an import’s check of which ids any agent holds on an index, not by reading the table (the check itself)', () => {
    const existing = verdicts.find((verdict) => /FROM json_each\(\?\) AS ids WHERE EXISTS \(SELECT 1 FROM memories WHERE id = ids.value\)/.test(verdict.text));
    expect(existing?.whole).toEqual([]);
    const scan = classify(check, { source: 'SELECT id FROM memories WHERE content = ?', args: ['x'] });
    expect(scan?.whole).toEqual(['SCAN memories']);
    expect(scan?.listed).toBeUndefined();
  });
});
