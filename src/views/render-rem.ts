import type { Memory } from '../core/memory/memory.js';
import type { Candidate } from '../core/rem/candidates.js';
import type { DistillResult, DryRunResult } from '../core/rem/distill.js';
import type { PromptOnlyResult } from '../core/rem/handoff.js';
import type { Promotion } from '../core/rem/review.js';
import type { Run } from '../core/runs.js';
import { safeText } from '../core/text-guard.js';
import type { Hint } from './hints.js';
import { redactionLine } from './render-redaction.js';
import { cut, table, timeColumn, type Column, type TextContext, type TextView, type View } from './output.js';
import { shownNote } from './hints.js';

export function age(isoTime: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.round((now - Date.parse(isoTime)) / 60_000));
  if (minutes < 1) return '<1m';
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.round(hours / 24)}d`;
}

/** One line of text, guarded: for ids, model names and agent names inside a line. */
const inline = (text: string) => safeText(text, { lines: 'join' });

const CANDIDATE_COLUMNS: Column[] = [
  { header: 'ID', style: 'bold' },
  { header: 'STATUS' },
  { header: 'AGE', align: 'right', optional: true },
  { header: 'SOURCES', align: 'right', optional: true },
  { header: 'CLAIM', flex: true },
];

/** `rem candidates` off the review screen: id, status, age, how many memories it cites, and the claim. */
export function candidateTable(candidates: readonly Candidate[], context: TextContext): string {
  const rows = candidates.map((candidate) => [
    candidate.id,
    candidate.status,
    `${age(candidate.generatedAt)} ago`,
    `${candidate.sourceMemoryIds.length} cited${candidate.forgottenSourceIds.length > 0 ? ` (${candidate.forgottenSourceIds.length} forgotten)` : ''}`,
    safeText(candidate.claim, { lines: 'join' }),
  ]);
  return table(CANDIDATE_COLUMNS, rows, context);
}

/** `rem show`: the claim, its status, model and run, then the full text of every cited memory. */
export function candidateDetail(candidate: Candidate, sources: Memory[], { paint, time }: Pick<TextContext, 'paint' | 'time'>): string {
  const found = new Map(sources.map((memory) => [memory.id, memory]));
  const head = [
    ['id', candidate.id],
    ['status', candidate.status + (candidate.decidedAt ? ` (${time(candidate.decidedAt)} by ${candidate.reviewer ?? '?'})` : '')],
    ['reason', candidate.reviewRationale],
    ['model', `${candidate.generatedBy} (${candidate.provider})`],
    ['run', candidate.runId],
    ['generated', time(candidate.generatedAt)],
    ['tags', candidate.tags.join(', ') || null],
    ['promoted to', candidate.promotedMemoryId],
    ['edited claim', candidate.editedClaim],
    ['reopened', candidate.reopenedAt ? `${time(candidate.reopenedAt)} by ${candidate.reopenedBy ?? '?'}: ${candidate.reopenReason ?? ''}` : null],
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
    return `${paint('bold', title)}  ${paint('dim', time(memory.createdAt))}${memory.archivedAt ? paint('dim', ' (archived)') : ''}\n${safeText(memory.content)}`;
  });
  return [
    `${paint('bold', 'claim')}\n${safeText(candidate.claim)}`,
    head.join('\n'),
    `${paint('bold', `cited memories (${candidate.sourceMemoryIds.length})`)}`,
    ...cited,
  ].join('\n\n');
}

/** A run's non-zero counts, as words: `gathered 12 · staged 3`. */
function countWords(run: Run): string {
  return Object.entries(run.counts)
    .filter(([, value]) => value)
    .map(([key, value]) => `${key} ${value}`)
    .join(' · ');
}

/** `rem runs`: one row per run; the parent run and errors before the counts. */
export function runTable(runs: readonly Run[], context: TextContext): string {
  const started = timeColumn(
    'STARTED',
    runs.map((run) => run.startedAt),
    context,
  );
  // A narrow terminal keeps the id and the status longest: the agent goes first, then the counts, the kind, the time.
  const columns: Column[] = [
    { header: 'ID', style: 'bold' },
    { header: started.header, optional: true, dropOrder: 4 },
    { header: 'KIND', optional: true, dropOrder: 3 },
    { header: 'STATUS' },
    { header: 'AGENT', optional: true, dropOrder: 1 },
    { header: 'WHAT', flex: true, optional: true, dropOrder: 2 },
  ];
  const rows = runs.map((run, index) => {
    // The parent run and the errors first: the counts can be long, and the cut falls on them.
    const what = [
      run.parentRunId && `(part of ${run.parentRunId})`,
      run.errors.length > 0 && `errors: ${inline(run.errors.join(', '))}`,
      run.steps.warning && `warning: ${inline(run.steps.warning)}`,
      countWords(run),
    ];
    return [run.id, started.cells[index]!, run.kind, run.status, inline(run.agentId ?? '*'), what.filter(Boolean).join('  ')];
  });
  return table(columns, rows, context);
}

/** The candidate table, or that there are none of that status. */
export function candidatesText(status: string): TextView<{ candidates: Candidate[] }> {
  return ({ candidates }, context) => (candidates.length === 0 ? `no ${status === 'all' ? '' : `${status} `}candidates` : candidateTable(candidates, context));
}

/** A page of candidates (MCP's candidates_list): the table, and how many there are in all when the page is cut. */
export function candidatePageView(status: string): View<{ candidates: Candidate[]; total: number; truncated: boolean }> {
  return {
    text: candidatesText(status),
    notes: ({ candidates, ...listed }, { json }) => [shownNote(candidates.length, listed, { json })],
  };
}

/** Other agents' pending candidates, when the agent has none: who has them, and the command to review theirs. */
export type PendingElsewhere = readonly { agentId: string; pending: number }[];

/** The note naming other agents' pending candidates (at most three), with the command for the first. */
export function elsewhereNote(elsewhere: PendingElsewhere, agentId: string, hint: Hint): string | undefined {
  const [first] = elsewhere;
  if (first === undefined) return undefined;
  const named = elsewhere.slice(0, 3).map((other) => `${inline(other.agentId)} (${other.pending})`);
  const more = elsewhere.length > 3 ? `, and ${elsewhere.length - 3} more` : '';
  return `no pending candidates for agent ${inline(agentId)}; other agents have some: ${named.join(', ')}${more} — review with: ${hint(['rem', 'candidates'], { agent: first.agentId })}`;
}

/** `rem candidates` off the review screen: the table, and (on stderr, and in --json's `warnings`) other agents' pending ones. */
export function candidatesView(
  status: string,
  agentId: string,
  elsewhere: PendingElsewhere,
  hint: Hint,
): View<{ candidates: Candidate[]; total: number; truncated: boolean }> {
  const warnings = [elsewhereNote(elsewhere, agentId, hint)].filter((line): line is string => line !== undefined);
  return {
    json: (result) => ({ ...result, ...(warnings.length > 0 ? { warnings } : {}) }),
    text: candidatesText(status),
    notes: ({ candidates, ...listed }, { json }) => [shownNote(candidates.length, listed, { json }), ...warnings],
  };
}

export const candidateShowView: TextView<{ candidate: Candidate; sources: Memory[] }> = ({ candidate, sources }, context) =>
  candidateDetail(candidate, sources, context);

/** The staged candidates, one line each. */
function stagedLines(candidates: readonly Candidate[], { paint, width }: TextContext): string[] {
  return candidates.map((candidate) => `${paint('bold', candidate.id)} ${cut(candidate.claim, Math.max(20, width - candidate.id.length - 1))}`);
}

/** Where to review what was staged: a hint, so on stderr (stdout stays the result), and in text mode only. */
const reviewNote: View<DistillResult>['notes'] = ({ candidates }, { json, hint }) => [
  !json && candidates.length > 0 && `review: ${hint(['rem', 'candidates'])}`,
];

/** The JSON document of a distillation and of an ingest: the run, the model, what was staged, the counts. */
const distillJson = ({ run, model, candidates, counts, rejectedMatches }: DistillResult) => ({ run, model, candidates, counts, rejectedMatches });

/** `N previously rejected (cand_…, cand_… reworded)`: which rejections the skipped claims repeated. */
function rejectedWords({ counts, rejectedMatches }: DistillResult): string {
  const ids = rejectedMatches.map((match) => `${match.rejectedId}${match.match === 'reworded' ? ' reworded' : ''}`);
  return `${counts.skippedRejected} previously rejected${ids.length > 0 ? ` (${ids.join(', ')})` : ''}`;
}

/** `rem rapid`. */
export const distillView: View<DistillResult> = {
  json: distillJson,
  text: (result, context) => {
    const { counts } = result;
    const leftOut = counts.leftOutByCount + counts.leftOutByBudget;
    return [
      `model ${inline(result.model ?? 'none')} · gathered ${counts.gathered} · staged ${counts.staged} · skipped ${counts.skippedDuplicates} duplicate, ${rejectedWords(result)}${leftOut > 0 ? ` · ${leftOut} left out by the caps` : ''}`,
      ...stagedLines(result.candidates, context),
    ].join('\n');
  },
  notes: reviewNote,
};

/** `rem ingest`. */
export function ingestView(handoffId: string): View<DistillResult> {
  return {
    json: distillJson,
    text: (result, context) =>
      [
        `ingested ${inline(handoffId)} · staged ${result.counts.staged} · skipped ${result.counts.skippedDuplicates} duplicate, ${rejectedWords(result)}`,
        ...stagedLines(result.candidates, context),
      ].join('\n'),
    notes: reviewNote,
  };
}

/** What the prompt teaches of the reviewers' decisions (docs/governance.md, "Rejections that teach"), by candidate id: `rem show ID` shows one. */
function lessonLine(lessons: DryRunResult['lessons']): string {
  const list = (ids: readonly string[]) => (ids.length > 0 ? ` (${ids.join(', ')})` : '');
  return `teaches ${lessons.rejected.length} rejected claim${lessons.rejected.length === 1 ? '' : 's'}${list(lessons.rejected)}, ${lessons.edited.length} reworded insight${lessons.edited.length === 1 ? '' : 's'}${list(lessons.edited)}`;
}

/** `rem rapid --dry-run`. */
export const distillDryRunView: TextView<DryRunResult> = (result) =>
  [
    `would send ${result.counts.gathered} memories (${result.promptChars} prompt characters); ${result.counts.eligible} in scope, ${result.counts.leftOutByCount + result.counts.leftOutByBudget} left out by the caps`,
    `redaction ${redactionLine(result.redaction, result.redaction.counts)}`,
    lessonLine(result.lessons),
    ...result.refs.map((ref) => `  ${ref.ref.padEnd(4)} ${ref.memoryId}${ref.truncated ? ' (truncated)' : ''}`),
  ].join('\n');

/**
 * `rem rapid --prompt-only`: the prompt alone on stdout (ready to pipe to any LLM; it is built from stored memories,
 * which the guard makes safe to show), what to do next on stderr.
 */
export const handoffView: View<PromptOnlyResult> = {
  json: ({ handoff, prompt, schema, redaction, lessons }) => ({ handoff, prompt, schema, redaction, lessons }),
  text: ({ prompt }) => `${safeText(prompt)}\n`,
  notes: ({ handoff, counts, redaction, lessons }, { json, hint, time }) => [
    !json &&
      `handoff ${handoff.id}: ${counts.gathered} memories, expires ${time(handoff.expiresAt)}\nredaction ${redactionLine(redaction, redaction.counts)}\n${lessonLine(lessons)}\nsend the prompt above to any LLM, save its answer, then:\n  ${hint(['rem', 'ingest', handoff.id, 'answer.json'])}`,
  ],
};

export const promoteView: TextView<{ promoted: Promotion[] }> = ({ promoted }) =>
  promoted.map(({ candidate, memory }) => `promoted ${candidate.id} → ${memory.id} (${memory.durability})`).join('\n');

export const rejectView: TextView<{ rejected: Candidate[] }> = ({ rejected }) => rejected.map((candidate) => `rejected ${candidate.id}`).join('\n');

export const runsView: View<{ runs: Run[]; total: number; truncated: boolean }> = {
  text: ({ runs }, context) => (runs.length === 0 ? 'no runs yet' : runTable(runs, context)),
  notes: ({ runs, ...listed }, { json }) => [shownNote(runs.length, listed, { json })],
};

/**
 * `rem runs show`: the run for people — what ran, when, how it ended, its counts in words, the candidates it staged,
 * its errors and each recorded step on a line of its own. Values come from the store (a model id, an agent): guarded.
 */
export const runShowView: TextView<{ run: Run }> = ({ run }, { paint, time, hint }) => {
  const duration = run.durationMs === null ? null : run.durationMs < 1000 ? `${run.durationMs} ms` : `${(run.durationMs / 1000).toFixed(1)} s`;
  const rows: [string, string | null][] = [
    ['run', run.id],
    ['kind', run.kind],
    ['status', run.status],
    ['agent', run.agentId ?? 'every agent'],
    ['started', time(run.startedAt, { seconds: true })],
    ['finished', run.finishedAt === null ? null : `${time(run.finishedAt, { seconds: true })}${duration ? ` (${duration})` : ''}`],
    ['model', run.model],
    ['counts', countWords(run) || null],
    ['errors', run.errors.length ? run.errors.join(', ') : null],
    ['snapshot', run.snapshotPath],
    ['part of', run.parentRunId],
  ];
  const lines = rows.filter(([, value]) => value !== null && value !== '').map(([label, value]) => `${paint('dim', label.padEnd(9))} ${inline(value!)}`);
  const steps = Object.entries(run.steps);
  if (steps.length > 0) lines.push('', paint('bold', 'steps'), ...steps.map(([step, what]) => `  ${paint('dim', inline(step).padEnd(12))} ${inline(what)}`));
  if (run.candidateIds.length > 0) {
    lines.push('', paint('bold', `candidates (${run.candidateIds.length})`), ...run.candidateIds.map((id) => `  ${inline(id)}`));
    if (run.agentId !== null) lines.push(paint('dim', `review: ${hint(['rem', 'candidates'], { agent: run.agentId })}`));
  }
  return lines.join('\n');
};
