import { Flags } from '@oclif/core';
import { once } from 'node:events';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { HippoCommand } from '../../cli/base-command.js';
import { UsageError } from '../../core/errors.js';
import { iterateMemories, type Memory } from '../../core/memory.js';

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
    const memories = iterateMemories(this.store(flags.db), flags['all-agents'] ? undefined : this.agentId(flags.agent));
    if (flags.output === undefined && this.jsonMode) {
      this.output({ memories: [...memories] }, () => undefined);
      return;
    }
    if (flags.output === undefined) {
      const exported = await writeLines(process.stdout, memories);
      this.note(`exported ${exported} memories`);
      return;
    }
    const exported = await exportToFile(flags.output, memories);
    this.output({ exported, path: flags.output }, () => `exported ${exported} memories to ${flags.output}`);
  }
}

/** Writes one JSON line per memory, waiting for the stream to drain (a slow pipe must not cut the export short). */
async function writeLines(stream: NodeJS.WritableStream, memories: Iterable<Memory>): Promise<number> {
  let count = 0;
  for (const memory of memories) {
    if (!stream.write(`${JSON.stringify(memory)}\n`)) await once(stream, 'drain');
    count++;
  }
  return count;
}

/** Exports to a temp file beside the target and renames it into place, so a failure never clobbers an old backup. */
async function exportToFile(path: string, memories: Iterable<Memory>): Promise<number> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const stream = createWriteStream(temp, { mode: 0o600 });
  try {
    await once(stream, 'open');
  } catch (error) {
    throw new UsageError('cannot_write_output', `cannot write ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const count = await writeLines(stream, memories);
    stream.end();
    await once(stream, 'finish');
    renameSync(temp, path);
    return count;
  } catch (error) {
    stream.destroy();
    rmSync(temp, { force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EISDIR' || code === 'EACCES' || code === 'ENOENT') throw new UsageError('cannot_write_output', `cannot write ${path} (${code})`);
    throw error;
  }
}
