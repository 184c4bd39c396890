import type { Memory } from '../core/memory.js';
import type { Candidate } from '../core/rem/candidates.js';
import type { DistillResult, DryRunResult } from '../core/rem/distill.js';
import type { PromptOnlyResult } from '../core/rem/handoff.js';
import type { Promotion } from '../core/rem/review.js';
import type { Run } from '../core/rem/runs.js';
import { safeText } from '../core/text.js';
import { cut, shortDate, type Painter, type TextContext, type TextView, type View } from './output.js';

export function age(isoTime: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.round((now - Date.parse(isoTime)) / 60_000));
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.round(hours / 24)}d`;
}

/** One line of text, guarded: for ids, model names and agent names inside a line. */
const inline = (text: string) => safeText(text, { lines: 'join' });

export function candidateLine(candidate: Candidate, paint: Painter, width: number): string {
  const forgotten = candidate.forgottenSourceIds.length > 0 ? ` (${candidate.forgottenSourceIds.length} forgotten)` : '';
  const head = `${candidate.id}  ${candidate.status.padEnd(8)} ${age(candidate.generatedAt).padStart(4)}  ${candidate.sourceMemoryIds.length} src${forgotten}  `;
  return `${paint('bold', candidate.id)}${head.slice(candidate.id.length)}${cut(candidate.claim, Math.max(20, width - head.length))}`;
}

/** `rem show`: the claim, its status, model and run, then the full text of every cited memory. */
export function candidateDetail(candidate: Candidate, sources: Memory[], paint: Painter): string {
  const found = new Map(sources.map((memory) => [memory.id, memory]));
  const head = [
    ['id', candidate.id],
    ['status', candidate.status + (candidate.decidedAt ? ` (${candidate.decidedAt} by ${candidate.reviewer ?? '?'})` : '')],
    ['reason', candidate.reviewRationale],
    ['model', `${candidate.generatedBy} (${candidate.provider})`],
    ['run', candidate.runId],
    ['generated', candidate.generatedAt],
    ['tags', candidate.tags.join(', ') || null],
    ['promoted to', candidate.promotedMemoryId],
    ['edited claim', candidate.editedClaim],
    ['reopened', candidate.reopenedAt ? `${candidate.reopenedAt} by ${candidate.reopenedBy ?? '?'}: ${candidate.reopenReason ?? ''}` : null],
    ['forgotten', candidate.forgottenSourceIds.length > 0 ? `${candidate.forgottenSourceIds.join(', ')} (memory forget: their text is gone)` : null],
  ]
    .filter(([, value]) => value)
    .map(([label, value]) => `${paint('dim', label!.padEnd(12))} ${safeText(value!)}`);
  const cited = candidate.sourceMemoryIds.map((id, index) => {
    const memory = found.get(id);
    const title = `[${index + 1}] ${inline(id)}`;
    if (!memory) {
      const gone = candidate.forgottenSourceIds.includes(id) ? '(forgotten: its text is gone)' : '(no longer in the database)';
      return `${paint('bold', title)}  ${paint('red', gone)}`;
    }
    return `${paint('bold', title)}  ${paint('dim', shortDate(memory.createdAt))}${memory.archivedAt ? paint('dim', ' (archived)') : ''}\n${safeText(memory.content)}`;
  });
  return [
    `${paint('bold', 'claim')}\n${safeText(candidate.claim)}`,
    head.join('\n'),
    `${paint('bold', `cited memories (${candidate.sourceMemoryIds.length})`)}`,
    ...cited,
  ].join('\n\n');
}

export function runLine(run: Run): string {
  const counts = Object.entries(run.counts)
    .filter(([, value]) => value)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  const parent = run.parentRunId ? `  (part of ${run.parentRunId})` : '';
  const errors = run.errors.length ? `  errors: ${inline(run.errors.join(', '))}` : '';
  return `${run.id}  ${shortDate(run.startedAt)}  ${run.kind.padEnd(20)} ${run.status.padEnd(9)} ${inline(run.agentId ?? '*')}  ${counts}${errors}${parent}`;
}

export function candidatesView(status: string): TextView<{ candidates: Candidate[] }> {
  return ({ candidates }, { paint, width }) =>
    candidates.length === 0
      ? `no ${status === 'all' ? '' : `${status} `}candidates`
      : candidates.map((candidate) => candidateLine(candidate, paint, width)).join('\n');
}

export const candidateShowView: TextView<{ candidate: Candidate; sources: Memory[] }> = ({ candidate, sources }, { paint }) =>
  candidateDetail(candidate, sources, paint);

/** The staged candidates, one line each, and where to review them. */
function stagedLines(candidates: readonly Candidate[], { paint, width }: TextContext): string[] {
  return [
    ...candidates.map((candidate) => `${paint('bold', candidate.id)} ${cut(candidate.claim, Math.max(20, width - candidate.id.length - 1))}`),
    ...(candidates.length > 0 ? [paint('dim', 'review: hippo rem candidates')] : []),
  ];
}

/** The JSON document of a distillation and of an ingest: the run, the model, what was staged, the counts. */
const distillJson = ({ run, model, candidates, counts }: DistillResult) => ({ run, model, candidates, counts });

/** `rem rapid`. */
export const distillView: View<DistillResult> = {
  json: distillJson,
  text: (result, context) => {
    const { counts } = result;
    const leftOut = counts.leftOutByCount + counts.leftOutByBudget;
    return [
      `model ${inline(result.model ?? 'none')} · gathered ${counts.gathered} · staged ${counts.staged} · skipped ${counts.skippedDuplicates} duplicate, ${counts.skippedRejected} previously rejected${leftOut > 0 ? ` · ${leftOut} left out by the caps` : ''}`,
      ...stagedLines(result.candidates, context),
    ].join('\n');
  },
};

/** `rem ingest`. */
export function ingestView(handoffId: string): View<DistillResult> {
  return {
    json: distillJson,
    text: (result, context) =>
      [
        `ingested ${inline(handoffId)} · staged ${result.counts.staged} · skipped ${result.counts.skippedDuplicates} duplicate, ${result.counts.skippedRejected} previously rejected`,
        ...stagedLines(result.candidates, context),
      ].join('\n'),
  };
}

/** `rem rapid --dry-run`. */
export const distillDryRunView: TextView<DryRunResult> = (result) =>
  [
    `would send ${result.counts.gathered} memories (${result.promptChars} prompt characters); ${result.counts.eligible} in scope, ${result.counts.leftOutByCount + result.counts.leftOutByBudget} left out by the caps`,
    ...result.refs.map((ref) => `  ${ref.ref.padEnd(4)} ${ref.memoryId}${ref.truncated ? ' (truncated)' : ''}`),
  ].join('\n');

/**
 * `rem rapid --prompt-only`: the prompt alone on stdout (ready to pipe to any LLM; it is built from stored memories,
 * which the guard makes safe to show), what to do next on stderr.
 */
export const handoffView: View<PromptOnlyResult> = {
  json: ({ handoff, prompt, schema }) => ({ handoff, prompt, schema }),
  text: ({ prompt }) => `${safeText(prompt)}\n`,
  notes: ({ handoff, counts }, json) => [
    !json &&
      `handoff ${handoff.id}: ${counts.gathered} memories, expires ${handoff.expiresAt}\nsend the prompt above to any LLM, save its answer, then:\n  hippo rem ingest ${handoff.id} answer.json`,
  ],
};

export const promoteView: TextView<{ promoted: Promotion[] }> = ({ promoted }) =>
  promoted.map(({ candidate, memory }) => `promoted ${candidate.id} → ${memory.id} (${memory.durability})`).join('\n');

export const rejectView: TextView<{ rejected: Candidate[] }> = ({ rejected }) => rejected.map((candidate) => `rejected ${candidate.id}`).join('\n');

export const runsView: TextView<{ runs: Run[] }> = ({ runs }) => (runs.length === 0 ? 'no runs yet' : runs.map(runLine).join('\n'));

/** `rem runs show`: one field a line; objects as JSON. Values come from the store (a model id, an agent): guarded. */
export const runShowView: TextView<{ run: Run }> = ({ run }) =>
  Object.entries(run)
    .map(([key, value]) => `${key.padEnd(13)} ${inline(typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value ?? ''))}`)
    .join('\n');
