import { dirname, join } from 'node:path';
import { isPostgresLocation, withoutPassword } from '../paths.js';

/**
 * `hippo rem nightly schedule`: the text of a crontab line and of a systemd user timer + service that run
 * `rem nightly run-once` every 30 minutes for one database. Pure: it prints, it installs nothing.
 */
export interface ScheduleInput {
  /** Absolute path of the node binary (cron's PATH rarely has the one hippo runs under). */
  node: string;
  /** Absolute path of hippo's entry script. */
  hippo: string;
  /** Absolute path of the database, or a PostgreSQL URL (printed without its password). */
  db: string;
  /** `<XDG data>/hippo`: where a PostgreSQL store's log and pg_dump files go (a SQLite store's sit beside its file). */
  dataDir: string;
}

export interface ScheduleText {
  /** How often it runs, and what that costs and buys, in plain words (docs/nightly.md, "Cadence"). */
  cadence: string;
  command: string;
  logPath: string;
  cron: string;
  systemd: { servicePath: string; service: string; timerPath: string; timer: string; enable: string };
  /**
   * A PostgreSQL store only: a nightly `pg_dump` of the whole database (custom format), the physical backup that stays
   * the operator's job beside hippo's logical snapshots (docs/postgres.md). `command` as typed, `cron` as a crontab line.
   */
  backup?: { command: string; cron: string };
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

/**
 * Why every 30 minutes: a run that finds nothing new costs a lock, a look at the change counter and a few queries —
 * no snapshot (nothing changed), no model call (nothing to distill). What the cadence buys is how soon new memories
 * become candidates and how fine-grained the restore points of a busy day are; what it costs is a model call per
 * half hour with new memories, and a snapshot per half hour with changes, which retention then thins.
 */
export const CADENCE =
  'Every 30 minutes. A run with nothing new is cheap: no snapshot (nothing changed since the newest one) and no model call. ' +
  'When memories change, each run writes one snapshot (a copy of the store) and asks the model once per agent with new memories; ' +
  'retention then thins the snapshots to at most 38 (the newest 3, one per hour for a day, per day for a week, per week for a month), ' +
  'so the disk they take stays below about 38 times the store. Run it hourly or once a night (0 3 * * *) for fewer model calls and ' +
  'coarser restore points; more often buys nothing the thinning keeps.';

export function scheduleText(input: ScheduleInput): ScheduleText {
  const postgres = isPostgresLocation(input.db);
  // The password never goes into a crontab or a unit file: cron and systemd find it in ~/.pgpass, as libpq does.
  const db = postgres ? withoutPassword(input.db) : input.db;
  const logPath = join(postgres ? input.dataDir : dirname(input.db), 'nightly.log');
  const argv = [input.node, input.hippo, 'rem', 'nightly', 'run-once', '--db', db, '--json'];
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
    cadence: CADENCE,
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
    ...(postgres ? { backup: pgDumpLines(db, input.dataDir) } : {}),
  };
}

/** `pg_dump --format=custom` of the store's database into `<data dir>/backups/`, one file per weekday (a week kept). */
function pgDumpLines(url: string, dataDir: string): { command: string; cron: string } {
  const folder = shellQuote(join(dataDir, 'backups'));
  // The file name keeps $(date …) unquoted for the shell; the rest is quoted as usual.
  const command = `mkdir -p ${folder} && pg_dump --format=custom --file=${folder}/hippo-$(date +%a).dump ${shellQuote(url)}`;
  return { command, cron: `15 3 * * * ${command}`.replaceAll('%', '\\%') };
}
