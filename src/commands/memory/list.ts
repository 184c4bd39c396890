import { Flags } from '@oclif/core';
import { HippoCommand } from '../../cli/base-command.js';
import { memoryListView } from '../../cli/render-memory.js';
import { listMemories } from '../../core/memory.js';
import { intFlag, RANGES } from '../../cli/int-flag.js';

export default class MemoryList extends HippoCommand {
  static override summary = 'List memories, newest first.';
  static override examples = ['<%= config.bin %> memory list --limit 20', '<%= config.bin %> memory list --tag contacts --include-archived --json'];
  static override flags = {
    limit: intFlag({ ...RANGES.count, default: 50, description: 'how many' }),
    tag: Flags.string({ description: 'only memories with this tag' }),
    'include-archived': Flags.boolean({ default: false, description: 'include archived memories' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(MemoryList);
    const memories = await listMemories(await this.existingStore(flags.db), {
      agentId: this.agentId(flags.agent),
      limit: flags.limit,
      tag: flags.tag,
      includeArchived: flags['include-archived'],
    });
    this.output({ memories }, memoryListView);
  }
}
