/** Renderers of the governance commands (docs/governance.md): the read audit, forget receipts and their verification. */
import type { PruneReadsResult } from '../core/governance/audit.js';
import type { VerifyResult } from '../core/governance/verify.js';
import type { DerivedReport, ForgetReceipt } from '../core/memory/forget.js';
import type { ReadRecord } from '../core/records.js';
import { safeText } from '../core/text-guard.js';
import { ExitCode } from '../core/errors.js';
import { table, timeColumn, type Column, type View } from './output.js';

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const inline = (text: string) => safeText(text, { lines: 'join' });

export const auditReadsView: View<{ reads: ReadRecord[] }> = {
  text: ({ reads }, context) => {
    if (reads.length === 0) return 'no reads recorded';
    const at = timeColumn(
      'AT',
      reads.map((read) => read.at),
      context,
    );
    const columns: Column[] = [{ header: at.header }, { header: 'CHANNEL' }, { header: 'CLIENT' }, { header: 'OPERATION' }, { header: 'MEMORIES', flex: true }];
    const rows = reads.map((read, index) => [
      at.cells[index]!,
      read.channel,
      inline(read.client) + (read.tokenId ? ` (token ${read.tokenId})` : ''),
      read.operation,
      read.memoryIds.length === 0 ? '-' : read.memoryIds.join(' '),
    ]);
    return table(columns, rows, context);
  },
};

export const pruneReadsView: View<PruneReadsResult> = {
  text: ({ pruned, before, dryRun }, { time }) =>
    dryRun ? `would prune ${plural(pruned, 'read record')} before ${time(before)}` : `pruned ${plural(pruned, 'read record')} before ${time(before)}`,
  notes: ({ dryRun }, { json }) => [dryRun && !json && 'nothing changed (dry run)'],
};

/** The derived knowledge of a forget, in lines. */
export function derivedLines(derived: DerivedReport): string[] {
  return [
    ...derived.insights.map(
      (insight) =>
        `  insight ${insight.id}: ${insight.action === 'forgotten' ? 'forgotten too (cascade)' : 'flagged: a source was forgotten'} (cites ${insight.cites.join(', ')})`,
    ),
    ...derived.candidates.map(
      (candidate) =>
        `  candidate ${candidate.id} (${candidate.status}): ${candidate.action === 'deleted' ? 'deleted (cascade)' : 'flagged: a source was forgotten'} (cites ${candidate.cites.join(', ')})`,
    ),
  ];
}

/** A receipt in lines (no text: ids and hashes). */
export function receiptLines(receipt: ForgetReceipt): string[] {
  const erased = receipt.erased;
  const lines = [
    `receipt ${receipt.id} (${receipt.createdAt}, run ${receipt.runId})`,
    ...receipt.memories.map((memory) => `  ${memory.id}${memory.versionOf ? ` (older version of ${memory.versionOf})` : ''} sha256 ${memory.sha256}`),
    ...(receipt.matchSha256 ? [`  matched text sha256 ${receipt.matchSha256}`] : []),
    `  erased: ${plural(erased.memoryRows, 'row')} and ${plural(erased.searchEntries, 'search entry', 'search entries')}; neighbours' contexts rebuilt in ${plural(erased.neighbourThreads, 'thread')}`,
    `  stored prompts rewritten: ${erased.storedPromptsRewritten}; candidates marked ${erased.candidatesChanged}, deleted ${erased.candidatesDeleted}; audit records cleared ${erased.auditRecords}`,
    `  snapshots: ${erased.snapshotsRewritten === null ? `not purged (${erased.snapshotsNotChecked} taken earlier may hold it)` : `${erased.snapshotsRewritten.length} rewritten`}`,
    `  engine copies: ${receipt.reclaim === null ? 'not reclaimed' : receipt.reclaim.complete ? `reclaimed (${receipt.reclaim.steps.join('; ')})` : `not yet (${receipt.reclaim.steps.join('; ')})`}`,
  ];
  const derived = derivedLines(receipt.derived);
  if (derived.length > 0) lines.push('  derived from it:', ...derived.map((line) => `  ${line}`));
  return lines;
}

export const verifyView: View<VerifyResult> = {
  text: (result, { paint }) =>
    [
      `receipt ${result.receiptId}${result.memoryId ? ` (memory ${result.memoryId})` : ' (matched text)'}: ${result.absent ? 'absent everywhere hippo keeps data' : paint('bold', 'FOUND somewhere')}`,
      ...result.places.map(
        (place) => `  ${place.status.padEnd(7)} ${inline(place.place)}${place.where.length > 0 ? `: ${place.where.map(inline).join(', ')}` : ''}`,
      ),
    ].join('\n'),
  notes: (result) => [!result.absent && 'note: the text is still somewhere hippo keeps data: forget it again (with --purge-snapshots for snapshots)'],
  exitCode: (result) => (result.absent ? undefined : ExitCode.partial),
};
