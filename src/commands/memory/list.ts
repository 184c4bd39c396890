import { Flags } from '@oclif/core';
import { HippoCommand } from '../../cli/base-command.js';
import { painter, terminalWidth } from '../../cli/output.js';
import { memoryLine } from '../../cli/render.js';
import { listMemories } from '../../core/memory.js';

export default class MemoryList extends HippoCommand {
  static override summary = 'List memories, newest first.';
  static override examples = ['<%= config.bin %> memory list --limit 20', '<%= config.bin %> memory list --tag contacts --include-archived --json'];
  static override flags = {
    limit: Flags.integer({ default: 50, min: 1, description: 'how many' }),
    tag: Flags.string({ description: 'only memories with this tag' }),
    'include-archived': Flags.boolean({ default: false, description: 'include archived memories' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(MemoryList);
    const memories = listMemories(this.store(flags.db), {
      agentId: this.agentId(flags.agent),
      limit: flags.limit,
      tag: flags.tag,
      includeArchived: flags['include-archived'],
    });
    const paint = painter(process.stdout);
    const width = terminalWidth(process.stdout);
    this.output({ memories }, () => (memories.length === 0 ? 'no memories' : memories.map((memory) => memoryLine(memory, paint, width)).join('\n')));
  }
}
