/**
 * The statement catalogue (issue 25; docs/postgres.md "Scaling out"): every SQL statement the PostgreSQL adapter sends
 * while a workload exercises every port operation on a populated multi-agent store is recorded (text and parameters,
 * as the `pg` client sends them), then run under EXPLAIN with its own parameters against that store. The agents'
 * tables are hash-partitioned by agent, so the plan names the partitions a statement reads or writes: each statement
 * must touch at most one partition of each agent table — it is routed to one agent — or be on ALL_AGENTS below, the
 * list of statements over every agent, each with its reason. A new statement that scans every partition without being
 * listed fails this test (the last test proves the check catches one). This is what tells a Citus cluster can route
 * each agent's statements to one node.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../../src/core/store/port.js';
import { AGENT_TABLES } from '../../../../src/core/store/tables.js';
import { openAdapterStore, type AdapterStore } from '../../../helpers/postgres-store.js';
import { workload } from '../../../helpers/store-workload.js';

/** Statements over every agent, each with why (matched against the statement's text, whitespace collapsed). */
const ALL_AGENTS: readonly { pattern: RegExp; reason: string }[] = [
  { pattern: /^SELECT id FROM memories WHERE id = ANY\(\$1::text\[\]\)$/, reason: 'import skips an id any agent holds (existingIds)' },
  { pattern: /^WITH RECURSIVE agents/, reason: 'the nightly’s scan for agents with something new (agentsWithNew)' },
  { pattern: /^SELECT agent_id, count\(\*\) FILTER .* FROM memories (WHERE source = \$1 )?GROUP BY agent_id/, reason: '`agents`: every agent’s counts' },
  { pattern: /FROM memories WHERE archived_at IS NULL\) v WHERE verdict IS NOT NULL/, reason: 'the nightly’s maintenance plan' },
  { pattern: /^WITH archived AS \( UPDATE memories SET archived_reason/, reason: 'the nightly’s maintenance' },
  {
    pattern: /^SELECT count\(\*\)::int AS total, count\(\*\) FILTER \(WHERE source = \$1\)::int AS demo FROM memories$/,
    reason: 'the demo’s check of the whole store',
  },
  { pattern: /^DELETE FROM memories WHERE source = \$1 AND agent_id = ANY/, reason: 'the demo’s rows of its named agents (a few partitions)' },
  {
    pattern: /^SELECT agent_id, count\(\*\)::int AS pending FROM candidates WHERE status = 'pending' GROUP BY agent_id/,
    reason: 'pending candidates of every agent (`rem status`)',
  },
  { pattern: /^SELECT \S+(, \S+)* FROM runs WHERE id = \$1$/, reason: '`rem runs show <id>` without an agent: a run looked up by id alone' },
  { pattern: /^UPDATE runs SET snapshot_path = \$2 WHERE id = \$1$/, reason: 'a run whose agent the caller does not know' },
  { pattern: /^SELECT \* FROM \( SELECT .* FROM runs UNION ALL SELECT .* FROM store_runs \) r ORDER BY started_at DESC/, reason: '`rem runs --all-agents`' },
  {
    pattern: /^UPDATE runs SET status = 'interrupted'.* \(id = \$1 OR parent_run_id = \$1\)$/,
    reason: 'the lock’s take-over: a dead night’s child runs span the agents',
  },
  {
    pattern: /^SELECT kind FROM store_runs WHERE id = \$1 UNION ALL SELECT kind FROM runs WHERE id = \$1 LIMIT 1$/,
    reason: '`db snapshots`: a snapshot names its run by id alone',
  },
  { pattern: /FROM runs WHERE started_at < \$1 AND status <> 'running'/, reason: '`rem runs prune`: the audit log of every agent' },
  {
    pattern: /^SELECT id, agent_id FROM candidates WHERE id = ANY\(\$1::text\[\]\)$/,
    reason: '`memory import`: whose candidate a line’s promotedFrom names (another agent’s is refused)',
  },
  { pattern: /^SELECT count\(\*\)::int AS n FROM runs$/, reason: '`rem runs --all-agents`: how many runs of every agent' },
  { pattern: /FROM read_audit WHERE at < \$1 -- all agents/, reason: '`audit prune`: the retention of every agent’s read records' },
  {
    pattern: /^SELECT (\S+, )*\S+ FROM (memories|candidates|runs|handoffs) WHERE TRUE ORDER BY id COLLATE "C"$/,
    reason: '`db copy`, a logical snapshot: whole tables',
  },
  {
    pattern:
      /^SELECT (\S+, )*\S+ FROM memories WHERE (thread IS NOT NULL AND archived_at IS NULL ORDER BY agent_id, thread, created_at, seq|thread IS NULL OR archived_at IS NOT NULL ORDER BY id COLLATE "C")$/,
    reason: '`db copy`: every memory, thread by thread',
  },
  {
    pattern: /^SELECT \* FROM \(SELECT .* FROM runs UNION ALL SELECT .* FROM store_runs\) r ORDER BY id COLLATE "C"$/,
    reason: '`db copy`, a snapshot: the whole audit log',
  },
  { pattern: /^SELECT count\(\*\)::int AS n FROM (memories|candidates|runs|handoffs) WHERE TRUE$/, reason: '`db check`, `describe`: counts of every table' },
  { pattern: /^DELETE FROM (memories|candidates|runs|handoffs) WHERE TRUE$/, reason: 'a restore of every agent' },
  { pattern: /^SELECT (\S+, )*\S+ FROM memories ORDER BY created_at, id COLLATE "C"$/, reason: '`memory export` of every agent' },
  {
    pattern: /^SELECT DISTINCT agent_id, thread FROM memories WHERE thread IS NOT NULL AND archived_at IS NULL $/,
    reason: 'a restore or load of every agent re-indexes every thread',
  },
  {
    pattern:
      /^WITH cleared AS \( UPDATE memories SET context_before = '', context_after = '' WHERE \(thread IS NULL OR archived_at IS NOT NULL\) AND \(context_before <> '' OR context_after <> ''\) RETURNING 1/,
    reason: 'a restore or load of every agent',
  },
  { pattern: /^SELECT gin_clean_pending_list/, reason: 'maintenance of the search index' },
  { pattern: /^(VACUUM|ANALYZE)\b/, reason: 'maintenance (`reclaim`, the nightly, `settleLoad` after an import or a copy)' },
];

/** Statements that EXPLAIN cannot plan but which touch an agent table, with why they are fine. */
const UNPLANNED: readonly { pattern: RegExp; reason: string }[] = [
  {
    pattern: /^COPY (memories|candidates|runs|handoffs|store_runs|hippo_in_\w+) \(/,
    reason: 'COPY routes each row to its agent’s partition by the row’s agent_id',
  },
  { pattern: /^CREATE TEMP TABLE IF NOT EXISTS hippo_in_\w+ \(LIKE \w+ INCLUDING DEFAULTS\)/, reason: 'a temp table shaped as the table, no row read' },
  { pattern: /^(VACUUM|ANALYZE)\b/, reason: 'maintenance (`reclaim`, the nightly, `settleLoad` after an import or a copy)' },
];

const PLANNED = /^(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;
const AGENT_TABLE_NAMES = AGENT_TABLES.map((spec) => spec.name);
const PARTITION = new RegExp(`^(${AGENT_TABLE_NAMES.join('|')})_p\\d+$`);

interface Recorded {
  text: string;
  values: unknown[];
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Records what every pg client of this process sends, while `recording`. */
function recorder(): { recorded: Recorded[]; stop: () => void; pause: <T>(fn: () => Promise<T>) => Promise<T> } {
  const recorded: Recorded[] = [];
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be called with each client as `this`
  const original = pg.Client.prototype.query;
  let paused = false;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (!paused) {
      const [first, second] = args as [unknown, unknown];
      if (typeof first === 'string') recorded.push({ text: first, values: Array.isArray(second) ? [...second] : [] });
      else if (first && typeof first === 'object' && typeof (first as { text?: unknown }).text === 'string') {
        const config = first as { text: string; values?: unknown[] };
        recorded.push({ text: config.text, values: [...(config.values ?? (Array.isArray(second) ? second : []))] });
      }
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  return {
    recorded,
    stop: () => {
      pg.Client.prototype.query = original;
    },
    pause: async (fn) => {
      paused = true;
      try {
        return await fn();
      } finally {
        paused = false;
      }
    },
  };
}

/** The partitions of each agent table a plan touches (by the relation names in it). */
function partitionsIn(plan: unknown): Map<string, Set<string>> {
  const touched = new Map<string, Set<string>>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const relation = (node as Record<string, unknown>)['Relation Name'];
    if (typeof relation === 'string' && PARTITION.test(relation)) {
      const table = relation.replace(/_p\d+$/, '');
      touched.set(table, (touched.get(table) ?? new Set()).add(relation));
    }
    for (const value of Object.values(node)) walk(value);
  };
  walk(plan);
  return touched;
}

interface Verdict {
  text: string;
  /** The most partitions of one agent table it touches (0: none, or not planned). */
  widest: number;
  listed: string | undefined;
  planned: boolean;
}

/** Classifies one statement: EXPLAINs it with its parameters on `client` (in a transaction rolled back). */
async function classify(client: pg.Client, statement: Recorded): Promise<Verdict> {
  // EXPLAIN runs the text as sent (a `--` comment in it ends at its line, as on the server); the normal form, one
  // line, is only for matching the lists and for the report.
  let sent = statement.text.trim();
  const cursor = /^DECLARE \w+ NO SCROLL CURSOR FOR\s+(.*)$/s.exec(sent);
  if (cursor) sent = cursor[1]!;
  const text = normalise(sent);
  const listed = ALL_AGENTS.find((entry) => entry.pattern.test(text))?.reason;
  if (!PLANNED.test(text)) {
    const touches = AGENT_TABLE_NAMES.some((name) => new RegExp(`\\b${name}\\b`).test(text));
    const fine = UNPLANNED.find((entry) => entry.pattern.test(text))?.reason;
    return { text, widest: touches && !fine ? Infinity : 0, listed: fine ?? listed, planned: false };
  }
  await client.query('BEGIN');
  try {
    const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sent}`, statement.values).catch((error: Error) => {
      throw new Error(`${error.message}: ${text} ${JSON.stringify(statement.values).slice(0, 200)}`);
    });
    const widest = Math.max(0, ...[...partitionsIn(rows[0]!['QUERY PLAN']).values()].map((set) => set.size));
    return { text, widest, listed, planned: true };
  } finally {
    await client.query('ROLLBACK');
  }
}

const PARTITIONS = 8;

let opened: AdapterStore;
let store: Store;
const verdicts: Verdict[] = [];

beforeAll(async () => {
  opened = await openAdapterStore({ env: { HIPPO_PG_PARTITIONS: String(PARTITIONS) } });
  store = opened.store;
  const other = await openAdapterStore({ env: { HIPPO_PG_PARTITIONS: String(PARTITIONS) } });
  const recording = recorder();
  try {
    await workload(store, other.store);
  } finally {
    recording.stop();
    await other.dispose();
  }
  const client = new pg.Client({ connectionString: opened.database.url });
  await client.connect();
  try {
    await client.query('ANALYZE');
    const seen = new Set<string>();
    for (const statement of recording.recorded) {
      const key = normalise(statement.text);
      if (seen.has(key)) continue;
      seen.add(key);
      verdicts.push(await classify(client, statement));
    }
  } finally {
    await client.end();
  }
}, 300_000);

afterAll(async () => {
  if (process.env.HIPPO_CATALOGUE_PRINT) for (const v of verdicts) console.log(v.widest, v.planned, v.listed ?? '-', v.text.slice(0, 150));
  await opened?.dispose();
});

describe('the statement catalogue of the PostgreSQL adapter', () => {
  it('is partitioned as chosen at creation: every agent table into HIPPO_PG_PARTITIONS hash partitions by agent_id', async () => {
    const client = new pg.Client({ connectionString: opened.database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ table: string; strategy: string; key: string; n: number }>(
        `SELECT c.relname AS table, p.partstrat AS strategy, pg_get_partkeydef(c.oid) AS key,
                (SELECT count(*)::int FROM pg_inherits i WHERE i.inhparent = c.oid) AS n
         FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid WHERE c.relnamespace = current_schema()::regnamespace ORDER BY 1`,
      );
      expect(rows).toEqual(AGENT_TABLE_NAMES.sort().map((table) => ({ table, strategy: 'h', key: 'HASH (agent_id)', n: PARTITIONS })));
    } finally {
      await client.end();
    }
  });

  it('covers every kind of statement: reads, writes and cursors on every agent table', () => {
    expect(verdicts.filter((verdict) => verdict.planned).length).toBeGreaterThan(80);
    // Receipts are never deleted: a receipt is the proof that something was forgotten (docs/governance.md).
    const never: Record<string, string[]> = { forget_receipts: ['DELETE FROM'] };
    for (const table of AGENT_TABLE_NAMES) {
      for (const verb of ['SELECT', 'INSERT INTO', 'UPDATE', 'DELETE FROM'].filter((verb) => !never[table]?.includes(verb))) {
        expect(
          verdicts.some((verdict) => verdict.text.includes(`${verb} ${table}`) || (verb === 'SELECT' && verdict.text.includes(`FROM ${table}`))),
          `${verb} ${table}`,
        ).toBe(true);
      }
    }
  });

  it('routes every statement to one agent’s partition, or lists it as over every agent with its reason', () => {
    const unlisted = verdicts.filter((verdict) => verdict.widest > 1 && verdict.listed === undefined).map((verdict) => verdict.text);
    expect(unlisted).toEqual([]);
    // The list holds only what the adapter says: each entry's statements do reach several partitions or are unplanned.
    const routed = verdicts.filter((verdict) => verdict.planned && verdict.widest <= 1).length;
    expect(routed).toBeGreaterThan(50);
  });

  it('catches a new statement that scans every partition without being listed (the check itself)', async () => {
    const client = new pg.Client({ connectionString: opened.database.url });
    await client.connect();
    try {
      const scan = await classify(client, { text: 'SELECT id FROM memories WHERE content_hash = $1', values: ['x'] });
      expect(scan.widest).toBe(PARTITIONS);
      expect(scan.listed).toBeUndefined();
      const routed = await classify(client, { text: 'SELECT id FROM memories WHERE agent_id = $1 AND content_hash = $2', values: ['agent-3', 'x'] });
      expect(routed.widest).toBe(1);
      // A `--` comment inside a statement ends at its line: the rest is still planned (rev25f).
      const commented = await classify(client, { text: 'SELECT count(*) -- of every agent\n FROM memories WHERE content_hash = $1', values: ['x'] });
      expect(commented.widest).toBe(PARTITIONS);
      expect(commented.listed).toBeUndefined();
      const update = await classify(client, { text: 'UPDATE candidates SET status = $2 WHERE id = $1', values: ['c', 'pending'] });
      expect(update.widest).toBe(PARTITIONS);
      expect(update.listed).toBeUndefined();
    } finally {
      await client.end();
    }
  });
});
