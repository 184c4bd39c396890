/**
 * The prompt-only handoff (docs/design.md §2.4, §4.6): `rem rapid --prompt-only` records the prompt it would send as a
 * handoff, any LLM answers it, and `rem ingest` verifies that answer against the handoff's refs and stages it exactly
 * as `rem rapid` would (the same validation and the same staging commit).
 */
import { ConflictError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { answerRejected, type AnswerRejection } from '../model/answer-problem.js';
import { extractJsonObject } from '../model/json.js';
import { prepared, type Store } from '../store/store.js';
import type { Handoff } from '../records.js';
import { iso } from '../time.js';
import { commitStaging, gatherCounts, type DistillCounts, type DistillOptions, type DistillResult } from './distill.js';
import { gather } from './gather.js';
import { answerJsonSchema, buildPrompt, DEFAULT_MAX_CANDIDATES, sha256, type Focus } from './prompt.js';
import { withRun } from './runs.js';
import { validateAnswer } from './validate.js';

export const HANDOFF_TTL_MS = 7 * 86_400_000;

export type { Handoff } from '../records.js';

interface HandoffRow {
  id: string;
  agent_id: string;
  created_at: string;
  focus: Focus;
  refs: string;
  prompt_sha256: string;
  prompt: string;
  max_candidates: number;
  expires_at: string;
  ingested_at: string | null;
  ingest_run_id: string | null;
}

export interface PromptOnlyResult {
  handoff: Handoff;
  prompt: string;
  schema: Record<string, unknown>;
  counts: Pick<DistillCounts, 'gathered' | 'eligible' | 'leftOutByCount' | 'leftOutByBudget'>;
}

/** `rem rapid --prompt-only`: the same gather and prompt, recorded as a handoff for `rem ingest`. */
export function createHandoff(store: Store, options: DistillOptions & { ttlMs?: number }): PromptOnlyResult {
  const focus = options.focus ?? 'lessons';
  const maxCandidates = options.maxCandidates ?? DEFAULT_MAX_CANDIDATES;
  const gathered = gather(store, options);
  if (gathered.memories.length === 0) {
    throw new NotFoundError('nothing_to_distill', 'no memories in scope to distill (widen the scope: an earlier since, or the scope all)', {
      details: { scope: options.scope ?? 'recent' },
    });
  }
  const prompt = buildPrompt({ focus, memories: gathered.memories, maxCandidates });
  const now = store.clock();
  const handoff: Handoff = {
    id: newId('hof', now.getTime()),
    agentId: options.agentId,
    createdAt: iso(now),
    focus,
    refs: Object.fromEntries(gathered.memories.map((item) => [item.ref, item.memory.id])),
    promptSha256: sha256(prompt),
    expiresAt: iso(new Date(now.getTime() + (options.ttlMs ?? HANDOFF_TTL_MS))),
    maxCandidates,
    ingestedAt: null,
    ingestRunId: null,
  };
  prepared(
    store,
    'INSERT INTO handoffs (id, agent_id, created_at, focus, refs, prompt_sha256, prompt, max_candidates, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(handoff.id, handoff.agentId, handoff.createdAt, focus, JSON.stringify(handoff.refs), handoff.promptSha256, prompt, maxCandidates, handoff.expiresAt);
  const { gathered: count, eligible, leftOutByCount, leftOutByBudget } = gatherCounts(gathered);
  return {
    handoff,
    prompt,
    schema: answerJsonSchema(Object.keys(handoff.refs), maxCandidates),
    counts: { gathered: count, eligible, leftOutByCount, leftOutByBudget },
  };
}

export interface IngestOptions {
  agentId: string;
  handoffId: string;
  /** The external LLM's answer: surrounding prose and code fences are tolerated; exactly one JSON object must be found. */
  answer: string;
  /** Recorded as the candidates' `generatedBy` (default `external`). */
  generatedBy?: string;
  restageRejected?: boolean;
}

/** A rejected answer leaves the handoff open: the fix is a corrected answer, not another model. */
const INGEST_FIX = 'Nothing from it was kept, and the handoff is still open: correct the answer and ingest it again.';

/** `rem ingest` (§4.6): verified against the handoff's refs and staged exactly as `rem rapid` would. */
export function ingest(store: Store, options: IngestOptions): DistillResult {
  const row = prepared(store, 'SELECT * FROM handoffs WHERE id = ? AND agent_id = ?').get(options.handoffId, options.agentId) as HandoffRow | undefined;
  if (!row) throw new NotFoundError('handoff_not_found', `no handoff ${options.handoffId} for agent "${options.agentId}"`);
  const now = store.clock();
  if (Date.parse(row.expires_at) <= now.getTime()) {
    throw new NotFoundError('handoff_expired', `handoff ${row.id} expired at ${row.expires_at}; create a new handoff`, {
      details: { handoffId: row.id, expiresAt: row.expires_at },
    });
  }
  if (row.ingested_at) throw new ConflictError('handoff_ingested', `handoff ${row.id} was already ingested (run ${row.ingest_run_id})`);
  const refs = JSON.parse(row.refs) as Record<string, string>;
  const counts: DistillCounts = {
    gathered: Object.keys(refs).length,
    eligible: Object.keys(refs).length,
    leftOutByCount: 0,
    leftOutByBudget: 0,
    staged: 0,
    skippedDuplicates: 0,
    skippedRejected: 0,
  };
  const generatedBy = options.generatedBy?.trim() || 'external';
  return withRun(store, 'rem ingest', options.agentId, (scope) => {
    Object.assign(scope.record, { counts, model: generatedBy });
    const reject = (rejection: AnswerRejection) => answerRejected(rejection, { fix: INGEST_FIX, details: { handoffId: row.id } });
    const found = extractJsonObject(options.answer);
    if (!found.ok) throw reject(found);
    const verdict = validateAnswer(found.value, { refs: Object.keys(refs), maxCandidates: row.max_candidates });
    if (!verdict.ok) throw reject(verdict);
    // Between the handoff and its answer a cited memory may have been deleted or archived: fail closed (§2.2 real ids).
    const live = prepared(store, 'SELECT 1 FROM memories WHERE id = ? AND agent_id = ? AND archived_at IS NULL').pluck();
    const gone = verdict.candidates.findIndex((candidate) => candidate.sources.some((ref) => !live.get(refs[ref], options.agentId)));
    if (gone >= 0) {
      throw reject({ reason: 'source_unavailable', message: `candidate ${gone} cites a memory deleted or archived since the handoff`, index: gone });
    }
    return commitStaging(store, scope, {
      counts,
      agentId: options.agentId,
      candidates: verdict.candidates.map((candidate) => ({ ...candidate, sourceMemoryIds: candidate.sources.map((ref) => refs[ref]!) })),
      gatheredIds: Object.values(refs),
      generatedBy,
      provider: 'handoff',
      prompt: row.prompt,
      restageRejected: options.restageRejected,
      alsoInTransaction: () => {
        // Guarded update: two concurrent ingests of one handoff cannot both stage.
        const marked = prepared(store, 'UPDATE handoffs SET ingested_at = ?, ingest_run_id = ? WHERE id = ? AND ingested_at IS NULL').run(
          iso(now),
          scope.run.id,
          row.id,
        );
        if (marked.changes !== 1) throw new ConflictError('handoff_ingested', `handoff ${row.id} was already ingested`);
      },
    });
  });
}
