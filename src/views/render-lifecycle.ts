/** Views of the memory lifecycle: `memory edit`, `memory forget`, `memory unarchive`, `agents`, `rem reopen`, `rem runs prune`. */
import type { ForgetPlan, ForgetResult } from '../core/memory/forget.js';
import type { AgentSummary, EditResult, UnarchiveResult } from '../core/memory/lifecycle.js';
import type { ReopenResult } from '../core/rem/review.js';
import type { PruneRunsResult } from '../core/runs.js';
import { safeText } from '../core/text-guard.js';
import { memoryTable } from './render-memory.js';
import { derivedLines, receiptLines } from './render-governance.js';
import { unattributedNote } from './render-nightly.js';
import { cut, table, timeColumn, type Column, type TextView, type View } from './output.js';

/** One line of text, guarded: agent ids, paths and names inside a line. */
const inline = (text: string) => safeText(text, { lines: 'join' });
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

export const editView: View<EditResult> = {
  json: ({ memory, changed, previous, duplicateOf }) => ({ memory, changed, previous, duplicateOf }),
  text: ({ memory, changed, previous }, { paint }) => {
    if (changed.length === 0) return `${paint('bold', memory.id)} unchanged (it already says that)`;
    const kept = previous ? `; the old version is kept as ${previous.id} (archived)` : '';
    return `edited ${paint('bold', memory.id)}: ${changed.join(', ')}${kept}`;
  },
  notes: ({ duplicateOf, reclaim }) => [
    duplicateOf.length > 0 && `warning: same text as ${duplicateOf.join(', ')}`,
    reclaim?.complete === false && 'note: another process is reading the store; its write-ahead log keeps a copy of the old text until the next checkpoint',
  ],
};

export const unarchiveView: View<UnarchiveResult> = {
  text: ({ unarchived, notArchived }) =>
    [...unarchived.map((memory) => `unarchived ${memory.id}`), ...notArchived.map((id) => `${id} was not archived`)].join('\n'),
  notes: ({ expired }, { hint }) => [
    expired.length > 0 &&
      `warning: ${expired.join(', ')} ${expired.length === 1 ? 'has' : 'have'} expired: the next nightly run archives ${expired.length === 1 ? 'it' : 'them'} again unless the expiry changes (${hint(['memory', 'edit', expired[0]!, '--expires', '30d'])}, or --expires never)`,
  ],
};

/** `memory forget --dry-run`: everything that holds it, live and in snapshots. */
export const forgetPlanView: View<ForgetPlan & { dryRun: true }> = {
  text: (plan, context) => {
    const { paint, width } = context;
    const lines: string[] = [];
    const versions = plan.memories.filter((memory) => memory.versionOf !== null).length;
    const head = `would forget ${plural(plan.memories.length, 'memory', 'memories')} of agent "${inline(plan.agentId)}"${versions ? ` (${versions} of them older versions)` : ''}`;
    lines.push(plan.memories.length === 0 ? `no memory of agent "${inline(plan.agentId)}" would be forgotten` : `${head}:`);
    if (plan.memories.length > 0) {
      const listed = memoryTable(plan.memories, { ...context, width: width - 2 });
      lines.push(...listed.split('\n').map((line) => `  ${line}`));
    }
    if (plan.candidatesDeleted.length > 0) {
      lines.push('candidates whose claim holds the text (would be deleted):');
      for (const candidate of plan.candidatesDeleted) {
        const head = `  ${candidate.id}  ${candidate.status.padEnd(8)} `;
        lines.push(`${head}${cut(candidate.claim, Math.max(20, width - head.length))}`);
      }
    }
    if (plan.candidatesChanged.length > 0)
      lines.push(`candidates that would lose the text or be marked "source forgotten": ${plan.candidatesChanged.join(', ')}`);
    if (plan.handoffsChanged.length > 0) lines.push(`handoffs whose prompt would lose the text: ${plan.handoffsChanged.join(', ')}`);
    const derived = derivedLines(plan.derived);
    if (derived.length > 0)
      lines.push('derived from it:', ...derived.map((line) => line.replace(': forgotten too (cascade)', ': would be forgotten too (cascade)')));
    if (plan.snapshots.length > 0) {
      lines.push('snapshots holding it (rewritten by --purge-snapshots):');
      for (const snapshot of plan.snapshots) {
        const what = [
          plan.memories.length > 0 || snapshot.memoryIds.length > 0 ? plural(snapshot.memoryIds.length, 'memory', 'memories') : '',
          snapshot.candidates > 0 ? plural(snapshot.candidates, 'candidate') : '',
          snapshot.handoffs > 0 ? plural(snapshot.handoffs, 'handoff') : '',
        ].filter(Boolean);
        lines.push(`  ${inline(snapshot.name)}  ${what.join(', ')}`);
      }
    } else lines.push('no snapshot holds it');
    for (const snapshot of plan.unreadableSnapshots)
      lines.push(paint('red', `  ${inline(snapshot.name)} cannot be read (${snapshot.code}): what it holds is unknown`));
    return lines.join('\n');
  },
  notes: (plan, { json }) => [!json && 'nothing changed (dry run)', unattributedNote(plan.unattributedSnapshots)],
};

export const forgetView: View<ForgetResult> = {
  json: (result) => ({
    run: result.run,
    forgotten: result.forgotten,
    candidatesChanged: result.candidatesChanged,
    candidatesDeleted: result.candidatesDeleted,
    handoffsChanged: result.handoffsChanged,
    snapshotsRewritten: result.snapshotsRewritten,
    reclaim: result.reclaim,
    receipt: result.receipt,
  }),
  text: (result, { paint, hint }) => {
    const versions = result.forgotten.filter((memory) => memory.versionOf !== null).length;
    const lines = [
      `forgot ${plural(result.forgotten.length, 'memory', 'memories')}${versions ? ` (${versions} of them older versions)` : ''}: ${result.forgotten.map((memory) => memory.id).join(', ') || '(only in snapshots)'}`,
    ];
    if (result.candidatesChanged.length > 0)
      lines.push(`  ${plural(result.candidatesChanged.length, 'candidate')} lost the text or were marked "source forgotten"`);
    if (result.candidatesDeleted.length > 0) lines.push(`  ${plural(result.candidatesDeleted.length, 'candidate')} whose claim held the text deleted`);
    if (result.handoffsChanged.length > 0) lines.push(`  ${plural(result.handoffsChanged.length, 'handoff')} lost the text from their prompt`);
    if (result.snapshotsRewritten !== null) lines.push(`  ${plural(result.snapshotsRewritten.length, 'snapshot')} rewritten without it`);
    lines.push(...receiptLines(result.receipt));
    lines.push(paint('dim', `audit: ${hint(['rem', 'runs', 'show', result.run.id])}`));
    return lines.join('\n');
  },
  notes: (result) => [
    unattributedNote(result.unattributedSnapshots),
    result.snapshotsNotChecked > 0 &&
      `note: ${plural(result.snapshotsNotChecked, 'snapshot')} taken earlier may still hold it; run the same forget with --purge-snapshots to rewrite them`,
    !result.reclaim.complete &&
      'note: another process is reading the store, so the old copies stay in its files until the next checkpoint: once that process has ended, any hippo command on this store completes it',
  ],
};

/** The question `memory forget` asks on a terminal. */
export function forgetQuestion(plan: ForgetPlan, purge: boolean): string {
  const parts = [`forget ${plural(plan.memories.length, 'memory', 'memories')} of agent "${inline(plan.agentId)}" for good`];
  const touched = plan.candidatesChanged.length + plan.candidatesDeleted.length;
  if (touched > 0) parts.push(`${plural(touched, 'candidate')} lose the text (${plan.candidatesDeleted.length} deleted)`);
  if (purge) parts.push(`${plural(plan.snapshots.length, 'snapshot')} rewritten`);
  return `${parts.join('; ')}?`;
}

export const agentsView: View<{ agents: AgentSummary[] }> = {
  text: ({ agents }, context) => {
    if (agents.length === 0) return 'no agents: the store holds no memories or pending candidates';
    const withNewest = agents.filter((agent) => agent.newest !== null);
    const newest = timeColumn(
      'NEWEST MEMORY',
      withNewest.map((agent) => agent.newest!),
      context,
    );
    const cells = new Map(withNewest.map((agent, index) => [agent, newest.cells[index]!]));
    const columns: Column[] = [
      { header: 'AGENT', style: 'bold' },
      { header: 'MEMORIES', align: 'right' },
      { header: 'ARCHIVED', align: 'right' },
      { header: newest.header },
      { header: 'PENDING', align: 'right' },
    ];
    const rows = agents.map((agent) => [
      inline(agent.agentId),
      String(agent.memories),
      String(agent.archived),
      cells.get(agent) ?? '—',
      String(agent.pendingCandidates),
    ]);
    return table(columns, rows, context);
  },
};

export const reopenView: TextView<ReopenResult> = ({ reopened, alreadyPending }) =>
  [...reopened.map((candidate) => `reopened ${candidate.id} (pending again)`), ...alreadyPending.map((id) => `${id} was already pending`)].join('\n');

export const pruneRunsView: View<PruneRunsResult> = {
  text: ({ pruned, before, dryRun }, { time }) =>
    dryRun
      ? `would prune ${plural(pruned, 'run')} started before ${time(before)} (finished ones only)`
      : `pruned ${plural(pruned, 'run')} started before ${time(before)}`,
  notes: ({ dryRun }, { json }) => [dryRun && !json && 'nothing changed (dry run)'],
};
