import { ConflictError, NotFoundError, UsageError } from '../errors.js';
import { faultPoint } from '../faults.js';
import { newId } from '../ids.js';
import { contentHash, normalizeWhitespace } from '../memory.js';
import { prepared, type Store } from '../store/store.js';
import { CANDIDATE_STATUSES, type Candidate, type CandidateStatus } from '../records.js';
import { iso } from '../time.js';

export { CANDIDATE_STATUSES, type Candidate, type CandidateStatus } from '../records.js';

interface CandidateRow {
  id: string;
  agent_id: string;
  claim: string;
  edited_claim: string | null;
  status: CandidateStatus;
  source_memory_ids: string;
  tags: string;
  generated_by: string;
  provider: string;
  generated_at: string;
  run_id: string;
  prompt_sha256: string;
  reviewer: string | null;
  review_rationale: string | null;
  decided_at: string | null;
  promoted_memory_id: string | null;
}

const CANDIDATE_COLUMNS =
  'id, agent_id, claim, edited_claim, status, source_memory_ids, tags, generated_by, provider, generated_at, run_id, prompt_sha256, reviewer, review_rationale, decided_at, promoted_memory_id';

export function candidateFromRow(row: CandidateRow): Candidate {
  return {
    id: row.id,
    agentId: row.agent_id,
    claim: row.claim,
    editedClaim: row.edited_claim,
    status: row.status,
    sourceMemoryIds: JSON.parse(row.source_memory_ids) as string[],
    tags: JSON.parse(row.tags) as string[],
    generatedBy: row.generated_by,
    provider: row.provider,
    generatedAt: row.generated_at,
    runId: row.run_id,
    promptSha256: row.prompt_sha256,
    reviewer: row.reviewer,
    reviewRationale: row.review_rationale,
    decidedAt: row.decided_at,
    promotedMemoryId: row.promoted_memory_id,
  };
}

/** A candidate of this agent, or exit 3 (another agent's id is "not found": ids do not leak). */
export function getCandidate(store: Store, agentId: string, id: string): Candidate {
  const row = prepared(store, `SELECT ${CANDIDATE_COLUMNS} FROM candidates WHERE id = ? AND agent_id = ?`).get(id, agentId) as CandidateRow | undefined;
  if (!row) throw new NotFoundError('candidate_not_found', `no candidate ${id} for agent "${agentId}"`);
  return candidateFromRow(row);
}

/** The full prompt a candidate was generated from (audit; not part of the §3.2 candidate object). */
export function getCandidatePrompt(store: Store, agentId: string, id: string): string {
  getCandidate(store, agentId, id);
  return prepared(store, 'SELECT prompt FROM candidates WHERE id = ?').pluck().get(id) as string;
}

export function listCandidates(store: Store, options: { agentId: string; status?: CandidateStatus | 'all'; limit?: number }): Candidate[] {
  const status = options.status ?? 'pending';
  if (status !== 'all' && !CANDIDATE_STATUSES.includes(status)) {
    const allowed = [...CANDIDATE_STATUSES, 'all'];
    throw new UsageError('bad_status', `the candidate status must be one of ${allowed.join(', ')}`, { details: { option: 'status', allowed } });
  }
  const rows = store.db
    .prepare(
      `SELECT ${CANDIDATE_COLUMNS} FROM candidates WHERE agent_id = @agentId ${status === 'all' ? '' : 'AND status = @status'}
       ORDER BY generated_at DESC, id DESC LIMIT @limit`,
    )
    .all({ agentId: options.agentId, status, limit: options.limit ?? 1000 }) as CandidateRow[];
  return rows.map(candidateFromRow);
}

export interface StageInput {
  agentId: string;
  runId: string;
  /** Validated candidates, sources already mapped from refs to real memory ids. */
  candidates: readonly { claim: string; sourceMemoryIds: string[]; tags: string[] }[];
  generatedBy: string;
  provider: string;
  prompt: string;
  promptSha256: string;
  restageRejected?: boolean;
}

export interface StageResult {
  staged: Candidate[];
  skippedDuplicates: number;
  skippedRejected: number;
}

/**
 * docs/design.md §4.5 (call inside the caller's transaction, so a crash at any point leaves no row from the run): skips claims
 * equal — after collapsing whitespace — to a pending or promoted candidate, to a memory, or to an earlier claim of
 * this batch (counted as duplicates), and to a rejected claim unless `restageRejected` (counted apart).
 */
export function stageCandidates(store: Store, input: StageInput): StageResult {
  const clock = store.clock();
  const now = iso(clock);
  const existingStatus = prepared(
    store,
    "SELECT max(status IN ('pending','promoted')) AS live, max(status = 'rejected') AS rejected FROM candidates WHERE agent_id = ? AND claim_norm = ?",
  );
  const memoryExists = prepared(store, 'SELECT 1 FROM memories WHERE agent_id = ? AND content_hash = ? LIMIT 1').pluck();
  const insert = prepared(
    store,
    `INSERT INTO candidates (id, agent_id, claim, claim_norm, source_memory_ids, tags, status, generated_by, provider, generated_at, run_id, prompt_sha256, prompt)
     VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?)`,
  );
  const result: StageResult = { staged: [], skippedDuplicates: 0, skippedRejected: 0 };
  const seen = new Set<string>();
  for (const candidate of input.candidates) {
    const norm = normalizeWhitespace(candidate.claim);
    const found = existingStatus.get(input.agentId, norm) as { live: number | null; rejected: number | null };
    if (seen.has(norm) || found.live === 1 || memoryExists.get(input.agentId, contentHash(norm))) {
      result.skippedDuplicates++;
      continue;
    }
    if (found.rejected === 1 && !input.restageRejected) {
      result.skippedRejected++;
      continue;
    }
    seen.add(norm);
    const staged: Candidate = {
      id: newId('cand', clock.getTime()),
      agentId: input.agentId,
      claim: candidate.claim,
      editedClaim: null,
      status: 'pending',
      sourceMemoryIds: candidate.sourceMemoryIds,
      tags: candidate.tags,
      generatedBy: input.generatedBy,
      provider: input.provider,
      generatedAt: now,
      runId: input.runId,
      promptSha256: input.promptSha256,
      reviewer: null,
      reviewRationale: null,
      decidedAt: null,
      promotedMemoryId: null,
    };
    insert.run(
      staged.id,
      staged.agentId,
      staged.claim,
      norm,
      JSON.stringify(staged.sourceMemoryIds),
      JSON.stringify(staged.tags),
      staged.generatedBy,
      staged.provider,
      staged.generatedAt,
      staged.runId,
      staged.promptSha256,
      input.prompt,
    );
    result.staged.push(staged);
    faultPoint('stage:after-insert');
  }
  return result;
}

/** Marks gathered memories as reflected on: only ever inside a successful staging transaction. */
export function stampReflected(store: Store, memoryIds: readonly string[]): void {
  const now = iso(store.clock());
  const stamp = prepared(store, 'UPDATE memories SET last_reflected_at = ? WHERE id = ?');
  for (const id of memoryIds) stamp.run(now, id);
}

export function assertPending(candidate: Candidate, action: 'promote' | 'reject'): void {
  if (candidate.status === 'pending') return;
  throw new ConflictError(
    'candidate_decided',
    `candidate ${candidate.id} is already ${candidate.status}; it cannot be ${action === 'promote' ? 'promoted' : 'rejected'}`,
  );
}
