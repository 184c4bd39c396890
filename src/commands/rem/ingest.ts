import { Args, Flags } from '@oclif/core';
import { readFileSync } from 'node:fs';
import { HippoCommand } from '../../cli/base-command.js';
import { cut, painter, terminalWidth } from '../../cli/output.js';
import { readStdin } from '../../cli/stdin.js';
import { UsageError } from '../../core/errors.js';
import { decodeUtf8 } from '../../core/import.js';
import { ingest } from '../../core/rem/handoff.js';

export default class RemIngest extends HippoCommand {
  static override summary = "Bring back an external LLM's answer to a --prompt-only handoff; verified and staged exactly like rem rapid.";
  static override examples = [
    '<%= config.bin %> rem ingest hof_01JD3Z8N6Q2W4E5R7T9Y1U3I5O answer.json',
    'pbpaste | <%= config.bin %> rem ingest hof_01JD3Z8N6Q2W4E5R7T9Y1U3I5O - --generated-by gpt-5',
  ];
  static override args = {
    handoff: Args.string({ ignoreStdin: true, required: true, description: 'the handoff id printed by rem rapid --prompt-only' }),
    file: Args.string({ ignoreStdin: true, description: 'the answer file, or - (default) for stdin' }),
  };
  static override flags = {
    'generated-by': Flags.string({ description: 'the model that wrote the answer, recorded on the candidates', default: 'external' }),
    'restage-rejected': Flags.boolean({ default: false, description: 'stage a claim again even if it was rejected before' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RemIngest);
    let answer: string;
    if (args.file === undefined || args.file === '-') {
      if (process.stdin.isTTY) throw new UsageError('answer_required', 'give the answer file, or pipe the answer on stdin');
      answer = await readStdin();
    } else {
      try {
        answer = decodeUtf8(readFileSync(args.file), args.file);
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError('file_not_found', `cannot read ${args.file}`);
      }
    }
    const result = ingest(this.store(flags.db), {
      agentId: this.agentId(flags.agent),
      handoffId: args.handoff,
      answer,
      generatedBy: flags['generated-by'],
      restageRejected: flags['restage-rejected'],
    });
    const paint = painter(process.stdout);
    const width = terminalWidth(process.stdout);
    this.output({ run: result.run, model: result.model, candidates: result.candidates, counts: result.counts }, () =>
      [
        `ingested ${args.handoff} · staged ${result.counts.staged} · skipped ${result.counts.skippedDuplicates} duplicate, ${result.counts.skippedRejected} previously rejected`,
        ...result.candidates.map((candidate) => `${paint('bold', candidate.id)} ${cut(candidate.claim, Math.max(20, width - candidate.id.length - 1))}`),
        ...(result.candidates.length > 0 ? [paint('dim', 'review: hippo rem candidates')] : []),
      ].join('\n'),
    );
  }
}
