import * as Args from '@oclif/core/args';
import { HippoCommand } from '../../cli/base-command.js';
import { configSetView } from '../../views/render-config.js';
import { setConfigValue } from '../../core/config.js';
import { configFilePath } from '../../core/paths.js';

export default class ConfigSet extends HippoCommand {
  static override summary = 'Set one key of the config file; the value is checked first, and the file is written whole (mode 0600).';
  static override description =
    'Unknown keys are refused with the nearest known one; API keys are never kept in the file (set HIPPO_API_KEY, OPENAI_API_KEY or ANTHROPIC_API_KEY in the environment). A list key takes several values (regions GB US) or commas (GB,US).';
  static override strict = false;
  static override examples = [
    '<%= config.bin %> config set model ollama:llama3.2',
    '<%= config.bin %> config set baseUrl http://127.0.0.1:11434',
    '<%= config.bin %> config set region IE',
    '<%= config.bin %> config set regions GB US DE',
  ];
  static override args = {
    key: Args.string({ required: true, description: 'the key (hippo config list shows them all)' }),
    value: Args.string({ required: true, description: 'the value; a list key takes several' }),
  };

  async run(): Promise<void> {
    const { argv } = await this.parse(ConfigSet);
    const [key, ...values] = argv as string[];
    const path = configFilePath();
    this.output({ ...(await setConfigValue(key!, values, { path })), path }, configSetView);
  }
}
