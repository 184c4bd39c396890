import { HippoCommand } from '../../cli/base-command.js';
import { configListView } from '../../views/render-config.js';
import { configInEffect } from '../../core/config-effect.js';

export default class ConfigList extends HippoCommand {
  static override summary = 'List every config key: the value in effect, where it comes from (environment, file, default), and what it means.';
  static override description =
    'The file is <XDG config>/hippo/config.json (hippo config path). Flags and environment variables beat it; API keys are never kept there (HIPPO_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY).';
  static override examples = ['<%= config.bin %> config list', '<%= config.bin %> config list --json'];

  async run(): Promise<void> {
    await this.parse(ConfigList);
    this.output(await configInEffect(), configListView);
  }
}
