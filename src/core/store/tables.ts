/**
 * The tables hippo owns, column by column, once for both engines (docs/store.md "Tables"): each column's name, the
 * property of the port's object it carries (Memory, CandidateRecord, Run, HandoffRecord, {key, value}, a token), its
 * logical type and what that is on each engine, whether it may be NULL; each table's keys and whose rows it holds.
 * Both adapters derive their column lists, row mapping and statement parameters from here (sqlite/codec.ts,
 * postgres/codec.ts), and test/core/store/tables.test.ts holds each engine's live schema, the records and the MCP
 * schemas to it. Migrations stay hand-written SQL per engine (sqlite/migrations.ts, postgres/schema.ts): a change of a
 * table is a new migration on each engine and a change here, and that test fails until all three agree.
 */
import type { Engine, StoreTable } from './port.js';

/**
 * A column's logical type. `time`: ISO-8601 UTC text with milliseconds across the port; `list`: a list of strings;
 * `json`: a stored document (run counts, a handoff's refs), kept as its exact text.
 */
export type LogicalType = 'text' | 'time' | 'integer' | 'bigint' | 'list' | 'json';

/** What each logical type is on each engine (SQLite's declared type; PostgreSQL's `format_type`). */
export const ENGINE_TYPES: Record<LogicalType, Record<Engine, string>> = {
  text: { sqlite: 'TEXT', postgres: 'text' },
  time: { sqlite: 'TEXT', postgres: 'timestamp with time zone' },
  integer: { sqlite: 'INTEGER', postgres: 'integer' },
  bigint: { sqlite: 'INTEGER', postgres: 'bigint' },
  // SQLite keeps lists and documents as JSON text.
  list: { sqlite: 'TEXT', postgres: 'text[]' },
  json: { sqlite: 'TEXT', postgres: 'json' },
};

export interface Column {
  /** The column's SQL name. */
  name: string;
  /** The property of the port's object (camelCase of the name unless given). */
  prop: string;
  type: LogicalType;
  nullable: boolean;
  /**
   * What a row of an older snapshot, written before the column existed, holds in it (a logical snapshot of an older
   * schema is read with this filled in). Absent for the columns of the first schema.
   */
  since?: { version: number; value: unknown };
}

/**
 * Whose rows a table holds. `agent`: every row is one agent's — `agent_id NOT NULL` is the first column of the primary
 * key and of every unique key, every statement names the agent, and PostgreSQL hash-partitions the table by agent
 * (postgres/partition.ts; a Citus cluster distributes it by agent_id, docs/postgres.md "Scaling out"). `store`: rows
 * of the whole store, with the reason (a plain table; a reference table on Citus).
 */
export type Ownership = 'agent' | 'store';

/** A column an engine keeps for itself (an index's helper, a generated search vector): never crosses the port. */
export interface EngineColumn {
  name: string;
  /** The engine's type, as its catalogue spells it. */
  type: string;
  nullable: boolean;
  why: string;
}

export interface TableSpec {
  name: StoreTable | 'mcp_tokens' | 'store_runs' | 'read_audit' | 'forget_receipts';
  owner: Ownership;
  /** Why the table is owned as it is. */
  ownerReason: string;
  /** The row's own key within its owner: what a dump pages and orders by (`id`, or `key` for settings). */
  key: string;
  /**
   * The primary key's columns: `['agent_id', 'id']` for an agent's table (the agent first), the key alone for a
   * store-wide one. `ON CONFLICT` targets and the partitioned tables' keys come from here.
   */
  primary: readonly string[];
  /** Unique keys besides the primary key (an agent's table: each starts with agent_id). */
  unique: readonly (readonly string[])[];
  /** The columns that cross the port, in the port's order (inserts, dumps, logical snapshots). */
  columns: readonly Column[];
  /** Columns of every engine that the adapter writes but that do not cross the port as such (a memory's search context). */
  stored: readonly Column[];
  /** Columns and keys one engine has and the other does not. */
  engine: Partial<Record<Engine, { columns?: readonly EngineColumn[]; key?: readonly string[]; unique?: readonly (readonly string[])[] }>>;
}

const col = (name: string, type: LogicalType = 'text', nullable = false, since?: Column['since']): Column => ({
  name,
  prop: name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
  type,
  nullable,
  ...(since ? { since } : {}),
});
/** A column that may be NULL. */
const opt = (name: string, type: LogicalType = 'text', since?: Column['since']): Column => col(name, type, true, since);

export const MEMORY_TABLE: TableSpec = {
  name: 'memories',
  owner: 'agent',
  ownerReason: 'a memory is one agent’s',
  key: 'id',
  primary: ['agent_id', 'id'],
  unique: [],
  columns: [
    col('id'),
    col('agent_id'),
    col('content'),
    col('durability'),
    col('tags', 'list'),
    opt('subject'),
    col('source'),
    col('created_at', 'time'),
    col('updated_at', 'time'),
    opt('expires_at', 'time'),
    opt('archived_at', 'time'),
    opt('archived_reason'),
    col('derived_from', 'list'),
    opt('promoted_from'),
    col('content_hash'),
    opt('last_reflected_at', 'time'),
    col('retrieval_count', 'integer'),
    opt('last_retrieved_at', 'time'),
    opt('thread', 'text', { version: 2, value: null }),
    opt('version_of', 'text', { version: 3, value: null }),
  ],
  // A threaded memory's search context (store/context.ts) is not a column of every engine: PostgreSQL stores it (below),
  // SQLite computes it in the view its full-text table reads (migrations 13 and 14).
  stored: [],
  engine: {
    sqlite: {
      columns: [
        { name: 'rowid', type: 'INTEGER', nullable: true, why: 'the full-text table’s content_rowid; a thread’s order among equal times' },
        { name: 'date_words', type: 'TEXT', nullable: true, why: 'generated: the creation date in words, for the full-text table' },
      ],
      // SQLite keeps the rowid as the primary key (a stable rowid for the full-text table) and (agent_id, id) as a unique key.
      key: ['rowid'],
      unique: [['agent_id', 'id']],
    },
    postgres: {
      columns: [
        {
          name: 'context_before',
          type: 'text',
          nullable: false,
          why: 'the text of the neighbours before it in its thread, kept by the adapter for the search',
        },
        { name: 'context_after', type: 'text', nullable: false, why: 'the text of the neighbours after it in its thread, kept by the adapter for the search' },
        { name: 'seq', type: 'bigint', nullable: false, why: 'insertion order: a thread’s order among equal times' },
        { name: 'fts', type: 'tsvector', nullable: true, why: 'generated: the weighted search vector of content, subject and tags' },
        { name: 'fts_context', type: 'tsvector', nullable: true, why: 'generated: the search vector of the context and the date in words' },
      ],
    },
  },
};

/**
 * A memory with its search context, as PostgreSQL's bulk path writes it (store/context.ts): the memory's columns, then
 * the neighbours' text. Rows are `Memory & { contextBefore, contextAfter }`.
 */
export const MEMORY_INSERT_TABLE: TableSpec = { ...MEMORY_TABLE, columns: [...MEMORY_TABLE.columns, col('context_before'), col('context_after')] };

export const CANDIDATE_TABLE: TableSpec = {
  name: 'candidates',
  owner: 'agent',
  ownerReason: 'a candidate is distilled from one agent’s memories',
  key: 'id',
  primary: ['agent_id', 'id'],
  unique: [],
  columns: [
    col('id'),
    col('agent_id'),
    col('claim'),
    opt('edited_claim'),
    col('status'),
    col('source_memory_ids', 'list'),
    col('tags', 'list'),
    col('generated_by'),
    col('provider'),
    col('generated_at', 'time'),
    col('run_id'),
    col('prompt_sha256'),
    opt('reviewer'),
    opt('review_rationale'),
    opt('decided_at', 'time'),
    opt('promoted_memory_id'),
    { ...col('forgotten_sources', 'list', false, { version: 3, value: [] }), prop: 'forgottenSourceIds' },
    opt('reopened_by', 'text', { version: 3, value: null }),
    opt('reopened_at', 'time', { version: 3, value: null }),
    opt('reopen_reason', 'text', { version: 3, value: null }),
    col('claim_norm'),
    col('prompt'),
  ],
  stored: [],
  engine: {},
};

/** A candidate's public columns (everything but the normalised claim and the prompt). */
export const CANDIDATE_PUBLIC_COLUMNS = CANDIDATE_TABLE.columns.filter((column) => column.name !== 'claim_norm' && column.name !== 'prompt');

/**
 * A run as it crosses the port (records.ts Run): `agentId` is null for a run over every agent (a nightly over all
 * agents, a restore of all agents, a prune of the audit log). The adapters keep the two kinds in two tables — an
 * agent's runs in `runs` (RUN_TABLE), the runs over every agent in `store_runs` (STORE_RUN_TABLE) — and the port's run
 * methods, dumps and copies see them as one audit log. A nightly's child runs (one per agent) are the agents' and
 * point at the night's row by parent_run_id.
 */
export const RUN_COLUMNS: readonly Column[] = [
  col('id'),
  col('kind'),
  opt('agent_id'),
  col('started_at', 'time'),
  opt('finished_at', 'time'),
  col('status'),
  opt('snapshot_path'),
  col('counts', 'json'),
  col('candidate_ids', 'list'),
  opt('model'),
  col('errors', 'json'),
  opt('duration_ms', 'bigint'),
  opt('parent_run_id'),
  col('steps', 'json'),
  col('memory_ids', 'list', false, { version: 3, value: [] }),
];

/** An agent's runs (a distillation, a review, an import, a nightly's child run for one agent, a restore of one agent). */
export const RUN_TABLE: TableSpec = {
  name: 'runs',
  owner: 'agent',
  ownerReason: 'a run acts for one agent (a nightly’s child run for each agent points at the night’s row in store_runs)',
  key: 'id',
  primary: ['agent_id', 'id'],
  unique: [],
  columns: RUN_COLUMNS.map((column) => (column.name === 'agent_id' ? { ...column, nullable: false } : column)),
  stored: [],
  engine: {},
};

/** Runs over every agent: their rows carry no agent (the port's `agentId` is null). */
export const STORE_RUN_TABLE: TableSpec = {
  name: 'store_runs',
  owner: 'store',
  ownerReason:
    'a run over every agent (a nightly over all agents, a restore of all agents, a prune of the audit log) is no agent’s; it stays on the coordinator',
  key: 'id',
  primary: ['id'],
  unique: [],
  columns: RUN_COLUMNS.filter((column) => column.name !== 'agent_id'),
  stored: [],
  engine: {},
};

export const HANDOFF_TABLE: TableSpec = {
  name: 'handoffs',
  owner: 'agent',
  ownerReason: 'a prompt-only handoff is one agent’s distillation',
  key: 'id',
  primary: ['agent_id', 'id'],
  unique: [],
  columns: [
    col('id'),
    col('agent_id'),
    col('created_at', 'time'),
    col('focus'),
    col('refs', 'json'),
    col('prompt_sha256'),
    col('expires_at', 'time'),
    col('max_candidates', 'integer'),
    opt('ingested_at', 'time'),
    opt('ingest_run_id'),
    col('prompt'),
    opt('placeholders', 'json'),
  ],
  stored: [],
  engine: {},
};

export const SETTINGS_TABLE: TableSpec = {
  name: 'settings',
  owner: 'store',
  ownerReason: 'flags and locks of the whole store (the nightly lock, the pause, a pending vacuum)',
  key: 'key',
  primary: ['key'],
  unique: [],
  columns: [col('key'), col('value')],
  stored: [],
  engine: {},
};

/**
 * The bearer tokens of `hippo mcp --http` (docs/mcp.md). Not one of the tables a dump, a copy or a snapshot walks:
 * tokens are credentials of the server, not data.
 */
export const TOKEN_TABLE: TableSpec = {
  name: 'mcp_tokens',
  owner: 'store',
  ownerReason:
    'a request is looked up by its token’s hash before its agent is known (a reference table on Citus: one token table for every replica); each row names the agent it acts for',
  key: 'id',
  primary: ['id'],
  unique: [['token_hash']],
  columns: [col('id'), col('agent_id'), opt('label'), col('token_hash'), col('created_at', 'time'), opt('revoked_at', 'time')],
  stored: [],
  engine: {},
};

/** A token's public columns (everything but the hash). */
export const TOKEN_PUBLIC_COLUMNS = TOKEN_TABLE.columns.filter((column) => column.name !== 'token_hash');

/**
 * The read audit (docs/governance.md): who was handed which memories, by id. Never a query's or a memory's text; a
 * keyed hash of a query (HMAC, its key in settings) to group reads by. Not one of the tables a dump, a copy or a
 * snapshot walks (as the runs, it is the store's record of what happened, not data to put back).
 */
export const READ_AUDIT_TABLE: TableSpec = {
  name: 'read_audit',
  owner: 'agent',
  ownerReason: 'a read hands one agent’s memories to a client serving that agent',
  key: 'id',
  primary: ['agent_id', 'id'],
  unique: [],
  columns: [
    col('agent_id'),
    col('id'),
    col('at', 'time'),
    col('channel'),
    col('client'),
    opt('token_id'),
    col('operation'),
    col('memory_ids', 'list'),
    opt('query_hash'),
  ],
  stored: [],
  engine: {},
};

/** Forget receipts (docs/governance.md): what a `memory forget` erased where, with the SHA-256 of each text, never the text. */
export const FORGET_RECEIPT_TABLE: TableSpec = {
  name: 'forget_receipts',
  owner: 'agent',
  ownerReason: 'a forget erases one agent’s memories, and its receipt is that agent’s',
  key: 'id',
  primary: ['agent_id', 'id'],
  unique: [],
  columns: [col('agent_id'), col('id'), col('created_at', 'time'), col('run_id'), col('memory_ids', 'list'), col('receipt', 'json')],
  stored: [],
  engine: {},
};

/**
 * The tables a dump, `db copy` and a logical snapshot walk, by name. `runs` is the audit log as the port sees it: an
 * agent's runs (RUN_TABLE) and, in a dump of every agent, the runs over every agent (STORE_RUN_TABLE) too.
 */
export const TABLE_SPECS: Record<StoreTable, TableSpec> = {
  memories: MEMORY_TABLE,
  candidates: CANDIDATE_TABLE,
  runs: RUN_TABLE,
  handoffs: HANDOFF_TABLE,
  settings: SETTINGS_TABLE,
};

/** Every table hippo owns, tokens included. */
export const ALL_TABLES: readonly TableSpec[] = [...Object.values(TABLE_SPECS), STORE_RUN_TABLE, TOKEN_TABLE, READ_AUDIT_TABLE, FORGET_RECEIPT_TABLE];

/** The agents' tables: hash-partitioned by agent on PostgreSQL (postgres/partition.ts). */
export const AGENT_TABLES: readonly TableSpec[] = ALL_TABLES.filter((spec) => spec.owner === 'agent');

/** The port's columns of a run of either table (`agentId` null for a run over every agent). */
export const RUN_RECORD_COLUMNS = RUN_COLUMNS;

/**
 * Tables an engine keeps for its own bookkeeping, with why: they hold no row of hippo's data.
 */
export const ENGINE_TABLES: Record<Engine, Record<string, string>> = {
  sqlite: {
    hippo_state: 'the change counter a nightly compares with its newest snapshot’s',
    memories_fts: 'the FTS5 index of memories (and its shadow tables memories_fts_*)',
  },
  postgres: { hippo_schema: 'the marker and schema version' },
};

/**
 * SQLite's catalogue says a text PRIMARY KEY column may be NULL (a PRIMARY KEY of a table with a rowid implies NOT
 * NULL only when declared, and hippo's first migrations did not declare it). hippo never writes a NULL key; the live
 * schema test allows for it in these tables, which migration 9 (issue 25) did not rebuild.
 */
export const KEY_NULLABLE_ON_SQLITE: readonly string[] = ['settings', 'mcp_tokens'];

/** What a run's final row sets (a guarded UPDATE, `status = 'running'`): every column but what its start fixes. */
export const RUN_FINISH_COLUMNS: readonly Column[] = RUN_TABLE.columns.filter((column) => !['id', 'kind', 'agent_id', 'started_at'].includes(column.name));

/** What a memory's update sets: every column but identity, creation and thread (a thread is set once, at insert). */
export const MEMORY_UPDATE_COLUMNS: readonly Column[] = MEMORY_TABLE.columns.filter(
  (column) => !['id', 'agent_id', 'created_at', 'thread'].includes(column.name),
);

/** `a = ?, b = ?` for an UPDATE's SET list, each column's parameter marked by `mark` (its index among the columns). */
export function setList(columns: readonly Column[], mark: (index: number) => string): string {
  return columns.map((column, index) => `${column.name} = ${mark(index)}`).join(', ');
}

/** `a, b, c` for a SELECT or an INSERT column list (with an optional table alias). */
export function columnList(columns: readonly Column[], alias?: string): string {
  return columns.map((column) => (alias ? `${alias}.${column.name}` : column.name)).join(', ');
}

/** A port object from a row, given how each column's stored value is read back. */
export function objectOf<T>(columns: readonly Column[], row: Record<string, unknown>, read: (value: unknown, column: Column) => unknown): T {
  const result: Record<string, unknown> = {};
  for (const column of columns) {
    const value = row[column.name];
    result[column.prop] = value === undefined || value === null ? null : read(value, column);
  }
  return result as T;
}
