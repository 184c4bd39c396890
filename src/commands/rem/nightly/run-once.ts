import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../../cli/base-command.js';
import { modelClient, resolveModel } from '../../../cli/model.js';
import { nightDryRunView, nightView } from '../../../views/render-nightly.js';
import { runNightly } from '../../../core/nightly/run-once.js';
import { DEFAULT_RETENTION, MAX_RETENTION_COUNT } from '../../../core/nightly/snapshot.js';
import { intFlag } from '../../../cli/int-flag.js';

export default class RemNightlyRunOnce extends HippoCommand {
  static override summary = 'Run the nightly job once: lock, snapshot, maintenance, distillation, audit. Safe to call from cron.';
  static override description = `Steps, in order (docs/design.md §7):
1. lock: if another run or restore holds this database's lock, exit 4 at once (a dead holder's lock is taken over)
2. pause: if paused (hippo rem pause, or HIPPO_REM_PAUSE=1), record a "paused" run and exit 0
3. snapshot: an online copy of the database into its own folder snapshots/<file name>/ beside it, checked with quick_check — or none when nothing changed since the newest snapshot (recorded "unchanged"). Retention then thins the snapshots: the newest 3 always, the last --keep-last, the newest of each of the last --keep-hourly hours, --keep-daily days and --keep-weekly weeks (and none older than --keep-days, if given). A failure here stops the night (exit 1)
4. maintenance: expired memories archived; ephemeral ones older than 7 days and standard ones unused for 180 days archived (never persistent or permanent ones, never one younger than 7 days); full-text index optimized
5. distillation (hippo rem rapid --scope recent --unreflected) for each agent with new memories, or only --agent; candidates are staged for review. No model configured: skipped, exit 0. The model failing: maintenance is kept, exit 7
6. the run row is finalised with counts and candidate ids (hippo rem runs)`;
  static override examples = [
    '<%= config.bin %> rem nightly run-once',
    '<%= config.bin %> rem nightly run-once --dry-run',
    '<%= config.bin %> rem nightly run-once --agent ops-agent --keep-hourly 12 --keep-weekly 8 --json',
  ];
  static override flags = {
    agent: Flags.string({
      description:
        'distill only this agent (default: every agent with new memories; $HIPPO_AGENT is not used here). Snapshot and maintenance always cover the whole store',
      helpGroup: 'GLOBAL',
    }),
    'dry-run': Flags.boolean({
      default: false,
      description: 'per agent, what would be expired, archived and distilled (prompt size); no snapshot, no change, no model call',
    }),
    'keep-last': intFlag({ min: 0, max: MAX_RETENTION_COUNT, default: DEFAULT_RETENTION.keepLast, description: 'keep this many newest snapshots' }),
    'keep-hourly': intFlag({
      min: 0,
      max: MAX_RETENTION_COUNT,
      default: DEFAULT_RETENTION.keepHourly,
      description: 'keep the newest snapshot of each of the last N hours that have one',
    }),
    'keep-daily': intFlag({
      min: 0,
      max: MAX_RETENTION_COUNT,
      default: DEFAULT_RETENTION.keepDaily,
      description: 'keep the newest snapshot of each of the last N days that have one',
    }),
    'keep-weekly': intFlag({
      min: 0,
      max: MAX_RETENTION_COUNT,
      default: DEFAULT_RETENTION.keepWeekly,
      description: 'keep the newest snapshot of each of the last N weeks that have one',
    }),
    'keep-days': intFlag({ min: 1, max: 36_500, description: 'and none older than this many days (default: no age limit)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(RemNightlyRunOnce);
    const store = await this.existingStore(flags.db);
    // Only an explicit --agent narrows distillation; $HIPPO_AGENT in cron's environment must not.
    const agentId = flags.agent === undefined ? undefined : this.agentId(flags.agent);
    // A malformed model setting is exit 2 before anything happens; the SDKs load only if something is distilled.
    const config = await resolveModel(undefined);
    const options = {
      agentId,
      retention: {
        keepLast: flags['keep-last'],
        keepHourly: flags['keep-hourly'],
        keepDaily: flags['keep-daily'],
        keepWeekly: flags['keep-weekly'],
        maxAgeDays: flags['keep-days'],
      },
      modelClient: () => modelClient(config),
      modelLabel: config ? `${config.provider}:${config.model}` : null,
      signal: this.abortSignal,
    };
    if (flags['dry-run']) return this.output(await runNightly(store, { ...options, dryRun: true }), nightDryRunView);
    this.output(await runNightly(store, options), nightView());
  }
}
