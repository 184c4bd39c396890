import * as Args from '@oclif/core/args';
import { HippoCommand } from '../../cli/base-command.js';
import { configUnsetView } from '../../views/render-config.js';
import { unsetConfigValue } from '../../core/config.js';
import { configFilePath } from '../../core/paths.js';

export default class ConfigUnset extends HippoCommand {
  static override summary = 'Remove one key from the config file (also a key hippo does not know, to clean up a typo).';
  static override examples = ['<%= config.bin %> config unset model', '<%= config.bin %> config unset modle'];
  static override args = { key: Args.string({ required: true, description: 'the key to remove' }) };

  async run(): Promise<void> {
    const { args } = await this.parse(ConfigUnset);
    const path = configFilePath();
    this.output({ ...(await unsetConfigValue(args.key, { path })), path }, configUnsetView);
  }
}
