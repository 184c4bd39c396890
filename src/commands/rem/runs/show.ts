import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../../cli/base-command.js';
import { runShowView } from '../../../views/render-rem.js';
import { getRun } from '../../../core/runs.js';

export default class RemRunsShow extends HippoCommand {
  static override summary = 'Show one run of the audit log.';
  static override examples = ['<%= config.bin %> rem runs show run_01JD3Z8N6Q2W4E5R7T9Y1V3J5M'];
  static override args = { id: Args.string({ ignoreStdin: true, required: true, description: 'run id' }) };
  static override flags = {
    'all-agents': Flags.boolean({ default: false, description: 'find the run whichever agent it belongs to' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RemRunsShow);
    const run = await getRun(await this.existingStore(flags.db), args.id, flags['all-agents'] ? undefined : this.agentId(flags.agent));
    this.output({ run }, runShowView);
  }
}
