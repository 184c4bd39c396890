/**
 * The storage port (docs/design.md §2, docs/store.md): everything the core needs from a store, in the core's own
 * words. Two adapters implement it — `store/sqlite/` (better-sqlite3, the embedded default) and `store/postgres/`
 * (node-postgres, the team store). Nothing engine-specific leaks above this file: no SQL, no driver types, no rowids,
 * no schema version (`describe()` gives the store's own). Where the core must word something the engine decides, the
 * port says it in words instead of the core asking which engine it has: what a snapshot's check is
 * (`SnapshotPort.verifiedBy`), how the raw query syntax is called (`rawSyntaxError`'s `details.syntax`). `engine` is
 * for display and for telling two stores apart (`db copy`), never for choosing behaviour. The tables, their columns
 * and keys are described once for both engines in tables.ts.
 *
 * Rules every adapter keeps (the contract tests in test/core/store/contract.test.ts run against both):
 * - Every method that reads or writes an agent's rows takes the agent id and never touches another agent's rows.
 *   Methods that read all agents say so in their name or doc (`agentCounts`, `agentsWithNew`, `pendingCounts`,
 *   `iterate()` without an agent, the maintenance pair, `runs.prune`, `rows` with `null`).
 * - Times cross the port as ISO-8601 UTC strings with milliseconds, exactly as written (lossless between engines).
 * - Writes outside `transaction()` are single statements (atomic on their own). Anything that must land together goes
 *   through `transaction()`.
 * - Driver errors are mapped to HippoErrors before they leave the adapter (busy → BusyError, server gone →
 *   StoreUnavailableError exit 8, disk full, read-only…); nothing else of the driver escapes.
 *
 * Drafted by the lead, refined while the SQLite adapter was written. A change here is a commit of its own whose message
 * starts with "port:" and says why; both adapters and the contract tests move with it.
 */
import { UsageError } from '../errors.js';
import type { Candidate, CandidateStatus, Durability, Handoff, McpToken, Memory, ReadRecord, Run, RunKind, StoredReceipt } from '../records.js';
import type { Clock } from '../time.js';

/** A candidate as stored: the public object plus what stays on the row (the normalised claim, the full prompt). */
/** A reviewer's decision on a pending candidate, as `CandidateRepo.decide` takes it. */
export interface CandidateDecision {
  status: 'promoted' | 'rejected';
  reviewer: string;
  rationale: string;
  decidedAt: string;
  promotedMemoryId?: string | null;
  editedClaim?: string | null;
}

/**
 * A decided candidate as the next distillation learns from it (docs/governance.md, "Rejections that teach"): a rejection and its reason, or a
 * promotion whose wording the reviewer edited (`claim` → `editedClaim`, the promotion's rationale as `rationale`).
 */
export interface DecidedClaim {
  id: string;
  claim: string;
  editedClaim: string | null;
  rationale: string;
  decidedAt: string;
  /** `memory forget` erased a source since it was staged: its words may restate erased text. */
  sourcesForgotten: boolean;
  /** The insight memory a promotion became (its text is `editedClaim`); null for a rejection. */
  promotedMemoryId: string | null;
}

export interface CandidateRecord extends Candidate {
  claimNorm: string;
  prompt: string;
}

/** A handoff as stored: with its prompt (never printed again, kept for the candidates it produces). */
export interface HandoffRecord extends Handoff {
  prompt: string;
  /**
   * The redaction map of a redacted prompt, placeholder → value (docs/redaction.md): kept on the row only until an
   * answer is staged (`markIngested` clears it), never printed. Null when the prompt was not redacted.
   */
  placeholders: Record<string, string> | null;
}

export type Engine = 'sqlite' | 'postgres';

/**
 * The tables a dump, a copy and a snapshot walk (docs/design.md §12 on distribution): an agent's rows, keyed by
 * (agent_id, id), except settings; `runs` is the audit log of an agent's runs and of the runs over every agent, which
 * the adapters keep apart (tables.ts).
 */
export const STORE_TABLES = ['memories', 'candidates', 'runs', 'handoffs', 'settings'] as const;
export type StoreTable = (typeof STORE_TABLES)[number];

export interface Store extends StoreOps {
  readonly engine: Engine;
  /** Where the data lives, safe to print: a file path, or `postgres://user@host:port/db` (never a password). */
  readonly location: string;
  /**
   * Runs `fn` in one write transaction (SQLite: BEGIN IMMEDIATE, so no lock upgrade deadlock; PostgreSQL: one pooled
   * connection, READ COMMITTED, with the row locks each method documents). Commits when `fn` resolves, rolls back when
   * it throws (the error passes through unchanged). Inside `fn`, work through `tx`, and await nothing but the store
   * (no model call, no prompt): the write lock is held until `fn` ends. A `transaction` or `tryTransaction` of the same
   * store started inside `fn` (in its async context) joins the outer one, without a savepoint: its error fails the
   * whole transaction unless caught. Transactions of one Store are serialised in-process (a SQLite connection cannot
   * hold two; there, calls on the store from other async work also wait for a running transaction to end).
   */
  transaction<T>(fn: (tx: StoreOps) => Promise<T>): Promise<T>;
  /**
   * A best-effort write (retrieval counters, a dry run's audit row): waits at most `waitMs` (default 250) for another
   * writer, in this process or another, and then returns undefined instead of failing. Never used for the answer of
   * a command. Inside a transaction it joins it.
   */
  tryTransaction<T>(fn: (tx: StoreOps) => Promise<T>, waitMs?: number): Promise<T | undefined>;
  /** Engine, versions, counts per table, where it lives (for `db check`). */
  describe(): Promise<StoreDescription>;
  /** The nightly/restore lock (SQLite: a settings row with pid/host; PostgreSQL: a session advisory lock). */
  readonly lock: LockPort;
  /** Snapshots in the engine's own format (SQLite: a verified file copy; PostgreSQL: logical JSONL + manifest). */
  readonly snapshots: SnapshotPort;
  /**
   * After an erase (`memory forget`) or an edit that replaced text, outside any transaction: leaves no copy of the
   * removed text where the engine keeps data. SQLite (secure_delete is always on): once, on a store that held
   * memories before secure deletes, VACUUM; then a WAL checkpoint (TRUNCATE). `complete` is false when another
   * connection's read kept the checkpoint from finishing (the WAL keeps its copies until a later checkpoint).
   * PostgreSQL: VACUUM of memories, candidates and handoffs (what the server's WAL, archives and replicas hold is
   * beyond a client: docs/postgres.md). `steps` names what was done, in fixed words.
   */
  reclaim(): Promise<ReclaimResult>;
  /**
   * After a bulk load has committed (`memory import`, `db copy`), outside any transaction: brings the engine's
   * bookkeeping of what it wrote up to date, so the next reads do not pay for it. PostgreSQL: VACUUM (ANALYZE) of the
   * relations the load left mostly unvacuumed — the memories partitions of `agentIds`, or every table when `agentIds`
   * is null (a whole store copied in) — which sets the visibility map an index-only scan needs (the search's memory
   * count) and the planner's statistics. SQLite: nothing (no visibility map; FTS5 keeps its row count in its index).
   * Inside a transaction, nothing. Best effort: a failure is a step in the result, never thrown. Returns the steps.
   */
  settleLoad(agentIds: readonly string[] | null): Promise<string[]>;
  /**
   * The files the engine keeps the store's bytes in, for `memory forget --verify` to scan as raw bytes (SQLite: the
   * database file and its write-ahead log, those that exist). Empty where a client cannot read them (PostgreSQL).
   */
  rawFiles(): string[];
  /** Lets go of the connection(s); safe to call twice. */
  close(): Promise<void>;
}

export interface ReclaimResult {
  complete: boolean;
  steps: string[];
}

/** What can be done inside and outside a transaction. */
export interface StoreOps {
  /** The store's clock: core code running inside a transaction (staging, a run's final row) stamps times with it. */
  readonly clock: Clock;
  readonly memories: MemoryRepo;
  readonly candidates: CandidateRepo;
  readonly runs: RunRepo;
  readonly handoffs: HandoffRepo;
  readonly settings: SettingsRepo;
  /** The bearer tokens of `hippo mcp --http` (hashes only; docs/mcp.md). */
  readonly tokens: TokenRepo;
  /** Whole-table access for `db copy`, logical snapshots and restore. */
  readonly rows: RowsRepo;
  /** Erasing memories and every trace of their text (`memory forget`; `memory edit` without history). */
  readonly erasure: ErasureRepo;
  /** The read audit: who was handed which memories (ids only; docs/governance.md). */
  readonly audit: AuditRepo;
  /** Forget receipts (hashes and ids only; docs/governance.md). */
  readonly receipts: ReceiptRepo;
}

export interface StoreDescription {
  engine: Engine;
  location: string;
  /** SQLite library version, or the PostgreSQL server version. */
  engineVersion: string;
  schemaVersion: number;
  counts: Record<StoreTable, number>;
}

/**
 * The refusal of a `raw` search whose text is not valid in the engine's own query syntax (`syntax`: how that syntax is
 * called, `FTS5` or `PostgreSQL tsquery`; `reason`: the engine's own words). Exit 2. Core words it without the flag's
 * name; src/cli/error-words.ts names --raw from `details.syntax` and `details.syntaxError`.
 */
export function rawSyntaxError(syntax: string, reason: string, details: Record<string, unknown> = {}): UsageError {
  return new UsageError('fts_syntax', `the raw query is not valid ${syntax} syntax (${reason}); search without raw to match the words as plain text`, {
    details: { ...details, syntax, syntaxError: reason },
  });
}

// ---- memories ---------------------------------------------------------------------------------------------------

export interface MemoryFilter {
  agentId: string;
  tag?: string;
  /** createdAt ≥ since (ISO). */
  since?: string;
  durability?: Durability;
  /** Archived and expired (expiresAt ≤ now) memories are left out unless asked for. */
  includeArchived?: boolean;
  /** "now" for the expiry test (ISO). */
  now: string;
}

/** `memory list`: one agent's memories, optionally filtered as search filters (one tag, created since, durability) or of one thread. */
export interface ListQuery {
  agentId: string;
  tag?: string;
  /** createdAt ≥ since (ISO), as search's filter. */
  since?: string;
  durability?: Durability;
  /** Only this thread's memories, in thread order (createdAt, then insertion order) instead of newest first. */
  thread?: string;
  /** Only memories of this source (exactly: `memory thread --file` finds what a text file's import stored). */
  source?: string;
  includeArchived?: boolean;
  limit: number;
}

export interface GatherQuery {
  agentId: string;
  now: string;
  scope: 'recent' | 'tagged' | 'all';
  since: string;
  tag?: string;
  unreflected: boolean;
  limit: number;
}

export interface SearchQuery extends MemoryFilter {
  /** The user's text; the adapter turns it into a safe query of its engine (terms quoted and OR-ed, stopwords dropped). */
  text: string;
  /**
   * Pass `text` as the engine's own query syntax (FTS5 MATCH / to_tsquery); a syntax error → UsageError `fts_syntax`
   * (`rawSyntaxError`: its details name the syntax, so no caller needs to know the engine to word it).
   */
  raw: boolean;
  limit: number;
  highlight: { open: string; close: string };
  /**
   * Tuning only (benchmarks, docs/store.md): weights for some parts of the search entry instead of the engine's own
   * (src/core/search-terms.ts holds them). A part weighted 0 is not searched at all.
   */
  weights?: Partial<SearchWeights>;
}

/** The parts of a memory's search entry (docs/design.md §6). */
export const SEARCH_PARTS = ['content', 'subject', 'tags', 'context', 'date'] as const;
/**
 * `content`, `subject`, `tags`: the memory's own; `context`: the text of its neighbours in its thread (ranks only);
 * `date`: its creation date in words ("May 2023 Monday", UTC).
 */
export type SearchPart = (typeof SEARCH_PARTS)[number];

/** Relative weights of the parts in the ranking; the context is split into the neighbours before and after. */
export interface SearchWeights {
  content: number;
  subject: number;
  tags: number;
  contextBefore: number;
  contextAfter: number;
  date: number;
}

export interface SearchHit {
  memory: Memory;
  /** Higher is better; comparable within one result list only. */
  score: number;
  /** Of the memory's own text, with the matches marked (when the text matched). */
  snippet: string;
  /** Which parts of the search entry the query matched, in SEARCH_PARTS order. */
  matched: SearchPart[];
  /**
   * When the memory's own parts did not match but its context did: the neighbour whose text matched best, with a
   * snippet of that text, so a reader sees why the memory was found. Null otherwise.
   */
  nearby: { memoryId: string; snippet: string } | null;
}

/** Maintenance cut-offs computed by the core (nightly/maintenance.ts owns the rules and their constants). */
export interface MaintenanceCutoffs {
  now: string;
  youth: string;
  ephemeralCutoff: string;
  unusedCutoff: string;
}
export type MaintenanceRule = 'expired' | 'archivedEphemeral' | 'archivedUnused';
export type MaintenanceCountsByAgent = Record<string, Record<MaintenanceRule, number>>;

export interface AgentCount {
  agentId: string;
  /** Not archived. */
  memories: number;
  archived: number;
  newest: string;
}

/**
 * Threads and the search context (docs/store.md "Threads and the search context"): a live memory with a thread is
 * indexed with the text of its neighbours in the thread (store/context.ts). Every method below that adds, archives or
 * deletes a memory re-indexes its neighbours itself, atomically (in the caller's transaction, or one of its own). A
 * method that changes a memory's text, thread, createdAt or archived state in any other way must call
 * `refreshContext` in the same transaction.
 */
export interface MemoryRepo {
  /** Inserts one built memory, re-indexing its thread neighbours; false (nothing written) when its id exists. */
  insert(memory: Memory): Promise<boolean>;
  /**
   * Bulk insert (import, demo, db copy): existing ids skipped; returns how many were new. Fast path (COPY / batches):
   * the search context of threaded memories is built in the batch, and a thread the store already held is re-indexed
   * where the new memories join it.
   */
  insertMany(memories: readonly Memory[]): Promise<number>;
  get(agentId: string, id: string): Promise<Memory | undefined>;
  /** In the order asked; missing ids left out. */
  getMany(agentId: string, ids: readonly string[]): Promise<Memory[]>;
  /** Which of these ids exist for any agent (import skips them). */
  existingIds(ids: readonly string[]): Promise<Set<string>>;
  /** Ids of this agent's memories with this content hash, oldest first. */
  idsWithHash(agentId: string, contentHash: string, exceptId?: string): Promise<string[]>;
  /** Which of these content hashes some memory of this agent has (archived too): import and staging test many at once. */
  existingHashes(agentId: string, contentHashes: readonly string[]): Promise<Set<string>>;
  /**
   * Newest first (createdAt desc, id desc), with the query's tag, since and durability filters. Leaves out archived
   * memories unless asked for; expired ones are listed.
   */
  list(query: ListQuery): Promise<Memory[]>;
  /** How many memories `list` would return without its limit: one COUNT over the agent's rows with the same filters. */
  count(query: Omit<ListQuery, 'limit'>): Promise<number>;
  /**
   * Every memory of the agent (or of all agents), archived too, oldest first (createdAt, id): the export order;
   * streamed. On SQLite the connection reads it as one statement: run nothing else on the same store until the loop
   * ends (better-sqlite3 refuses with "connection is busy"); write to another store or a file.
   */
  iterate(agentId?: string): AsyncIterable<Memory>;
  /**
   * Sets archivedAt/archivedReason/updatedAt on live memories of the agent and re-indexes their thread neighbours (an
   * archived memory lends no context and has none); returns the ids changed.
   */
  archive(agentId: string, ids: readonly string[], reason: string, now: string): Promise<string[]>;
  /**
   * Deletes memories of the agent for good (`memory forget`) and re-indexes their thread neighbours in the same
   * statement group, so no other memory's search entry keeps their text. Returns the ids deleted. (Wiping the
   * deleted text from the engine's free pages, WAL and index segments is the caller's next step.)
   */
  forget(agentId: string, ids: readonly string[]): Promise<string[]>;
  /**
   * Re-indexes search contexts after a change this repo did not make itself (an edit of a memory's text, thread or
   * createdAt, an unarchive): `ids` — memories of the agent whose text or place changed: the neighbours on both
   * sides of each, and the memory itself, are re-indexed; `threads` — whole threads of the agent (the thread a memory
   * just left, say). Only entries whose context changed are written. Returns how many were.
   */
  refreshContext(agentId: string, target: { ids?: readonly string[]; threads?: readonly string[] }): Promise<number>;
  /**
   * Moves memories of the agent (archived ones too) into `thread`, or out of any thread (null): `memory thread`. Sets
   * their thread and updatedAt and re-indexes, in one transaction, the neighbours they leave, the neighbours they join
   * and their own context (none once unthreaded or archived); on SQLite with FTS5's secure-delete, so an old context's
   * text leaves the index at once. Memories already in that thread and ids the agent does not have are left alone.
   * Returns the ids changed, in the order asked.
   */
  setThread(agentId: string, ids: readonly string[], thread: string | null, now: string): Promise<string[]>;
  /**
   * Clears archivedAt/archivedReason and sets updatedAt on archived memories of the agent, re-indexing each one that
   * rejoins its thread and its neighbours; returns the ids changed.
   */
  unarchive(agentId: string, ids: readonly string[], now: string): Promise<string[]>;
  /**
   * Rewrites an existing memory of `memory.agentId` (matched by id) with every field of `memory` but its identity
   * (id, agentId, createdAt) and its thread: `memory edit`. The search index follows, and the old text leaves it
   * (SQLite: FTS5 secure-delete, not a delete marker); the caller re-indexes the neighbours (`refreshContext`, which
   * on SQLite also uses secure-delete). False (nothing written) when the agent has no memory with that id.
   */
  update(memory: Memory): Promise<boolean>;
  /** The agent's older versions of a memory (versionOf = id), newest first (updatedAt, then id, descending). */
  versions(agentId: string, id: string): Promise<Memory[]>;
  stampReflected(agentId: string, ids: readonly string[], now: string): Promise<void>;
  /** Best effort by contract: callers wrap it in tryTransaction. */
  recordRetrieval(agentId: string, ids: readonly string[], now: string): Promise<void>;
  /** §4.1 eligibility + scope: the count before the cap, and the newest `limit` rows (createdAt desc, id desc). */
  gather(query: GatherQuery): Promise<{ eligible: number; memories: Memory[] }>;
  /** All agents: those with eligible, unreflected memories created since `since`. */
  agentsWithNew(now: string, since: string): Promise<string[]>;
  /**
   * All agents (in agent order): per agent, how many memories are live (not archived) and archived, and the newest
   * createdAt of either; with `source`, only memories of that source (the demo's summary). Agents with none are left out.
   */
  agentCounts(options?: { source?: string }): Promise<AgentCount[]>;
  search(query: SearchQuery): Promise<SearchHit[]>;
  /**
   * `search`, and how many memories of the agent it would find without its limit (same match, weights and filters).
   * Both engines count the matches in the ranking statement's own pass (no second statement over the matches).
   */
  searchWithTotal(query: SearchQuery): Promise<{ hits: SearchHit[]; total: number }>;
  /** Nightly: what the rules would archive (read only) / archive it now (one statement, returns what it did). */
  planMaintenance(cutoffs: MaintenanceCutoffs): Promise<MaintenanceCountsByAgent>;
  applyMaintenance(cutoffs: MaintenanceCutoffs, reasons: Record<MaintenanceRule, string>): Promise<MaintenanceCountsByAgent>;
  /** Housekeeping of the search index (FTS5 incremental merge / nothing or VACUUM ANALYZE); returns steps taken. */
  optimizeSearchIndex(): Promise<number>;
  /** The demo's own rows (source = 'demo') of these agents: deleted; and count(*) total/demo for the demo's checks. */
  demoCounts(source: string): Promise<{ total: number; demo: number }>;
  deleteBySource(source: string, agentIds: readonly string[]): Promise<number>;
}

// ---- candidates -------------------------------------------------------------------------------------------------

export interface CandidateRepo {
  get(agentId: string, id: string): Promise<Candidate | undefined>;
  /** The full prompt a candidate came from (audit). */
  prompt(agentId: string, id: string): Promise<string | undefined>;
  list(options: { agentId: string; status: CandidateStatus | 'all'; limit: number }): Promise<Candidate[]>;
  /** How many candidates `list` would return without its limit: one COUNT over the agent's rows. */
  count(options: { agentId: string; status: CandidateStatus | 'all' }): Promise<number>;
  /** Whether a claim (normalised) is already pending/promoted (`live`) or was rejected, for this agent. */
  claimStatus(agentId: string, claimNorm: string): Promise<{ live: boolean; rejected: boolean }>;
  /**
   * This agent's rejected candidates (`rejected`) or its promotions with an edited wording (`edited`), newest decision
   * first, at most `limit`; with `claimNorm`, only those whose normalised claim is that. One agent's rows only (served by
   * the index on agent, status and decision time).
   */
  decided(agentId: string, options: { kind: 'rejected' | 'edited'; limit: number; claimNorm?: string }): Promise<DecidedClaim[]>;
  insert(candidate: CandidateRecord): Promise<void>;
  /**
   * Decides a pending candidate: sets status and the review fields only if it is still `pending` (row-locked / guarded
   * UPDATE … WHERE status = 'pending'), so two reviewers at once → exactly one wins. Returns false when it was not
   * pending any more (the caller reports exit 4).
   */
  decide(agentId: string, id: string, decision: CandidateDecision): Promise<boolean>;
  /**
   * A rejected candidate back to pending (`rem reopen`): guarded like `decide` — only while it is `rejected` — it clears
   * the decision (reviewer, rationale, decidedAt) and records who reopened it, when and why. False when it was not
   * rejected (or is not this agent's).
   */
  reopen(agentId: string, id: string, reopening: { by: string; reason: string; at: string }): Promise<boolean>;
  /** All agents: how many pending candidates each has (agents with none left out), in agent order. */
  pendingCounts(): Promise<{ agentId: string; pending: number }[]>;
  /** All agents: the agent of each of these candidate ids the store holds (an import's `promotedFrom` check). */
  agentsOf(ids: readonly string[]): Promise<Map<string, string>>;
}

// ---- runs (the audit log) ---------------------------------------------------------------------------------------

export interface RunRepo {
  insert(run: Run): Promise<void>;
  /** Writes the final state (everything but identity and start) only while the row is still `running`; false otherwise. */
  finish(run: Run): Promise<boolean>;
  /**
   * `agentId`: the run's agent, or null for a run over every agent (each names the table its row is in); without it
   * the run is looked for among every agent's.
   */
  setSnapshotPath(id: string, path: string, agentId?: string | null): Promise<void>;
  get(id: string, agentId?: string): Promise<Run | undefined>;
  /** Newest first; with agentId: that agent's runs and the store-wide ones (agentId null). */
  list(options: { limit: number; agentId?: string }): Promise<Run[]>;
  /** How many runs `list` would return without its limit (the agent's and the store-wide ones; every run without agentId). */
  count(options: { agentId?: string }): Promise<number>;
  /** Rows of a dead run (the run and its children) still `running` → `interrupted`; returns how many. */
  interruptAbandoned(runId: string, now: string): Promise<number>;
  kindOf(id: string): Promise<RunKind | undefined>;
  /**
   * All agents: deletes the finished runs (every status but `running`) started before `before` — or only counts them
   * with `dryRun` — and returns how many. A `running` row is never pruned, however old.
   */
  prune(before: string, options?: { dryRun?: boolean }): Promise<number>;
}

// ---- handoffs ---------------------------------------------------------------------------------------------------

export interface HandoffRepo {
  insert(handoff: HandoffRecord): Promise<void>;
  get(agentId: string, id: string): Promise<HandoffRecord | undefined>;
  /** Guarded: only if not ingested yet (two concurrent ingests cannot both stage); false otherwise. Clears the redaction map. */
  markIngested(agentId: string, id: string, at: string, runId: string): Promise<boolean>;
}

// ---- settings (store-wide flags: the pause switch, the SQLite lock row) ----------------------------------------

export interface SettingsRepo {
  get(key: string): Promise<string | undefined>;
  /** Insert only when absent; true when written. */
  setIfAbsent(key: string, value: string): Promise<boolean>;
  set(key: string, value: string): Promise<void>;
  /** Deletes; with `value`, only when it still holds that value. Returns whether a row was removed. */
  delete(key: string, value?: string): Promise<boolean>;
}

// ---- MCP access tokens (docs/mcp.md) -------------------------------------------------------------------------

/** A token as stored: the public object plus the sha-256 of its secret (the secret itself is never stored). */
export interface TokenRecord extends McpToken {
  tokenHash: string;
}

/**
 * The bearer tokens of `hippo mcp --http`. Not one of the `rows` tables: tokens are credentials of the server that
 * issued them, not data — snapshots, restores and copies leave them out. The reads by hash and by id serve every agent
 * (the server learns the agent from the token; an operator revokes by id), and say so.
 */
export interface TokenRepo {
  /** Inserts a new token; its id and hash are new (a clash is a bug: `unexpected`). */
  insert(token: TokenRecord): Promise<void>;
  /** All agents: the token, revoked or not, whose secret hashes to `tokenHash`. */
  findByHash(tokenHash: string): Promise<McpToken | undefined>;
  /** All agents: the token with this id. */
  get(id: string): Promise<McpToken | undefined>;
  /** Newest first (createdAt, then id, descending): one agent's tokens, or every agent's without one. */
  list(agentId?: string): Promise<McpToken[]>;
  /** Guarded: sets revokedAt only while the token is live; false when it was revoked already or does not exist. */
  revoke(id: string, at: string): Promise<boolean>;
}

// ---- whole tables (db copy, logical snapshots, restore) --------------------------------------------------------

/** One setting (store-wide flags: the pause switch, SQLite's lock row). */
export interface Setting {
  key: string;
  value: string;
}

/** The engine-neutral form of each table's rows: what `dump` yields and `load` takes. */
export interface TableRows {
  memories: Memory;
  candidates: CandidateRecord;
  runs: Run;
  handoffs: HandoffRecord;
  settings: Setting;
}

/** One row of a table in an engine-neutral form. */
export type TableRow = TableRows[StoreTable];

/**
 * With an agent id these see only that agent's rows: a run without an agent (a store-wide night) is nobody's, and
 * `settings` (store-wide flags) holds no agent's rows at all. `null` means every row of the table.
 */
export interface RowsRepo {
  /** Every row of a table in scope, in id order (settings: key order); streamed in pages, safe to await between rows. */
  dump<T extends StoreTable>(table: T, agentId: string | null): AsyncIterable<TableRows[T]>;
  /**
   * Every memory of every agent, in the order a bulk load gives each row its search context as it writes it (`db
   * copy`): the live threaded memories thread after thread (agent, thread), each thread in thread order (createdAt,
   * then insertion order), then every other memory in id order. Streamed in pages, as `dump`.
   */
  dumpByThread(): AsyncIterable<Memory>;
  /**
   * Bulk insert of dumped rows into this store, ids and every field kept exactly; existing ids (keys) are skipped.
   * Memories loaded in `dumpByThread` order get their search context with the row (PostgreSQL writes each row once).
   */
  load<T extends StoreTable>(table: T, rows: readonly TableRows[T][]): Promise<number>;
  /** Deletes the rows of a table in scope (restore); returns how many. */
  deleteAll(table: StoreTable, agentId: string | null): Promise<number>;
  count(table: StoreTable, agentId: string | null): Promise<number>;
}

// ---- erasure (memory forget) -----------------------------------------------------------------------------------

/** What to erase: memories of one agent by id and/or by the text they hold; their older versions go with them. */
export interface EraseSpec {
  agentId: string;
  /** Memories of the agent erased by id. */
  memoryIds: readonly string[];
  /** Also every memory of the agent whose content, subject or one of its tags contains this text (exact, case-sensitive). */
  match?: string;
}

/**
 * The core's part of an erase, given the memories it erases (those of the spec, and every memory of the agent whose
 * `versionOf` is one of them): which texts to look for, and how to rewrite a candidate or handoff that cites an
 * erased memory or holds one of those texts.
 */
export type EraseRewriter = (erased: readonly Memory[]) => EraseRewrite;

export interface EraseRewrite {
  /**
   * The adapter passes `candidate` every candidate of the agent that cites an erased memory or holds one of these in
   * its claim, edited claim, a tag or its prompt, and `handoff` every handoff that refers to an erased memory or holds
   * one in its prompt (a plain substring test, case-sensitive).
   */
  needles: readonly string[];
  /** The candidate's new row, null to delete it, or the very object given when nothing changes. */
  candidate(candidate: CandidateRecord): CandidateRecord | null;
  /** The handoff's new row, or the very object given when nothing changes. */
  handoff(handoff: HandoffRecord): HandoffRecord;
}

export interface EraseReport {
  /** The memories erased, as they were (none written back). */
  memories: Memory[];
  /** Candidates rewritten (prompt scrubbed, forgotten sources marked) and deleted, by id. */
  candidatesChanged: string[];
  candidatesDeleted: string[];
  /** Handoffs whose prompt was scrubbed, by id. */
  handoffsChanged: string[];
}

export interface ErasureRepo {
  /**
   * Erases the spec's memories (rows and search index entries; SQLite: with secure_delete and FTS5 secure-delete, so
   * the text is overwritten, not only unlinked), re-indexes their thread neighbours as `MemoryRepo.forget` does (no
   * neighbour's search context keeps their text), and applies `rewriter` to what cites or holds them, in one transaction
   * (the caller's when inside one). With `dryRun`, writes nothing and reports what it would do. Call `reclaim()` after
   * the transaction commits.
   */
  erase(spec: EraseSpec, rewriter: EraseRewriter, options?: { dryRun?: boolean }): Promise<EraseReport>;
  /**
   * The agent's memories whose search context (the text of their thread neighbours, kept with them for the search)
   * holds any of `needles`, by id in byte order: what `memory forget --verify` checks besides the rows themselves.
   */
  contextsHolding(agentId: string, needles: readonly string[]): Promise<string[]>;
}

// ---- governance (docs/governance.md) ---------------------------------------------------------------------------

/** `audit reads`: one agent's reads, newest first. */
export interface ReadQuery {
  agentId: string;
  /** Only reads that handed over this memory. */
  memoryId?: string;
  /** Only reads by this client (exact). */
  client?: string;
  /** at ≥ since (ISO). */
  since?: string;
  limit: number;
}

export interface AuditRepo {
  /** One record. Best effort by contract: callers wrap it in tryTransaction. */
  insert(record: ReadRecord): Promise<void>;
  list(query: ReadQuery): Promise<ReadRecord[]>;
  /** Takes these memory ids out of the agent's records (`memory forget`); returns how many records changed. */
  removeMemoryIds(agentId: string, ids: readonly string[]): Promise<number>;
  /** Keeps the agent's newest `keep` records, deleting older ones; returns how many were deleted. */
  cap(agentId: string, keep: number): Promise<number>;
  /** All agents: deletes (or with `dryRun` counts) the records older than `before`. */
  prune(before: string, options?: { dryRun?: boolean }): Promise<number>;
}

export interface ReceiptRepo {
  insert(receipt: StoredReceipt): Promise<void>;
  /** Replaces a receipt's document (what the steps after the erase did: reclaim, snapshots). */
  update(agentId: string, id: string, receipt: Record<string, unknown>): Promise<void>;
  get(agentId: string, id: string): Promise<StoredReceipt | undefined>;
  /** Which of these ids some receipt of the agent covers (a memory forgotten, by id). */
  forgottenAmong(agentId: string, ids: readonly string[]): Promise<string[]>;
  /** The agent's memories derived from (citing) any of these ids: promoted insights, by id, with what they cite. */
  derivedFrom(agentId: string, ids: readonly string[]): Promise<{ id: string; derivedFrom: string[] }[]>;
}

// ---- lock ------------------------------------------------------------------------------------------------------

/**
 * Who holds the nightly lock, as far as it is known. Unknown parts are null or '' — never a made-up pid 0 or a 1970
 * start: a PostgreSQL lock held by a session that has not recorded itself yet has no client pid; a damaged record has
 * nothing.
 */
export interface LockHolder {
  /** The holder's process id on its host; null when unknown. */
  pid: number | null;
  /** The holder's host; '' when unknown. */
  hostname: string;
  /** When it took the lock (ISO); null when unknown. */
  startedAt: string | null;
  /** Its run; '' when unknown. */
  runId: string;
  kind: RunKind;
}

export interface HeldLock {
  holder: LockHolder;
  /** The dead (or stale) holder this lock was taken over from, if any (its abandoned run rows were interrupted). */
  takenOver: LockHolder | null;
  /**
   * Aborted when the lock is lost while held (PostgreSQL: its connection died, so another run may take it now): the
   * holder should stop. Absent where the lock cannot be lost this way (SQLite's row stays until released).
   */
  readonly lost?: AbortSignal;
  release(): Promise<void>;
}

export interface LockPort {
  /** Takes the lock or throws ConflictError `nightly_running` (exit 4) at once when a live holder has it. */
  acquire(owner: { runId: string; kind: RunKind }): Promise<HeldLock>;
  /** The live holder, or null (dry run: "a real run would exit 4"). */
  holder(): Promise<LockHolder | null>;
}

// ---- snapshots -------------------------------------------------------------------------------------------------

/**
 * Snapshots an older hippo wrote into the `snapshots/` folder every SQLite store of a directory shared, left there
 * because more than one hippo store lives in that directory (docs/decisions.md, "Snapshot folders").
 */
export interface UnattributedSnapshots {
  /** The old shared folder. */
  dir: string;
  /** How many snapshot files are still in it. */
  count: number;
  /** The hippo stores found in the directory (this one included), by file name. */
  stores: string[];
  /** This store's own folder, where the ones that are its own belong. */
  target: string;
}

export interface SnapshotPort {
  /**
   * Where this store's snapshots live (SQLite: `snapshots/<file name>/` beside the file; PostgreSQL:
   * `<data dir>/snapshots/<store>/`).
   */
  readonly dir: string;
  /** File name suffix of this engine's snapshots (`.db`, `.jsonl.gz`). */
  readonly suffix: string;
  /**
   * What `take` checks before it keeps a snapshot, in words for a run's steps (`quick_check`; `manifest counts and
   * sha256`): the nightly says "<this> ok" without knowing the engine.
   */
  readonly verifiedBy: string;
  /**
   * Writes a verified snapshot named `name` into `dir` (temp name, check, fsync, rename, mode 0600), first removing the
   * temporary files an earlier interrupted snapshot left (call it holding the lock). A failed check throws
   * HippoError `snapshot_verify_failed` with `details.live`: what the same check says of the live store (`ok`,
   * `failed`, `unknown`). An in-memory store throws UsageError `snapshot_in_memory`.
   *
   * `unlessSameAs`: the newest verified snapshot. When the rows a restore puts back (memories, candidates, handoffs)
   * are exactly that snapshot's, nothing is kept and the result says `unchanged` with that snapshot's path and size
   * (SQLite: a change counter kept by triggers, read from the store and from the snapshot — no copy made; PostgreSQL:
   * the new snapshot's table hashes equal the old manifest's, and the new file is discarded).
   */
  take(name: string, options: { signal?: AbortSignal; unlessSameAs?: string }): Promise<TakenSnapshotFile>;
  /**
   * How sound a snapshot is, at three costs: `header` — its header/manifest says the file is whole (cheap, for listing
   * any number of large snapshots); `quick` — a quick read-back check (SQLite: quick_check); `full` — the full check a
   * restore runs first (SQLite: integrity_check). `violations`: constraint messages that do not make it unusable.
   */
  check(path: string, level: SnapshotCheckLevel): Promise<{ ok: boolean; violations: string[] }>;
  /**
   * Opens a snapshot to restore from: refused (UsageError, nothing changed) when it is the live store itself, not a
   * hippo snapshot, or from a newer hippo; a snapshot of an older schema is brought up to date in a temporary copy,
   * never in place. A damaged one is HippoError `snapshot_damaged` (exit 2), here or from any method of the source.
   * The core drives the restore (docs/design.md §7): plan = `compare` per table; apply = lock, run row, `verify`,
   * pre-restore snapshot, then one transaction of `compare`, `replace`, `matches` and the run's final row.
   */
  open(path: string): Promise<SnapshotSource>;
  /**
   * Erases from a snapshot what `erasure.erase` erases from the store (the same spec and rewriter, the same rules),
   * rewriting the file in place of the old one (temporary file, check, fsync, rename; mode 0600; the name stays) so no
   * copy of the erased rows stays in it: SQLite erases them in a copy with secure deletes and VACUUMs it; PostgreSQL
   * rewrites the JSONL without them. A snapshot holding nothing to erase is not touched; `dryRun` only reports. A
   * snapshot that cannot be read throws `snapshot_damaged` (exit 2); a newer hippo's `snapshot_too_new`.
   */
  erase(path: string, spec: EraseSpec, rewriter: EraseRewriter, options?: { dryRun?: boolean }): Promise<EraseReport>;
  /**
   * SQLite only: the old shared folder's snapshots this store could not adopt (undefined: none). Reading `dir` the
   * first time adopts them when this is the only hippo store in its directory (moved into `dir`, names kept).
   */
  unattributed?(): UnattributedSnapshots | undefined;
}

/** A snapshot opened for restoring. Methods taking `ops` run on it: the store, or the transaction handle inside one. */
export interface SnapshotSource {
  /** The full check of the snapshot (SQLite: integrity_check of the file as opened, migrated copy included). */
  verify(): Promise<boolean>;
  /** What replacing the table's rows in scope (one agent, or all) by the snapshot's would add, remove and change. */
  compare(ops: StoreOps, table: RestoredTable, agentId: string | null): Promise<TableChangeCounts>;
  /** Deletes the table's rows in scope and copies the snapshot's back, ids and contents exact. Inside a transaction. */
  replace(tx: StoreOps, table: RestoredTable, agentId: string | null): Promise<void>;
  /** Whether the table's rows in scope now equal the snapshot's, column for column. */
  matches(ops: StoreOps, table: RestoredTable, agentId: string | null): Promise<boolean>;
  /** Lets go of the snapshot (and removes a temporary migrated copy). Safe to call twice. */
  close(): Promise<void>;
}

/** What a restore puts back; the audit log (`runs`) and `settings` are never restored. */
export type RestoredTable = 'memories' | 'candidates' | 'handoffs';

export interface TakenSnapshotFile {
  path: string;
  sizeBytes: number;
  /** Constraint violations the check found (the snapshot is still whole and usable). */
  violations: string[];
  /** Leftover temporary files of earlier, interrupted snapshots that were removed first. */
  removedPartials: number;
  /** Nothing changed since `unlessSameAs`: no new file; `path` and `sizeBytes` are that snapshot's. */
  unchanged: boolean;
}

export type SnapshotCheckLevel = 'header' | 'quick' | 'full';

export interface TableChangeCounts {
  table: RestoredTable;
  added: number;
  removed: number;
  changed: number;
  unchanged: number;
}
