import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { progressBar } from '../../cli/progress.js';
import { memoryImportView } from '../../views/render-memory.js';

export default class MemoryImport extends HippoCommand {
  static override summary = 'Import memories from .jsonl, .md/.txt (one per paragraph) or directories; one transaction per file.';
  static override description =
    'A bad line names file:line and imports nothing from that file; other files are unaffected. Ctrl-C stops it even inside a large file: that file is rolled back, the files before it stay, and it exits 130 saying what landed. JSONL lines are memory objects as `memory export` writes them (their agentId wins; lines without one go to --agent); an id that already exists is skipped, never overwritten. Each file is one thread, in line order (search reads each memory with its neighbours): a JSONL line may name its own "thread" (null for none), and a line with an "id" (an exported memory) keeps the thread it had.';
  static override examples = [
    '<%= config.bin %> memory import notes/ backup.jsonl',
    '<%= config.bin %> memory import meeting-notes.md --agent alice --json',
    '<%= config.bin %> memory import notes/ --dry-run   # what would be added, skipped or refused; nothing written',
  ];
  static override flags = {
    'dry-run': Flags.boolean({ default: false, description: 'say what would be imported, skipped (already present) or refused, and write nothing' }),
  };
  static override strict = false;
  static override args = { paths: Args.string({ ignoreStdin: true, required: true, description: 'files or directories' }) };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(MemoryImport);
    const { importPaths } = await import('../../core/memory/import.js');
    // The bar counts bytes, so one large file moves it as well as many small ones.
    const bar = await progressBar('bytes', !this.jsonMode);
    const dryRun = flags['dry-run'];
    // A dry run reads an existing store only: it never creates one.
    const result = await importPaths(() => (dryRun ? this.existingStore(flags.db) : this.store(flags.db)), argv as string[], {
      dryRun,
      agentId: this.agentId(flags.agent),
      signal: this.abortSignal,
      onStart: (_files, totalBytes) => bar.start(totalBytes),
      onProgress: (done) => bar.update(done),
    }).finally(() => bar.stop());
    this.output(result, memoryImportView);
  }
}
