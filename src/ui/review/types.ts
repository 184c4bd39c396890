import type { Candidate } from '../../core/rem/candidates.js';

/** A memory a candidate cites, as the reviewer sees it; `memory` is null when it is no longer in the database. */
export interface CitedMemory {
  id: string;
  memory: { content: string; createdAt: string; archivedAt: string | null } | null;
}

/** One pending candidate with its evidence: everything the screen shows, loaded before it is drawn. */
export interface ReviewItem {
  candidate: Candidate;
  cited: CitedMemory[];
}

export type DecisionOutcome =
  | { ok: true; kind: 'promoted'; candidateId: string; memoryId: string; edited: boolean }
  | { ok: true; kind: 'rejected'; candidateId: string }
  | {
      ok: false;
      candidateId: string;
      code: string;
      message: string;
      /** False when the candidate was decided (or removed) elsewhere meanwhile: it leaves the list. */
      stillPending: boolean;
      /** The candidate as the database has it now, when what the screen shows went stale (a cited memory deleted). */
      reloaded?: ReviewItem;
    };

/**
 * What the screen may do to the database — nothing else. Each call writes at once (one transaction) and never
 * rejects: a refusal comes back as an outcome to show inline.
 */
export interface ReviewActions {
  promote(candidateId: string, rationale: string, editedClaim?: string): Promise<DecisionOutcome>;
  reject(candidateId: string, reason: string): Promise<DecisionOutcome>;
}

/** Shown in the help and the prompts so the reviewer knows what a promotion will record. */
export interface ReviewSettings {
  agentId: string;
  reviewer: string;
  durability: 'persistent' | 'permanent';
}

export type Decision = Extract<DecisionOutcome, { ok: true }>;

/** What a session did, for the summary printed on exit. */
export interface ReviewSummary {
  decisions: Decision[];
  /** Candidates skipped and still pending when the session ended. */
  skipped: string[];
  /** Candidates left pending in the session's list (skipped ones included). */
  remaining: number;
  /** Ctrl-C rather than `q`. */
  interrupted: boolean;
}

/** What a review session ended with. */
export interface ReviewOutcome {
  summary: ReviewSummary;
  /** Set when the screen failed; what was decided before it is in `summary` (and in the database). */
  error?: unknown;
}
