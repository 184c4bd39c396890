import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { progressBar } from '../../cli/progress.js';
import { memoryImportView } from '../../views/render-memory.js';

export default class MemoryImport extends HippoCommand {
  static override summary = 'Import memories from .jsonl, .md/.txt (one per paragraph) or directories; one transaction per file.';
  static override description = `A bad line names file:line and imports nothing from that file; other files are unaffected. Ctrl-C stops it even inside a large file: that file is rolled back, the files before it stay, and it exits 130 saying what landed. JSONL lines are memory objects as \`memory export\` writes them (their agentId wins; lines without one go to --agent); an id that already exists is skipped, never overwritten. A file is not a conversation: a plain list of notes (text or Markdown paragraphs, JSONL lines without "thread", "role" or "speaker") is not threaded, so no note is found through the notes beside it. Threaded (search reads each memory with its neighbours): a JSONL line's own "thread" (null for none); with --thread NAME every memory of the import; with --thread-per-file each file is one thread, in line order; else the JSONL lines that are turns of a conversation (a "role" or "speaker" field, as chat exports write them) are one thread per file. hippo memory thread re-threads what is stored.`;
  static override examples = [
    '<%= config.bin %> memory import notes/ backup.jsonl',
    '<%= config.bin %> memory import meeting-notes.md --agent alice --json',
    '<%= config.bin %> memory import notes/ --dry-run   # what would be added, skipped or refused; nothing written',
    '<%= config.bin %> memory import chat-2026-05-04.md --thread-per-file   # a transcript: search reads each turn with its neighbours',
    '<%= config.bin %> memory import standup/*.md --thread standup',
  ];
  static override flags = {
    'dry-run': Flags.boolean({ default: false, description: 'say what would be imported, skipped (already present) or refused, and write nothing' }),
    thread: Flags.string({ description: 'put every memory imported into this thread (a line\'s own "thread" wins)', exclusive: ['thread-per-file'] }),
    'thread-per-file': Flags.boolean({
      default: false,
      description: 'make each file one thread, in line order (a conversation, a document)',
      exclusive: ['thread'],
    }),
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
      threads: { thread: flags.thread, perFile: flags['thread-per-file'] },
      signal: this.abortSignal,
      onStart: (_files, totalBytes) => bar.start(totalBytes),
      onProgress: (done) => bar.update(done),
    }).finally(() => bar.stop());
    this.output(result, memoryImportView);
  }
}
