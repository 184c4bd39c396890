/**
 * The records hippo persists (docs/design.md §2.1–§2.4) and their enums, in one module that imports nothing: the
 * domain code (memory, rem, nightly) and the storage port (store/port.ts) both build on it, so neither depends on the
 * other. Domain rules about these records (validation, building a row, staging) stay with the domain modules.
 */

// ---- §2.1 memory ------------------------------------------------------------------------------------------------

export const DURABILITIES = ['permanent', 'persistent', 'standard', 'ephemeral'] as const;
export type Durability = (typeof DURABILITIES)[number];

export interface Memory {
  id: string;
  agentId: string;
  content: string;
  durability: Durability;
  tags: string[];
  subject: string | null;
  source: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string | null;
  archivedAt: string | null;
  archivedReason: string | null;
  derivedFrom: string[];
  promotedFrom: string | null;
  contentHash: string;
  lastReflectedAt: string | null;
  retrievalCount: number;
  lastRetrievedAt: string | null;
  /**
   * The conversation or document the memory belongs to (docs/design.md §6): an explicit name, the import file it came
   * from, or null. Search reads a threaded memory together with its neighbours in the thread.
   */
  thread: string | null;
  /**
   * Set only on an older version kept by `memory edit --keep-history`: the id of the memory it is an older version of
   * (that memory kept its id and holds the new text). Null for every other memory. Forgetting a memory forgets its
   * older versions too.
   */
  versionOf: string | null;
}

// ---- §2.2 candidate ---------------------------------------------------------------------------------------------

export const CANDIDATE_STATUSES = ['pending', 'promoted', 'rejected'] as const;
export type CandidateStatus = (typeof CANDIDATE_STATUSES)[number];

/** docs/design.md §2.2. `prompt`/`promptSha256` are kept on the row; the JSON shape of §3.2 leaves the prompt out. */
export interface Candidate {
  id: string;
  agentId: string;
  claim: string;
  /** The reviewer's wording when a claim was edited before promotion; `claim` keeps the model's original. */
  editedClaim: string | null;
  status: CandidateStatus;
  sourceMemoryIds: string[];
  tags: string[];
  generatedBy: string;
  provider: string;
  generatedAt: string;
  runId: string;
  promptSha256: string;
  reviewer: string | null;
  reviewRationale: string | null;
  decidedAt: string | null;
  promotedMemoryId: string | null;
  /** Sources that `memory forget` erased since the candidate was staged: a reviewer sees the evidence is gone. */
  forgottenSourceIds: string[];
  /** Who sent a rejected candidate back to pending (`rem reopen`), when and why; null if it never was. */
  reopenedBy: string | null;
  reopenedAt: string | null;
  reopenReason: string | null;
}

// ---- §2.3 run (the audit log) -----------------------------------------------------------------------------------

export const RUN_KINDS = ['rem rapid', 'rem ingest', 'rem nightly run-once', 'rem restore', 'memory forget', 'rem runs prune', 'audit prune'] as const;
export type RunKind = (typeof RUN_KINDS)[number];
export const RUN_STATUSES = ['running', 'completed', 'partial', 'failed', 'interrupted', 'paused', 'dry-run'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface RunCounts {
  gathered?: number;
  staged?: number;
  skippedDuplicates?: number;
  skippedRejected?: number;
  expired?: number;
  archived?: number;
  [key: string]: number | undefined;
}

/**
 * docs/design.md §2.3: one audit row per run. `errors` holds short fixed strings only — never model output or memory text.
 * A nightly run is one row for the night plus one child row per agent it distilled (`parentRunId` = the night's id);
 * `steps` says what each step of a run did, in fixed words (e.g. `{"distill": "skipped: no model configured"}`).
 */
export interface Run {
  id: string;
  kind: RunKind;
  agentId: string | null;
  startedAt: string;
  finishedAt: string | null;
  status: RunStatus;
  snapshotPath: string | null;
  counts: RunCounts;
  candidateIds: string[];
  model: string | null;
  errors: string[];
  durationMs: number | null;
  parentRunId: string | null;
  steps: Record<string, string>;
  /** The memories the run acted on by id (`memory forget`: the ids it erased); [] for other runs. Ids only, never text. */
  memoryIds: string[];
}

// ---- §2.4 handoff -----------------------------------------------------------------------------------------------

export const FOCUSES = ['lessons', 'patterns', 'decisions', 'errors', 'preferences'] as const;
export type Focus = (typeof FOCUSES)[number];

/** docs/design.md §2.4. */
export interface Handoff {
  id: string;
  agentId: string;
  createdAt: string;
  focus: Focus;
  /** alias → memory id, exactly the refs shown in the prompt. */
  refs: Record<string, string>;
  promptSha256: string;
  expiresAt: string;
  maxCandidates: number;
  ingestedAt: string | null;
  ingestRunId: string | null;
}

// ---- MCP access tokens (docs/mcp.md) -----------------------------------------------------------------------------

/**
 * A bearer token of `hippo mcp --http`, bound to one agent. Only a hash of the secret is stored (never the secret),
 * and it is never part of this object.
 */
export interface McpToken {
  id: string;
  agentId: string;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
}

/** How a read reached its reader (docs/governance.md). */
export const READ_CHANNELS = ['mcp-stdio', 'mcp-http', 'cli'] as const;
export type ReadChannel = (typeof READ_CHANNELS)[number];

/**
 * One read of the audit (docs/governance.md): who was handed which of an agent's memories, when, by which operation.
 * Never the query's or a memory's text: `queryHash` is a keyed hash (HMAC-SHA-256, its key in the store's settings)
 * that groups reads of the same query without saying what it was.
 */
export interface ReadRecord {
  agentId: string;
  id: string;
  at: string;
  channel: ReadChannel;
  /** The MCP client's name and version from its handshake, or the OS user for the CLI. */
  client: string;
  /** The bearer token's id (never its secret) over HTTP; null otherwise. */
  tokenId: string | null;
  operation: string;
  memoryIds: string[];
  queryHash: string | null;
}

/** A forget receipt as stored: its document (never a text), and the ids it covers for lookups. */
export interface StoredReceipt {
  agentId: string;
  id: string;
  createdAt: string;
  runId: string;
  memoryIds: string[];
  receipt: Record<string, unknown>;
}
