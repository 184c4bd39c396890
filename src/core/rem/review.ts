import { userInfo } from 'node:os';
import { ConflictError, UsageError } from '../errors.js';
import { buildMemory, insertMemory, type Durability, type Memory } from '../memory.js';
import { inTransaction, prepared, type Store } from '../store/store.js';
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

function requireText(value: string | undefined, option: 'rationale' | 'reason', what: string): string {
  const text = value?.trim() ?? '';
  if (text === '') throw new UsageError(`${option}_required`, `a ${option} is required and must not be blank: say ${what}`, { details: { option, what } });
  return text;
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
export function promote(store: Store, options: PromoteOptions): Promotion[] {
  const rationale = requireText(options.rationale, 'rationale', 'why this insight should be kept');
  const durability: Durability = options.durability ?? 'persistent';
  if (!(PROMOTE_DURABILITIES as readonly string[]).includes(durability)) {
    throw new UsageError('bad_durability', 'durability must be persistent or permanent for a promoted insight', {
      details: { option: 'durability', allowed: [...PROMOTE_DURABILITIES] },
    });
  }
  const reviewer = options.reviewer?.trim() || defaultReviewer();
  return inTransaction(store, () => {
    const now = store.clock();
    const sourceExists = prepared(store, 'SELECT 1 FROM memories WHERE id = ? AND agent_id = ?').pluck();
    return [...new Set(options.ids)].map((id) => {
      const candidate = getCandidate(store, options.agentId, id);
      assertPending(candidate, 'promote');
      const missing = candidate.sourceMemoryIds.filter((sourceId) => !sourceExists.get(sourceId, options.agentId));
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
      insertMemory(store, memory);
      const decidedAt = iso(now);
      prepared(
        store,
        "UPDATE candidates SET status = 'promoted', reviewer = ?, review_rationale = ?, decided_at = ?, promoted_memory_id = ?, edited_claim = ? WHERE id = ?",
      ).run(reviewer, rationale, decidedAt, memory.id, edited ?? null, id);
      return {
        candidate: {
          ...candidate,
          status: 'promoted' as const,
          reviewer,
          reviewRationale: rationale,
          decidedAt,
          promotedMemoryId: memory.id,
          editedClaim: edited ?? null,
        },
        memory,
      };
    });
  });
}

export interface RejectOptions {
  agentId: string;
  ids: readonly string[];
  reason: string | undefined;
  reviewer?: string;
}

/** docs/design.md §4.8: reject with a reason, in one transaction. Rejecting a rejected candidate is a no-op; a promoted one → 4. */
export function reject(store: Store, options: RejectOptions): Candidate[] {
  const reason = requireText(options.reason, 'reason', 'why this candidate is wrong or not worth keeping');
  const reviewer = options.reviewer?.trim() || defaultReviewer();
  return inTransaction(store, () => {
    const decidedAt = iso(store.clock());
    return [...new Set(options.ids)].map((id) => {
      const candidate = getCandidate(store, options.agentId, id);
      if (candidate.status === 'rejected') return candidate;
      assertPending(candidate, 'reject');
      prepared(store, "UPDATE candidates SET status = 'rejected', reviewer = ?, review_rationale = ?, decided_at = ? WHERE id = ?").run(
        reviewer,
        reason,
        decidedAt,
        id,
      );
      return { ...candidate, status: 'rejected' as const, reviewer, reviewRationale: reason, decidedAt };
    });
  });
}
