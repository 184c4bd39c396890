import type { ReviewSummary } from './types.js';

/** The lines printed after the review screen closes, so what was decided stays in the scrollback. */
export function summaryText(summary: ReviewSummary): string {
  const count = (kind: 'promoted' | 'rejected') => summary.decisions.filter((decision) => decision.kind === kind).length;
  const head = `review ${summary.interrupted ? 'interrupted' : 'finished'}: ${count('promoted')} promoted, ${count('rejected')} rejected, ${summary.skipped.length} skipped — ${summary.remaining} still pending`;
  const lines = summary.decisions.map((decision) =>
    decision.kind === 'promoted'
      ? `  promoted ${decision.candidateId} → ${decision.memoryId}${decision.edited ? ' (edited)' : ''}`
      : `  rejected ${decision.candidateId}`,
  );
  return [head, ...lines].join('\n');
}
