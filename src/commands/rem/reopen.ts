import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { reopenView } from '../../views/render-lifecycle.js';
import { reopen } from '../../core/rem/review.js';

export default class RemReopen extends HippoCommand {
  static override summary = 'Send rejected candidates back to pending for another review, saying why.';
  static override description =
    'Records who reopened each candidate, when and why (hippo rem show); the rejection is cleared. A promoted candidate cannot be reopened (its memory exists: archive or forget that instead).';
  static override examples = ['<%= config.bin %> rem reopen cand_01JD3Z8N6Q2W4E5R7T9Y1V3J5M --reason "rejected by mistake"'];
  static override strict = false;
  static override args = { ids: Args.string({ ignoreStdin: true, required: true, description: 'candidate ids' }) };
  static override flags = {
    reason: Flags.string({ description: 'why (required, not blank)' }),
    reviewer: Flags.string({ description: 'who reopens (default $HIPPO_REVIEWER, else the OS user)' }),
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(RemReopen);
    const result = await reopen(await this.existingStore(flags.db), {
      agentId: this.agentId(flags.agent),
      ids: argv as string[],
      reason: flags.reason,
      reviewer: flags.reviewer,
    });
    this.output(result, reopenView);
  }
}
