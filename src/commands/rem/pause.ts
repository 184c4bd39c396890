import { HippoCommand } from '../../cli/base-command.js';
import { pauseView } from '../../views/render-nightly.js';
import { pauseNightly } from '../../core/nightly/pause.js';

export default class RemPause extends HippoCommand {
  static override summary = 'Pause nightly runs for this database until hippo rem resume (each run then records "paused" and exits 0).';
  static override examples = ['<%= config.bin %> rem pause', '<%= config.bin %> rem resume'];

  async run(): Promise<void> {
    const { flags } = await this.parse(RemPause);
    this.output(await pauseNightly(await this.existingStore(flags.db)), pauseView);
  }
}
