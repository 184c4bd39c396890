/**
 * Forward migrations, applied in order inside one transaction on open (docs/design.md §2). `PRAGMA user_version` holds the
 * index of the last one applied. Never edit a shipped migration: add a new one.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: memories with their FTS5 index, candidates, runs, handoffs, and a small key/value table for flags and locks.
  `
  CREATE TABLE memories (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    agent_id TEXT NOT NULL,
    content TEXT NOT NULL CHECK (length(content) > 0),
    durability TEXT NOT NULL DEFAULT 'standard' CHECK (durability IN ('permanent','persistent','standard','ephemeral')),
    tags TEXT NOT NULL DEFAULT '[]',
    subject TEXT,
    source TEXT NOT NULL DEFAULT 'cli',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    expires_at TEXT,
    archived_at TEXT,
    archived_reason TEXT,
    derived_from TEXT NOT NULL DEFAULT '[]',
    promoted_from TEXT,
    content_hash TEXT NOT NULL,
    last_reflected_at TEXT,
    retrieval_count INTEGER NOT NULL DEFAULT 0,
    last_retrieved_at TEXT,
    CHECK (expires_at IS NULL OR durability NOT IN ('persistent','permanent'))
  );
  CREATE INDEX memories_agent_created ON memories (agent_id, created_at DESC);
  CREATE INDEX memories_agent_hash ON memories (agent_id, content_hash);
  -- Covers REM's gather (docs/design.md §4.1): the eligible memories of an agent are counted and read from this index alone.
  CREATE INDEX memories_gather ON memories (agent_id, created_at DESC, expires_at, last_reflected_at)
    WHERE archived_at IS NULL AND derived_from = '[]' AND durability <> 'permanent';

  -- External-content FTS5 index kept in sync by triggers, so no write path can forget it. agent_id is indexed too so
  -- a search can restrict to one agent inside FTS5 instead of ranking every agent's matches; bm25 weighs it 0.
  CREATE VIRTUAL TABLE memories_fts USING fts5(
    content, tags, subject, agent_id,
    content = 'memories', content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, content, tags, subject, agent_id)
    VALUES (new.rowid, new.content, new.tags, new.subject, new.agent_id);
  END;
  CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, content, tags, subject, agent_id)
    VALUES ('delete', old.rowid, old.content, old.tags, old.subject, old.agent_id);
  END;
  CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags, subject, agent_id ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, content, tags, subject, agent_id)
    VALUES ('delete', old.rowid, old.content, old.tags, old.subject, old.agent_id);
    INSERT INTO memories_fts (rowid, content, tags, subject, agent_id)
    VALUES (new.rowid, new.content, new.tags, new.subject, new.agent_id);
  END;

  CREATE TABLE candidates (
    id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL,
    claim TEXT NOT NULL,
    claim_norm TEXT NOT NULL,
    edited_claim TEXT,
    source_memory_ids TEXT NOT NULL,
    tags TEXT NOT NULL DEFAULT '[]',
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','promoted','rejected')),
    generated_by TEXT NOT NULL,
    provider TEXT NOT NULL,
    generated_at TEXT NOT NULL,
    run_id TEXT NOT NULL,
    prompt_sha256 TEXT NOT NULL,
    prompt TEXT NOT NULL,
    reviewer TEXT,
    review_rationale TEXT,
    decided_at TEXT,
    promoted_memory_id TEXT
  );
  CREATE INDEX candidates_agent_status ON candidates (agent_id, status, generated_at DESC);
  CREATE INDEX candidates_agent_norm ON candidates (agent_id, claim_norm);

  CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    agent_id TEXT,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    status TEXT NOT NULL CHECK (status IN ('running','completed','partial','failed','paused','dry-run')),
    snapshot_path TEXT,
    counts TEXT NOT NULL DEFAULT '{}',
    candidate_ids TEXT NOT NULL DEFAULT '[]',
    model TEXT,
    errors TEXT NOT NULL DEFAULT '[]',
    duration_ms INTEGER
  );
  CREATE INDEX runs_started ON runs (started_at DESC);

  CREATE TABLE handoffs (
    id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    focus TEXT NOT NULL,
    refs TEXT NOT NULL,
    prompt_sha256 TEXT NOT NULL,
    prompt TEXT NOT NULL,
    max_candidates INTEGER NOT NULL,
    expires_at TEXT NOT NULL,
    ingested_at TEXT,
    ingest_run_id TEXT
  );

  CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  // 2: nightly runs. A nightly run distills each agent through its own child run row (kind 'rem nightly run-once',
  // parent_run_id = the night's row), and every run may record what each of its steps did (`steps`: fixed strings).
  `
  ALTER TABLE runs ADD COLUMN parent_run_id TEXT;
  ALTER TABLE runs ADD COLUMN steps TEXT NOT NULL DEFAULT '{}';
  CREATE INDEX runs_parent ON runs (parent_run_id) WHERE parent_run_id IS NOT NULL;
  `,
  // 3: the run status `interrupted` (a run stopped by Ctrl-C, SIGTERM or SIGHUP, or found dead by the next lock holder).
  // SQLite cannot alter a CHECK constraint, so the table is rebuilt with its rows, its column order and its indexes.
  // Rows that recorded an interruption the old way (`failed` with errors ["interrupted"]) now say `interrupted`.
  `
  CREATE TABLE runs_v3 (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    agent_id TEXT,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    status TEXT NOT NULL CHECK (status IN ('running','completed','partial','failed','interrupted','paused','dry-run')),
    snapshot_path TEXT,
    counts TEXT NOT NULL DEFAULT '{}',
    candidate_ids TEXT NOT NULL DEFAULT '[]',
    model TEXT,
    errors TEXT NOT NULL DEFAULT '[]',
    duration_ms INTEGER,
    parent_run_id TEXT,
    steps TEXT NOT NULL DEFAULT '{}'
  );
  INSERT INTO runs_v3 (id, kind, agent_id, started_at, finished_at, status, snapshot_path, counts, candidate_ids, model, errors, duration_ms,
                       parent_run_id, steps)
    SELECT id, kind, agent_id, started_at, finished_at,
           CASE WHEN status = 'failed' AND errors = '["interrupted"]' THEN 'interrupted' ELSE status END,
           snapshot_path, counts, candidate_ids, model, errors, duration_ms, parent_run_id, steps
    FROM runs;
  DROP TABLE runs;
  ALTER TABLE runs_v3 RENAME TO runs;
  CREATE INDEX runs_started ON runs (started_at DESC);
  CREATE INDEX runs_parent ON runs (parent_run_id) WHERE parent_run_id IS NOT NULL;
  `,
  // The bearer tokens of `hippo mcp --http` (docs/mcp.md): one agent each, only the sha-256 of the secret is kept.
  // Looked up by that hash on every request; listed per agent, newest first.
  `
  CREATE TABLE mcp_tokens (
    id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL,
    label TEXT,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  );
  CREATE INDEX mcp_tokens_agent ON mcp_tokens (agent_id, created_at DESC);
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** `PRAGMA application_id` marks a file as hippo's, so a foreign SQLite database is refused, never altered. */
export const APPLICATION_ID = 0x48697070; // "Hipp"
