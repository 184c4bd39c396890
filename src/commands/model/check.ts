import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { resolveModel } from '../../cli/model.js';
import { redactFlag, redactMode } from '../../cli/redact-flag.js';
import { modelCheckView } from '../../views/render-model.js';

export default class ModelCheck extends HippoCommand {
  static override summary = 'Show the resolved model configuration, where content would be sent, and make one tiny test call.';
  static override examples = [
    '<%= config.bin %> model check',
    'HIPPO_MODEL=ollama:llama3.2 <%= config.bin %> model check --json',
    '<%= config.bin %> model check --model "command:llm -m gpt-4o-mini"',
    'HIPPO_MODEL=anthropic:claude-sonnet-4-5 <%= config.bin %> model check --offline',
  ];
  static override flags = {
    model: Flags.string({ description: 'provider:model to check instead of HIPPO_MODEL / the config file' }),
    offline: Flags.boolean({ default: false, description: 'only show the configuration and where content would go; send nothing' }),
    redact: redactFlag,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ModelCheck);
    const config = await resolveModel(flags.model);
    const { checkModel } = await import('../../core/model/check.js');
    this.output(await checkModel(config, { signal: this.abortSignal, call: !flags.offline, redact: redactMode(flags.redact) }), modelCheckView);
  }
}
