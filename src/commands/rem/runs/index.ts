import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../../cli/base-command.js';
import { runsView } from '../../../views/render-rem.js';
import { listRunPage } from '../../../core/runs.js';
import { limitFlags, limitOf } from '../../../cli/limit-flags.js';

export default class RemRuns extends HippoCommand {
  static override summary = 'List the audit log of runs (rapid, ingest, nightly, restore), newest first.';
  static override examples = ['<%= config.bin %> rem runs', '<%= config.bin %> rem runs --limit 5 --json'];
  static override flags = {
    ...limitFlags(50),
    'all-agents': Flags.boolean({ default: false, description: 'runs of every agent, not only --agent' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(RemRuns);
    const page = await listRunPage(await this.existingStore(flags.db), {
      limit: limitOf(flags),
      agentId: flags['all-agents'] ? undefined : this.agentId(flags.agent),
    });
    this.output(page, runsView);
  }
}
