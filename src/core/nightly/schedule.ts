import { dirname, join } from 'node:path';
import { configHome, isPostgresLocation, withoutPassword } from '../paths.js';

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
  /** The environment the schedule is printed from: what of it the job needs is carried (`CARRIED_ENV`). */
  env?: NodeJS.ProcessEnv;
}

/**
 * What the job needs from the environment it was scheduled from, which cron and systemd do not give it (they read no
 * shell profile): where the config file and hippo's data are (XDG), where libpq finds the store's password
 * (PGPASSFILE), and the model settings. The store itself is on the line (`--db`, resolved). API keys are secrets and
 * are never printed: the note says where they go.
 */
export const CARRIED_ENV = [
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'PGPASSFILE',
  'HIPPO_MODEL',
  'HIPPO_BASE_URL',
  'HIPPO_MODEL_TIMEOUT_MS',
  'HIPPO_MODEL_MAX_BYTES',
] as const;

/** The carried variables set (non-empty) in `env`, in `CARRIED_ENV`'s order; an XDG directory only when hippo uses it (absolute). */
export function carriedEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const carried: Record<string, string> = {};
  for (const name of CARRIED_ENV) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    if (name.startsWith('XDG_') && !value.startsWith('/')) continue;
    carried[name] = value;
  }
  return carried;
}

export interface ScheduleText {
  /** How often it runs, and what that costs and buys, in plain words (docs/nightly.md, "Cadence"). */
  cadence: string;
  command: string;
  logPath: string;
  cron: string;
  systemd: { servicePath: string; service: string; timerPath: string; timer: string; enable: string };
  /** The environment the command and the service carry (`carriedEnvironment`): `NAME=value` before the command, `Environment=` in the unit. */
  environment: Record<string, string>;
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

/** One `Environment=` line of a unit: the assignment quoted as systemd reads it (specifiers escaped; no variables are expanded there). */
function systemdEnvironment(name: string, value: string): string {
  const escaped = `${name}=${value.replaceAll('%', '%%')}`;
  return /^[\w@+=:,./-]+$/.test(escaped) ? `Environment=${escaped}` : `Environment="${escaped.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
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
  const env = input.env ?? process.env;
  const environment = carriedEnvironment(env);
  const assignments = Object.entries(environment).map(([name, value]) => `${name}=${shellQuote(value)} `);
  const command = `${assignments.join('')}${argv.map(shellQuote).join(' ')}`;
  // In a crontab line an unescaped % ends the command.
  const cron = `*/30 * * * * ${command} >> ${shellQuote(logPath)} 2>&1`.replaceAll('%', '\\%');
  const service = [
    '[Unit]',
    'Description=hippo nightly run (snapshot, maintenance, distillation)',
    '',
    '[Service]',
    'Type=oneshot',
    ...Object.entries(environment).map(([name, value]) => systemdEnvironment(name, value)),
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
  // systemd reads user units from $XDG_CONFIG_HOME/systemd/user when it is set (absolute), else ~/.config/systemd/user.
  const unitDir = env.XDG_CONFIG_HOME?.startsWith('/') === true ? join(configHome(env), 'systemd', 'user') : '~/.config/systemd/user';
  return {
    cadence: CADENCE,
    command,
    logPath,
    cron,
    systemd: {
      servicePath: join(unitDir, 'hippo-nightly.service'),
      service,
      timerPath: join(unitDir, 'hippo-nightly.timer'),
      timer,
      enable: 'systemctl --user daemon-reload && systemctl --user enable --now hippo-nightly.timer',
    },
    environment,
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
