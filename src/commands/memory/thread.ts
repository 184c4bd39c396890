import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { memoryThreadView } from '../../views/render-thread.js';

export default class MemoryThread extends HippoCommand {
  static override summary = 'Put memories into a thread, or take them out of any thread; their search context follows.';
  static override description = `Search reads a threaded memory with the memories around it in its thread. Choose the memories by id, by the thread they are in (--from), or by the file they were imported from (--file: a text file's paragraphs, or every line an older hippo threaded by that file); say where with --set NAME or --clear. One transaction: the memories, the neighbours they leave and join, and their search entries change together; a cleared memory keeps no neighbour's text in the index. An unknown id changes nothing (exit 3).`;
  static override examples = [
    '<%= config.bin %> memory thread --file ~/notes/todo.txt --clear   # a list an older hippo imported as one thread',
    '<%= config.bin %> memory thread mem_01JD3Z8N6Q2W4E5R7T9Y1V3J5M mem_01JD3Z9A0B1C2D3E4F5G6H7J8K --set kitchen-chat',
    '<%= config.bin %> memory thread --from chat-2026-05-04 --set trip-planning --json',
  ];
  static override strict = false;
  static override args = { ids: Args.string({ ignoreStdin: true, required: false, description: 'memory ids' }) };
  static override flags = {
    set: Flags.string({ description: 'the thread to put them in', exclusive: ['clear'] }),
    clear: Flags.boolean({ default: false, description: 'take them out of any thread', exclusive: ['set'] }),
    from: Flags.string({ description: 'every memory now in this thread' }),
    file: Flags.string({ description: 'every memory imported from this file' }),
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(MemoryThread);
    // Loaded when run: the import code it shares reads JSONL with zod, which a start does not load.
    const { threadMemories } = await import('../../core/memory/rethread.js');
    const result = await threadMemories(() => this.existingStore(flags.db), {
      agentId: this.agentId(flags.agent),
      ids: argv as string[],
      from: flags.from,
      file: flags.file,
      thread: flags.clear ? null : flags.set,
    });
    this.output(result, memoryThreadView);
  }
}
