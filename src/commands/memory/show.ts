import * as Args from '@oclif/core/args';
import { HippoCommand } from '../../cli/base-command.js';
import { memoryShowView } from '../../views/render-memory.js';
import { showMemory } from '../../core/memory/memory.js';

export default class MemoryShow extends HippoCommand {
  static override summary = 'Show one memory in full.';
  static override examples = ['<%= config.bin %> memory show mem_01JD3Z8N6Q2W4E5R7T9Y1V3J5M'];
  static override args = { id: Args.string({ ignoreStdin: true, required: true, description: 'memory id' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MemoryShow);
    const store = await this.existingStore(flags.db);
    const shown = await showMemory(store, this.agentId(flags.agent), args.id);
    this.output(shown, memoryShowView);
    await this.auditRead(store, shown.memory.agentId, 'memory show', [shown.memory.id, ...shown.versions.map((version) => version.id)]);
  }
}
