import { resolve } from 'node:path';
import { HippoCommand } from '../../../cli/base-command.js';
import { resolveDbPath, configFilePath } from '../../../core/paths.js';
import { scheduleText } from '../../../core/nightly/schedule.js';

export default class RemNightlySchedule extends HippoCommand {
  static override summary = 'Print a crontab line and a systemd user timer that run the nightly job every 30 minutes (installs nothing).';
  static override examples = ['<%= config.bin %> rem nightly schedule', '<%= config.bin %> rem nightly schedule --db ~/notes/hippo.db --json'];

  async run(): Promise<void> {
    const { flags } = await this.parse(RemNightlySchedule);
    const text = scheduleText({ node: process.execPath, hippo: resolve(process.argv[1] ?? 'hippo'), db: resolveDbPath(flags.db) });
    const environmentNote = `cron and systemd do not read your shell profile: set the model in ${configFilePath()} ({"model": "ollama:llama3.2"}), or add HIPPO_MODEL=… above the crontab line (Environment=HIPPO_MODEL=… in the service). Without a model the night still snapshots and maintains the store; distillation is skipped.`;
    this.output({ installed: false, ...text, note: environmentNote }, () =>
      [
        '# Nothing was installed. To run the nightly job every 30 minutes:',
        '',
        '# cron: add this line with `crontab -e`',
        text.cron,
        '',
        `# or a systemd user timer: save these two files, then run: ${text.systemd.enable}`,
        `# ${text.systemd.servicePath}`,
        text.systemd.service,
        `# ${text.systemd.timerPath}`,
        text.systemd.timer,
        `# ${environmentNote}`,
      ].join('\n'),
    );
  }
}
