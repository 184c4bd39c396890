import { Flags } from '@oclif/core';
import { HippoCommand } from '../../cli/base-command.js';
import { painter, terminalWidth } from '../../cli/output.js';
import { candidateLine } from '../../cli/render-rem.js';
import { CANDIDATE_STATUSES, listCandidates, type CandidateStatus } from '../../core/rem/candidates.js';

export default class RemCandidates extends HippoCommand {
  static override summary = 'Review candidates: interactive on a terminal; a plain list otherwise (--json, CI, pipes).';
  static override examples = ['<%= config.bin %> rem candidates', '<%= config.bin %> rem candidates --status all --json'];
  static override flags = {
    status: Flags.string({ options: [...CANDIDATE_STATUSES, 'all'], default: 'pending', description: 'which candidates to list' }),
    limit: Flags.integer({ default: 1000, min: 1, description: 'at most this many' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(RemCandidates);
    const candidates = listCandidates(this.store(flags.db), {
      agentId: this.agentId(flags.agent),
      status: flags.status as CandidateStatus | 'all',
      limit: flags.limit,
    });
    const paint = painter(process.stdout);
    const width = terminalWidth(process.stdout);
    this.output({ candidates }, () =>
      candidates.length === 0 ? `no ${flags.status === 'all' ? '' : `${flags.status} `}candidates` : candidates.map((candidate) => candidateLine(candidate, paint, width)).join('\n'),
    );
  }
}
