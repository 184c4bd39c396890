import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { rejectView } from '../../views/render-rem.js';
import { reject } from '../../core/rem/review.js';

export default class RemReject extends HippoCommand {
  static override summary = 'Reject candidates, giving a reason (a rejected claim is not staged again unless asked).';
  static override examples = ['<%= config.bin %> rem reject cand_01JD3Z8N6Q2W4E5R7T9Y1V3J5M --reason "one-off, not a pattern"'];
  static override strict = false;
  static override args = { ids: Args.string({ ignoreStdin: true, required: true, description: 'candidate ids' }) };
  static override flags = {
    reason: Flags.string({ required: true, description: 'why (not blank)' }),
    reviewer: Flags.string({ description: 'who decided (default $HIPPO_REVIEWER, else the OS user)' }),
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(RemReject);
    const rejected = await reject(await this.existingStore(flags.db), {
      agentId: this.agentId(flags.agent),
      ids: argv as string[],
      reason: flags.reason,
      reviewer: flags.reviewer,
    });
    this.output({ rejected }, rejectView);
  }
}
