import { ConflictError, NotFoundError, UsageError } from '../errors.js';
import { faultPoint } from '../faults.js';
import { requireCount, shownOf, type Shown } from '../limits.js';
import { caseSensitiveHint, newId } from '../ids.js';
import { contentHash, normalizeWhitespace } from '../memory/memory.js';
import { CANDIDATE_STATUSES, type Candidate, type CandidateStatus } from '../records.js';
import type { StoreOps } from '../store/port.js';
import { iso } from '../time.js';
import { findRejected, signature, type ClaimSignature } from './near-duplicate.js';

export { CANDIDATE_STATUSES, type Candidate, type CandidateStatus } from '../records.js';

/** A candidate of this agent, or exit 3 (another agent's id is "not found": ids do not leak). */
export async function getCandidate(store: StoreOps, agentId: string, id: string): Promise<Candidate> {
  const candidate = await store.candidates.get(agentId, id);
  if (!candidate) {
    const hint = await caseSensitiveHint(id, async (canonical) => (await store.candidates.get(agentId, canonical)) !== undefined);
    throw new NotFoundError('candidate_not_found', `no candidate ${id} for agent "${agentId}"${hint}`);
  }
  return candidate;
}

/** The full prompt a candidate was generated from (audit; not part of the §3.2 candidate object). */
export async function getCandidatePrompt(store: StoreOps, agentId: string, id: string): Promise<string> {
  const prompt = await store.candidates.prompt(agentId, id);
  if (prompt === undefined) throw new NotFoundError('candidate_not_found', `no candidate ${id} for agent "${agentId}"`);
  return prompt;
}

export async function listCandidates(store: StoreOps, options: { agentId: string; status?: CandidateStatus | 'all'; limit?: number }): Promise<Candidate[]> {
  const status = options.status ?? 'pending';
  if (status !== 'all' && !CANDIDATE_STATUSES.includes(status)) {
    const allowed = [...CANDIDATE_STATUSES, 'all'];
    throw new UsageError('bad_status', `the candidate status must be one of ${allowed.join(', ')}`, { details: { option: 'status', allowed } });
  }
  return store.candidates.list({ agentId: options.agentId, status, limit: requireCount(options.limit ?? 1000, 'limit') });
}

/** `rem candidates` as a list: the page, with how many candidates of that status there are in all (`shownOf`). */
export async function listCandidatePage(
  store: StoreOps,
  options: { agentId: string; status?: CandidateStatus | 'all'; limit?: number },
): Promise<{ candidates: Candidate[] } & Shown> {
  const candidates = await listCandidates(store, options);
  const status = options.status ?? 'pending';
  return { candidates, ...(await shownOf(candidates.length, options.limit ?? 1000, () => store.candidates.count({ agentId: options.agentId, status }))) };
}

/**
 * When the agent has no pending candidates: the other agents that have some, most first (a person reviewing as the
 * default agent learns where the work is, as search and memory list name other agents' memories).
 */
export async function pendingElsewhere(store: StoreOps, agentId: string): Promise<{ agentId: string; pending: number }[]> {
  const counts = await store.candidates.pendingCounts();
  if (counts.some((count) => count.agentId === agentId && count.pending > 0)) return [];
  return counts.filter((count) => count.agentId !== agentId && count.pending > 0).sort((a, b) => b.pending - a.pending);
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

/** A claim skipped because a reviewer rejected it before: which rejection, and whether word for word or reworded. */
export interface RejectedMatch {
  rejectedId: string;
  match: 'exact' | 'reworded';
}

export interface StageResult {
  staged: Candidate[];
  skippedDuplicates: number;
  skippedRejected: number;
  /** One per claim counted in `skippedRejected`, in the answer's order. */
  rejectedMatches: RejectedMatch[];
}

/**
 * How many of an agent's newest rejections a staging compares each claim with for rewordings (docs/governance.md, "Rejections that teach"). A
 * claim equal to an older rejection is still skipped (the exact match looks at every one).
 */
export const REJECTED_SCAN_LIMIT = 1000;

/**
 * docs/design.md §4.5 (call inside the caller's transaction, with its handle, so a crash at any point leaves no row from the run): skips claims
 * equal — after collapsing whitespace — to a pending or promoted candidate, to a memory, or to an earlier claim of
 * this batch (counted as duplicates), and unless `restageRejected`, to a rejected claim or a rewording of one of the
 * agent's newest REJECTED_SCAN_LIMIT rejections (near-duplicate.ts; counted apart, with the rejection's id).
 */
export async function stageCandidates(tx: StoreOps, input: StageInput): Promise<StageResult> {
  const clock = tx.clock();
  const now = iso(clock);
  const result: StageResult = { staged: [], skippedDuplicates: 0, skippedRejected: 0, rejectedMatches: [] };
  const norms = input.candidates.map((candidate) => normalizeWhitespace(candidate.claim));
  const rejections = input.restageRejected
    ? []
    : (await tx.candidates.decided(input.agentId, { kind: 'rejected', limit: REJECTED_SCAN_LIMIT })).map((row) => ({
        id: row.id,
        norm: normalizeWhitespace(row.claim),
        signature: signature(row.claim),
      }));
  const stored = await tx.memories.existingHashes(input.agentId, [...new Set(norms.map(contentHash))]);
  const seen = new Set<string>();
  for (const [index, candidate] of input.candidates.entries()) {
    const norm = norms[index]!;
    const found = await tx.candidates.claimStatus(input.agentId, norm);
    if (seen.has(norm) || found.live || stored.has(contentHash(norm))) {
      result.skippedDuplicates++;
      continue;
    }
    if (!input.restageRejected) {
      const match = found.rejected ? await exactRejection(tx, input.agentId, norm, rejections) : rewordedRejection(candidate.claim, rejections);
      if (match) {
        result.skippedRejected++;
        result.rejectedMatches.push(match);
        continue;
      }
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
      forgottenSourceIds: [],
      reopenedBy: null,
      reopenedAt: null,
      reopenReason: null,
    };
    await tx.candidates.insert({ ...staged, claimNorm: norm, prompt: input.prompt });
    result.staged.push(staged);
    faultPoint('stage:after-insert');
  }
  return result;
}

/** The rejection a claim equals (its id from the newest ones read, else looked up by its normalised claim). */
async function exactRejection(tx: StoreOps, agentId: string, norm: string, rejections: readonly { id: string; norm: string }[]): Promise<RejectedMatch> {
  const id = rejections.find((row) => row.norm === norm)?.id ?? (await tx.candidates.decided(agentId, { kind: 'rejected', limit: 1, claimNorm: norm }))[0]?.id;
  return { rejectedId: id!, match: 'exact' };
}

function rewordedRejection(claim: string, rejections: readonly { id: string; signature: ClaimSignature }[]): RejectedMatch | undefined {
  const found = findRejected(claim, rejections);
  return found && { rejectedId: found.id, match: 'reworded' };
}

/** Marks gathered memories as reflected on: only ever inside a successful staging transaction. */
export async function stampReflected(tx: StoreOps, agentId: string, memoryIds: readonly string[]): Promise<void> {
  await tx.memories.stampReflected(agentId, memoryIds, iso(tx.clock()));
}

export function assertPending(candidate: Candidate, action: 'promote' | 'reject'): void {
  if (candidate.status === 'pending') return;
  throw new ConflictError(
    'candidate_decided',
    `candidate ${candidate.id} is already ${candidate.status}; it cannot be ${action === 'promote' ? 'promoted' : 'rejected'}`,
  );
}
