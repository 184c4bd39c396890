import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { confirmDestructive } from '../../cli/confirm.js';
import { restoreAppliedView, restorePlanView, restoreQuestion } from '../../views/render-nightly.js';
import { applyRestore, planRestore, resolveSnapshot } from '../../core/nightly/restore.js';

export default class RemRestore extends HippoCommand {
  static override summary = "Put memories, candidates and handoffs back as they were in a snapshot (one agent's, or everyone's).";
  static override description = `Without --apply, shows per table what the restore would add, remove and change, and changes nothing.
With --apply (asks first on a terminal; needs --yes otherwise): checks the snapshot with integrity_check, takes a pre-restore snapshot (restore that one to undo), then replaces the rows in one transaction and verifies they equal the snapshot's; any mismatch rolls everything back.
--agent restores only that agent's rows; other agents' rows are not touched. Without --agent, every agent's rows are restored. The audit log (hippo rem runs) and the pause flag are never restored.`;
  static override examples = [
    '<%= config.bin %> rem snapshots',
    '<%= config.bin %> rem restore 20261102T033000Z-run_01JD3Z8N6Q2W4E5R7T9Y1V3J5M.db --agent ops-agent',
    '<%= config.bin %> rem restore run_01JD3Z8N6Q2W4E5R7T9Y1V3J5M --agent ops-agent --apply',
  ];
  static override args = {
    snapshot: Args.string({
      ignoreStdin: true,
      required: true,
      description: 'a snapshot file name (hippo rem snapshots), the id of the run that took it, or a path',
    }),
  };
  static override flags = {
    agent: Flags.string({ description: "restore only this agent's rows (default: every agent's; $HIPPO_AGENT is not used here)", helpGroup: 'GLOBAL' }),
    apply: Flags.boolean({ default: false, description: 'restore (otherwise only show what would change)' }),
    yes: Flags.boolean({ char: 'y', default: false, description: 'do not ask for confirmation (required with --apply when not on a terminal)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RemRestore);
    const store = await this.existingStore(flags.db);
    // Only an explicit --agent narrows the restore; $HIPPO_AGENT alone does not.
    const agentId = flags.agent === undefined ? null : this.agentId(flags.agent);
    const file = resolveSnapshot(store, args.snapshot);
    const plan = await planRestore(store, file, agentId);
    if (!flags.apply) return this.output({ applied: false as const, ...plan }, restorePlanView(args.snapshot));
    await confirmDestructive(restoreQuestion(plan, file), flags.yes);
    this.output({ applied: true as const, ...(await applyRestore(store, file, { agentId, signal: this.abortSignal })) }, restoreAppliedView);
  }
}
