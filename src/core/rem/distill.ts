/**
 * `rem rapid` (docs/design.md §4): gather → prompt → ask the model → commit the staging, with a run row whatever the
 * outcome. Handoffs (`--prompt-only`) and `rem ingest` live in handoff.ts and share the commit.
 */
import type { Redactor } from '../facts/redact.js';
import { answerRejected, AnswerRejectedError, isMalformed, type AnswerRejection } from '../model/answer-problem.js';
import type { ModelClient } from '../model/client.js';
import { modelNotConfigured } from '../model/errors.js';
import { requireCount } from '../limits.js';
import type { RedactMode } from '../config-values.js';
import {
  assertNothingLeft,
  destinationOf,
  redactionReport,
  redactionRunCounts,
  redactorFor,
  resolveRedaction,
  type Destination,
  type RedactionReport,
} from '../redaction.js';
import type { Store, StoreOps } from '../store/port.js';
import { stageCandidates, stampReflected, type Candidate, type RejectedMatch } from './candidates.js';
import { DEFAULT_CHAR_BUDGET, gather, TRUNCATION_MARKER, type GatheredMemory, type GatherOptions, type GatherResult } from './gather.js';
import { lessonIds, loadLessons, NO_LESSONS, type LessonIds, type Lessons } from './lessons.js';
import { answerJsonSchema, buildPrompt, DEFAULT_MAX_CANDIDATES, MAX_CANDIDATES, sha256, type Focus } from './prompt.js';
import { withRun, type Run, type RunCounts, type RunKind, type RunScope } from '../runs.js';
import { validateAnswer, type ValidCandidate } from './validate.js';

/** §4.3: low temperature and a bounded answer. */
export const TEMPERATURE = 0.2;
export const MAX_OUTPUT_TOKENS = 4096;

export interface DistillOptions extends GatherOptions {
  focus?: Focus;
  maxCandidates?: number;
  restageRejected?: boolean;
  signal?: AbortSignal;
  /** Which audit kind to record (nightly distills through here too). */
  kind?: RunKind;
  /** The nightly run this distillation is part of (recorded on its run row). */
  parentRunId?: string;
  /** The caller's redaction mode (docs/redaction.md); omitted: config `redact`, else `auto`. */
  redact?: RedactMode;
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
  /** The claims counted in `counts.skippedRejected`: the rejection each repeated, word for word or reworded. */
  rejectedMatches: RejectedMatch[];
}

export interface DryRunResult {
  dryRun: true;
  refs: { ref: string; memoryId: string; truncated: boolean }[];
  promptChars: number;
  counts: Pick<DistillCounts, 'gathered' | 'eligible' | 'leftOutByCount' | 'leftOutByBudget'>;
  /** The redaction policy in force for where the prompt would go, and what it would replace (counts per kind). */
  redaction: RedactionReport;
  /** The reviewers' decisions the prompt would teach (lessons.ts): candidate ids only, and their characters. */
  lessons: LessonIds;
}

/** A prompt as it would be sent: redacted when the policy says so for its destination. */
export interface PreparedPrompt {
  prompt: string;
  /** Present when redaction applied: it holds the map to put the values back (kept in memory, never printed). */
  redactor?: Redactor;
  report: RedactionReport;
}

/**
 * Builds the prompt for `destination` under the redaction policy (docs/redaction.md): with redaction, each memory's
 * text is redacted by one redactor (the same value is the same placeholder throughout) and the prompt tells the model
 * to copy placeholders verbatim.
 */
export async function preparePrompt(
  memories: readonly GatheredMemory[],
  options: { focus: Focus; maxCandidates: number; redact?: RedactMode; destination: Destination | 'none'; lessons?: Lessons },
): Promise<PreparedPrompt> {
  const policy = resolveRedaction({ mode: options.redact });
  const redactor = await redactorFor(policy, options.destination);
  const shown = redactor ? memories.map((item) => ({ ...item, text: redactedText(redactor, item) })) : memories;
  // The reviewers' decisions go through the same redactor: a value in a rejected claim, a reason or a rewording gets
  // the same placeholder as in the memories.
  const lessons = options.lessons ?? NO_LESSONS;
  const hide = (text: string) => (redactor ? redactor.redact(text).text : text);
  const taught = {
    rejected: lessons.rejected.map((lesson) => ({ claim: hide(lesson.claim), reason: hide(lesson.reason) })),
    edited: lessons.edited.map((lesson) => ({ claim: hide(lesson.claim), editedClaim: hide(lesson.editedClaim) })),
  };
  // The second line of defence: a value still there after the placeholders went in stops the request (exit 9).
  assertNothingLeft(redactor);
  const prompt = buildPrompt({
    focus: options.focus,
    memories: shown,
    maxCandidates: options.maxCandidates,
    placeholderExample: redactor?.firstPlaceholder(),
    lessons: taught,
  });
  return { prompt, ...(redactor ? { redactor } : {}), report: redactionReport(policy, options.destination, redactor) };
}

/**
 * A gathered memory's text, redacted. A memory clipped for the prompt is redacted from its content, so a value the
 * clip would cut in two is recognised whole and left out rather than sent in part.
 */
function redactedText(redactor: Redactor, item: GatheredMemory): string {
  if (!item.truncated) return redactor.redact(item.text).text;
  const cut = item.text.length - TRUNCATION_MARKER.length;
  // The values that could straddle the cut are far shorter than this window (an email is at most 254 characters).
  return redactor.redact(item.memory.content.slice(0, cut + 256), { cutAt: cut }).text + TRUNCATION_MARKER;
}

/** The answer with the redacted values put back, or the rejection `unknown_placeholder` (the whole answer). */
export function restoreAnswer(redactor: Redactor | undefined, value: unknown): unknown {
  if (!redactor) return value;
  const restored = redactor.restore(value);
  if (!restored.ok) {
    throw answerRejected({ reason: 'unknown_placeholder', message: 'the answer uses a placeholder that was never issued, or a mangled one' });
  }
  return restored.value;
}

export function gatherCounts(gathered: GatherResult): DistillCounts {
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

/**
 * The reviewers' recent decisions for the prompt (lessons.ts) and the memories gathered within what they leave of the
 * character budget: a prompt with lessons carries as many characters as one without.
 */
export async function gatherWithLessons(store: StoreOps, options: GatherOptions): Promise<{ gathered: GatherResult; lessons: Lessons }> {
  const budget = options.charBudget ?? DEFAULT_CHAR_BUDGET;
  const lessons = await loadLessons(store, options.agentId, budget);
  const gathered = await gather(store, lessons.chars === 0 ? options : { ...options, charBudget: budget - lessons.chars });
  return { gathered, lessons };
}

/** `rem rapid --dry-run`: what would be sent, without a model call or a single write. */
export async function distillDryRun(store: StoreOps, options: DistillOptions & { destination?: Destination | 'none' }): Promise<DryRunResult> {
  const { gathered, lessons } = await gatherWithLessons(store, options);
  const { prompt, report } = await preparePrompt(gathered.memories, {
    focus: options.focus ?? 'lessons',
    maxCandidates: options.maxCandidates ?? DEFAULT_MAX_CANDIDATES,
    redact: options.redact,
    destination: options.destination ?? 'none',
    lessons,
  });
  const { gathered: count, eligible, leftOutByCount, leftOutByBudget } = gatherCounts(gathered);
  if (!report.applies) {
    // Off for this destination: still say what it would replace, so the choice is an informed one.
    const counter = await redactorFor({ ...resolveRedaction({ mode: options.redact }), mode: 'always' }, 'none');
    for (const item of gathered.memories) counter?.redact(item.text);
    for (const lesson of lessons.rejected) for (const text of [lesson.claim, lesson.reason]) counter?.redact(text);
    for (const lesson of lessons.edited) for (const text of [lesson.claim, lesson.editedClaim]) counter?.redact(text);
    report.counts = counter?.counts() ?? {};
  }
  return {
    dryRun: true,
    refs: gathered.memories.map((item) => ({ ref: item.ref, memoryId: item.memory.id, truncated: item.truncated })),
    promptChars: prompt.length,
    counts: { gathered: count, eligible, leftOutByCount, leftOutByBudget },
    redaction: report,
    lessons: lessonIds(lessons),
  };
}

/** The retry note names what was wrong in fixed words (never echoing the answer). */
function retryPrompt(prompt: string, rejection: AnswerRejection): string {
  return `${prompt}\n\nYour previous answer was rejected because ${rejection.message}. Answer again with only the JSON object described above, and nothing else.`;
}

/**
 * Asks the model for §4.3's answer and validates it per §4.4. The one place that decides the single retry: a
 * malformed answer (`isMalformed`: no usable JSON or the wrong shape, whichever layer found it) is asked again once,
 * in plain JSON mode, with the problem named; a rule broken by a well-formed answer, an over-cap response, a transport
 * error or a timeout is not. Every rejection ends as the same error: `model_output_invalid` with `details.reason`.
 */
async function askModel(
  client: ModelClient,
  prompt: string,
  refs: string[],
  maxCandidates: number,
  signal: AbortSignal | undefined,
  redactor?: Redactor,
): Promise<{ candidates: ValidCandidate[]; model: string; prompt: string }> {
  const jsonSchema = answerJsonSchema(refs, maxCandidates);
  let sent = prompt;
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await client.generateObject({
        prompt: sent,
        jsonSchema,
        schemaName: 'candidates',
        mode: attempt === 0 ? 'schema' : 'json',
        maxOutputTokens: MAX_OUTPUT_TOKENS,
        temperature: TEMPERATURE,
        signal,
      });
      // The values go back in before validation (a claim's length counts with them), and an unissued placeholder
      // rejects the whole answer.
      const verdict = validateAnswer(restoreAnswer(redactor, answer.value), { refs, maxCandidates });
      if (!verdict.ok) throw answerRejected(verdict);
      // The candidates keep the prompt that produced them: after a retry, that is the retry prompt (§2.2).
      return { candidates: verdict.candidates, model: answer.model, prompt: sent };
    } catch (error) {
      if (attempt > 0 || !(error instanceof AnswerRejectedError) || !isMalformed(error.rejection.reason)) throw error;
      sent = retryPrompt(prompt, error.rejection);
    }
  }
}

/**
 * `rem rapid`: gather → prompt → model → validate → stage, with a run row whatever the outcome. Candidates, the run's
 * final row and the `lastReflectedAt` stamps land in one transaction, so a failure or crash leaves none of them.
 */
export async function distill(store: Store, client: ModelClient | undefined, options: DistillOptions): Promise<DistillResult> {
  const focus = options.focus ?? 'lessons';
  const maxCandidates = options.maxCandidates ?? DEFAULT_MAX_CANDIDATES;
  requireCount(maxCandidates, 'maxCandidates', { min: 1, max: MAX_CANDIDATES });
  const { gathered, lessons } = await gatherWithLessons(store, options);
  const counts = gatherCounts(gathered);
  const configured = client?.config.model ?? null;
  return withRun(
    store,
    options.kind ?? 'rem rapid',
    options.agentId,
    async (scope): Promise<DistillResult> => {
      Object.assign(scope.record, { counts, model: configured });
      if (!client) throw modelNotConfigured();
      if (gathered.memories.length === 0) {
        // Nothing to learn from is not an error: the run completes with zero candidates and no model call.
        return { run: await scope.finish({ status: 'completed', counts, model: configured }), model: configured, candidates: [], counts, rejectedMatches: [] };
      }
      const { prompt, redactor } = await preparePrompt(gathered.memories, {
        focus,
        maxCandidates,
        redact: options.redact,
        destination: destinationOf(client.config),
        lessons,
      });
      // How many decisions the prompt taught (numbers only, never their text).
      Object.assign(counts, { lessonsRejected: lessons.rejected.length, lessonsEdited: lessons.edited.length });
      // The audit: how many values of each kind were replaced (numbers only), on the row however the run ends.
      if (redactor) Object.assign(counts, redactionRunCounts(redactor.counts()));
      const refs = gathered.memories.map((item) => item.ref);
      const answer = await askModel(client, prompt, refs, maxCandidates, options.signal, redactor);
      scope.record.model = answer.model;
      const idByRef = new Map(gathered.memories.map((item) => [item.ref, item.memory.id]));
      return commitStaging(store, scope, {
        counts,
        agentId: options.agentId,
        candidates: answer.candidates.map((candidate) => ({ ...candidate, sourceMemoryIds: candidate.sources.map((ref) => idByRef.get(ref)!) })),
        gatheredIds: gathered.memories.map((item) => item.memory.id),
        generatedBy: answer.model,
        provider: client.config.provider,
        prompt: answer.prompt,
        restageRejected: options.restageRejected,
      });
    },
    { parentRunId: options.parentRunId, signal: options.signal },
  );
}

export interface CommitInput {
  counts: DistillCounts;
  agentId: string;
  candidates: { claim: string; sourceMemoryIds: string[]; tags: string[] }[];
  gatheredIds: string[];
  generatedBy: string;
  provider: string;
  prompt: string;
  restageRejected?: boolean;
  /** Runs inside the same transaction, with its handle (marks a handoff ingested). */
  alsoInTransaction?: (tx: StoreOps) => Promise<void>;
}

/**
 * §4.5, shared by `rem rapid` and `rem ingest`: stages the candidates, stamps the gathered memories and finishes the
 * run's row in one transaction, so they land together or not at all (a failure is then recorded by the run scope).
 */
export async function commitStaging(store: Store, scope: RunScope, input: CommitInput): Promise<DistillResult> {
  return store.transaction(async (tx) => {
    await input.alsoInTransaction?.(tx);
    const result = await stageCandidates(tx, {
      agentId: input.agentId,
      runId: scope.run.id,
      candidates: input.candidates,
      generatedBy: input.generatedBy,
      provider: input.provider,
      prompt: input.prompt,
      promptSha256: sha256(input.prompt),
      restageRejected: input.restageRejected,
    });
    await stampReflected(tx, input.agentId, input.gatheredIds);
    const counts: DistillCounts = {
      ...input.counts,
      staged: result.staged.length,
      skippedDuplicates: result.skippedDuplicates,
      skippedRejected: result.skippedRejected,
    };
    const run = await scope.finish(
      {
        status: 'completed',
        counts,
        candidateIds: result.staged.map((candidate) => candidate.id),
        model: input.generatedBy,
      },
      tx,
    );
    return { run, model: input.generatedBy, candidates: result.staged, counts, rejectedMatches: result.rejectedMatches };
  });
}
