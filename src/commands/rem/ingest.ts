import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { ingestView } from '../../views/render-rem.js';
import { fileOrStdin } from '../../cli/stdin.js';
import { ingest } from '../../core/rem/handoff.js';
import type { ReadLimit } from '../../core/read-text.js';

/** An answer to a handoff is a few kilobytes of JSON; 16 MiB is far past any real one, and a bound on the read. */
const ANSWER_LIMIT: ReadLimit = { maxBytes: 16 * 1024 * 1024, what: 'an answer to a handoff' };

export default class RemIngest extends HippoCommand {
  static override summary = "Bring back an external LLM's answer to a --prompt-only handoff; verified and staged exactly like rem rapid.";
  static override examples = [
    '<%= config.bin %> rem ingest hof_01JD3Z8N6Q2W4E5R7T9Y1V3J5M answer.json',
    'pbpaste | <%= config.bin %> rem ingest hof_01JD3Z8N6Q2W4E5R7T9Y1V3J5M - --generated-by gpt-5',
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
    const answer = await fileOrStdin(args.file, { code: 'answer_required', message: 'give the answer file, or pipe the answer on stdin' }, ANSWER_LIMIT);
    const result = await ingest(await this.existingStore(flags.db), {
      agentId: this.agentId(flags.agent),
      handoffId: args.handoff,
      answer,
      generatedBy: flags['generated-by'],
      restageRejected: flags['restage-rejected'],
    });
    this.output(result, ingestView(args.handoff));
  }
}
