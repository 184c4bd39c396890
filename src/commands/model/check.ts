import { Flags } from '@oclif/core';
import { HippoCommand } from '../../cli/base-command.js';
import { resolveModel } from '../../cli/model.js';
import { painter } from '../../cli/output.js';
import { HippoError, type ExitCode } from '../../core/errors.js';

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
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ModelCheck);
    const config = await resolveModel(flags.model);
    const { checkModel } = await import('../../core/model/check.js');
    const result = await checkModel(config, { signal: this.abortSignal, call: !flags.offline });
    const paint = painter(process.stdout);
    if (!this.jsonMode) {
      const lines: string[] = [];
      if (result.configured) {
        lines.push(
          `${paint('dim', 'provider')}   ${result.provider} (from ${result.source})`,
          `${paint('dim', 'model')}      ${result.model}`,
          ...(result.baseUrl ? [`${paint('dim', 'base URL')}   ${result.baseUrl}`] : []),
          ...(result.key ? [`${paint('dim', 'key')}        ${result.key}`] : []),
          `${paint('dim', 'content')}    ${result.leavesMachine ? paint(['bold', 'yellow'], `WARNING: ${result.egress}`) : result.egress}`,
        );
        if (!result.called) lines.push(`${paint('dim', 'check')}      not called (--offline)`);
        else if (result.ok)
          lines.push(`${paint('dim', 'check')}      ${paint('green', 'ok')} in ${result.latencyMs} ms (model reported: ${result.reportedModel})`);
      }
      if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
    }
    if (!result.ok && result.error) {
      const { error } = result;
      throw new HippoError(error.code, `${error.message}\n${error.fix}`, error.exitCode as ExitCode, { details: { check: result } });
    }
    this.output(result, () => undefined);
  }
}
