import * as Args from '@oclif/core/args';
import { HippoCommand } from '../../cli/base-command.js';
import { unarchiveView } from '../../views/render-lifecycle.js';
import { unarchiveMemories } from '../../core/memory/lifecycle.js';

export default class MemoryUnarchive extends HippoCommand {
  static override summary = 'Bring archived memories back (search, lists and distillation see them again); all or nothing.';
  static override examples = ['<%= config.bin %> memory unarchive mem_01JD3Z8N6Q2W4E5R7T9Y1V3J5M'];
  static override strict = false;
  static override args = { ids: Args.string({ ignoreStdin: true, required: true, description: 'memory ids' }) };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(MemoryUnarchive);
    this.output(await unarchiveMemories(await this.existingStore(flags.db), this.agentId(flags.agent), argv as string[]), unarchiveView);
  }
}
