import * as Args from '@oclif/core/args';
import { HippoCommand } from '../../cli/base-command.js';
import { candidateShowView } from '../../views/render-rem.js';
import { getMemories } from '../../core/memory/memory.js';
import { getCandidate } from '../../core/rem/candidates.js';

export default class RemShow extends HippoCommand {
  static override summary = 'Show a candidate: claim, status, model, run, and the full text of every memory it cites.';
  static override examples = ['<%= config.bin %> rem show cand_01JD3Z8N6Q2W4E5R7T9Y1V3J5M'];
  static override args = { id: Args.string({ ignoreStdin: true, required: true, description: 'candidate id' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RemShow);
    const store = await this.existingStore(flags.db);
    const agentId = this.agentId(flags.agent);
    const candidate = await getCandidate(store, agentId, args.id);
    this.output({ candidate, sources: await getMemories(store, agentId, candidate.sourceMemoryIds) }, candidateShowView);
  }
}
