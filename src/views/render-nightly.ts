import type { SnapshotListing } from '../core/nightly/snapshot.js';
import type { NightlyDryRunResult, NightlyResult } from '../core/nightly/run-once.js';
import type { RestorePlan } from '../core/nightly/restore.js';
import type { MaintenanceCounts } from '../core/nightly/maintenance.js';
import { basename, join } from 'node:path';
import { ExitCode } from '../core/errors.js';
import type { PauseState } from '../core/nightly/pause.js';
import type { RestoreResult } from '../core/nightly/restore.js';
import type { ScheduleText } from '../core/nightly/schedule.js';
import type { UnattributedSnapshots } from '../core/store/port.js';
import { safeText } from '../core/text-guard.js';
import type { Hint } from './hints.js';
import { table, timeColumn, type Column, type Painter, type TextContext, type TextView, type View } from './output.js';

/** One line of text, guarded: agent ids, paths and model names inside a line. */
const inline = (text: string) => safeText(text, { lines: 'join' });

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
export function nightText(result: NightlyResult, { paint, hint, time }: Pick<TextContext, 'paint' | 'hint' | 'time'>): string {
  const { run, pause } = result;
  const head = `${paint('bold', 'night')} ${run.id} ${run.status} in ${((run.durationMs ?? 0) / 1000).toFixed(1)} s`;
  if (run.status === 'paused') {
    const byEnv = pause.by === 'HIPPO_REM_PAUSE';
    const resume = byEnv ? 'unset HIPPO_REM_PAUSE' : hint(['rem', 'resume'], { agent: null });
    // The time as every other time is shown (the run row keeps the stored ISO time).
    const why = byEnv ? 'paused by HIPPO_REM_PAUSE' : `paused by hippo rem pause since ${pause.since ? time(pause.since) : '?'}`;
    return `${head}\n  ${why}: nothing done (resume with: ${resume})`;
  }
  const lines = [head];
  if (result.snapshot) {
    const what = result.snapshot.unchanged
      ? `unchanged since ${inline(result.snapshot.name)}: none taken`
      : `${inline(result.snapshot.path)} (${formatBytes(result.snapshot.sizeBytes)})`;
    lines.push(`  snapshot     ${what} · pruned ${result.snapshot.pruned.length} old`);
  }
  if (result.maintenance) lines.push(`  maintenance  ${maintenanceLine(result.maintenance.total)} · full-text index optimized`);
  if (result.agents.length === 0) lines.push('  distill      nothing new to distill');
  for (const agent of result.agents) {
    const what =
      agent.status === 'completed'
        ? `staged ${agent.staged} from ${agent.gathered} memories`
        : agent.status === 'failed'
          ? paint('red', `failed (${inline(String(agent.error))})`)
          : `skipped (${agent.error === 'model_not_configured' ? 'no model configured' : inline(String(agent.error))})`;
    lines.push(`  distill      ${inline(agent.agentId)}: ${what}${agent.runId ? paint('dim', `  ${agent.runId}`) : ''}`);
  }
  const staged = result.agents.filter((agent) => agent.staged > 0);
  if (staged.length > 0) lines.push(paint('dim', `review: ${staged.map((agent) => hint(['rem', 'candidates'], { agent: agent.agentId })).join(' ; ')}`));
  return lines.join('\n');
}

export function dryRunText(result: NightlyDryRunResult, paint: Painter): string {
  const lines = [
    `${paint('bold', 'dry run')} ${result.run?.id ?? '(not recorded: the database was busy)'}: nothing changed, no snapshot, no model call`,
    `  lock   ${result.steps.lock}`,
    `  pause  ${result.steps.pause}`,
    `  model  ${result.model === null || result.model === undefined ? 'none configured (distillation would be skipped)' : inline(result.model)}`,
  ];
  if (result.agents.length === 0) lines.push('  nothing to expire, archive or distill');
  for (const agent of result.agents) {
    const distill = agent.distill
      ? `would distill ${agent.distill.gathered} memories (${agent.distill.promptChars} prompt characters${agent.distill.leftOut ? `, ${agent.distill.leftOut} left out by the caps` : ''})`
      : 'nothing new to distill';
    lines.push(
      `  ${paint('bold', inline(agent.agentId))}: would ${maintenanceLine(agent.maintenance).replace('expired', 'expire').replace('archived', 'archive')}; ${distill}`,
    );
  }
  return lines.join('\n');
}

export function snapshotsText({ snapshots, totalBytes }: SnapshotListing, dir: string, context: TextContext): string {
  if (snapshots.length === 0) return `no snapshots in ${inline(dir)}`;
  const taken = timeColumn(
    'TAKEN',
    snapshots.map((snapshot) => snapshot.createdAt),
    context,
  );
  const columns: Column[] = [
    { header: 'SNAPSHOT' },
    { header: taken.header },
    { header: 'SIZE', align: 'right' },
    { header: 'INTEGRITY' },
    { header: 'TAKEN BY', flex: true },
  ];
  const rows = snapshots.map((snapshot, index) => {
    const kind = snapshot.runKind === 'rem restore' ? 'pre-restore' : snapshot.runKind === null ? 'run not on record' : 'nightly';
    return [inline(snapshot.name), taken.cells[index]!, formatBytes(snapshot.sizeBytes), snapshot.integrity, kind];
  });
  const text = table(columns, rows, context);
  // Damaged snapshots in red: painted after the table is laid out, so the colour codes do not count as width.
  const painted = context.paint.enabled ? text.replace(/\bdamaged\b/g, context.paint('red', 'damaged')) : text;
  const total = `${snapshots.length} snapshot${snapshots.length === 1 ? '' : 's'}, ${formatBytes(totalBytes)} in total`;
  return [context.paint('dim', inline(dir)), painted, context.paint('dim', total)].join('\n');
}

/**
 * One note for the snapshots an older hippo left in the folder every store of a directory shared, when more than one
 * store lives there: which stores, and how to move a store's own into its folder by hand.
 */
export function unattributedNote(unattributed: UnattributedSnapshots | null): string | false {
  if (!unattributed) return false;
  const { dir, count, stores, target } = unattributed;
  const which = count === 1 ? '1 snapshot from an older hippo is' : `${count} snapshots from an older hippo are`;
  const why =
    stores.length === 1
      ? "which hippo could not move into this store's folder"
      : `which hippo cannot attribute to one store (${stores.length} stores there: ${stores.map(inline).join(', ')})`;
  return (
    `note: ${which} still in the shared folder ${inline(dir)}, ${why}; ` +
    `they are not listed, thinned, restored by name or purged here. Move this store's into ${inline(target)} by hand (mv ${inline(join(dir, '<name>'))} ${inline(target)}/), ` +
    `the others' into their own folders (docs/nightly.md, "Where snapshots live")`
  );
}

export function restorePlanText(plan: RestorePlan, applied: boolean): string {
  const whose = plan.agentId === null ? 'every agent' : `agent "${inline(plan.agentId)}"`;
  const head = applied ? `restored ${whose} from ${inline(plan.snapshot)}:` : `restoring ${whose} from ${inline(plan.snapshot)} would change:`;
  const rows = plan.tables.map(
    (change) =>
      `  ${change.table.padEnd(11)} ${String(change.added).padStart(6)} added  ${String(change.removed).padStart(6)} removed  ${String(change.changed).padStart(6)} changed  ${String(change.unchanged).padStart(6)} unchanged`,
  );
  return [head, ...rows].join('\n');
}

export function restoreChanges(plan: RestorePlan): number {
  return plan.tables.reduce((total, change) => total + change.added + change.removed + change.changed, 0);
}

export function nightView(): View<NightlyResult> {
  return {
    text: (result, context) => nightText(result, context),
    notes: ({ run, unattributedSnapshots, warnings }, { json, hint }) => [
      // Under --json the document holds them (a cron log stays one JSON document a line).
      ...(json ? [] : warnings.map((warning) => `warning: ${warning}; set one with: hippo config set model PROVIDER:MODEL`)),
      unattributedNote(unattributedSnapshots),
      run.status === 'partial' &&
        `distillation failed (${run.errors.join(', ')}); the snapshot and maintenance were kept — see ${hint(['rem', 'runs', 'show', run.id], { agent: null })}`,
    ],
    exitCode: ({ run }) => (run.status === 'partial' ? ExitCode.partial : undefined),
  };
}

export const nightDryRunView: TextView<NightlyDryRunResult> = (result, { paint }) => dryRunText(result, paint);

export function snapshotsView(dir: string): View<SnapshotListing> {
  return { text: (listing, context) => snapshotsText(listing, dir, context), notes: (listing) => [unattributedNote(listing.unattributed)] };
}

/** `hippo rem restore SNAPSHOT [--agent A] --apply`: narrowed to the restore's agent when it has one, else every agent's. */
const restoreCommand = (hint: Hint, snapshot: string, agentId: string | null) => hint(['rem', 'restore', snapshot, '--apply'], { agent: agentId });

/** `rem restore` without --apply: what would change, and the command that applies it. */
export function restorePlanView(snapshotRef: string): View<RestorePlan & { applied: false }> {
  return {
    text: (plan) => restorePlanText(plan, false),
    notes: (plan, { json, hint }) => [!json && `nothing changed; to restore: ${restoreCommand(hint, snapshotRef, plan.agentId)}`],
  };
}

/** The question `rem restore --apply` asks before it replaces rows. */
export function restoreQuestion(plan: RestorePlan, file: string): string {
  const whose = plan.agentId === null ? "EVERY agent's" : `agent "${inline(plan.agentId)}"'s`;
  return `replace ${whose} memories, candidates and handoffs with snapshot ${inline(basename(file))} (${restoreChanges(plan)} rows change)?`;
}

export const restoreAppliedView: TextView<RestoreResult & { applied: true }> = (result, { hint }) =>
  `${restorePlanText(result, true)}\nundo with: ${restoreCommand(hint, basename(result.preRestoreSnapshot), result.agentId)}`;

export const pauseView: TextView<PauseState> = (state, { time, hint }) =>
  `nightly runs paused (since ${state.since ? time(state.since) : 'now'}); resume with: ${hint(['rem', 'resume'], { agent: null })}`;

export const resumeView: View<{ paused: boolean; wasPaused: boolean }> = {
  text: ({ wasPaused }) => (wasPaused ? 'nightly runs resumed' : 'nightly runs were not paused'),
  notes: ({ paused }) => [paused && 'HIPPO_REM_PAUSE is set in this environment: runs that see it stay paused'],
};

/** What the schedule carries from this shell, and what it cannot: API keys, which are never printed. */
export function scheduleNote(configFile: string): string {
  return `cron and systemd do not read your shell profile: the lines above carry where this shell finds the store and the config file (${configFile}) and its model settings (HIPPO_MODEL, HIPPO_BASE_URL), but never an API key: add HIPPO_API_KEY=… (or the provider's variable) above the crontab line, Environment=… in the service. Without a model the night still snapshots and maintains the store; distillation is skipped and the run says so (hippo rem runs).`;
}

/** A long sentence as `# ` comment lines of at most 100 columns. */
function wrapComment(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(' ')) {
    if (line.length + 1 + word.length > 100) {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

/** `rem nightly schedule`: what to install, as comments and the two files; nothing is installed. */
export const scheduleView: TextView<ScheduleText & { installed: false; note: string }> = (text) =>
  safeText(
    [
      '# Nothing was installed. To run the nightly job every 30 minutes:',
      ...wrapComment(text.cadence),
      '',
      '# cron: add this line with `crontab -e`',
      text.cron,
      '',
      `# or a systemd user timer: save these two files, then run: ${text.systemd.enable}`,
      `# ${text.systemd.servicePath}`,
      text.systemd.service,
      `# ${text.systemd.timerPath}`,
      text.systemd.timer,
      ...(text.backup
        ? [
            '# The store is a PostgreSQL database: hippo snapshots its own rows, backing up the server stays yours.',
            '# The password is not printed here: cron, systemd and pg_dump read it from ~/.pgpass (or PGPASSFILE).',
            '# A nightly pg_dump (one file per weekday, a week kept), as a crontab line:',
            text.backup.cron,
          ]
        : []),
      `# ${text.note}`,
    ].join('\n'),
  );
