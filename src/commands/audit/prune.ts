import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { pruneReads } from '../../core/governance/audit.js';
import { parseSince } from '../../core/time.js';
import { pruneReadsView } from '../../views/render-governance.js';

export default class AuditPrune extends HippoCommand {
  static override summary = 'Delete old read-audit records (every agent), keeping a run row that says so.';
  static override description =
    'Deletes the read records older than --older-than (a duration back from now, an ISO date, or words) whatever their agent. The prune itself is recorded as a run (kind "audit prune", counts.pruned). Besides this, each agent keeps at most its newest 100000 records.';
  static override examples = ['<%= config.bin %> audit prune --older-than 180d', '<%= config.bin %> audit prune --older-than 2026-01-01 --dry-run --json'];
  static override flags = {
    'older-than': Flags.string({ required: true, description: 'prune records older than this (180d, 12w), or before this ISO date or time in words' }),
    'dry-run': Flags.boolean({ default: false, description: 'only count what would be pruned' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(AuditPrune);
    const store = await this.existingStore(flags.db);
    const before = parseSince(flags['older-than'], '--older-than', store.clock());
    this.output(await pruneReads(store, { before, dryRun: flags['dry-run'] }), pruneReadsView);
  }
}
