/**
 * The prompt-only handoff (docs/design.md §2.4, §4.6): `rem rapid --prompt-only` records the prompt it would send as a
 * handoff, any LLM answers it, and `rem ingest` verifies that answer against the handoff's refs and stages it exactly
 * as `rem rapid` would (the same validation and the same staging commit).
 */
import { ConflictError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { answerRejected, AnswerRejectedError, type AnswerRejection } from '../model/answer-problem.js';
import { extractJsonObject } from '../model/json.js';
import { redactionRunCounts, type RedactionReport } from '../redaction.js';
import type { Store, StoreOps } from '../store/port.js';
import type { Handoff } from '../records.js';
import { elsewhereWarning } from '../memory/memory.js';
import { iso } from '../time.js';
import {
  commitStaging,
  gatherCounts,
  gatherWithLessons,
  preparePrompt,
  restoreAnswer,
  type DistillCounts,
  type DistillOptions,
  type DistillResult,
} from './distill.js';
import { lessonIds, type LessonIds } from './lessons.js';
import { answerJsonSchema, DEFAULT_MAX_CANDIDATES, sha256 } from './prompt.js';
import { withRun } from '../runs.js';
import { validateAnswer } from './validate.js';

export const HANDOFF_TTL_MS = 7 * 86_400_000;

export type { Handoff } from '../records.js';

export interface PromptOnlyResult {
  handoff: Handoff;
  prompt: string;
  schema: Record<string, unknown>;
  counts: Pick<DistillCounts, 'gathered' | 'eligible' | 'leftOutByCount' | 'leftOutByBudget'>;
  /** The redaction policy for a handoff (under `auto` it always applies: a person may paste the prompt anywhere). */
  redaction: RedactionReport;
  /** The reviewers' decisions the prompt teaches (lessons.ts): candidate ids only, and their characters. */
  lessons: LessonIds;
}

/** `rem rapid --prompt-only`: the same gather and prompt, recorded as a handoff for `rem ingest`. */
export async function createHandoff(
  store: StoreOps,
  options: DistillOptions & { ttlMs?: number; /** False: "nothing to distill" never names other agents (docs/mcp.md). */ nameOtherAgents?: boolean },
): Promise<PromptOnlyResult> {
  const focus = options.focus ?? 'lessons';
  const maxCandidates = options.maxCandidates ?? DEFAULT_MAX_CANDIDATES;
  const { gathered, lessons } = await gatherWithLessons(store, options);
  if (gathered.memories.length === 0) {
    // An agent with no memories at all while others have some: the usual cause is a missing agent, not the scope.
    const elsewhere = options.nameOtherAgents === false ? undefined : await elsewhereWarning(store, options.agentId, 'memories');
    throw new NotFoundError(
      'nothing_to_distill',
      elsewhere ? `no memories in scope to distill: ${elsewhere}` : 'no memories in scope to distill (widen the scope: an earlier since, or the scope all)',
      { details: { scope: options.scope ?? 'recent', ...(elsewhere ? { elsewhere } : {}) } },
    );
  }
  const { prompt, redactor, report } = await preparePrompt(gathered.memories, {
    focus,
    maxCandidates,
    redact: options.redact,
    destination: 'handoff',
    lessons,
  });
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
  // The map stays on the row (never printed), for `ingest` to put the values back.
  await store.handoffs.insert({ ...handoff, prompt, placeholders: redactor ? redactor.map() : null });
  const { gathered: count, eligible, leftOutByCount, leftOutByBudget } = gatherCounts(gathered);
  return {
    handoff,
    prompt,
    schema: answerJsonSchema(Object.keys(handoff.refs), maxCandidates),
    counts: { gathered: count, eligible, leftOutByCount, leftOutByBudget },
    redaction: report,
    lessons: lessonIds(lessons),
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
export async function ingest(store: Store, options: IngestOptions): Promise<DistillResult> {
  const handoff = await store.handoffs.get(options.agentId, options.handoffId);
  if (!handoff) throw new NotFoundError('handoff_not_found', `no handoff ${options.handoffId} for agent "${options.agentId}"`);
  const now = store.clock();
  if (Date.parse(handoff.expiresAt) <= now.getTime()) {
    throw new NotFoundError('handoff_expired', `handoff ${handoff.id} expired at ${handoff.expiresAt}; create a new handoff`, {
      details: { handoffId: handoff.id, expiresAt: handoff.expiresAt },
    });
  }
  if (handoff.ingestedAt) throw new ConflictError('handoff_ingested', `handoff ${handoff.id} was already ingested (run ${handoff.ingestRunId})`);
  const refs = handoff.refs;
  const counts: DistillCounts = {
    gathered: Object.keys(refs).length,
    eligible: Object.keys(refs).length,
    leftOutByCount: 0,
    leftOutByBudget: 0,
    staged: 0,
    skippedDuplicates: 0,
    skippedRejected: 0,
  };
  // A redacted handoff: its map puts the values back (what was sent, the prompt, tells copied text from a forgery).
  // Loaded here, not at the top: the redactor pulls in the recognisers, and every command's bundle reaches this module.
  const redactor = handoff.placeholders === null ? undefined : (await import('../facts/redact.js')).Redactor.fromMap(handoff.placeholders, handoff.prompt);
  if (redactor) Object.assign(counts, redactionRunCounts(redactor.counts()));
  const generatedBy = options.generatedBy?.trim() || 'external';
  return withRun(store, 'rem ingest', options.agentId, async (scope) => {
    Object.assign(scope.record, { counts, model: generatedBy });
    const reject = (rejection: AnswerRejection) => answerRejected(rejection, { fix: INGEST_FIX, details: { handoffId: handoff.id } });
    const found = extractJsonObject(options.answer);
    if (!found.ok) throw reject(found);
    let answer: unknown;
    try {
      answer = restoreAnswer(redactor, found.value);
    } catch (error) {
      if (error instanceof AnswerRejectedError) throw reject(error.rejection);
      throw error;
    }
    const verdict = validateAnswer(answer, { refs: Object.keys(refs), maxCandidates: handoff.maxCandidates });
    if (!verdict.ok) throw reject(verdict);
    // Between the handoff and its answer a cited memory may have been deleted or archived: fail closed (§2.2 real ids).
    const cited = [...new Set(verdict.candidates.flatMap((candidate) => candidate.sources.map((ref) => refs[ref]!)))];
    const live = new Set((await store.memories.getMany(options.agentId, cited)).filter((memory) => memory.archivedAt === null).map((memory) => memory.id));
    const gone = verdict.candidates.findIndex((candidate) => candidate.sources.some((ref) => !live.has(refs[ref]!)));
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
      prompt: handoff.prompt,
      restageRejected: options.restageRejected,
      alsoInTransaction: async (tx) => {
        // Guarded update: two concurrent ingests of one handoff cannot both stage.
        if (!(await tx.handoffs.markIngested(options.agentId, handoff.id, iso(now), scope.run.id))) {
          throw new ConflictError('handoff_ingested', `handoff ${handoff.id} was already ingested`);
        }
      },
    });
  });
}
