/**
 * store/tables.ts is the one description of hippo's tables: each engine's live schema (a freshly migrated SQLite file,
 * a freshly migrated PostgreSQL database), the records of src/core/records.ts and the MCP schemas of src/mcp/schemas.ts
 * are held to it here. A migration that adds, drops or retypes a column, or changes a key, fails this test until the
 * spec says the same (and the other engine's migration too).
 */
import Database from 'better-sqlite3';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { candidateSchema, memorySchema, runSchema } from '../../../src/mcp/schemas.js';
import type { Candidate, McpToken, Memory, Run } from '../../../src/core/records.js';
import type { CandidateRecord, HandoffRecord } from '../../../src/core/store/port.js';
import {
  ALL_TABLES,
  CANDIDATE_PUBLIC_COLUMNS,
  CANDIDATE_TABLE,
  ENGINE_TABLES,
  ENGINE_TYPES,
  HANDOFF_TABLE,
  KEY_NULLABLE_ON_SQLITE,
  MEMORY_TABLE,
  RUN_RECORD_COLUMNS,
  TOKEN_PUBLIC_COLUMNS,
  type Column,
  type TableSpec,
} from '../../../src/core/store/tables.js';
import { openStore } from '../../../src/core/store/store.js';
import { openTestStore } from '../../helpers/store.js';
import { createPool, parsePostgresUrl } from '../../../src/core/store/postgres/connect.js';

/** A table as its engine's catalogue describes it: columns (type, NOT NULL), primary key, unique keys. */
interface LiveTable {
  columns: Record<string, { type: string; notNull: boolean }>;
  key: string[];
  unique: string[][];
}

/**
 * What the spec says the engine's table is. One quirk of SQLite's is allowed for: a PRIMARY KEY column of a table
 * with a rowid is not NOT NULL unless declared so, and hippo's first migration did not declare it (hippo never writes
 * a NULL key; tables.ts KEY_NULLABLE_ON_SQLITE).
 */
function expected(spec: TableSpec, engine: 'sqlite' | 'postgres'): LiveTable {
  const own = spec.engine[engine];
  const key = [...(own?.key ?? spec.primary)];
  const columns: LiveTable['columns'] = {};
  for (const column of [...spec.columns, ...spec.stored]) {
    const keyQuirk = engine === 'sqlite' && KEY_NULLABLE_ON_SQLITE.includes(spec.name) && key.length === 1 && key[0] === column.name;
    columns[column.name] = { type: ENGINE_TYPES[column.type][engine], notNull: !column.nullable && !keyQuirk };
  }
  for (const column of own?.columns ?? []) columns[column.name] = { type: column.type, notNull: !column.nullable };
  return { columns, key, unique: (own?.unique ?? spec.unique).map((unique) => [...unique]).sort() };
}

describe('the spec', () => {
  it('names every table once, with an owner and a reason, its key among its columns', () => {
    const names = ALL_TABLES.map((spec) => spec.name);
    expect(new Set(names).size).toBe(names.length);
    for (const spec of ALL_TABLES) {
      expect(spec.ownerReason.length, spec.name).toBeGreaterThan(10);
      const columns = [...spec.columns, ...spec.stored].map((column) => column.name);
      expect(new Set(columns).size, spec.name).toBe(columns.length);
      for (const name of [spec.key, ...spec.unique.flat()]) expect(columns, spec.name).toContain(name);
      // An agent's table carries the agent on every row; a store-wide one may not name one at all.
      const agent = spec.columns.find((column) => column.name === 'agent_id');
      if (spec.owner === 'agent') expect(agent?.nullable, spec.name).toBe(false);
      for (const name of spec.primary) expect(columns, spec.name).toContain(name);
      expect(spec.primary, spec.name).toContain(spec.key);
    }
  });

  it('keys every agent’s table by agent: agent_id NOT NULL first in the primary key and in every unique key, on both engines', () => {
    const agents = ALL_TABLES.filter((spec) => spec.owner === 'agent');
    expect(agents.map((spec) => spec.name).sort()).toEqual(['candidates', 'forget_receipts', 'handoffs', 'memories', 'read_audit', 'runs']);
    for (const spec of agents) {
      expect(spec.primary, spec.name).toEqual(['agent_id', 'id']);
      for (const engine of ['sqlite', 'postgres'] as const) {
        const live = expected(spec, engine);
        expect(live.columns.agent_id, `${engine} ${spec.name}`).toEqual(expect.objectContaining({ notNull: true }));
        for (const unique of live.unique) expect(unique[0], `${engine} ${spec.name} unique ${unique.join(',')}`).toBe('agent_id');
        // SQLite's memories keep the rowid as their primary key (the full-text table's content rowid); the agent's key
        // is then a unique key.
        if (live.key[0] === 'rowid') expect(live.unique, `${engine} ${spec.name}`).toContainEqual(['agent_id', 'id']);
        else expect(live.key[0], `${engine} ${spec.name}`).toBe('agent_id');
      }
    }
  });
});

describe.each(['sqlite', 'postgres'] as const)('the live schema of a fresh %s store', (engine) => {
  let live: Record<string, LiveTable>;
  let done: () => Promise<void>;

  beforeAll(async () => {
    if (engine === 'sqlite') {
      const store = await openTestStore(engine);
      done = () => store.done();
      live = sqliteSchema(store.location);
    } else {
      // Loaded only here: a run without a PostgreSQL server still checks SQLite.
      const { freshDatabase } = await import('../../helpers/postgres.js');
      const database = await freshDatabase();
      done = () => database.drop();
      await (await openStore({ url: database.url })).close();
      live = await postgresSchema(database.url);
    }
  });
  afterAll(async () => done());

  it('holds exactly the spec’s tables, besides the engine’s own', () => {
    const own = Object.keys(ENGINE_TABLES[engine]);
    const tables = Object.keys(live).filter((name) => !own.some((table) => name === table || name.startsWith(`${table}_`)));
    expect(tables.sort()).toEqual(ALL_TABLES.map((spec) => spec.name).sort());
    for (const table of own) expect(Object.keys(live), table).toContain(table);
  });

  it.each(ALL_TABLES.map((spec) => [spec.name, spec] as const))('%s: columns, types, nullability and keys as the spec says', (_name, spec) => {
    expect(live[spec.name]).toEqual(expected(spec, engine));
  });
});

function sqliteSchema(path: string): Record<string, LiveTable> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    const schema: Record<string, LiveTable> = {};
    for (const table of tables) {
      const info = db.prepare(`PRAGMA table_xinfo(${JSON.stringify(table)})`).all() as { name: string; type: string; notnull: number; pk: number }[];
      const columns: LiveTable['columns'] = {};
      for (const column of info) columns[column.name] = { type: column.type, notNull: column.notnull === 1 };
      const key = info
        .filter((column) => column.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((column) => column.name);
      const unique = (db.prepare(`PRAGMA index_list(${JSON.stringify(table)})`).all() as { name: string; unique: number; origin: string }[])
        .filter((index) => index.unique === 1 && index.origin === 'u')
        .map((index) => (db.prepare(`PRAGMA index_info(${JSON.stringify(index.name)})`).all() as { seqno: number; name: string }[]).map((part) => part.name))
        .sort();
      schema[table] = { columns, key, unique };
    }
    return schema;
  } finally {
    db.close();
  }
}

async function postgresSchema(url: string): Promise<Record<string, LiveTable>> {
  const pool: Pool = await createPool(parsePostgresUrl(url, {}), {});
  try {
    const { rows: columns } = await pool.query<{ table: string; name: string; type: string; not_null: boolean }>(`
      SELECT c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND a.attnum > 0 AND NOT a.attisdropped`);
    const { rows: keys } = await pool.query<{ table: string; kind: string; columns: string[] }>(`
      SELECT c.relname AS table, k.contype::text AS kind, array_agg(a.attname::text ORDER BY x.ord) AS columns
      FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
      CROSS JOIN unnest(k.conkey) WITH ORDINALITY x(attnum, ord)
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = x.attnum
      WHERE c.relnamespace = current_schema()::regnamespace AND NOT c.relispartition AND k.contype IN ('p', 'u')
      GROUP BY c.relname, k.conname, k.contype`);
    const schema: Record<string, LiveTable> = {};
    for (const column of columns) {
      const table = (schema[column.table] ??= { columns: {}, key: [], unique: [] });
      table.columns[column.name] = { type: column.type, notNull: column.not_null };
    }
    for (const key of keys) {
      if (key.kind === 'p') schema[key.table]!.key = key.columns;
      else schema[key.table]!.unique.push(key.columns);
    }
    for (const table of Object.values(schema)) table.unique.sort();
    return schema;
  } finally {
    await pool.end();
  }
}

// ---- the records and the MCP schemas ----------------------------------------------------------------------------

/**
 * Each record's properties, held to its type at compile time (`satisfies`: a property missing or extra fails the
 * typecheck) and to the spec's columns at run time below: records.ts and tables.ts cannot drift apart.
 */
const MEMORY_PROPS = {
  id: 0,
  agentId: 0,
  content: 0,
  durability: 0,
  tags: 0,
  subject: 0,
  source: 0,
  createdAt: 0,
  updatedAt: 0,
  expiresAt: 0,
  archivedAt: 0,
  archivedReason: 0,
  derivedFrom: 0,
  promotedFrom: 0,
  contentHash: 0,
  lastReflectedAt: 0,
  retrievalCount: 0,
  lastRetrievedAt: 0,
  thread: 0,
  versionOf: 0,
} satisfies Record<keyof Memory, 0>;
const CANDIDATE_PROPS = {
  id: 0,
  agentId: 0,
  claim: 0,
  editedClaim: 0,
  status: 0,
  sourceMemoryIds: 0,
  tags: 0,
  generatedBy: 0,
  provider: 0,
  generatedAt: 0,
  runId: 0,
  promptSha256: 0,
  reviewer: 0,
  reviewRationale: 0,
  decidedAt: 0,
  promotedMemoryId: 0,
  forgottenSourceIds: 0,
  reopenedBy: 0,
  reopenedAt: 0,
  reopenReason: 0,
} satisfies Record<keyof Candidate, 0>;
const CANDIDATE_RECORD_PROPS = { ...CANDIDATE_PROPS, claimNorm: 0, prompt: 0 } satisfies Record<keyof CandidateRecord, 0>;
const RUN_PROPS = {
  id: 0,
  kind: 0,
  agentId: 0,
  startedAt: 0,
  finishedAt: 0,
  status: 0,
  snapshotPath: 0,
  counts: 0,
  candidateIds: 0,
  model: 0,
  errors: 0,
  durationMs: 0,
  parentRunId: 0,
  steps: 0,
  memoryIds: 0,
} satisfies Record<keyof Run, 0>;
const HANDOFF_PROPS = {
  id: 0,
  agentId: 0,
  createdAt: 0,
  focus: 0,
  refs: 0,
  promptSha256: 0,
  expiresAt: 0,
  maxCandidates: 0,
  ingestedAt: 0,
  ingestRunId: 0,
  prompt: 0,
  placeholders: 0,
} satisfies Record<keyof HandoffRecord, 0>;
const TOKEN_PROPS = { id: 0, agentId: 0, label: 0, createdAt: 0, revokedAt: 0 } satisfies Record<keyof McpToken, 0>;

const props = (columns: readonly Column[]) => columns.map((column) => column.prop).sort();

describe('records.ts', () => {
  it.each([
    ['Memory', MEMORY_PROPS, MEMORY_TABLE.columns],
    ['Candidate', CANDIDATE_PROPS, CANDIDATE_PUBLIC_COLUMNS],
    ['CandidateRecord', CANDIDATE_RECORD_PROPS, CANDIDATE_TABLE.columns],
    ['Run', RUN_PROPS, RUN_RECORD_COLUMNS],
    ['HandoffRecord', HANDOFF_PROPS, HANDOFF_TABLE.columns],
    ['McpToken', TOKEN_PROPS, TOKEN_PUBLIC_COLUMNS],
  ] as const)('%s has exactly the spec’s properties', (_name, record, columns) => {
    expect(Object.keys(record).sort()).toEqual(props(columns));
  });
});

describe('the MCP schemas (src/mcp/schemas.ts)', () => {
  /** A value of the column's logical type, and null: what the schema must take and refuse. */
  const sample = (column: Column): unknown =>
    column.type === 'list' ? ['a'] : column.type === 'integer' || column.type === 'bigint' ? 1 : column.type === 'json' ? {} : 'x';

  it.each([
    ['memory', memorySchema, MEMORY_TABLE.columns],
    ['candidate', candidateSchema, CANDIDATE_PUBLIC_COLUMNS],
    ['run', runSchema, RUN_RECORD_COLUMNS],
  ] as const)('%s: every field is a column of the spec, nullable exactly where the column is, a list where it is a list', (_name, schema, columns) => {
    const shape = (schema as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
    const byProp = new Map(columns.map((column) => [column.prop, column]));
    expect(Object.keys(shape).length).toBeGreaterThan(3);
    for (const [field, type] of Object.entries(shape)) {
      const column = byProp.get(field);
      expect(column, `${field} is not a column`).toBeDefined();
      expect(type.safeParse(null).success, `${field} nullable`).toBe(column!.nullable);
      expect(type.safeParse([]).success, `${field} a list`).toBe(column!.type === 'list');
      // Enumerations take their own words only (records.ts DURABILITIES, CANDIDATE_STATUSES).
      if (field === 'durability' || (field === 'status' && schema === candidateSchema)) continue;
      expect(type.safeParse(sample(column!)).success, `${field} takes a ${column!.type}`).toBe(true);
    }
  });
});
