import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { memoryArchiveView } from '../../views/render-memory.js';
import { archiveMemories } from '../../core/memory/lifecycle.js';

export default class MemoryArchive extends HippoCommand {
  static override summary = 'Archive (soft-delete) memories; all or nothing.';
  static override examples = ['<%= config.bin %> memory archive mem_01JD3Z8N6Q2W4E5R7T9Y1V3J5M --reason "superseded"'];
  static override strict = false;
  static override args = { ids: Args.string({ ignoreStdin: true, required: true, description: 'memory ids' }) };
  static override flags = { reason: Flags.string({ default: 'archived by hand', description: 'why' }) };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(MemoryArchive);
    this.output(await archiveMemories(await this.existingStore(flags.db), this.agentId(flags.agent), argv as string[], flags.reason), memoryArchiveView);
  }
}
