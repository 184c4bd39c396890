import type { ListedSnapshot } from '../core/nightly/snapshot.js';
import type { NightlyDryRunResult, NightlyResult } from '../core/nightly/run-once.js';
import type { RestorePlan } from '../core/nightly/restore.js';
import type { MaintenanceCounts } from '../core/nightly/maintenance.js';
import type { Painter } from './output.js';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

function maintenanceLine(counts: MaintenanceCounts): string {
  return `expired ${counts.expired} · archived ${counts.archivedEphemeral + counts.archivedUnused} (ephemeral > 7 d: ${counts.archivedEphemeral}, unused 180 d: ${counts.archivedUnused})`;
}

/** The text report of a night: one line per step, then where to review. */
export function nightText(result: NightlyResult, paint: Painter): string {
  const { run } = result;
  const head = `${paint('bold', 'night')} ${run.id} ${run.status} in ${((run.durationMs ?? 0) / 1000).toFixed(1)} s`;
  if (run.status === 'paused') {
    const resume = run.steps.pause?.includes('HIPPO_REM_PAUSE') ? 'unset HIPPO_REM_PAUSE' : 'hippo rem resume';
    return `${head}\n  ${run.steps.pause}: nothing done (resume with: ${resume})`;
  }
  const lines = [head];
  if (result.snapshot) {
    lines.push(`  snapshot     ${result.snapshot.path} (${formatBytes(result.snapshot.sizeBytes)}) · pruned ${result.snapshot.pruned.length} old`);
  }
  if (result.maintenance) lines.push(`  maintenance  ${maintenanceLine(result.maintenance.total)} · full-text index optimized`);
  if (result.agents.length === 0) lines.push('  distill      nothing new to distill');
  for (const agent of result.agents) {
    const what =
      agent.status === 'completed'
        ? `staged ${agent.staged} from ${agent.gathered} memories`
        : agent.status === 'failed'
          ? paint('red', `failed (${agent.error})`)
          : `skipped (${agent.error === 'model_not_configured' ? 'no model configured' : agent.error})`;
    lines.push(`  distill      ${agent.agentId}: ${what}${agent.runId ? paint('dim', `  ${agent.runId}`) : ''}`);
  }
  const staged = result.agents.filter((agent) => agent.staged > 0);
  if (staged.length > 0) lines.push(paint('dim', `review: ${staged.map((agent) => `hippo rem candidates --agent ${agent.agentId}`).join(' ; ')}`));
  return lines.join('\n');
}

export function dryRunText(result: NightlyDryRunResult, paint: Painter): string {
  const lines = [
    `${paint('bold', 'dry run')} ${result.run?.id ?? '(not recorded: the database was busy)'}: nothing changed, no snapshot, no model call`,
    `  lock   ${result.steps.lock}`,
    `  pause  ${result.steps.pause}`,
    `  model  ${result.model ?? 'none configured (distillation would be skipped)'}`,
  ];
  if (result.agents.length === 0) lines.push('  nothing to expire, archive or distill');
  for (const agent of result.agents) {
    const distill = agent.distill
      ? `would distill ${agent.distill.gathered} memories (${agent.distill.promptChars} prompt characters${agent.distill.leftOut ? `, ${agent.distill.leftOut} left out by the caps` : ''})`
      : 'nothing new to distill';
    lines.push(
      `  ${paint('bold', agent.agentId)}: would ${maintenanceLine(agent.maintenance).replace('expired', 'expire').replace('archived', 'archive')}; ${distill}`,
    );
  }
  return lines.join('\n');
}

export function snapshotsText(snapshots: ListedSnapshot[], dir: string, paint: Painter): string {
  if (snapshots.length === 0) return `no snapshots in ${dir}`;
  const lines = snapshots.map((snapshot) => {
    const integrity = snapshot.integrity === 'damaged' ? paint('red', 'damaged') : snapshot.integrity;
    const kind = snapshot.runKind === 'rem restore' ? 'pre-restore' : snapshot.runKind === null ? 'run not on record' : 'nightly';
    return `${snapshot.name}  ${snapshot.createdAt.slice(0, 16).replace('T', ' ')}  ${formatBytes(snapshot.sizeBytes).padStart(9)}  ${integrity.padEnd(8)}  ${kind}`;
  });
  return [paint('dim', dir), ...lines].join('\n');
}

export function restorePlanText(plan: RestorePlan, applied: boolean): string {
  const whose = plan.agentId === null ? 'every agent' : `agent "${plan.agentId}"`;
  const head = applied ? `restored ${whose} from ${plan.snapshot}:` : `restoring ${whose} from ${plan.snapshot} would change:`;
  const rows = plan.tables.map(
    (change) =>
      `  ${change.table.padEnd(11)} ${String(change.added).padStart(6)} added  ${String(change.removed).padStart(6)} removed  ${String(change.changed).padStart(6)} changed  ${String(change.unchanged).padStart(6)} unchanged`,
  );
  return [head, ...rows].join('\n');
}

export function restoreChanges(plan: RestorePlan): number {
  return plan.tables.reduce((total, change) => total + change.added + change.removed + change.changed, 0);
}
