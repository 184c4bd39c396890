import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { memoryExportFileView, memoryExportStdoutView } from '../../views/render-memory.js';
import { exportMemoriesToFile, writeMemoryLines } from '../../core/memory/export.js';
import { iterateMemories } from '../../core/memory/memory.js';
import { notingIds } from '../../core/governance/audit.js';

export default class MemoryExport extends HippoCommand {
  static override summary = 'Export memories (archived too) as JSONL that `memory import` reads back losslessly.';
  static override examples = [
    '<%= config.bin %> memory export > memories.jsonl',
    '<%= config.bin %> memory export --output backup.jsonl --json',
    '<%= config.bin %> memory export --all-agents | gzip > everything.jsonl.gz',
  ];
  static override flags = {
    output: Flags.string({ char: 'o', description: 'write to this file (mode 0600; replaced only once complete) instead of stdout' }),
    'all-agents': Flags.boolean({ default: false, description: "every agent's memories, not only --agent" }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(MemoryExport);
    const store = await this.existingStore(flags.db);
    // The read audit (audit.cliReads on): every memory handed over, under its agent, once the export is written.
    const handed = this.auditsCliReads() ? new Map<string, string[]>() : undefined;
    const memories = notingIds(iterateMemories(store, flags['all-agents'] ? undefined : this.agentId(flags.agent)), handed);
    if (flags.output !== undefined) {
      this.output({ exported: await exportMemoriesToFile(flags.output, memories), path: flags.output }, memoryExportFileView);
    } else if (this.jsonMode) {
      // Under --json, stdout holds one document: the memories as an array.
      const all = [];
      for await (const memory of memories) all.push(memory);
      this.output({ memories: all }, {});
    } else {
      this.output({ exported: await writeMemoryLines(process.stdout, memories) }, memoryExportStdoutView);
    }
    for (const [agentId, ids] of handed ?? []) await this.auditRead(store, agentId, 'memory export', ids);
  }
}
