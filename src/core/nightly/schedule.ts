import { dirname, join } from 'node:path';

/**
 * `hippo rem nightly schedule`: the text of a crontab line and of a systemd user timer + service that run
 * `rem nightly run-once` every 30 minutes for one database. Pure: it prints, it installs nothing.
 */
export interface ScheduleInput {
  /** Absolute path of the node binary (cron's PATH rarely has the one hippo runs under). */
  node: string;
  /** Absolute path of hippo's entry script. */
  hippo: string;
  /** Absolute path of the database. */
  db: string;
}

export interface ScheduleText {
  command: string;
  logPath: string;
  cron: string;
  systemd: { servicePath: string; service: string; timerPath: string; timer: string; enable: string };
}

/** Single-quotes a word for sh when it needs it. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** systemd's own quoting for ExecStart arguments (specifiers and variables escaped). */
function systemdQuote(word: string): string {
  const escaped = word.replaceAll('%', '%%').replaceAll('$', '$$$$');
  return /^[\w@+=:,./-]+$/.test(escaped) ? escaped : `"${escaped.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

export function scheduleText(input: ScheduleInput): ScheduleText {
  const logPath = join(dirname(input.db), 'nightly.log');
  const argv = [input.node, input.hippo, 'rem', 'nightly', 'run-once', '--db', input.db, '--json'];
  const command = argv.map(shellQuote).join(' ');
  // In a crontab line an unescaped % ends the command.
  const cron = `*/30 * * * * ${command} >> ${shellQuote(logPath)} 2>&1`.replaceAll('%', '\\%');
  const service = [
    '[Unit]',
    'Description=hippo nightly run (snapshot, maintenance, distillation)',
    '',
    '[Service]',
    'Type=oneshot',
    `ExecStart=${argv.map(systemdQuote).join(' ')}`,
    `StandardOutput=append:${logPath}`,
    `StandardError=append:${logPath}`,
    '',
  ].join('\n');
  const timer = [
    '[Unit]',
    'Description=Run the hippo nightly job every 30 minutes',
    '',
    '[Timer]',
    'OnCalendar=*:0/30',
    'Persistent=true',
    '',
    '[Install]',
    'WantedBy=timers.target',
    '',
  ].join('\n');
  return {
    command,
    logPath,
    cron,
    systemd: {
      servicePath: '~/.config/systemd/user/hippo-nightly.service',
      service,
      timerPath: '~/.config/systemd/user/hippo-nightly.timer',
      timer,
      enable: 'systemctl --user daemon-reload && systemctl --user enable --now hippo-nightly.timer',
    },
  };
}
