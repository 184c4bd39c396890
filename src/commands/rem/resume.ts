import { HippoCommand } from '../../cli/base-command.js';
import { resumeView } from '../../views/render-nightly.js';
import { pausedByEnv, resumeNightly } from '../../core/nightly/pause.js';

export default class RemResume extends HippoCommand {
  static override summary = 'Resume nightly runs paused by hippo rem pause.';
  static override examples = ['<%= config.bin %> rem resume'];

  async run(): Promise<void> {
    const { flags } = await this.parse(RemResume);
    const { wasPaused } = await resumeNightly(await this.existingStore(flags.db));
    this.output({ paused: pausedByEnv(process.env), wasPaused }, resumeView);
  }
}
