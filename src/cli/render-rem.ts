import type { Memory } from '../core/memory.js';
import type { Candidate } from '../core/rem/candidates.js';
import type { Run } from '../core/rem/runs.js';
import { cut, printable, shortDate, type Painter } from './output.js';

export function age(isoTime: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.round((now - Date.parse(isoTime)) / 60_000));
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.round(hours / 24)}d`;
}

export function candidateLine(candidate: Candidate, paint: Painter, width: number): string {
  const head = `${candidate.id}  ${candidate.status.padEnd(8)} ${age(candidate.generatedAt).padStart(4)}  ${candidate.sourceMemoryIds.length} src  `;
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
  ]
    .filter(([, value]) => value)
    .map(([label, value]) => `${paint('dim', label!.padEnd(12))} ${printable(value!)}`);
  const cited = candidate.sourceMemoryIds.map((id, index) => {
    const memory = found.get(id);
    const title = `[${index + 1}] ${id}`;
    if (!memory) return `${paint('bold', title)}  ${paint('red', '(no longer in the database)')}`;
    return `${paint('bold', title)}  ${paint('dim', shortDate(memory.createdAt))}${memory.archivedAt ? paint('dim', ' (archived)') : ''}\n${printable(memory.content)}`;
  });
  return [
    `${paint('bold', 'claim')}\n${printable(candidate.claim)}`,
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
  return `${run.id}  ${shortDate(run.startedAt)}  ${run.kind.padEnd(20)} ${run.status.padEnd(9)} ${printable(run.agentId ?? '*')}  ${counts}${run.errors.length ? `  errors: ${run.errors.join(', ')}` : ''}${parent}`;
}
