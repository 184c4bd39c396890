import { z } from 'zod';
import { ConflictError, HippoError, ModelOutputError, NotFoundError, UsageError } from '../errors.js';
import { newId } from '../ids.js';
import { modelNotConfigured, REASON_TEXT, type ModelOutputReason } from '../model/errors.js';
import { extractJsonObject } from '../model/json.js';
import type { ModelClient } from '../model/client.js';
import { inTransaction, prepared, type Store } from '../store/store.js';
import { iso } from '../time.js';
import { stageCandidates, stampReflected, type Candidate } from './candidates.js';
import { gather, type GatherOptions, type GatherResult } from './gather.js';
import { answerJsonSchema, buildPrompt, DEFAULT_MAX_CANDIDATES, sha256, type Focus } from './prompt.js';
import { finishRun, startRun, type Run, type RunCounts, type RunKind } from './runs.js';
import { MALFORMED, validateAnswer, type RejectionCode, type ValidCandidate } from './validate.js';

/** §4.3: low temperature and a bounded answer. */
export const TEMPERATURE = 0.2;
export const MAX_OUTPUT_TOKENS = 4096;
export const HANDOFF_TTL_MS = 7 * 86_400_000;

export interface DistillOptions extends GatherOptions {
  focus?: Focus;
  maxCandidates?: number;
  restageRejected?: boolean;
  signal?: AbortSignal;
  /** Which audit kind to record (nightly distils through here too). */
  kind?: RunKind;
  /** The nightly run this distillation is part of (recorded on its run row). */
  parentRunId?: string;
}

export interface DistillCounts extends RunCounts {
  gathered: number;
  eligible: number;
  leftOutByCount: number;
  leftOutByBudget: number;
  staged: number;
  skippedDuplicates: number;
  skippedRejected: number;
}

export interface DistillResult {
  run: Run;
  model: string | null;
  candidates: Candidate[];
  counts: DistillCounts;
}

export interface DryRunResult {
  dryRun: true;
  refs: { ref: string; memoryId: string; truncated: boolean }[];
  promptChars: number;
  counts: Pick<DistillCounts, 'gathered' | 'eligible' | 'leftOutByCount' | 'leftOutByBudget'>;
}

function gatherCounts(gathered: GatherResult): DistillCounts {
  return {
    gathered: gathered.memories.length,
    eligible: gathered.eligible,
    leftOutByCount: gathered.leftOut.byCount,
    leftOutByBudget: gathered.leftOut.byBudget,
    staged: 0,
    skippedDuplicates: 0,
    skippedRejected: 0,
  };
}

/** `rem rapid --dry-run`: what would be sent, without a model call or a single write. */
export function distillDryRun(store: Store, options: DistillOptions): DryRunResult {
  const gathered = gather(store, options);
  const prompt = buildPrompt({ focus: options.focus ?? 'lessons', memories: gathered.memories, maxCandidates: options.maxCandidates });
  const { gathered: count, eligible, leftOutByCount, leftOutByBudget } = gatherCounts(gathered);
  return {
    dryRun: true,
    refs: gathered.memories.map((item) => ({ ref: item.ref, memoryId: item.memory.id, truncated: item.truncated })),
    promptChars: prompt.length,
    counts: { gathered: count, eligible, leftOutByCount, leftOutByBudget },
  };
}

/** The retry note names what was wrong in fixed words (the model layer's), never echoing the answer. */
function retryPrompt(prompt: string, reason: string): string {
  const why = REASON_TEXT[reason as ModelOutputReason] ?? 'it was malformed';
  return `${prompt}\n\nYour previous answer was rejected because ${why}. Answer again with only the JSON object described above, and nothing else.`;
}

function rejection(code: RejectionCode | string, message: string): ModelOutputError {
  return new ModelOutputError(code, `the model's answer was rejected (${code}): ${message}. Nothing was staged.`);
}

/**
 * Calls the model for §4.3 and validates per §4.4: one retry in plain JSON mode when the answer is malformed
 * (unparseable or the wrong shape), none for transport errors or semantic rejections, which fail closed.
 */
async function askModel(
  client: ModelClient,
  prompt: string,
  refs: string[],
  maxCandidates: number,
  signal: AbortSignal | undefined,
): Promise<{ candidates: ValidCandidate[]; model: string; prompt: string }> {
  const jsonSchema = answerJsonSchema(refs, maxCandidates);
  let lastReason = '';
  for (const attempt of [0, 1] as const) {
    let value: unknown;
    let model: string;
    const sent = attempt === 0 ? prompt : retryPrompt(prompt, lastReason);
    try {
      const answer = await client.generateObject({
        prompt: sent,
        schema: z.unknown(),
        jsonSchema,
        schemaName: 'candidates',
        mode: attempt === 0 ? 'schema' : 'json',
        maxOutputTokens: MAX_OUTPUT_TOKENS,
        temperature: TEMPERATURE,
        signal,
      });
      value = answer.value;
      model = answer.model;
    } catch (error) {
      const reason = (error as HippoError).details?.reason;
      const malformed = error instanceof HippoError && error.code === 'model_output_invalid' && typeof reason === 'string';
      if (malformed && attempt === 0) {
        lastReason = reason;
        continue;
      }
      throw error;
    }
    const verdict = validateAnswer(value, { refs, maxCandidates });
    // The candidates keep the prompt that produced them: after a retry, that is the retry prompt (SPEC §2.2).
    if (verdict.ok) return { candidates: verdict.candidates, model, prompt: sent };
    if (MALFORMED.has(verdict.code) && attempt === 0) {
      lastReason = verdict.code;
      continue;
    }
    throw rejection(verdict.code, verdict.message);
  }
  throw rejection(lastReason || 'invalid_json', 'the answer stayed malformed after one retry');
}

function failRun(store: Store, run: Run, counts: DistillCounts, error: unknown, model: string | null): void {
  const code = error instanceof HippoError ? error.code : 'unexpected';
  finishRun(store, run, { status: 'failed', counts, errors: [code], model });
}

/**
 * `rem rapid`: gather → prompt → model → validate → stage, with a run row whatever the outcome. Candidates, the run's
 * final row and the `lastReflectedAt` stamps land in one transaction, so a failure or crash leaves none of them.
 */
export async function distill(store: Store, client: ModelClient | undefined, options: DistillOptions): Promise<DistillResult> {
  const focus = options.focus ?? 'lessons';
  const maxCandidates = options.maxCandidates ?? DEFAULT_MAX_CANDIDATES;
  if (!Number.isInteger(maxCandidates) || maxCandidates < 1) throw new UsageError('bad_max_candidates', '--max-candidates must be a whole number ≥ 1');
  const gathered = gather(store, options);
  const counts = gatherCounts(gathered);
  const run = startRun(store, options.kind ?? 'rem rapid', options.agentId, { parentRunId: options.parentRunId });
  const configured = client?.config.model ?? null;
  if (!client) {
    failRun(store, run, counts, modelNotConfigured(), null);
    throw modelNotConfigured();
  }
  if (gathered.memories.length === 0) {
    // Nothing to learn from is not an error: the run completes with zero candidates and no model call.
    const done = finishRun(store, run, { status: 'completed', counts, model: configured });
    return { run: done, model: configured, candidates: [], counts };
  }
  const prompt = buildPrompt({ focus, memories: gathered.memories, maxCandidates });
  const refs = gathered.memories.map((item) => item.ref);
  let answer: { candidates: ValidCandidate[]; model: string; prompt: string };
  try {
    answer = await askModel(client, prompt, refs, maxCandidates, options.signal);
  } catch (error) {
    failRun(store, run, counts, error, configured);
    throw error;
  }
  const idByRef = new Map(gathered.memories.map((item) => [item.ref, item.memory.id]));
  return commitStaging(store, {
    run,
    counts,
    agentId: options.agentId,
    candidates: answer.candidates.map((candidate) => ({ ...candidate, sourceMemoryIds: candidate.sources.map((ref) => idByRef.get(ref)!) })),
    gatheredIds: gathered.memories.map((item) => item.memory.id),
    generatedBy: answer.model,
    provider: client.config.provider,
    prompt: answer.prompt,
    restageRejected: options.restageRejected,
  });
}

interface CommitInput {
  run: Run;
  counts: DistillCounts;
  agentId: string;
  candidates: { claim: string; sourceMemoryIds: string[]; tags: string[] }[];
  gatheredIds: string[];
  generatedBy: string;
  provider: string;
  prompt: string;
  restageRejected?: boolean;
  /** Runs inside the same transaction (marks a handoff ingested). */
  alsoInTransaction?: () => void;
}

function commitStaging(store: Store, input: CommitInput): DistillResult {
  try {
    return inTransaction(store, () => {
      input.alsoInTransaction?.();
      const result = stageCandidates(store, {
        agentId: input.agentId,
        runId: input.run.id,
        candidates: input.candidates,
        generatedBy: input.generatedBy,
        provider: input.provider,
        prompt: input.prompt,
        promptSha256: sha256(input.prompt),
        restageRejected: input.restageRejected,
      });
      stampReflected(store, input.gatheredIds);
      const counts: DistillCounts = {
        ...input.counts,
        staged: result.staged.length,
        skippedDuplicates: result.skippedDuplicates,
        skippedRejected: result.skippedRejected,
      };
      const run = finishRun(store, input.run, {
        status: 'completed',
        counts,
        candidateIds: result.staged.map((candidate) => candidate.id),
        model: input.generatedBy,
      });
      return { run, model: input.generatedBy, candidates: result.staged, counts };
    });
  } catch (error) {
    failRun(store, input.run, input.counts, error, input.generatedBy);
    throw error;
  }
}

/** SPEC §2.4. */
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
    throw new NotFoundError('nothing_to_distil', 'no memories in scope to distil (try --since 7d or --scope all)');
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

export interface IngestOptions {
  agentId: string;
  handoffId: string;
  /** The external LLM's answer: surrounding prose and code fences are tolerated; exactly one JSON object must be found. */
  answer: string;
  /** Recorded as the candidates' `generatedBy` (default `external`). */
  generatedBy?: string;
  restageRejected?: boolean;
}

/** `rem ingest` (§4.6): verified against the handoff's refs and staged exactly as `rem rapid` would. */
export function ingest(store: Store, options: IngestOptions): DistillResult {
  const row = prepared(store, 'SELECT * FROM handoffs WHERE id = ? AND agent_id = ?').get(options.handoffId, options.agentId) as HandoffRow | undefined;
  if (!row) throw new NotFoundError('handoff_not_found', `no handoff ${options.handoffId} for agent "${options.agentId}"`);
  const now = store.clock();
  if (Date.parse(row.expires_at) <= now.getTime()) {
    throw new NotFoundError('handoff_expired', `handoff ${row.id} expired at ${row.expires_at}; run hippo rem rapid --prompt-only again`);
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
  const run = startRun(store, 'rem ingest', options.agentId);
  const generatedBy = options.generatedBy?.trim() || 'external';
  const found = extractJsonObject(options.answer);
  const verdict = found.ok
    ? validateAnswer(found.value, { refs: Object.keys(refs), maxCandidates: row.max_candidates })
    : ({
        ok: false,
        code: 'invalid_json',
        message: found.reason === 'multiple_json_objects' ? 'the answer holds more than one JSON object' : 'no JSON object was found in the answer',
      } as const);
  if (!verdict.ok) {
    const error = rejection(verdict.code, verdict.message);
    failRun(store, run, counts, error, generatedBy);
    throw error;
  }
  // Between the handoff and its answer a cited memory may have been deleted or archived: fail closed (§2.2 real ids).
  const live = prepared(store, 'SELECT 1 FROM memories WHERE id = ? AND agent_id = ? AND archived_at IS NULL').pluck();
  const gone = verdict.candidates.findIndex((candidate) => candidate.sources.some((ref) => !live.get(refs[ref], options.agentId)));
  if (gone >= 0) {
    const error = rejection('source_unavailable', `candidate ${gone} cites a memory deleted or archived since the handoff`);
    failRun(store, run, counts, error, generatedBy);
    throw error;
  }
  return commitStaging(store, {
    run,
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
        run.id,
        row.id,
      );
      if (marked.changes !== 1) throw new ConflictError('handoff_ingested', `handoff ${row.id} was already ingested`);
    },
  });
}
