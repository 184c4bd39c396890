import { HippoCommand } from '../cli/base-command.js';
import { versionView } from '../views/render-about.js';

export default class Version extends HippoCommand {
  static override summary = 'Print the version of hippo, Node.js and the platform (--version prints the same line).';
  static override examples = ['<%= config.bin %> version', '<%= config.bin %> version --json'];

  async run(): Promise<void> {
    await this.parse(Version);
    const { name, version } = this.config;
    this.output({ name, version, node: process.version, platform: process.platform, arch: process.arch }, versionView);
  }
}
