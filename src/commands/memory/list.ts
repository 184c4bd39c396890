import { Flags } from '@oclif/core';
import { HippoCommand } from '../../cli/base-command.js';
import { memoryListView } from '../../cli/render-memory.js';
import { listMemories } from '../../core/memory.js';
import { intFlag, RANGES } from '../../cli/int-flag.js';

export default class MemoryList extends HippoCommand {
  static override summary = 'List memories, newest first (a thread: in its order).';
  static override examples = [
    '<%= config.bin %> memory list --limit 20',
    '<%= config.bin %> memory list --tag contacts --include-archived --json',
    '<%= config.bin %> memory list --thread chat-2026-05-04',
  ];
  static override flags = {
    limit: intFlag({ ...RANGES.count, default: 50, description: 'how many' }),
    tag: Flags.string({ description: 'only memories with this tag' }),
    thread: Flags.string({ description: 'only this thread, oldest first (createdAt, then the order they were added)' }),
    'include-archived': Flags.boolean({ default: false, description: 'include archived memories' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(MemoryList);
    const memories = await listMemories(await this.store(flags.db), {
      agentId: this.agentId(flags.agent),
      limit: flags.limit,
      tag: flags.tag,
      thread: flags.thread,
      includeArchived: flags['include-archived'],
    });
    this.output({ memories }, memoryListView);
  }
}
