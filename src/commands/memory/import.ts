import { Args } from '@oclif/core';
import { HippoCommand } from '../../cli/base-command.js';
import { UsageError } from '../../core/errors.js';
import { collectImportFiles, importFiles, type ImportResult } from '../../core/import.js';

export default class MemoryImport extends HippoCommand {
  static override summary = 'Import memories from .jsonl, .md/.txt (one per paragraph) or directories; one transaction per file.';
  static override description =
    'A bad line names file:line and imports nothing from that file; other files are unaffected. JSONL lines are memory objects as `memory export` writes them (their agentId wins; lines without one go to --agent); an id that already exists is skipped, never overwritten.';
  static override examples = ['<%= config.bin %> memory import notes/ backup.jsonl', '<%= config.bin %> memory import meeting-notes.md --agent alice --json'];
  static override strict = false;
  static override args = { paths: Args.string({ ignoreStdin: true, required: true, description: 'files or directories' }) };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(MemoryImport);
    const files = collectImportFiles(argv as string[]);
    if (files.length === 0) throw new UsageError('nothing_to_import', 'no .jsonl, .md or .txt files found in the given paths');
    const store = this.store(flags.db);
    const bar = process.stderr.isTTY && !this.jsonMode ? await createProgressBar(files.length) : undefined;
    let result: ImportResult;
    try {
      result = await importFiles(store, files, { agentId: this.agentId(flags.agent), signal: this.abortSignal, onFile: (done) => bar?.update(done) });
    } finally {
      bar?.stop();
    }
    const failed = result.files.filter((file) => file.error);
    if (result.duplicates > 0) this.note(`warning: ${result.duplicates} imported memories repeat text already stored (kept; see memory list)`);
    if (failed.length > 0) {
      throw new UsageError(
        'import_failed',
        `${failed.length} of ${files.length} files not imported (nothing from them was written):\n${failed.map((file) => `  ${file.error!.message}`).join('\n')}\n${result.imported} memories imported from the other files`,
        { details: { ...result } },
      );
    }
    this.output(result, () => {
      const existing = result.existing > 0 ? `, ${result.existing} already present (skipped)` : '';
      return `imported ${result.imported} memories from ${files.length} file${files.length === 1 ? '' : 's'}${existing}`;
    });
  }
}

/** cli-progress is loaded only when a terminal will show it. */
async function createProgressBar(total: number): Promise<{ update(done: number): void; stop(): void }> {
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar({ stream: process.stderr, format: 'importing [{bar}] {value}/{total} files', clearOnComplete: true }, Presets.shades_classic);
  bar.start(total, 0);
  return bar;
}
