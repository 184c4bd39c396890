import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { memoryFilterFlags, memoryFilters } from '../../cli/filter-flags.js';
import { memoryListView } from '../../views/render-memory.js';
import { elsewhereWarning, listMemoryPage } from '../../core/memory/memory.js';
import { limitFlags, limitOf } from '../../cli/limit-flags.js';

export default class MemoryList extends HippoCommand {
  static override summary = 'List memories, newest first (a thread: in its order).';
  static override examples = [
    '<%= config.bin %> memory list -n 20',
    '<%= config.bin %> memory list --tag contacts --include-archived --json',
    '<%= config.bin %> memory list --since yesterday --durability persistent',
    '<%= config.bin %> memory list --thread chat-2026-05-04',
  ];
  static override flags = {
    ...limitFlags(50),
    ...memoryFilterFlags,
    thread: Flags.string({ description: 'only this thread, oldest first (createdAt, then the order they were added)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(MemoryList);
    const store = await this.existingStore(flags.db);
    const agentId = this.agentId(flags.agent);
    const page = await listMemoryPage(store, { agentId, limit: limitOf(flags), thread: flags.thread, ...memoryFilters(flags, store.clock()) });
    // Nothing for this agent while others have memories: usually a missing --agent (after `hippo demo`, say).
    const elsewhere = page.memories.length === 0 ? await elsewhereWarning(store, agentId, 'memories') : undefined;
    this.output({ ...page, warnings: elsewhere ? [elsewhere] : [] }, memoryListView);
    await this.auditRead(
      store,
      agentId,
      'memory list',
      page.memories.map((memory) => memory.id),
    );
  }
}
