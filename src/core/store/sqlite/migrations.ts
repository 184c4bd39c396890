/**
 * Forward migrations, applied in order inside one transaction on open (docs/design.md §2). `PRAGMA user_version` holds the
 * index of the last one applied. Never edit a shipped migration: add a new one.
 *
 * A migration is its SQL, or `{ sql, fillSearchIndex: true }` when it recreates the full-text table: after the SQL of
 * every pending migration, open.ts then fills the new index from the memories in the same transaction, in chunks,
 * reporting progress (a large store takes a while); `{ sql, editsSearchIndex: true }` when its SQL deletes or re-adds
 * index entries, so an index a pending migration left empty is filled before it runs (review rev26f).
 */
export type Migration = string | { sql: string; fillSearchIndex: true } | { sql: string; editsSearchIndex: true } | RebuildMigration;

/**
 * A migration that rebuilds tables (issue 25): `sql` creates the new tables beside the old ones, open.ts copies each
 * `copies` entry across in chunks of rowids (keeping each row's rowid when `columns` names it), reporting progress
 * (`keys`), then `after` drops the old tables, renames the new ones and recreates indexes and triggers.
 */
export interface RebuildMigration {
  sql: string;
  copies: readonly { from: string; to: string; columns: string; where?: string }[];
  after: string;
}

const MEMORY_COLUMNS_V9 =
  'rowid, id, agent_id, content, durability, tags, subject, source, created_at, updated_at, expires_at, archived_at, archived_reason, ' +
  'derived_from, promoted_from, content_hash, last_reflected_at, retrieval_count, last_retrieved_at, thread, context_before, context_after, version_of';
const CANDIDATE_COLUMNS_V9 =
  'id, agent_id, claim, claim_norm, edited_claim, source_memory_ids, tags, status, generated_by, provider, generated_at, run_id, prompt_sha256, ' +
  'prompt, reviewer, review_rationale, decided_at, promoted_memory_id, forgotten_sources, reopened_by, reopened_at, reopen_reason';
const RUN_COLUMNS_V9 =
  'id, kind, started_at, finished_at, status, snapshot_path, counts, candidate_ids, model, errors, duration_ms, parent_run_id, steps, memory_ids';
const HANDOFF_COLUMNS_V9 = 'id, agent_id, created_at, focus, refs, prompt_sha256, prompt, max_candidates, expires_at, ingested_at, ingest_run_id, placeholders';
/** The columns of either run table (store_runs has no agent_id), after `id, kind` and the agent. */
const RUN_COLUMNS_SQL_V9 = `
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
    steps TEXT NOT NULL DEFAULT '{}',
    memory_ids TEXT NOT NULL DEFAULT '[]'`;

/**
 * Migration 13's search entry (docs/decisions.md "Issue 26: context without copies, second attempt"): what FTS5 indexes
 * for a memory, computed from the memories themselves — its own columns and the text its live thread neighbours lend
 * (store/context.ts: CONTEXT_BEFORE and CONTEXT_AFTER neighbours, each trimmed and cut to NEIGHBOUR_CHARS at a space,
 * joined by newlines), so no row stores a neighbour's text again. Frozen with the migration: a later change of the rule
 * is a new migration.
 */
const WS_V13 = 'char(9)||char(10)||char(13)||char(32)';
/** What one neighbour lends (context.ts `neighbourText`), in SQL: whitespace is space, tab, CR and LF. */
function lendV13(column: string): string {
  const text = `trim(${column}, ${WS_V13})`;
  const cut = `substr(${text}, 1, 1000)`;
  // rtrim by every non-space character of the cut strips its last word: what is left ends at its last space.
  const lastSpace = `length(rtrim(${cut}, ${[9, 10, 13, 32].reduce((acc, code) => `replace(${acc}, char(${code}), '')`, cut)}))`;
  return `CASE WHEN length(${text}) <= 1000 THEN ${text} WHEN ${lastSpace} > 501 THEN rtrim(substr(${cut}, 1, ${lastSpace} - 1), ${WS_V13}) ELSE rtrim(${cut}, ${WS_V13}) END`;
}
/** One neighbour's text in a search entry (a scalar subquery): `live` selects the thread's other live rows as `p`. */
type NeighbourSql = (live: string, side: 'before' | 'after', offset: number) => string;

/**
 * The search entry of memory `m` (a SELECT list); `without`: a rowid left out of the thread (the state before it came).
 * Each neighbour is its own scalar subquery (nearest first, then the one past it: ORDER BY … LIMIT 1 OFFSET k), so the
 * order of the joined text never rests on the order an aggregate happens to read its rows in: a delete must give
 * FTS5 the very tokens, at the very positions, that the insert gave. `neighbour` is how a migration finds one.
 */
function searchEntry(m: string, without: string | undefined, neighbour: NeighbourSql): string {
  const live = `p.agent_id = ${m}.agent_id AND p.thread = ${m}.thread AND p.archived_at IS NULL${without ? ` AND p.rowid <> ${without}` : ''}`;
  const none = `${m}.thread IS NULL OR ${m}.archived_at IS NOT NULL`;
  // Older first: the second before, the first before; the first after, the second after (joined by newlines).
  const before = `CASE WHEN ${none} THEN '' ELSE coalesce(${neighbour(live, 'before', 1)} || char(10), '') || coalesce(${neighbour(live, 'before', 0)}, '') END`;
  const after = `CASE WHEN ${none} THEN '' ELSE coalesce(${neighbour(live, 'after', 0)}, '') || coalesce(char(10) || ${neighbour(live, 'after', 1)}, '') END`;
  return (
    `${m}.rowid AS rowid, ${m}.content AS content, ${m}.tags AS tags, ${m}.subject AS subject, ${m}.agent_id AS agent_id, ` +
    `${before} AS context_before, ${after} AS context_after, ${m}.date_words AS date_words`
  );
}

/** Migrations 13 and 14: each neighbour by one range of the thread, `(created_at, rowid)` before or after `m`'s. */
function searchEntryV13(m: string, without?: string, lend: (column: string) => string = lendV13): string {
  return searchEntry(
    m,
    without,
    (live, side, offset) =>
      `(SELECT ${lend('p.content')} FROM memories p WHERE ${live} AND (p.created_at, p.rowid) ${side === 'before' ? '<' : '>'} (${m}.created_at, ${m}.rowid) ` +
      `ORDER BY p.created_at${side === 'before' ? ' DESC' : ''}, p.rowid${side === 'before' ? ' DESC' : ''} LIMIT 1 OFFSET ${offset})`,
  );
}

/**
 * Migration 15: the same values as `searchEntryV13` (with migration 14's lending), each neighbour found by two seeks of
 * the thread's index instead of one range: the rows of the same time before (or after) `m` by rowid, and the rows of
 * earlier (or later) times, `offset + 1` of each, the nearest taken from those. V13's one range
 * `(created_at, rowid) < (m.created_at, m.rowid)` seeks on created_at alone, so every row sharing `m`'s time was
 * stepped over for each neighbour: a thread of one time (an import of lines without createdAt) was indexed in time
 * quadratic in its length.
 */
function searchEntryV15(m: string, without?: string): string {
  return searchEntry(m, without, (live, side, offset) => {
    const [cmp, dir] = side === 'before' ? ['<', ' DESC'] : ['>', ''];
    const pick = (where: string, order: string) =>
      `SELECT * FROM (SELECT p.content, p.created_at, p.rowid AS r FROM memories p WHERE ${live} AND ${where} ORDER BY ${order} LIMIT ${offset + 1})`;
    return (
      `(SELECT ${lendV14('x.content')} FROM (${pick(`p.created_at = ${m}.created_at AND p.rowid ${cmp} ${m}.rowid`, `p.rowid${dir}`)} ` +
      `UNION ALL ${pick(`p.created_at ${cmp} ${m}.created_at`, `p.created_at${dir}, p.rowid${dir}`)}) x ` +
      `ORDER BY x.created_at${dir}, x.r${dir} LIMIT 1 OFFSET ${offset})`
    );
  });
}
const FTS_COLUMNS_V13 = 'content, tags, subject, agent_id, context_before, context_after, date_words';
/** The live memories within two places of row `r`'s place in its thread (none when it is not in one), `self` left out. */
function nearV13(r: string, self: string): string {
  const same = `agent_id = ${r}.agent_id AND thread = ${r}.thread AND archived_at IS NULL AND rowid <> ${self} AND ${r}.thread IS NOT NULL AND ${r}.archived_at IS NULL`;
  return (
    `SELECT rowid FROM (SELECT rowid FROM memories WHERE ${same} AND (created_at, rowid) < (${r}.created_at, ${r}.rowid) ORDER BY created_at DESC, rowid DESC LIMIT 2) ` +
    `UNION SELECT rowid FROM (SELECT rowid FROM memories WHERE ${same} AND (created_at, rowid) > (${r}.created_at, ${r}.rowid) ORDER BY created_at, rowid LIMIT 2)`
  );
}
/** The triggers stand aside while a bulk write indexes its rows itself (sqlite/threads.ts `SearchEntries.bulk`). */
const TRIGGERS_ON_V13 = "NOT EXISTS (SELECT 1 FROM settings WHERE key = 'search_deferred')";
const INDEXED_CHANGE_V13 =
  '(old.content IS NOT new.content OR old.tags IS NOT new.tags OR old.subject IS NOT new.subject OR old.agent_id IS NOT new.agent_id ' +
  'OR old.thread IS NOT new.thread OR old.created_at IS NOT new.created_at OR (old.archived_at IS NULL) <> (new.archived_at IS NULL))';
const dropEntriesV13 = (rowids: string) =>
  `INSERT INTO memories_fts (memories_fts, rowid, ${FTS_COLUMNS_V13}) SELECT 'delete', rowid, ${FTS_COLUMNS_V13} FROM memories_search WHERE rowid IN (${rowids});`;
const addEntriesV13 = (rowids: string) =>
  `INSERT INTO memories_fts (rowid, ${FTS_COLUMNS_V13}) SELECT rowid, ${FTS_COLUMNS_V13} FROM memories_search WHERE rowid IN (${rowids});`;

/**
 * Migration 14's lending rule (docs/decisions.md "Issue 26: a NUL in a neighbour"): migration 13's, over the
 * neighbour's text before its first NUL (U+0000). SQLite's length() counts the characters before the first NUL and its
 * substr() stops there too, so under migration 13 a neighbour holding a NUL lent its whole text uncut (or cut at the
 * wrong place); no SQL function replaces a NUL, so the lent text ends at it, as SQLite's text functions read it.
 */
function lendV14(column: string): string {
  return lendV13(`substr(${column}, 1, length(${column}))`);
}
/** The rows whose search entry one memory holding a NUL can change: that memory's live thread, all of it. */
const NUL_THREADS_V14 =
  'SELECT m.rowid FROM memories m WHERE m.thread IS NOT NULL AND (m.agent_id, m.thread) IN ' +
  "(SELECT agent_id, thread FROM memories WHERE thread IS NOT NULL AND archived_at IS NULL AND instr(CAST(content AS BLOB), x'00') > 0)";

export const MIGRATIONS: readonly Migration[] = [
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
  // 4: search in context (issue 18, docs/store.md "Threads and the search context"). A memory may belong to a thread;
  // a live threaded memory's search entry also holds the text of its neighbours in the thread (context_before and
  // context_after, kept by the adapter: store/context.ts) and every entry its creation date in words (date_words, UTC,
  // computed from created_at). The full-text table is recreated with those columns and filled afresh after the SQL.
  // memories_thread serves the neighbour look-ups: a thread's live memories in thread order (created_at, then rowid).
  {
    sql: `
  ALTER TABLE memories ADD COLUMN thread TEXT;
  ALTER TABLE memories ADD COLUMN context_before TEXT NOT NULL DEFAULT '';
  ALTER TABLE memories ADD COLUMN context_after TEXT NOT NULL DEFAULT '';
  ALTER TABLE memories ADD COLUMN date_words TEXT GENERATED ALWAYS AS (
    CASE substr(created_at, 6, 2)
      WHEN '01' THEN 'January' WHEN '02' THEN 'February' WHEN '03' THEN 'March' WHEN '04' THEN 'April'
      WHEN '05' THEN 'May' WHEN '06' THEN 'June' WHEN '07' THEN 'July' WHEN '08' THEN 'August'
      WHEN '09' THEN 'September' WHEN '10' THEN 'October' WHEN '11' THEN 'November' WHEN '12' THEN 'December'
    END || ' ' || substr(created_at, 1, 4) || ' ' ||
    CASE strftime('%w', created_at)
      WHEN '0' THEN 'Sunday' WHEN '1' THEN 'Monday' WHEN '2' THEN 'Tuesday' WHEN '3' THEN 'Wednesday'
      WHEN '4' THEN 'Thursday' WHEN '5' THEN 'Friday' WHEN '6' THEN 'Saturday'
    END
  ) VIRTUAL;
  CREATE INDEX memories_thread ON memories (agent_id, thread, created_at) WHERE thread IS NOT NULL AND archived_at IS NULL;

  DROP TRIGGER memories_fts_insert;
  DROP TRIGGER memories_fts_delete;
  DROP TRIGGER memories_fts_update;
  DROP TABLE memories_fts;
  CREATE VIRTUAL TABLE memories_fts USING fts5(
    content, tags, subject, agent_id, context_before, context_after, date_words,
    content = 'memories', content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, content, tags, subject, agent_id, context_before, context_after, date_words)
    VALUES (new.rowid, new.content, new.tags, new.subject, new.agent_id, new.context_before, new.context_after, new.date_words);
  END;
  CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, content, tags, subject, agent_id, context_before, context_after, date_words)
    VALUES ('delete', old.rowid, old.content, old.tags, old.subject, old.agent_id, old.context_before, old.context_after, old.date_words);
  END;
  CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags, subject, agent_id, context_before, context_after, created_at ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, content, tags, subject, agent_id, context_before, context_after, date_words)
    VALUES ('delete', old.rowid, old.content, old.tags, old.subject, old.agent_id, old.context_before, old.context_after, old.date_words);
    INSERT INTO memories_fts (rowid, content, tags, subject, agent_id, context_before, context_after, date_words)
    VALUES (new.rowid, new.content, new.tags, new.subject, new.agent_id, new.context_before, new.context_after, new.date_words);
  END;
  `,
    fillSearchIndex: true,
  },
  // 5: the memory lifecycle and change-aware snapshots (issue 13; self-contained, renumbered from 4 when merged after
  // issue 18's search in context).
  // - memories.version_of: an older version kept by `memory edit --keep-history` points at the memory it was.
  // - candidates: the sources `memory forget` erased, and who reopened a rejected candidate, when and why.
  // - runs.memory_ids: the memories a run acted on by id (`memory forget`), never their text.
  // - hippo_state.changes: bumped by triggers on every write to the tables a restore puts back, so the nightly can
  //   tell "nothing changed since the newest snapshot" by comparing one number (the snapshot holds its own copy).
  // - A store that already holds memories may keep stale copies of text in free pages from before secure_delete was
  //   on: the first `memory forget` then runs VACUUM once (the flag below), see docs/decisions.md ("Forget").
  `
  ALTER TABLE memories ADD COLUMN version_of TEXT;
  CREATE INDEX memories_version_of ON memories (agent_id, version_of) WHERE version_of IS NOT NULL;
  ALTER TABLE candidates ADD COLUMN forgotten_sources TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE candidates ADD COLUMN reopened_by TEXT;
  ALTER TABLE candidates ADD COLUMN reopened_at TEXT;
  ALTER TABLE candidates ADD COLUMN reopen_reason TEXT;
  ALTER TABLE runs ADD COLUMN memory_ids TEXT NOT NULL DEFAULT '[]';

  CREATE TABLE hippo_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    changes INTEGER NOT NULL
  );
  INSERT INTO hippo_state (id, changes) VALUES (1, 0);
  CREATE TRIGGER hippo_changes_memories_insert AFTER INSERT ON memories BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;
  CREATE TRIGGER hippo_changes_memories_update AFTER UPDATE ON memories BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;
  CREATE TRIGGER hippo_changes_memories_delete AFTER DELETE ON memories BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;
  CREATE TRIGGER hippo_changes_candidates_insert AFTER INSERT ON candidates BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;
  CREATE TRIGGER hippo_changes_candidates_update AFTER UPDATE ON candidates BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;
  CREATE TRIGGER hippo_changes_candidates_delete AFTER DELETE ON candidates BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;
  CREATE TRIGGER hippo_changes_handoffs_insert AFTER INSERT ON handoffs BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;
  CREATE TRIGGER hippo_changes_handoffs_update AFTER UPDATE ON handoffs BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;
  CREATE TRIGGER hippo_changes_handoffs_delete AFTER DELETE ON handoffs BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;

  INSERT INTO settings (key, value) SELECT 'erase_vacuum_pending', 'from before secure_delete' WHERE EXISTS (SELECT 1 FROM memories);
  `,
  // 6 (issue 17): a prompt-only handoff's redaction map, placeholder → value, as JSON; NULL when its prompt was not
  // redacted, and cleared once an answer has been staged (docs/redaction.md).
  `
  ALTER TABLE handoffs ADD COLUMN placeholders TEXT;
  `,
  // 7 (issue 12): the bearer tokens of `hippo mcp --http` (docs/mcp.md): one agent each, only the sha-256 of the secret is kept.
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
  // 8 (issue 14): the search's weights as the full-text table's own rank (fts.ts STORED_RANK, RANK_WEIGHTS in column
  // order), so FTS5 ranks the matches itself (`ORDER BY rank LIMIT …`) and the search fetches rows and snippets only
  // for the top few (docs/decisions.md, "Search ranks inside FTS5"). A setting in the index's config table: no rebuild.
  `
  INSERT INTO memories_fts (memories_fts, rank) VALUES ('rank', 'bm25(1.0000, 0.5000, 0.7500, 0.0000, 0.4000, 0.1500, 0.3000)');
  `,
  // 9 (issue 25): the agents' tables keyed by agent (docs/decisions.md "Issue 25"). candidates, handoffs and runs
  // get the primary key (agent_id, id), both NOT NULL; memories keep their rowid as the primary key — the full-text
  // table's content_rowid, copied row for row so the index stays valid untouched — with (agent_id, id) as their
  // unique key instead of id alone. The runs over every agent (agent_id NULL) move to the new store-wide table
  // store_runs. SQLite cannot change a key in place: each table is rebuilt (new table, rows copied in chunks with
  // progress by open.ts, old table dropped, new one renamed), with its indexes and triggers, in the one transaction of
  // every upgrade.
  {
    sql: `
  CREATE TABLE memories_v9 (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
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
    thread TEXT,
    context_before TEXT NOT NULL DEFAULT '',
    context_after TEXT NOT NULL DEFAULT '',
    date_words TEXT GENERATED ALWAYS AS (
      CASE substr(created_at, 6, 2)
        WHEN '01' THEN 'January' WHEN '02' THEN 'February' WHEN '03' THEN 'March' WHEN '04' THEN 'April'
        WHEN '05' THEN 'May' WHEN '06' THEN 'June' WHEN '07' THEN 'July' WHEN '08' THEN 'August'
        WHEN '09' THEN 'September' WHEN '10' THEN 'October' WHEN '11' THEN 'November' WHEN '12' THEN 'December'
      END || ' ' || substr(created_at, 1, 4) || ' ' ||
      CASE strftime('%w', created_at)
        WHEN '0' THEN 'Sunday' WHEN '1' THEN 'Monday' WHEN '2' THEN 'Tuesday' WHEN '3' THEN 'Wednesday'
        WHEN '4' THEN 'Thursday' WHEN '5' THEN 'Friday' WHEN '6' THEN 'Saturday'
      END
    ) VIRTUAL,
    version_of TEXT,
    UNIQUE (agent_id, id),
    CHECK (expires_at IS NULL OR durability NOT IN ('persistent','permanent'))
  );
  CREATE TABLE candidates_v9 (
    id TEXT NOT NULL,
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
    promoted_memory_id TEXT,
    forgotten_sources TEXT NOT NULL DEFAULT '[]',
    reopened_by TEXT,
    reopened_at TEXT,
    reopen_reason TEXT,
    PRIMARY KEY (agent_id, id)
  );
  CREATE TABLE runs_v9 (
    id TEXT NOT NULL,
    kind TEXT NOT NULL,
    agent_id TEXT NOT NULL,${RUN_COLUMNS_SQL_V9},
    PRIMARY KEY (agent_id, id)
  );
  CREATE TABLE store_runs (
    id TEXT NOT NULL PRIMARY KEY,
    kind TEXT NOT NULL,${RUN_COLUMNS_SQL_V9}
  );
  CREATE TABLE handoffs_v9 (
    id TEXT NOT NULL,
    agent_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    focus TEXT NOT NULL,
    refs TEXT NOT NULL,
    prompt_sha256 TEXT NOT NULL,
    prompt TEXT NOT NULL,
    max_candidates INTEGER NOT NULL,
    expires_at TEXT NOT NULL,
    ingested_at TEXT,
    ingest_run_id TEXT,
    placeholders TEXT,
    PRIMARY KEY (agent_id, id)
  );
  `,
    copies: [
      { from: 'memories', to: 'memories_v9', columns: MEMORY_COLUMNS_V9 },
      { from: 'candidates', to: 'candidates_v9', columns: CANDIDATE_COLUMNS_V9 },
      { from: 'runs', to: 'runs_v9', columns: `agent_id, ${RUN_COLUMNS_V9}`, where: 'agent_id IS NOT NULL' },
      { from: 'runs', to: 'store_runs', columns: RUN_COLUMNS_V9, where: 'agent_id IS NULL' },
      { from: 'handoffs', to: 'handoffs_v9', columns: HANDOFF_COLUMNS_V9 },
    ],
    after: `
  DROP TABLE memories;
  ALTER TABLE memories_v9 RENAME TO memories;
  CREATE INDEX memories_agent_created ON memories (agent_id, created_at DESC);
  CREATE INDEX memories_agent_hash ON memories (agent_id, content_hash);
  CREATE INDEX memories_gather ON memories (agent_id, created_at DESC, expires_at, last_reflected_at)
    WHERE archived_at IS NULL AND derived_from = '[]' AND durability <> 'permanent';
  CREATE INDEX memories_thread ON memories (agent_id, thread, created_at) WHERE thread IS NOT NULL AND archived_at IS NULL;
  CREATE INDEX memories_version_of ON memories (agent_id, version_of) WHERE version_of IS NOT NULL;
  CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, content, tags, subject, agent_id, context_before, context_after, date_words)
    VALUES (new.rowid, new.content, new.tags, new.subject, new.agent_id, new.context_before, new.context_after, new.date_words);
  END;
  CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, content, tags, subject, agent_id, context_before, context_after, date_words)
    VALUES ('delete', old.rowid, old.content, old.tags, old.subject, old.agent_id, old.context_before, old.context_after, old.date_words);
  END;
  CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags, subject, agent_id, context_before, context_after, created_at ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, content, tags, subject, agent_id, context_before, context_after, date_words)
    VALUES ('delete', old.rowid, old.content, old.tags, old.subject, old.agent_id, old.context_before, old.context_after, old.date_words);
    INSERT INTO memories_fts (rowid, content, tags, subject, agent_id, context_before, context_after, date_words)
    VALUES (new.rowid, new.content, new.tags, new.subject, new.agent_id, new.context_before, new.context_after, new.date_words);
  END;
  CREATE TRIGGER hippo_changes_memories_insert AFTER INSERT ON memories BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;
  CREATE TRIGGER hippo_changes_memories_update AFTER UPDATE ON memories BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;
  CREATE TRIGGER hippo_changes_memories_delete AFTER DELETE ON memories BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;

  DROP TABLE candidates;
  ALTER TABLE candidates_v9 RENAME TO candidates;
  CREATE INDEX candidates_agent_status ON candidates (agent_id, status, generated_at DESC);
  CREATE INDEX candidates_agent_norm ON candidates (agent_id, claim_norm);
  CREATE TRIGGER hippo_changes_candidates_insert AFTER INSERT ON candidates BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;
  CREATE TRIGGER hippo_changes_candidates_update AFTER UPDATE ON candidates BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;
  CREATE TRIGGER hippo_changes_candidates_delete AFTER DELETE ON candidates BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;

  DROP TABLE runs;
  ALTER TABLE runs_v9 RENAME TO runs;
  CREATE INDEX runs_agent_started ON runs (agent_id, started_at DESC);
  CREATE INDEX runs_parent ON runs (parent_run_id) WHERE parent_run_id IS NOT NULL;
  CREATE INDEX store_runs_started ON store_runs (started_at DESC);

  DROP TABLE handoffs;
  ALTER TABLE handoffs_v9 RENAME TO handoffs;
  CREATE TRIGGER hippo_changes_handoffs_insert AFTER INSERT ON handoffs BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;
  CREATE TRIGGER hippo_changes_handoffs_update AFTER UPDATE ON handoffs BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;
  CREATE TRIGGER hippo_changes_handoffs_delete AFTER DELETE ON handoffs BEGIN UPDATE hippo_state SET changes = changes + 1 WHERE id = 1; END;
  `,
  },
  // 10 (issue 29, rejections that teach): an agent's decided candidates newest decision first — the rejections a new
  // distillation's prompt lists and its staging skips rewordings of, the edited promotions it learns wordings from
  // (repos.ts `decided`). An index only; no table changes.
  `
  CREATE INDEX candidates_agent_decided ON candidates (agent_id, status, decided_at DESC);
  `,
  // 11 (issue 29): governance (docs/governance.md). `read_audit`: who was handed which memories (ids only, never a
  // query or a memory's text; a keyed hash of a query to group by). `forget_receipts`: what a `memory forget` erased,
  // with the SHA-256 of each text, never the text. Both are one agent's rows, keyed (agent_id, id); ids are ULIDs, so
  // the key is also the time order a listing and the size cap walk.
  `
  CREATE TABLE read_audit (
    agent_id TEXT NOT NULL,
    id TEXT NOT NULL,
    at TEXT NOT NULL,
    channel TEXT NOT NULL CHECK (channel IN ('mcp-stdio','mcp-http','cli')),
    client TEXT NOT NULL,
    token_id TEXT,
    operation TEXT NOT NULL,
    memory_ids TEXT NOT NULL DEFAULT '[]',
    query_hash TEXT,
    PRIMARY KEY (agent_id, id)
  ) WITHOUT ROWID;
  CREATE TABLE forget_receipts (
    agent_id TEXT NOT NULL,
    id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    run_id TEXT NOT NULL,
    memory_ids TEXT NOT NULL DEFAULT '[]',
    receipt TEXT NOT NULL,
    PRIMARY KEY (agent_id, id)
  ) WITHOUT ROWID;
  `,
  // 12: memories by id alone. Migration 9 keyed memories (agent_id, id), which left no index led by id, and an
  // import asks, a chunk at a time, which of its ids any agent already holds (ids are unique store-wide): without this
  // index each id was a scan of the table, and an import grew with the square of the store.
  `
  CREATE INDEX memories_id ON memories (id);
  `,
  // 13 (issue 26): the search context without copies of the text (docs/decisions.md "Issue 26: context without copies,
  // second attempt"). The rows no longer store their neighbours' text (context_before, context_after dropped); the
  // view memories_search computes each search entry from the thread, and the full-text table reads it (content = the
  // view: snippets, 'rebuild' and the integrity check still work, on the sqlite3 CLI too). An external-content table's
  // delete needs the entry's old values, so the triggers delete every entry a change alters with the values of the
  // state before it (BEFORE UPDATE/DELETE; an insert's, in its AFTER trigger, as the thread was without the new row)
  // and insert them again from the state after it. bm25's totals stay exact (not contentless-delete). A bulk write
  // sets the 'search_deferred' setting for its statements and indexes its rows itself (threads.ts). The index is
  // filled afresh after the SQL, with progress.
  {
    sql: `
  DROP TRIGGER memories_fts_insert;
  DROP TRIGGER memories_fts_delete;
  DROP TRIGGER memories_fts_update;
  DROP TABLE memories_fts;
  ALTER TABLE memories DROP COLUMN context_before;
  ALTER TABLE memories DROP COLUMN context_after;
  CREATE VIEW memories_search AS SELECT ${searchEntryV13('m')} FROM memories m;
  CREATE VIRTUAL TABLE memories_fts USING fts5(
    ${FTS_COLUMNS_V13},
    content = 'memories_search', content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  INSERT INTO memories_fts (memories_fts, rank) VALUES ('rank', 'bm25(1.0000, 0.5000, 0.7500, 0.0000, 0.4000, 0.1500, 0.3000)');
  CREATE TRIGGER memories_search_insert AFTER INSERT ON memories WHEN ${TRIGGERS_ON_V13} BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, ${FTS_COLUMNS_V13})
      SELECT 'delete', ${searchEntryV13('m', 'new.rowid')} FROM memories m WHERE m.rowid IN (${nearV13('new', 'new.rowid')});
    ${addEntriesV13(`SELECT new.rowid UNION ${nearV13('new', 'new.rowid')}`)}
  END;
  CREATE TRIGGER memories_search_update_before BEFORE UPDATE OF content, tags, subject, agent_id, thread, created_at, archived_at ON memories
  WHEN ${INDEXED_CHANGE_V13} AND ${TRIGGERS_ON_V13} BEGIN
    ${dropEntriesV13(`SELECT old.rowid UNION ${nearV13('old', 'old.rowid')} UNION ${nearV13('new', 'old.rowid')}`)}
  END;
  CREATE TRIGGER memories_search_update_after AFTER UPDATE OF content, tags, subject, agent_id, thread, created_at, archived_at ON memories
  WHEN ${INDEXED_CHANGE_V13} AND ${TRIGGERS_ON_V13} BEGIN
    ${addEntriesV13(`SELECT new.rowid UNION ${nearV13('old', 'old.rowid')} UNION ${nearV13('new', 'old.rowid')}`)}
  END;
  CREATE TRIGGER memories_search_delete_before BEFORE DELETE ON memories WHEN ${TRIGGERS_ON_V13} BEGIN
    ${dropEntriesV13(`SELECT old.rowid UNION ${nearV13('old', 'old.rowid')}`)}
  END;
  CREATE TRIGGER memories_search_delete_after AFTER DELETE ON memories WHEN ${TRIGGERS_ON_V13} BEGIN
    ${addEntriesV13(nearV13('old', 'old.rowid'))}
  END;
  `,
    fillSearchIndex: true,
  },
  // 14 (issue 26): a NUL in a neighbour's text no longer lends that text uncut (docs/decisions.md "Issue 26: a NUL in
  // a neighbour"): a neighbour lends its text before its first NUL, trimmed and cut as before. The entries the change
  // alters (every memory of a thread holding a NUL, found in one scan of memories) leave the index with the old view's
  // values and come back with the new view's; no other entry changes, so the rest of the index stays as it is. The
  // insert trigger, which computes entries itself, is recreated with the new rule; the others read the view. Marked
  // `editsSearchIndex` (its SQL unchanged): a store coming from before 13 gets 13's index filled before this runs.
  {
    editsSearchIndex: true,
    sql: `
  CREATE TEMP TABLE nul_entries AS ${NUL_THREADS_V14};
  ${dropEntriesV13('SELECT rowid FROM temp.nul_entries')}
  DROP VIEW memories_search;
  CREATE VIEW memories_search AS SELECT ${searchEntryV13('m', undefined, lendV14)} FROM memories m;
  ${addEntriesV13('SELECT rowid FROM temp.nul_entries')}
  DROP TABLE temp.nul_entries;
  DROP TRIGGER memories_search_insert;
  CREATE TRIGGER memories_search_insert AFTER INSERT ON memories WHEN ${TRIGGERS_ON_V13} BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, ${FTS_COLUMNS_V13})
      SELECT 'delete', ${searchEntryV13('m', 'new.rowid', lendV14)} FROM memories m WHERE m.rowid IN (${nearV13('new', 'new.rowid')});
    ${addEntriesV13(`SELECT new.rowid UNION ${nearV13('new', 'new.rowid')}`)}
  END;
  `,
  },
  // 15 (issue 26, found by the bench): the view finds each neighbour by seeking the thread's index on rowid within a
  // time (searchEntryV15), so a thread whose memories share one time is indexed in time linear in its length (10 000
  // lines without createdAt took 28.5 s, 40 000 took 310 s). The entries are the same values, so the index is kept as
  // it is; the insert trigger, which computes entries itself, is recreated with the new look-up.
  `
  DROP VIEW memories_search;
  CREATE VIEW memories_search AS SELECT ${searchEntryV15('m')} FROM memories m;
  DROP TRIGGER memories_search_insert;
  CREATE TRIGGER memories_search_insert AFTER INSERT ON memories WHEN ${TRIGGERS_ON_V13} BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, ${FTS_COLUMNS_V13})
      SELECT 'delete', ${searchEntryV15('m', 'new.rowid')} FROM memories m WHERE m.rowid IN (${nearV13('new', 'new.rowid')});
    ${addEntriesV13(`SELECT new.rowid UNION ${nearV13('new', 'new.rowid')}`)}
  END;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** A migration's SQL (a rebuild's copies as one INSERT each: a test building an older schema, an empty store). */
export function migrationSql(migration: Migration): string {
  if (typeof migration === 'string') return migration;
  if (!('copies' in migration)) return migration.sql;
  const copies = migration.copies.map(
    (copy) => `INSERT INTO ${copy.to} (${copy.columns}) SELECT ${copy.columns} FROM ${copy.from}${copy.where ? ` WHERE ${copy.where}` : ''};`,
  );
  return [migration.sql, ...copies, migration.after].join('\n');
}

/** `PRAGMA application_id` marks a file as hippo's, so a foreign SQLite database is refused, never altered. */
export const APPLICATION_ID = 0x48697070; // "Hipp"
