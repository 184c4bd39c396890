/**
 * The PostgreSQL schema: forward migrations, applied in order in one transaction by `migrate()` (migrate.ts). The
 * same logical tables as SQLite's (store/sqlite/migrations.ts), in PostgreSQL's own types, both described column by column
 * in store/tables.ts (test/core/store/tables.test.ts holds the live schema to it); see docs/postgres.md.
 *
 * - Times are `timestamptz`. hippo writes ISO-8601 UTC with milliseconds and reads them back through a type parser
 *   (connect.ts) as the same string, so a copy between engines is lossless.
 * - Lists of strings (tags, ids) are `text[]` (order kept); stored documents (run counts, errors, steps, a handoff's
 *   refs) are `json`, not `jsonb`, so their text — key order included — comes back exactly as written.
 * - Full-text search: a generated, weighted `tsvector` (content A, subject B, tags C) with a GIN index, in a text
 *   search configuration `hippo`: English Snowball stemming without a stopword list (like SQLite's porter tokenizer;
 *   hippo drops stopwords from queries itself) after `unaccent` (diacritics folded, like remove_diacritics 2). ASCII
 *   punctuation is turned into spaces before parsing, so `billing-svc`, `ana@example.com` or `v2.3` split into words
 *   as SQLite's unicode61 tokenizer splits them.
 *
 * `{{unaccent}}` stands for the schema-qualified unaccent dictionary; migrate() fills it in once the extension exists
 * (an administrator may have installed it in another schema). Never edit a shipped migration: add a new one.
 */
import { STORE_TABLES } from '../port.js';
import { CANDIDATE_TABLE, FORGET_RECEIPT_TABLE, HANDOFF_TABLE, MEMORY_TABLE, READ_AUDIT_TABLE, RUN_TABLE } from '../tables.js';
import { partitionedTableSql } from './partition.js';

/**
 * A migration that rebuilds tables (issue 25's keys and partitions), in three parts inside the one transaction of
 * `migrate()`: `before` renames the old tables and creates the new ones (given the partition count chosen for this
 * store), then `copies` move the rows across in chunks with progress (`onProgress('keys', …)`), then `after` drops
 * the old tables and builds the indexes.
 */
export interface RebuildMigration {
  before(partitions: number): string;
  copies: readonly TableCopy[];
  after: string;
}

/** Rows of `from` into `to`, `columns` on both sides, in chunks by `id` (the old tables' primary key). */
export interface TableCopy {
  from: string;
  to: string;
  columns: string;
  /** Which of the old rows go (the runs of an agent / of every agent). */
  where?: string;
}

/**
 * A migration that creates new agent-owned tables: its SQL given the store's partition count (the count its agent
 * tables were created with; partition.ts).
 */
export interface CreateMigration {
  create(partitions: number): string;
}

export type PostgresMigration = string | RebuildMigration | CreateMigration;

const MEMORY_COPY_COLUMNS =
  'agent_id, id, content, durability, tags, subject, source, created_at, updated_at, expires_at, archived_at, archived_reason, derived_from, ' +
  'promoted_from, content_hash, last_reflected_at, retrieval_count, last_retrieved_at, thread, seq, context_before, context_after, version_of';
const CANDIDATE_COPY_COLUMNS =
  'agent_id, id, claim, claim_norm, edited_claim, source_memory_ids, tags, status, generated_by, provider, generated_at, run_id, prompt_sha256, ' +
  'prompt, reviewer, review_rationale, decided_at, promoted_memory_id, forgotten_sources, reopened_by, reopened_at, reopen_reason';
const RUN_COPY_COLUMNS =
  'id, kind, started_at, finished_at, status, snapshot_path, counts, candidate_ids, model, errors, duration_ms, parent_run_id, steps, memory_ids';
const HANDOFF_COPY_COLUMNS =
  'agent_id, id, created_at, focus, refs, prompt_sha256, prompt, max_candidates, expires_at, ingested_at, ingest_run_id, placeholders';

/** The run columns of either run table (store_runs has no agent_id). */
const RUN_COLUMNS_SQL = `
    id text NOT NULL,
    kind text NOT NULL,
    started_at timestamptz NOT NULL,
    finished_at timestamptz,
    status text NOT NULL CHECK (status IN ('running','completed','partial','failed','paused','dry-run','interrupted')),
    snapshot_path text,
    counts json NOT NULL DEFAULT '{}' CHECK (json_typeof(counts) = 'object'),
    candidate_ids text[] NOT NULL DEFAULT '{}',
    model text,
    errors json NOT NULL DEFAULT '[]' CHECK (json_typeof(errors) = 'array'),
    duration_ms bigint,
    parent_run_id text,
    steps json NOT NULL DEFAULT '{}' CHECK (json_typeof(steps) = 'object'),
    memory_ids text[] NOT NULL DEFAULT '{}'`;

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  // 1: the whole schema as of SQLite's migration 2, plus `interrupted` as a run status.
  `
  CREATE TEXT SEARCH DICTIONARY hippo_english_stem (TEMPLATE = snowball, LANGUAGE = english);
  CREATE TEXT SEARCH CONFIGURATION hippo (COPY = pg_catalog.english);
  ALTER TEXT SEARCH CONFIGURATION hippo
    ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part, numword, numhword, hword_numpart
    WITH {{unaccent}}, hippo_english_stem;

  -- Text as SQLite's unicode61 tokenizer sees it: ASCII punctuation is a separator. (Only ASCII ranges, so this does
  -- not depend on the server's locale; other punctuation is a separator for PostgreSQL's parser already.)
  CREATE FUNCTION hippo_fts_text(text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT regexp_replace($1, '[!-/:-@[-\`{-~]+', ' ', 'g') $$;
  -- array_to_string is only STABLE in general (for any element type); for text[] it is immutable.
  CREATE FUNCTION hippo_tags_text(text[]) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT array_to_string($1, ' ') $$;

  CREATE TABLE memories (
    id text PRIMARY KEY,
    agent_id text NOT NULL,
    content text NOT NULL CHECK (length(content) > 0),
    durability text NOT NULL DEFAULT 'standard' CHECK (durability IN ('permanent','persistent','standard','ephemeral')),
    tags text[] NOT NULL DEFAULT '{}',
    subject text,
    source text NOT NULL DEFAULT 'cli',
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    expires_at timestamptz,
    archived_at timestamptz,
    archived_reason text,
    derived_from text[] NOT NULL DEFAULT '{}',
    promoted_from text,
    content_hash text NOT NULL,
    last_reflected_at timestamptz,
    retrieval_count integer NOT NULL DEFAULT 0,
    last_retrieved_at timestamptz,
    fts tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('hippo', hippo_fts_text(content)), 'A') ||
      setweight(to_tsvector('hippo', hippo_fts_text(coalesce(subject, ''))), 'B') ||
      setweight(to_tsvector('hippo', hippo_fts_text(hippo_tags_text(tags))), 'C')
    ) STORED,
    CHECK (expires_at IS NULL OR durability NOT IN ('persistent','permanent'))
  );
  CREATE INDEX memories_agent_created ON memories (agent_id, created_at DESC);
  CREATE INDEX memories_agent_hash ON memories (agent_id, content_hash);
  -- REM's gather: the eligible memories of an agent, newest first.
  CREATE INDEX memories_gather ON memories (agent_id, created_at DESC, expires_at, last_reflected_at)
    WHERE archived_at IS NULL AND cardinality(derived_from) = 0 AND durability <> 'permanent';
  CREATE INDEX memories_fts ON memories USING gin (fts);
  CREATE INDEX memories_tags ON memories USING gin (tags);

  CREATE TABLE candidates (
    id text PRIMARY KEY,
    agent_id text NOT NULL,
    claim text NOT NULL,
    claim_norm text NOT NULL,
    edited_claim text,
    source_memory_ids text[] NOT NULL,
    tags text[] NOT NULL DEFAULT '{}',
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','promoted','rejected')),
    generated_by text NOT NULL,
    provider text NOT NULL,
    generated_at timestamptz NOT NULL,
    run_id text NOT NULL,
    prompt_sha256 text NOT NULL,
    prompt text NOT NULL,
    reviewer text,
    review_rationale text,
    decided_at timestamptz,
    promoted_memory_id text
  );
  CREATE INDEX candidates_agent_status ON candidates (agent_id, status, generated_at DESC);
  CREATE INDEX candidates_agent_norm ON candidates (agent_id, claim_norm);

  CREATE TABLE runs (
    id text PRIMARY KEY,
    kind text NOT NULL,
    agent_id text,
    started_at timestamptz NOT NULL,
    finished_at timestamptz,
    status text NOT NULL CHECK (status IN ('running','completed','partial','failed','paused','dry-run','interrupted')),
    snapshot_path text,
    counts json NOT NULL DEFAULT '{}' CHECK (json_typeof(counts) = 'object'),
    candidate_ids text[] NOT NULL DEFAULT '{}',
    model text,
    errors json NOT NULL DEFAULT '[]' CHECK (json_typeof(errors) = 'array'),
    duration_ms bigint,
    parent_run_id text,
    steps json NOT NULL DEFAULT '{}' CHECK (json_typeof(steps) = 'object')
  );
  CREATE INDEX runs_started ON runs (started_at DESC);
  CREATE INDEX runs_parent ON runs (parent_run_id) WHERE parent_run_id IS NOT NULL;

  CREATE TABLE handoffs (
    id text PRIMARY KEY,
    agent_id text NOT NULL,
    created_at timestamptz NOT NULL,
    focus text NOT NULL,
    refs json NOT NULL,
    prompt_sha256 text NOT NULL,
    prompt text NOT NULL,
    max_candidates integer NOT NULL,
    expires_at timestamptz NOT NULL,
    ingested_at timestamptz,
    ingest_run_id text
  );

  CREATE TABLE settings (
    key text PRIMARY KEY,
    value text NOT NULL
  );
  `,
  // 2: search in context (issue 18, as SQLite's migration 4; docs/store.md "Threads and the search context"). A memory
  // may belong to a thread; `seq` is the insertion order that breaks ties of created_at in a thread. A live threaded
  // memory also carries the text of its neighbours in the thread (context_before, context_after: kept by the adapter,
  // store/context.ts); `fts_context` is their weighted tsvector (before A, after B) with the creation date in words
  // (C, UTC: "May 2023 Monday"), GIN-indexed beside `fts`. Adding the stored column computes it for every row: the
  // index is rebuilt inside the migration's transaction.
  `
  CREATE FUNCTION hippo_date_words(timestamptz) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT to_char($1 AT TIME ZONE 'UTC', 'FMMonth YYYY FMDay') $$;

  ALTER TABLE memories
    ADD COLUMN thread text,
    ADD COLUMN seq bigserial,
    ADD COLUMN context_before text NOT NULL DEFAULT '',
    ADD COLUMN context_after text NOT NULL DEFAULT '';
  ALTER TABLE memories ADD COLUMN fts_context tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('hippo', hippo_fts_text(context_before)), 'A') ||
    setweight(to_tsvector('hippo', hippo_fts_text(context_after)), 'B') ||
    setweight(to_tsvector('hippo', hippo_date_words(created_at)), 'C')
  ) STORED;
  CREATE INDEX memories_fts_context ON memories USING gin (fts_context);
  CREATE INDEX memories_thread ON memories (agent_id, thread, created_at, seq) WHERE thread IS NOT NULL AND archived_at IS NULL;
  `,
  // 3: the memory lifecycle (issue 13; self-contained, renumbered from 2 when merged after issue 18's search in
  // context), as SQLite's migration 5: an older version's link to its memory, the sources `memory forget` erased and
  // who reopened a rejected candidate, and the memories a run acted on (ids only). Snapshots need no change counter
  // here: a night compares the content hashes of its new logical snapshot with the newest one's (snapshots.ts).
  `
  ALTER TABLE memories ADD COLUMN version_of text;
  CREATE INDEX memories_version_of ON memories (agent_id, version_of) WHERE version_of IS NOT NULL;
  ALTER TABLE candidates ADD COLUMN forgotten_sources text[] NOT NULL DEFAULT '{}',
                         ADD COLUMN reopened_by text,
                         ADD COLUMN reopened_at timestamptz,
                         ADD COLUMN reopen_reason text;
  ALTER TABLE runs ADD COLUMN memory_ids text[] NOT NULL DEFAULT '{}';
  `,
  // 4 (issue 17): a prompt-only handoff's redaction map, placeholder → value; NULL when its prompt was not redacted,
  // and cleared once an answer has been staged (docs/redaction.md).
  `
  ALTER TABLE handoffs ADD COLUMN placeholders json CHECK (placeholders IS NULL OR json_typeof(placeholders) = 'object');
  `,
  // 5 (issue 12): the bearer tokens of `hippo mcp --http` (docs/mcp.md): one agent each, only the sha-256 of the secret is kept.
  // Looked up by that hash on every request; listed per agent, newest first. Not one of POSTGRES_TABLES: tokens are
  // credentials of the server, not data, and logical snapshots and copies leave them out.
  `
  CREATE TABLE mcp_tokens (
    id text PRIMARY KEY,
    agent_id text NOT NULL,
    label text,
    token_hash text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
  );
  CREATE INDEX mcp_tokens_agent ON mcp_tokens (agent_id, created_at DESC);
  `,
  // 6 (issue 25): the agents' tables keyed by agent and hash-partitioned by it (docs/postgres.md "Partitions",
  // docs/decisions.md "Issue 25"). memories, candidates, handoffs and runs get the primary key (agent_id, id) and are
  // PARTITION BY HASH (agent_id) into the partitions chosen at creation (partition.ts: HIPPO_PG_PARTITIONS, default
  // 16); the runs over every agent (agent_id NULL) move to the new store-wide table store_runs. The old tables are
  // renamed, the new ones created, the rows copied in chunks (migrate.ts, with progress), and the old ones dropped;
  // the indexes are built last, on the partitioned tables (each partition gets its own; GIN included). memories keeps
  // its seq values and its sequence. One transaction: an interrupted migration leaves the store as it was.
  {
    before: (partitions) => `
  ALTER TABLE memories RENAME TO memories_v5;
  ALTER INDEX memories_pkey RENAME TO memories_v5_pkey;
  ALTER SEQUENCE memories_seq_seq OWNED BY NONE;
  ALTER TABLE candidates RENAME TO candidates_v5;
  ALTER INDEX candidates_pkey RENAME TO candidates_v5_pkey;
  ALTER TABLE runs RENAME TO runs_v5;
  ALTER INDEX runs_pkey RENAME TO runs_v5_pkey;
  ALTER TABLE handoffs RENAME TO handoffs_v5;
  ALTER INDEX handoffs_pkey RENAME TO handoffs_v5_pkey;

  ${partitionedTableSql(
    MEMORY_TABLE,
    `
    agent_id text NOT NULL,
    id text NOT NULL,
    content text NOT NULL CHECK (length(content) > 0),
    durability text NOT NULL DEFAULT 'standard' CHECK (durability IN ('permanent','persistent','standard','ephemeral')),
    tags text[] NOT NULL DEFAULT '{}',
    subject text,
    source text NOT NULL DEFAULT 'cli',
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    expires_at timestamptz,
    archived_at timestamptz,
    archived_reason text,
    derived_from text[] NOT NULL DEFAULT '{}',
    promoted_from text,
    content_hash text NOT NULL,
    last_reflected_at timestamptz,
    retrieval_count integer NOT NULL DEFAULT 0,
    last_retrieved_at timestamptz,
    thread text,
    seq bigint NOT NULL DEFAULT nextval('memories_seq_seq'),
    context_before text NOT NULL DEFAULT '',
    context_after text NOT NULL DEFAULT '',
    version_of text,
    fts tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('hippo', hippo_fts_text(content)), 'A') ||
      setweight(to_tsvector('hippo', hippo_fts_text(coalesce(subject, ''))), 'B') ||
      setweight(to_tsvector('hippo', hippo_fts_text(hippo_tags_text(tags))), 'C')
    ) STORED,
    fts_context tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('hippo', hippo_fts_text(context_before)), 'A') ||
      setweight(to_tsvector('hippo', hippo_fts_text(context_after)), 'B') ||
      setweight(to_tsvector('hippo', hippo_date_words(created_at)), 'C')
    ) STORED,
    CHECK (expires_at IS NULL OR durability NOT IN ('persistent','permanent'))`,
    partitions,
  )}

  ${partitionedTableSql(
    CANDIDATE_TABLE,
    `
    agent_id text NOT NULL,
    id text NOT NULL,
    claim text NOT NULL,
    claim_norm text NOT NULL,
    edited_claim text,
    source_memory_ids text[] NOT NULL,
    tags text[] NOT NULL DEFAULT '{}',
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','promoted','rejected')),
    generated_by text NOT NULL,
    provider text NOT NULL,
    generated_at timestamptz NOT NULL,
    run_id text NOT NULL,
    prompt_sha256 text NOT NULL,
    prompt text NOT NULL,
    reviewer text,
    review_rationale text,
    decided_at timestamptz,
    promoted_memory_id text,
    forgotten_sources text[] NOT NULL DEFAULT '{}',
    reopened_by text,
    reopened_at timestamptz,
    reopen_reason text`,
    partitions,
  )}

  ${partitionedTableSql(RUN_TABLE, `\n    agent_id text NOT NULL,${RUN_COLUMNS_SQL}`, partitions)}

  CREATE TABLE store_runs (${RUN_COLUMNS_SQL},
    PRIMARY KEY (id)
  );

  ${partitionedTableSql(
    HANDOFF_TABLE,
    `
    agent_id text NOT NULL,
    id text NOT NULL,
    created_at timestamptz NOT NULL,
    focus text NOT NULL,
    refs json NOT NULL,
    prompt_sha256 text NOT NULL,
    prompt text NOT NULL,
    max_candidates integer NOT NULL,
    expires_at timestamptz NOT NULL,
    ingested_at timestamptz,
    ingest_run_id text,
    placeholders json CHECK (placeholders IS NULL OR json_typeof(placeholders) = 'object')`,
    partitions,
  )}
  `,
    copies: [
      { from: 'memories_v5', to: 'memories', columns: MEMORY_COPY_COLUMNS },
      { from: 'candidates_v5', to: 'candidates', columns: CANDIDATE_COPY_COLUMNS },
      { from: 'runs_v5', to: 'runs', columns: `agent_id, ${RUN_COPY_COLUMNS}`, where: 'agent_id IS NOT NULL' },
      { from: 'runs_v5', to: 'store_runs', columns: RUN_COPY_COLUMNS, where: 'agent_id IS NULL' },
      { from: 'handoffs_v5', to: 'handoffs', columns: HANDOFF_COPY_COLUMNS },
    ],
    after: `
  DROP TABLE memories_v5, candidates_v5, runs_v5, handoffs_v5;
  ALTER SEQUENCE memories_seq_seq OWNED BY memories.seq;

  CREATE INDEX memories_agent_created ON memories (agent_id, created_at DESC);
  CREATE INDEX memories_agent_hash ON memories (agent_id, content_hash);
  CREATE INDEX memories_gather ON memories (agent_id, created_at DESC, expires_at, last_reflected_at)
    WHERE archived_at IS NULL AND cardinality(derived_from) = 0 AND durability <> 'permanent';
  CREATE INDEX memories_fts ON memories USING gin (fts);
  CREATE INDEX memories_fts_context ON memories USING gin (fts_context);
  CREATE INDEX memories_tags ON memories USING gin (tags);
  CREATE INDEX memories_thread ON memories (agent_id, thread, created_at, seq) WHERE thread IS NOT NULL AND archived_at IS NULL;
  CREATE INDEX memories_version_of ON memories (agent_id, version_of) WHERE version_of IS NOT NULL;

  CREATE INDEX candidates_agent_status ON candidates (agent_id, status, generated_at DESC);
  CREATE INDEX candidates_agent_norm ON candidates (agent_id, claim_norm);

  CREATE INDEX runs_agent_started ON runs (agent_id, started_at DESC);
  -- A nightly's child runs by their parent (the lock's take-over of a dead night; runs over every agent).
  CREATE INDEX runs_parent ON runs (parent_run_id) WHERE parent_run_id IS NOT NULL;
  CREATE INDEX store_runs_started ON store_runs (started_at DESC);
  `,
  },
  // 7 (issue 25): one agent's search walks only that agent's postings. The search indexes become GIN over
  // (agent_id, vector) — btree_gin's text operator class, a trusted extension like unaccent — so a query's
  // `agent_id = $1 AND fts @@ q` is answered inside one index scan that skips other agents' entries, instead of reading
  // every agent's postings of a common word and then filtering them by agent (docs/postgres.md, "Search"). They replace
  // the single-column indexes, which nothing else used. On a table partitioned by agent the index is made on the parent
  // and reaches every partition.
  `
  CREATE EXTENSION IF NOT EXISTS btree_gin;
  CREATE INDEX memories_agent_fts ON memories USING gin (agent_id, fts);
  CREATE INDEX memories_agent_fts_context ON memories USING gin (agent_id, fts_context);
  DROP INDEX IF EXISTS memories_fts;
  DROP INDEX IF EXISTS memories_fts_context;
  `,
  // 8 (issue 29, rejections that teach), as SQLite's migration 10: an agent's decided candidates newest decision first
  // (repos.ts `decided`). An index only; no table changes.
  `
  CREATE INDEX candidates_agent_decided ON candidates (agent_id, status, decided_at DESC);
  `,
  // 9 (issue 29): governance (docs/governance.md), as SQLite's migration 11: the read audit (ids only, never a query or
  // a memory's text) and forget receipts (SHA-256 of each text, never the text). One agent's rows each, keyed
  // (agent_id, id) and hash-partitioned by agent as every agent table (partition.ts), with the store's partition
  // count. Not one of POSTGRES_TABLES: snapshots, restores and copies leave them out, as the runs' audit log.
  {
    create: (partitions) => `
  ${partitionedTableSql(
    READ_AUDIT_TABLE,
    `
    agent_id text NOT NULL,
    id text NOT NULL,
    at timestamptz NOT NULL,
    channel text NOT NULL CHECK (channel IN ('mcp-stdio','mcp-http','cli')),
    client text NOT NULL,
    token_id text,
    operation text NOT NULL,
    memory_ids text[] NOT NULL DEFAULT '{}',
    query_hash text`,
    partitions,
  )}
  ${partitionedTableSql(
    FORGET_RECEIPT_TABLE,
    `
    agent_id text NOT NULL,
    id text NOT NULL,
    created_at timestamptz NOT NULL,
    run_id text NOT NULL,
    memory_ids text[] NOT NULL DEFAULT '{}',
    receipt json NOT NULL`,
    partitions,
  )}
  `,
  },
  // 10, as SQLite's migration 12: memories by id alone (an index on each partition). Migration 6 keyed memories
  // (agent_id, id); an import asks which of a chunk's ids any agent holds (ids are unique store-wide), which without
  // this index read every partition's key index whole.
  `
  CREATE INDEX memories_id ON memories (id);
  `,
];

export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.length;

/** The tables a hippo schema holds (besides `hippo_schema`), in the order a copy or snapshot walks them: the port's. */
export const POSTGRES_TABLES = STORE_TABLES;

/**
 * The marker and version table. Its presence, with the one row `application = 'hippo'`, says "this schema is
 * hippo's"; a schema without it that already holds tables or other relations is someone else's and is refused.
 */
export const SCHEMA_TABLE_SQL = `
  CREATE TABLE hippo_schema (
    application text PRIMARY KEY CHECK (application = 'hippo'),
    version integer NOT NULL CHECK (version > 0),
    migrated_at timestamptz NOT NULL DEFAULT now()
  );
  COMMENT ON TABLE hippo_schema IS 'hippo store: schema version; do not edit';
`;
