import * as Args from '@oclif/core/args';
import { HippoCommand } from '../../cli/base-command.js';
import { configGetView } from '../../views/render-config.js';
import { configFile, configKey } from '../../core/config.js';

export default class ConfigGet extends HippoCommand {
  static override summary = 'Print one key of the config file (nothing when it is not set).';
  static override examples = ['<%= config.bin %> config get model', '<%= config.bin %> config get regions --json'];
  static override args = { key: Args.string({ required: true, description: 'the key (hippo config list shows them all)' }) };

  async run(): Promise<void> {
    const { args } = await this.parse(ConfigGet);
    const report = configFile();
    const key = configKey(args.key, report.path);
    this.output({ ...report.keys.find((entry) => entry.key === key)!, path: report.path }, configGetView);
  }
}
