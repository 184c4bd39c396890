import { Flags } from '@oclif/core';
import { closeSync, openSync, writeSync } from 'node:fs';
import { HippoCommand } from '../../cli/base-command.js';
import { iterateMemories } from '../../core/memory.js';

export default class MemoryExport extends HippoCommand {
  static override summary = 'Export the agent\'s memories (archived too) as JSONL that `memory import` reads back losslessly.';
  static override examples = ['<%= config.bin %> memory export > memories.jsonl', '<%= config.bin %> memory export --output backup.jsonl --json'];
  static override flags = { output: Flags.string({ char: 'o', description: 'write to this file (mode 0600) instead of stdout' }) };

  async run(): Promise<void> {
    const { flags } = await this.parse(MemoryExport);
    const memories = iterateMemories(this.store(flags.db), this.agentId(flags.agent));
    if (flags.output === undefined && this.jsonMode) {
      this.output({ memories: [...memories] }, () => undefined);
      return;
    }
    const fd = flags.output === undefined ? 1 : openSync(flags.output, 'w', 0o600);
    let exported = 0;
    try {
      for (const memory of memories) {
        writeSync(fd, `${JSON.stringify(memory)}\n`);
        exported++;
      }
    } finally {
      if (fd !== 1) closeSync(fd);
    }
    if (flags.output !== undefined) this.output({ exported, path: flags.output }, () => `exported ${exported} memories to ${flags.output}`);
    else this.note(`exported ${exported} memories`);
  }
}
