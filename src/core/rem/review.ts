import { userInfo } from 'node:os';
import { ConflictError, UsageError } from '../errors.js';
import { buildMemory } from '../memory/memory.js';
import type { Durability, Memory } from '../records.js';
import type { Store } from '../store/port.js';
import { iso } from '../time.js';
import { assertPending, getCandidate, type Candidate } from './candidates.js';

export const PROMOTE_DURABILITIES = ['persistent', 'permanent'] as const;

/** The reviewer recorded on a decision: `--reviewer`, else `$HIPPO_REVIEWER`, else the OS user. */
export function defaultReviewer(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HIPPO_REVIEWER) return env.HIPPO_REVIEWER;
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}

/** The longest rationale or reason a decision keeps: a few paragraphs, not a pasted file. */
export const MAX_REASON_CHARS = 4000;

function requireText(value: string | undefined, option: 'rationale' | 'reason', what: string): string {
  const text = value?.trim() ?? '';
  if (text === '') throw new UsageError(`${option}_required`, `a ${option} is required and must not be blank: say ${what}`, { details: { option, what } });
  if (text.length > MAX_REASON_CHARS) {
    throw new UsageError(`${option}_too_long`, `the ${option} is ${text.length} characters, over ${MAX_REASON_CHARS}: say it in fewer words`, {
      details: { option, max: MAX_REASON_CHARS },
    });
  }
  return text;
}

/** The longest reviewer name a decision keeps (as long as an agent id): a name, not a pasted file. */
export const MAX_REVIEWER_CHARS = 128;

/** The reviewer recorded on a decision (`defaultReviewer` when none is given), at most MAX_REVIEWER_CHARS. */
function reviewerOf(value: string | undefined): string {
  const reviewer = value?.trim() || defaultReviewer();
  if (reviewer.length > MAX_REVIEWER_CHARS) {
    throw new UsageError('reviewer_too_long', `the reviewer is ${reviewer.length} characters, over ${MAX_REVIEWER_CHARS}: give a name`, {
      details: { option: 'reviewer', max: MAX_REVIEWER_CHARS },
    });
  }
  return reviewer;
}

/** The fact of a `source_deleted` refusal, in words every caller (library, CLI, review screen) starts from. */
export function sourcesGone(candidateId: string, missing: readonly string[]): string {
  return `candidate ${candidateId} cites ${missing.length} memor${missing.length === 1 ? 'y' : 'ies'} no longer in the database (${missing.join(', ')})`;
}

export interface PromoteOptions {
  agentId: string;
  ids: readonly string[];
  rationale: string | undefined;
  durability?: (typeof PROMOTE_DURABILITIES)[number];
  reviewer?: string;
  allowMissingSources?: boolean;
  /** Reviewer's edited wording per candidate id: becomes the memory's content; the original claim stays on the row. */
  editedClaims?: ReadonlyMap<string, string>;
}

export interface Promotion {
  candidate: Candidate;
  memory: Memory;
}

/**
 * docs/design.md §4.8: in one transaction for all ids, each candidate becomes a memory (durability persistent unless
 * `permanent` is asked for explicitly; `derivedFrom` = its sources, `promotedFrom` = the candidate) and is marked
 * promoted. Any failure (unknown id → 3, already decided → 4, a deleted source → 4) promotes nothing.
 */
export async function promote(store: Store, options: PromoteOptions): Promise<Promotion[]> {
  const rationale = requireText(options.rationale, 'rationale', 'why this insight should be kept');
  const durability: Durability = options.durability ?? 'persistent';
  if (!(PROMOTE_DURABILITIES as readonly string[]).includes(durability)) {
    throw new UsageError('bad_durability', 'durability must be persistent or permanent for a promoted insight', {
      details: { option: 'durability', allowed: [...PROMOTE_DURABILITIES] },
    });
  }
  const reviewer = reviewerOf(options.reviewer);
  return store.transaction(async (tx) => {
    const now = tx.clock();
    const promotions: Promotion[] = [];
    for (const id of new Set(options.ids)) {
      const candidate = await getCandidate(tx, options.agentId, id);
      assertPending(candidate, 'promote');
      const present = new Set((await tx.memories.getMany(options.agentId, candidate.sourceMemoryIds)).map((memory) => memory.id));
      const missing = candidate.sourceMemoryIds.filter((sourceId) => !present.has(sourceId));
      if (missing.length > 0 && !options.allowMissingSources) {
        throw new ConflictError('source_deleted', `${sourcesGone(id, missing)}; allow missing sources to promote it anyway`, {
          details: { candidateId: id, missing },
        });
      }
      const edited = options.editedClaims?.get(id);
      const memory = buildMemory(
        {
          agentId: options.agentId,
          content: edited ?? candidate.claim,
          durability,
          tags: candidate.tags,
          source: `promoted:${candidate.id}`,
          derivedFrom: candidate.sourceMemoryIds,
          promotedFrom: candidate.id,
        },
        now,
      );
      await tx.memories.insert(memory);
      const decidedAt = iso(now);
      const decision = { status: 'promoted' as const, reviewer, rationale, decidedAt, promotedMemoryId: memory.id, editedClaim: edited ?? null };
      // Guarded: a reviewer elsewhere who decided it first wins, and this whole promotion is rolled back.
      if (!(await tx.candidates.decide(options.agentId, id, decision))) {
        assertPending(await getCandidate(tx, options.agentId, id), 'promote');
        throw new ConflictError('candidate_decided', `candidate ${id} was decided elsewhere meanwhile; it cannot be promoted`);
      }
      promotions.push({
        candidate: {
          ...candidate,
          status: 'promoted',
          reviewer,
          reviewRationale: rationale,
          decidedAt,
          promotedMemoryId: memory.id,
          editedClaim: edited ?? null,
        },
        memory,
      });
    }
    return promotions;
  });
}

export interface RejectOptions {
  agentId: string;
  ids: readonly string[];
  reason: string | undefined;
  reviewer?: string;
}

/**
 * docs/design.md §4.8: reject with a reason, in one transaction. Rejecting a promoted candidate → 4; rejecting a
 * rejected one → 4 too (issue 30, docs/decisions.md): the new reason would be lost, so it is refused, saying when and
 * why it was rejected. Any refusal rejects none of the ids.
 */
export async function reject(store: Store, options: RejectOptions): Promise<Candidate[]> {
  const reason = requireText(options.reason, 'reason', 'why this candidate is wrong or not worth keeping');
  const reviewer = reviewerOf(options.reviewer);
  return store.transaction(async (tx) => {
    const decidedAt = iso(tx.clock());
    const rejected: Candidate[] = [];
    for (const id of new Set(options.ids)) {
      const candidate = await getCandidate(tx, options.agentId, id);
      if (candidate.status === 'rejected') throw alreadyRejected(candidate);
      assertPending(candidate, 'reject');
      if (!(await tx.candidates.decide(options.agentId, id, { status: 'rejected', reviewer, rationale: reason, decidedAt }))) {
        // Decided elsewhere in between: refused as if it had been decided before.
        const now = await getCandidate(tx, options.agentId, id);
        if (now.status === 'rejected') throw alreadyRejected(now);
        assertPending(now, 'reject');
      }
      rejected.push({ ...candidate, status: 'rejected', reviewer, reviewRationale: reason, decidedAt });
    }
    return rejected;
  });
}

/** A rejected candidate rejected again: exit 4 saying when, by whom and why it was rejected (the new reason is not kept). */
function alreadyRejected(candidate: Candidate): ConflictError {
  const on = candidate.decidedAt ? ` on ${candidate.decidedAt.slice(0, 10)}` : '';
  const by = candidate.reviewer ? ` by ${candidate.reviewer}` : '';
  const reason = candidate.reviewRationale ? ` (reason: ${candidate.reviewRationale})` : '';
  return new ConflictError('candidate_decided', `candidate ${candidate.id} was already rejected${on}${by}${reason}; nothing changed`, {
    details: {
      candidateId: candidate.id,
      status: candidate.status,
      decidedAt: candidate.decidedAt,
      reviewer: candidate.reviewer,
      reason: candidate.reviewRationale,
    },
  });
}

export interface ReopenOptions {
  agentId: string;
  ids: readonly string[];
  reason: string | undefined;
  reviewer?: string;
}

export interface ReopenResult {
  reopened: Candidate[];
  /** Ids that were pending already (left as they are). */
  alreadyPending: string[];
}

/**
 * `rem reopen`: rejected candidates back to pending, in one transaction, recording who reopened each, when and why
 * (the rejection's reviewer and rationale are cleared: the candidate is undecided again). A pending one is left as it
 * is; a promoted one is exit 4 (its memory exists: archive or forget that instead); an unknown id exit 3. Any failure
 * reopens nothing.
 */
export async function reopen(store: Store, options: ReopenOptions): Promise<ReopenResult> {
  const reason = requireText(options.reason, 'reason', 'why this candidate deserves another review');
  const by = reviewerOf(options.reviewer);
  return store.transaction(async (tx) => {
    const at = iso(tx.clock());
    const result: ReopenResult = { reopened: [], alreadyPending: [] };
    for (const id of new Set(options.ids)) {
      const candidate = await getCandidate(tx, options.agentId, id);
      if (candidate.status === 'pending') {
        result.alreadyPending.push(id);
        continue;
      }
      if (candidate.status === 'promoted' || !(await tx.candidates.reopen(options.agentId, id, { by, reason, at }))) {
        const now = await getCandidate(tx, options.agentId, id);
        if (now.status === 'pending') {
          result.alreadyPending.push(id);
          continue;
        }
        throw new ConflictError('candidate_promoted', `candidate ${id} was promoted; it cannot be reopened (archive or forget its memory instead)`, {
          details: { candidateId: id, promotedMemoryId: now.promotedMemoryId },
        });
      }
      result.reopened.push({
        ...candidate,
        status: 'pending',
        reviewer: null,
        reviewRationale: null,
        decidedAt: null,
        reopenedBy: by,
        reopenedAt: at,
        reopenReason: reason,
      });
    }
    return result;
  });
}
