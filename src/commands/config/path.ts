import { existsSync } from 'node:fs';
import { HippoCommand } from '../../cli/base-command.js';
import { configPathView } from '../../views/render-config.js';
import { configFilePath } from '../../core/paths.js';

export default class ConfigPath extends HippoCommand {
  static override summary = 'Print where the config file is (<XDG config>/hippo/config.json), whether or not it exists yet.';
  static override examples = ['<%= config.bin %> config path', '$EDITOR "$(<%= config.bin %> config path)"'];

  async run(): Promise<void> {
    await this.parse(ConfigPath);
    const path = configFilePath();
    this.output({ path, exists: existsSync(path) }, configPathView);
  }
}
