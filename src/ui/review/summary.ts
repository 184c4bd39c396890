import type { View } from '../../views/output.js';
import { ExitCode } from '../../core/errors.js';
import type { ReviewOutcome, ReviewSummary } from './types.js';

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

/**
 * What `rem candidates` shows once the screen has closed: the summary (printed after the screen, so it stays in the
 * scrollback — even when the screen failed), or that nothing was pending and how to stage some.
 */
export const reviewView: View<ReviewOutcome | undefined> = {
  text: (outcome) => (outcome ? summaryText(outcome.summary) : 'no pending candidates'),
  notes: (outcome, { hint }) => [
    !outcome && `stage some with: ${hint(['rem', 'rapid'])} (or ${hint(['rem', 'rapid', '--prompt-only'])}, then hippo rem ingest)`,
  ],
  failure: (outcome) => (outcome?.error === undefined ? undefined : (outcome.error as Error)),
  exitCode: (outcome) => (outcome?.summary.interrupted ? ExitCode.interrupted : undefined),
};
