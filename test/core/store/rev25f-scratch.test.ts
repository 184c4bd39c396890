/**
 * Review rev25f of issue 25: defects found, each written first as a test that failed (`it.fails`), now plain `it` since
 * their fixes (the catalogue workload, the docs).
 *
 * 1. The statement catalogue (test/core/store/postgres/catalogue.test.ts) sees only what its workload makes the adapter
 *    send. Several of the adapter's statements on agent tables are never sent by that workload, so a change that makes
 *    one of them scan every partition passes the catalogue (tried in review: the neighbour look-up of a context-only
 *    hit, fts.ts `nearbySql`, with `n.agent_id = $1` removed — the catalogue still passed).
 * 2. docs/postgres.md "Scaling out" distributes four agent tables; the schema has six (read_audit and forget_receipts,
 *    issue 29, are agent-owned and hash-partitioned too), so the documented Citus statements leave two agent tables
 *    local to the coordinator.
 * 3. docs/postgres.md tells the user to run `hippo db init`, which is not a command (exit 2, unknown_command).
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { AGENT_TABLES, ALL_TABLES } from '../../../src/core/store/tables.js';
import { openAdapterStore } from '../../helpers/postgres-store.js';
import { workload } from '../../helpers/store-workload.js';

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Every statement text the pg clients of this process send while `fn` runs. */
async function recorded(fn: () => Promise<void>): Promise<string[]> {
  const texts = new Set<string>();
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be called with each client as `this`
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as { text?: unknown } | string | undefined;
    const text = typeof first === 'string' ? first : first?.text;
    if (typeof text === 'string') texts.add(normalise(text));
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = original;
  }
  return [...texts];
}

describe('rev25f: the statement catalogue sees every statement the adapter sends', () => {
  it('its workload sends the statements of a context-only hit, the decided list, a thread append and erasure’s context scan', async () => {
    const opened = await openAdapterStore();
    const other = await openAdapterStore();
    let texts: string[] = [];
    try {
      texts = await recorded(() => workload(opened.store, other.store));
    } finally {
      await other.dispose();
      await opened.dispose();
    }
    // One distinctive piece of each statement (src/core/store/postgres/…), all naming the agent today.
    const pieces = {
      'fts.ts nearbySql (a context-only hit’s neighbour)': 'neighbours AS (',
      'repos.ts decided (rejections that teach)': 'cardinality(forgotten_sources) > 0 AS forgotten FROM candidates',
      'threads.ts appended (a thread going on)': 'SELECT 1 FROM memories WHERE agent_id = $1 AND thread = $2',
      'erasure.ts contextsHolding': 'FROM unnest($2::text[]) AS n (needle)',
    };
    const missing = Object.entries(pieces)
      .filter(([, piece]) => !texts.some((text) => text.includes(piece)))
      .map(([name]) => name);
    expect(missing).toEqual([]);
  }, 300_000);
});

describe('rev25f: docs/postgres.md "Scaling out" matches the schema', () => {
  const docs = readFileSync(new URL('../../../docs/postgres.md', import.meta.url), 'utf8');
  const section = docs.slice(docs.indexOf('## Scaling out'), docs.indexOf('\n## ', docs.indexOf('## Scaling out') + 3));

  it('distributes every agent-owned table by agent_id and makes every store-wide table a reference table', () => {
    const distributed = [...section.matchAll(/create_distributed_table\('(\w+)',\s*'agent_id'/g)].map((match) => match[1]).sort();
    const reference = [...section.matchAll(/create_reference_table\('(\w+)'\)/g)].map((match) => match[1]);
    expect(distributed).toEqual(AGENT_TABLES.map((spec) => spec.name).sort());
    for (const spec of ALL_TABLES.filter((table) => table.owner === 'store')) expect(reference).toContain(spec.name);
  });

  it('names only commands hippo has (`hippo db …`)', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../../oclif.manifest.json', import.meta.url), 'utf8')) as { commands: Record<string, unknown> };
    const named = [...normalise(docs).matchAll(/`hippo db (\w+)/g)].map((match) => `db:${match[1]}`);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((command) => !(command in manifest.commands))).toEqual([]);
  });
});
