import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../../cli/base-command.js';
import { pruneRunsView } from '../../../views/render-lifecycle.js';
import { pruneRuns } from '../../../core/runs.js';
import { parseSince } from '../../../core/time.js';

export default class RemRunsPrune extends HippoCommand {
  static override summary = 'Delete old rows of the audit log (every agent), keeping a row that says so.';
  static override description =
    'Deletes the runs started before --older-than (a duration back from now, an ISO date, or words such as "last monday") whatever their agent; a run still running is never pruned. The prune itself is recorded as a run (kind "rem runs prune", counts.pruned).';
  static override examples = ['<%= config.bin %> rem runs prune --older-than 90d', '<%= config.bin %> rem runs prune --older-than 2026-01-01 --dry-run --json'];
  static override flags = {
    'older-than': Flags.string({ required: true, description: 'prune runs started longer ago than this (90d, 12w), or before this ISO date or time in words' }),
    'dry-run': Flags.boolean({ default: false, description: 'only count what would be pruned' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(RemRunsPrune);
    const store = await this.existingStore(flags.db);
    const before = parseSince(flags['older-than'], '--older-than', store.clock());
    this.output(await pruneRuns(store, { before, dryRun: flags['dry-run'] }), pruneRunsView);
  }
}
