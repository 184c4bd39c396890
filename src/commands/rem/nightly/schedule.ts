import { resolve } from 'node:path';
import { HippoCommand } from '../../../cli/base-command.js';
import { scheduleNote, scheduleView } from '../../../views/render-nightly.js';
import { configFilePath, hippoDataDir } from '../../../core/paths.js';
import { scheduleText } from '../../../core/nightly/schedule.js';

export default class RemNightlySchedule extends HippoCommand {
  static override summary = 'Print a crontab line and a systemd user timer that run the nightly job every 30 minutes (installs nothing).';
  static override examples = ['<%= config.bin %> rem nightly schedule', '<%= config.bin %> rem nightly schedule --db ~/notes/hippo.db --json'];

  async run(): Promise<void> {
    const { flags } = await this.parse(RemNightlySchedule);
    const db = this.dbPath(flags.db);
    const text = scheduleText({ node: process.execPath, hippo: resolve(process.argv[1] ?? 'hippo'), db, dataDir: hippoDataDir() });
    this.output({ installed: false as const, ...text, note: scheduleNote(configFilePath()) }, scheduleView);
  }
}
