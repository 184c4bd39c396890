import { HippoCommand } from '../../cli/base-command.js';
import { pausedByEnv, resumeNightly } from '../../core/nightly/pause.js';

export default class RemResume extends HippoCommand {
  static override summary = 'Resume nightly runs paused by hippo rem pause.';
  static override examples = ['<%= config.bin %> rem resume'];

  async run(): Promise<void> {
    const { flags } = await this.parse(RemResume);
    const { wasPaused } = resumeNightly(this.store(flags.db));
    const stillPausedByEnv = pausedByEnv(process.env);
    this.output({ paused: stillPausedByEnv, wasPaused }, () => (wasPaused ? 'nightly runs resumed' : 'nightly runs were not paused'));
    if (stillPausedByEnv) this.note('HIPPO_REM_PAUSE is set in this environment: runs that see it stay paused');
  }
}
