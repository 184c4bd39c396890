import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { memoryFilterFlags, memoryFilters } from '../../cli/filter-flags.js';
import { memoryListView } from '../../views/render-memory.js';
import { elsewhereWarning, listMemories } from '../../core/memory/memory.js';
import { intFlag, RANGES } from '../../cli/int-flag.js';

export default class MemoryList extends HippoCommand {
  static override summary = 'List memories, newest first (a thread: in its order).';
  static override examples = [
    '<%= config.bin %> memory list -n 20',
    '<%= config.bin %> memory list --tag contacts --include-archived --json',
    '<%= config.bin %> memory list --since yesterday --durability persistent',
    '<%= config.bin %> memory list --thread chat-2026-05-04',
  ];
  static override flags = {
    limit: intFlag({ ...RANGES.count, char: 'n', default: 50, description: 'how many' }),
    ...memoryFilterFlags,
    thread: Flags.string({ description: 'only this thread, oldest first (createdAt, then the order they were added)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(MemoryList);
    const store = await this.existingStore(flags.db);
    const agentId = this.agentId(flags.agent);
    const memories = await listMemories(store, { agentId, limit: flags.limit, thread: flags.thread, ...memoryFilters(flags, store.clock()) });
    // Nothing for this agent while others have memories: usually a missing --agent (after `hippo demo`, say).
    const elsewhere = memories.length === 0 ? await elsewhereWarning(store, agentId, 'memories') : undefined;
    this.output({ memories, warnings: elsewhere ? [elsewhere] : [] }, memoryListView);
    await this.auditRead(
      store,
      agentId,
      'memory list',
      memories.map((memory) => memory.id),
    );
  }
}
