import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { promoteView } from '../../views/render-rem.js';
import { promote, PROMOTE_DURABILITIES } from '../../core/rem/review.js';

export default class RemPromote extends HippoCommand {
  static override summary = 'Promote candidates to memories (with lineage), giving a rationale.';
  static override examples = [
    '<%= config.bin %> rem promote cand_01JD3Z8N6Q2W4E5R7T9Y1V3J5M --rationale "matches the post-mortem"',
    '<%= config.bin %> rem promote cand_01JD… cand_01JE… --rationale "confirmed with Ana" --durability permanent --reviewer alice',
  ];
  static override strict = false;
  static override args = { ids: Args.string({ ignoreStdin: true, required: true, description: 'candidate ids' }) };
  static override flags = {
    rationale: Flags.string({ required: true, description: 'why this should be kept (not blank)' }),
    durability: Flags.string({ options: [...PROMOTE_DURABILITIES], default: 'persistent', description: 'durability of the new memory' }),
    reviewer: Flags.string({ description: 'who decided (default $HIPPO_REVIEWER, else the OS user)' }),
    'allow-missing-sources': Flags.boolean({ default: false, description: 'promote even if a cited memory is gone' }),
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(RemPromote);
    const promoted = await promote(await this.existingStore(flags.db), {
      agentId: this.agentId(flags.agent),
      ids: argv as string[],
      rationale: flags.rationale,
      durability: flags.durability as (typeof PROMOTE_DURABILITIES)[number],
      reviewer: flags.reviewer,
      allowMissingSources: flags['allow-missing-sources'],
    });
    this.output({ promoted }, promoteView);
  }
}
