import { HippoError, NotFoundError } from '../../core/errors.js';
import { getMemories } from '../../core/memory/memory.js';
import { getCandidate, listCandidates, type Candidate } from '../../core/rem/candidates.js';
import { defaultReviewer, promote, reject, sourcesGone, type PROMOTE_DURABILITIES } from '../../core/rem/review.js';
import type { Store } from '../../core/store/port.js';
import type { DecisionOutcome, ReviewActions, ReviewItem, ReviewSettings } from './types.js';

export interface ReviewControllerOptions {
  agentId: string;
  reviewer?: string;
  durability?: (typeof PROMOTE_DURABILITIES)[number];
  allowMissingSources?: boolean;
  /** At most this many pending candidates are loaded (newest first). */
  limit?: number;
  /** The command that reviews again allowing missing sources, with the --agent and --db in effect (src/views/hints.ts). */
  allowMissingSourcesCommand?: string;
}

/**
 * The review screen's only door to the database. It calls the same core functions as `rem promote` and
 * `rem reject`, so a decision taken on screen is exactly the one the commands would record.
 */
export class ReviewController implements ReviewActions {
  readonly settings: ReviewSettings;

  constructor(
    private readonly store: Store,
    private readonly options: ReviewControllerOptions,
  ) {
    this.settings = {
      agentId: options.agentId,
      reviewer: options.reviewer?.trim() || defaultReviewer(),
      durability: options.durability ?? 'persistent',
    };
  }

  /** The store's clock, so ages on screen agree with the times decisions are stamped with. */
  now(): Date {
    return this.store.clock();
  }

  /** Pending candidates, newest first, each with the full text of the memories it cites. */
  async loadPending(): Promise<ReviewItem[]> {
    const candidates = await listCandidates(this.store, { agentId: this.options.agentId, status: 'pending', limit: this.options.limit ?? 1000 });
    const items: ReviewItem[] = [];
    for (const candidate of candidates) items.push(await this.itemOf(candidate));
    return items;
  }

  private async itemOf(candidate: Candidate): Promise<ReviewItem> {
    const found = new Map((await getMemories(this.store, this.options.agentId, candidate.sourceMemoryIds)).map((memory) => [memory.id, memory]));
    return {
      candidate,
      cited: candidate.sourceMemoryIds.map((id) => {
        const memory = found.get(id);
        return { id, memory: memory ? { content: memory.content, createdAt: memory.createdAt, archivedAt: memory.archivedAt } : null };
      }),
    };
  }

  promote(candidateId: string, rationale: string, editedClaim?: string): Promise<DecisionOutcome> {
    return this.decide(candidateId, async () => {
      const [promotion] = await promote(this.store, {
        agentId: this.options.agentId,
        ids: [candidateId],
        rationale,
        durability: this.settings.durability,
        reviewer: this.settings.reviewer,
        allowMissingSources: this.options.allowMissingSources,
        editedClaims: editedClaim === undefined ? undefined : new Map([[candidateId, editedClaim]]),
      });
      return { ok: true, kind: 'promoted', candidateId, memoryId: promotion!.memory.id, edited: editedClaim !== undefined };
    });
  }

  reject(candidateId: string, reason: string): Promise<DecisionOutcome> {
    return this.decide(candidateId, async () => {
      // Core `reject` refuses a candidate already rejected (exit 4, its words name the reason given then). On screen
      // that is someone else's decision, not the reviewer's: said in the screen's own words, not counted as theirs.
      try {
        await reject(this.store, { agentId: this.options.agentId, ids: [candidateId], reason, reviewer: this.settings.reviewer });
      } catch (error) {
        if (!(error instanceof HippoError && error.code === 'candidate_decided' && error.details?.status === 'rejected')) throw error;
        return { ok: false, candidateId, code: 'conflict', message: `candidate ${candidateId} is already rejected elsewhere`, stillPending: false };
      }
      return { ok: true, kind: 'rejected', candidateId };
    });
  }

  private async decide(candidateId: string, write: () => Promise<DecisionOutcome>): Promise<DecisionOutcome> {
    try {
      return await write();
    } catch (error) {
      // Refusals (already decided elsewhere → conflict, busy database, a deleted source…) are shown on screen; the
      // session goes on. Anything else is still reported rather than tearing down the reviewer's screen.
      const hippoError = error instanceof HippoError ? error : undefined;
      const code = hippoError?.code ?? 'unexpected';
      let message = hippoError?.message ?? `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
      let reloaded: ReviewItem | undefined;
      if (code === 'source_deleted') {
        // The screen cannot take a flag: say how to get one, in its own words. And stop showing evidence that is gone.
        const missing = hippoError?.details?.missing;
        message = `${sourcesGone(candidateId, Array.isArray(missing) ? (missing as string[]) : [])}; quit and run \`${this.options.allowMissingSourcesCommand ?? 'hippo rem candidates --allow-missing-sources'}\` to promote anyway`;
        reloaded = await this.reload(candidateId);
      }
      return { ok: false, candidateId, code, message, stillPending: await this.isPending(candidateId), ...(reloaded ? { reloaded } : {}) };
    }
  }

  private async reload(candidateId: string): Promise<ReviewItem | undefined> {
    try {
      return await this.itemOf(await getCandidate(this.store, this.options.agentId, candidateId));
    } catch {
      return undefined; // the list keeps what it showed; the refusal is still reported
    }
  }

  private async isPending(candidateId: string): Promise<boolean> {
    try {
      return (await getCandidate(this.store, this.options.agentId, candidateId)).status === 'pending';
    } catch (error) {
      // Gone → it leaves the list; unreadable for another reason → keep it, the reviewer can try again.
      return !(error instanceof NotFoundError);
    }
  }
}
