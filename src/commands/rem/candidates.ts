import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { candidatesView, elsewhereNote } from '../../views/render-rem.js';
import { CANDIDATE_STATUSES, listCandidatePage, pendingElsewhere, type CandidateStatus } from '../../core/rem/candidates.js';
import { PROMOTE_DURABILITIES } from '../../core/rem/review.js';
import { limitFlags, limitOf } from '../../cli/limit-flags.js';

export default class RemCandidates extends HippoCommand {
  static override summary = 'Review candidates: interactive on a terminal; a plain list otherwise (--json, CI, pipes).';
  static override description = `On a terminal this opens the review screen for pending candidates: each claim next to the full text of the memories it cites. Keys: ↑/↓ (j/k) move, p promote, e edit then promote, r reject, s skip, / filter, ? help, q quit. Every decision is saved the moment it is confirmed.

Without a terminal, with --json, with CI set, or with --status other than pending, it prints the plain list instead and never asks anything.`;
  static override examples = [
    '<%= config.bin %> rem candidates',
    '<%= config.bin %> rem candidates --reviewer alice --durability permanent',
    '<%= config.bin %> rem candidates --status all --json',
  ];
  static override flags = {
    status: Flags.string({ options: [...CANDIDATE_STATUSES, 'all'], default: 'pending', description: 'which candidates to list' }),
    ...limitFlags(1000, 'at most this many'),
    reviewer: Flags.string({ description: 'review screen: who decides (default $HIPPO_REVIEWER, else the OS user)' }),
    durability: Flags.string({ options: [...PROMOTE_DURABILITIES], default: 'persistent', description: 'review screen: durability of promoted memories' }),
    'allow-missing-sources': Flags.boolean({ default: false, description: 'review screen: promote even if a cited memory is gone' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(RemCandidates);
    const store = await this.existingStore(flags.db);
    const agentId = this.agentId(flags.agent);
    if (this.interactive && flags.status === 'pending') {
      // Loaded only here: ink and React cost every other command startup time they do not need.
      const [{ reviewCandidates }, { reviewView }] = await Promise.all([import('../../ui/review/run.js'), import('../../ui/review/summary.js')]);
      const options = {
        agentId,
        reviewer: flags.reviewer,
        durability: flags.durability as (typeof PROMOTE_DURABILITIES)[number],
        allowMissingSources: flags['allow-missing-sources'],
        limit: limitOf(flags),
        allowMissingSourcesCommand: this.hint(['rem', 'candidates', '--allow-missing-sources']),
      };
      const outcome = await reviewCandidates(store, options, this.abortSignal);
      // Nothing pending here: say which other agents have some.
      const elsewhere = outcome === undefined ? await pendingElsewhere(store, agentId) : [];
      return this.output(outcome, {
        ...reviewView,
        notes: (result, context) => [elsewhereNote(elsewhere, agentId, this.hint), ...(reviewView.notes?.(result, context) ?? [])],
      });
    }
    const page = await listCandidatePage(store, { agentId, status: flags.status as CandidateStatus | 'all', limit: limitOf(flags) });
    const elsewhere = flags.status === 'pending' && page.candidates.length === 0 ? await pendingElsewhere(store, agentId) : [];
    this.output(page, candidatesView(flags.status, agentId, elsewhere, this.hint));
  }
}
