import { Command } from '@oclif/core/command';
import * as Flags from '@oclif/core/flags';
import { configuredDb, loadConfig } from '../core/config.js';
import { cliReader, recordRead } from '../core/governance/audit.js';
import { ExitCode, HippoError, InterruptedError, UsageError } from '../core/errors.js';
import { validateAgentId } from '../core/memory/memory.js';
import { resolveDb } from '../core/db-location.js';
import { defaultDbPath, isPostgresLocation, maskSecrets, maskSecretsInValue, passwordsIn, withoutPassword } from '../core/paths.js';
import { refuseArgumentsNotUtf8 } from './argv.js';
import { cliWords } from './error-words.js';
import { upgradeProgress } from './progress.js';
import { openStore, type Store } from '../core/store/store.js';
import { jsonText, jsonTextPieces } from '../core/json-text.js';
import { safeText } from '../core/text-guard.js';
import { hintBuilder, type Hint, type HintContext } from '../views/hints.js';
import { choiceMistake, exclusiveMistake, flagMistake, missingArgsMistake } from './flag-words.js';
import { formatTime, painter, zoneOf, terminalWidth, type TextContext, type TextView, type View } from '../views/output.js';

// oclif's package index, when it loads, warns that the working directory is gone; the commands import oclif's parts
// directly instead of its index (half the cost of loading them: docs/decisions.md, "oclif's parts, not its index"), so
// the warning is given here, at the same moment: as the commands load.
try {
  process.cwd();
} catch (error) {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') process.stderr.write('WARNING: current directory does not exist\n');
}

const INTERRUPTING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * The one base of every hippo command: the global flags of docs/design.md §3, one JSON document on stdout under `--json`,
 * messages on stderr, and every error mapped to its exit code (§3.1) in one place — the same code with and without
 * `--json`.
 */
export abstract class HippoCommand extends Command {
  static override baseFlags = {
    db: Flags.string({
      description: 'the store: a SQLite file, or a postgres:// URL (default: $HIPPO_DB, else config db, else <XDG data>/hippo/hippo.db)',
      helpGroup: 'GLOBAL',
    }),
    agent: Flags.string({ description: 'agent whose memories to use (default: $HIPPO_AGENT, else "default")', helpGroup: 'GLOBAL' }),
    json: Flags.boolean({ description: 'print one JSON document on stdout', helpGroup: 'GLOBAL', default: false }),
    utc: Flags.boolean({ description: 'show times in UTC instead of the local time zone (JSON is always UTC)', helpGroup: 'GLOBAL', default: false }),
  };

  private openedStore?: Promise<Store>;
  /** The agent and database in effect, as far as the command has used them: what follow-up hints carry. */
  private readonly inEffect: HintContext = { keepDefaultAgent: Boolean(process.env.HIPPO_AGENT) };
  private readonly interruption = new AbortController();
  /** Set once the error (document or message) is out: a forced exit after it must not print a second one. */
  private errorShown = false;

  /**
   * Aborted on Ctrl-C, SIGTERM or SIGHUP: pass it to anything that waits (model calls, snapshots, the review screen),
   * so it unwinds and its run scope finishes the run row `interrupted`.
   */
  protected get abortSignal(): AbortSignal {
    return this.interruption.signal;
  }

  /**
   * The error an interruption ends the command with when its work has not unwound in time (the forced exit): a
   * command whose own interruption error says more than "interrupted" sets it, so both paths print the same words.
   */
  protected interruptedError?: () => HippoError;

  /** True when stdout must hold exactly one JSON document. */
  protected get jsonMode(): boolean {
    return wantsJson(this.argv);
  }

  /**
   * Interactive UI only on a real terminal, never under --json or CI. "CI set" means present with any value: ink
   * treats CI="" (and CONTINUOUS_INTEGRATION) as CI and would then draw nothing until exit.
   */
  protected get interactive(): boolean {
    return (
      Boolean(process.stdout.isTTY && process.stdin.isTTY) && !this.jsonMode && process.env.CI === undefined && process.env.CONTINUOUS_INTEGRATION === undefined
    );
  }

  protected agentId(flag: string | undefined): string {
    const agentId = validateAgentId(flag ?? (process.env.HIPPO_AGENT || 'default'));
    // The default agent is left out of hints only when the shell has no HIPPO_AGENT to put in its place.
    this.inEffect.agent = agentId === 'default' && !process.env.HIPPO_AGENT ? undefined : agentId;
    return agentId;
  }

  /** The store `--db` (else HIPPO_DB, else the default file) names, opened once per command; created if it is not there. */
  protected store(dbFlag: string | undefined): Promise<Store> {
    this.openedStore ??= (async () => openStore({ path: this.dbPath(dbFlag), onProgress: upgradeProgress(!this.jsonMode) }))();
    return this.openedStore;
  }

  /**
   * The same store, for a command that only reads or acts on rows that must exist: where there is no hippo store, it
   * is exit 3 ("no hippo store at PATH") and nothing is created — no file, no directory (docs/decisions.md).
   */
  protected existingStore(dbFlag: string | undefined): Promise<Store> {
    this.openedStore ??= (async () => openStore({ path: this.dbPath(dbFlag), mustExist: true, onProgress: upgradeProgress(!this.jsonMode) }))();
    return this.openedStore;
  }

  /**
   * The read audit of a CLI read (docs/governance.md), when the config file turns it on (`audit.cliReads`): recorded
   * as `cli` and the OS user, best effort, after the read.
   */
  protected async auditRead(store: Store, agentId: string, operation: string, memoryIds: readonly string[], query?: string): Promise<void> {
    if (this.auditsCliReads()) await recordRead(store, cliReader(), { agentId, operation, memoryIds, query });
  }

  /** Whether the config file turns the read audit of CLI reads on (`audit.cliReads`). */
  protected auditsCliReads(): boolean {
    try {
      return loadConfig()['audit.cliReads'] === 'on';
    } catch {
      // A config file that cannot be read is reported by whatever reads it for its own keys; the read stands.
      return false;
    }
  }

  /** Closes the store if one was opened (a store that failed to open has nothing to close). */
  private async closeStore(): Promise<void> {
    const opened = this.openedStore;
    this.openedStore = undefined;
    const store = await opened?.catch(() => undefined);
    await store?.close();
  }

  /**
   * The store `--db` (else HIPPO_DB, else the config file's `db`, else the default) names: a SQLite file path or a
   * PostgreSQL URL. Hints carry it when it is not the default — a URL without its password, which is never printed.
   */
  protected dbPath(dbFlag: string | undefined): string {
    const { location: path, source } = resolveDb(dbFlag);
    // The default file is left out of hints only when a hint without --db would open it again: not with HIPPO_DB
    // set, nor with a `db` in the config file (read here only for `--db <the default file>`; unreadable → carry it).
    const defaultAgain =
      path === defaultDbPath() && (source === 'default' || (source === 'flag' && process.env.HIPPO_DB === undefined && !this.configNamesDb()));
    this.inEffect.db = defaultAgain ? undefined : isPostgresLocation(path) ? withoutPassword(path) : path;
    return path;
  }

  /** Whether the config file names a store (`db`); an unreadable file counts as naming one. */
  private configNamesDb(): boolean {
    try {
      return configuredDb() !== undefined;
    } catch {
      return true;
    }
  }

  /** Builds the follow-up commands this command prints (src/views/hints.ts). */
  protected get hint(): Hint {
    return hintBuilder(this.inEffect, this.config?.bin ?? 'hippo');
  }

  /** Whether `--NAME` (or `--NAME=…`) was written on the command line before any `--`, not merely defaulted. */
  protected givenFlag(name: string): boolean {
    const end = this.argv.indexOf('--');
    return (end < 0 ? this.argv : this.argv.slice(0, end)).some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  }

  /** Times in text output: local with the offset, or UTC with --utc (a global flag, read before or without parsing). */
  private get timeStyle(): 'local' | 'utc' {
    const end = this.argv.indexOf('--');
    return (end < 0 ? this.argv : this.argv.slice(0, end)).includes('--utc') ? 'utc' : 'local';
  }

  /**
   * Shows the command's result through its view (docs/output.md): the JSON document on stdout under --json, else the
   * text; then the view's notes on stderr; then the error or exit code the result implies.
   */
  protected output<T>(result: T, view: View<T> | TextView<T>): void {
    const shown: View<T> = typeof view === 'function' ? { text: view } : view;
    const failure = shown.failure?.(result);
    const style = this.timeStyle;
    const time: TextContext['time'] = (isoTime, options) => formatTime(isoTime, style, options);
    if (this.jsonMode) {
      if (!failure) writeJsonDocument(shown.json ? shown.json(result) : result);
    } else {
      const text = shown.text?.(result, {
        paint: painter(process.stdout),
        width: terminalWidth(process.stdout),
        terminal: Boolean(process.stdout.isTTY),
        time,
        zone: (isoTime) => zoneOf(isoTime, style),
        hint: this.hint,
      });
      if (text !== undefined && text !== '') process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    }
    for (const line of shown.notes?.(result, { json: this.jsonMode, hint: this.hint, time }) ?? []) if (line) this.note(line);
    if (failure) throw failure;
    const exitCode = shown.exitCode?.(result);
    if (exitCode !== undefined) process.exitCode = exitCode;
  }

  /** Hints and warnings: always stderr, so stdout stays clean for pipes and --json; the text guard applies. */
  protected note(message: string): void {
    process.stderr.write(`${safeText(maskSecrets(message, typedSecrets()))}\n`);
  }

  override async init(): Promise<void> {
    await super.init();
    // `on`, not `once`: a listener that stays is what tells signal-exit (the review screen's exit hook) that the signal
    // is handled here, so it does not kill the process itself. A second signal waits for the same forced exit.
    for (const signal of INTERRUPTING_SIGNALS) process.on(signal, () => this.interrupt());
    // Bad bytes in an argument are refused as on stdin, before anything reads the argument.
    refuseArgumentsNotUtf8(this.argv);
  }

  /**
   * One path for Ctrl-C, SIGTERM and SIGHUP, all exit 130 (docs/decisions.md, Interrupts). Waiting work is aborted
   * first so it can unwind and record the interruption; every transaction is whole or absent whatever happens (a
   * SQLite transaction is rolled back by SQLite if the process leaves inside it). If the work has not finished a
   * second later, the run rows still open are finished `interrupted`, the interrupted error is shown (once: unless the
   * work got there first) and we leave, whatever it is doing — after at most another second, should the store not
   * answer.
   */
  private interrupt(): void {
    if (this.interruption.signal.aborted) return;
    // At once, so the key press is seen to work; the word "interrupted" is the error's, shown once when the work ends.
    process.stderr.write('stopping…\n');
    this.interruption.abort();
    process.exitCode = ExitCode.interrupted;
    setTimeout(() => {
      // Loaded only now: every command would otherwise pay for the run module (and the model vocabulary it names) at
      // startup. A command that never loaded it has no run open, so loading it here finds none.
      const finishOpenRuns = import('../core/runs.js').then(({ interruptOpenRuns }) => interruptOpenRuns());
      const giveUp = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000).unref());
      void Promise.race([finishOpenRuns, giveUp])
        .catch(() => undefined)
        .then((runs) => {
          // The outermost run (a night, not its distillation) is the one the error names, as the unwound path would.
          const run = runs?.at(-1);
          this.showError(this.interruptedError?.() ?? new InterruptedError('interrupted', run ? { runId: run.id, run } : undefined));
        })
        .then(() => Promise.race([this.closeStore(), giveUp]))
        .catch(() => undefined)
        .finally(() => process.exit(ExitCode.interrupted));
    }, 1000).unref();
  }

  override async catch(error: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<void> {
    const shape = { id: this.id, argv: this.argv, flags: this.ctor.flags, baseFlags: this.ctor.baseFlags, args: this.ctor.args, strict: this.ctor.strict };
    const hippoError = flagMistake(error, shape) ?? missingArgsMistake(error, shape) ?? choiceMistake(error) ?? exclusiveMistake(error) ?? toHippoError(error);
    this.showError(hippoError);
    if (hippoError.exitCode === ExitCode.unexpected && hippoError.code === 'unexpected' && process.env.HIPPO_DEBUG && !this.jsonMode) {
      process.stderr.write(`${error.stack ?? ''}\n`);
    }
    process.exitCode = hippoError.exitCode;
  }

  /** The error as one JSON document on stdout under --json, else as a message on stderr; at most once per run. */
  private showError(hippoError: HippoError): void {
    if (this.errorShown) return;
    this.errorShown = true;
    const secrets = typedSecrets();
    const words = cliWords(hippoError, this.hint);
    const message = maskSecrets(words.message, secrets);
    const actions = words.actions?.map((action) => maskSecrets(action, secrets));
    if (this.jsonMode) {
      const body: Record<string, unknown> = { code: hippoError.code, message };
      if (hippoError.details) body.details = maskSecretsInValue(hippoError.details, secrets);
      if (actions) body.actions = actions;
      process.stdout.write(`${jsonText({ error: body })}\n`);
    } else {
      // The next steps follow the message, one a line (cliMessage's text).
      process.stderr.write(`Error: ${safeText([message, ...(actions ?? [])].join('\n'))}\n`);
    }
  }

  override async finally(error: Error | undefined): Promise<void> {
    await this.closeStore();
    await super.finally(error);
  }
}

/**
 * The passwords of the URLs on the command line and in `HIPPO_DB` / `HIPPO_BASE_URL`: an error never echoes one
 * (issue 27; `maskSecrets` also masks any URL's password by its shape).
 */
export function typedSecrets(argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): string[] {
  return passwordsIn([...argv, env.HIPPO_DB, env.HIPPO_BASE_URL]);
}

/** `--json` among the flags; a literal "--json" after `--` is data (memory text, a query), not the flag. */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

/** Maps anything thrown to a HippoError: oclif's parse errors are usage errors (exit 2); the rest is a bug (exit 1). */
export function toHippoError(error: unknown): HippoError {
  if (error instanceof HippoError) {
    // A flag's own parser threw it (src/cli/int-flag.ts), and oclif wrapped its message: keep only ours.
    if (!error.message.startsWith('Parsing --')) return error;
    const own = oclifReason(error.message).replace(/^Parsing --\S+\s*/, '');
    return new HippoError(error.code, own, error.exitCode, { details: error.details });
  }
  const oclifExit = (error as { oclif?: { exit?: number } }).oclif?.exit;
  const message = oclifReason(error instanceof Error ? error.message : String(error));
  if (
    oclifExit === 2 ||
    /^(Nonexistent flag|Unexpected argument|Missing \d+ required arg|Missing required flag|Expected .* to be one of|Parsing --|--\S+)/.test(message)
  ) {
    // "Missing required flag rationale" → "--rationale is required", the way every other message names a flag.
    return new UsageError('usage', `${message.replace(/^Missing required flag (\S+)/, '--$1 is required')} (see --help)`);
  }
  const code = (error as { code?: unknown }).code;
  if (code === 'EPIPE') return new HippoError('broken_pipe', 'output pipe closed', ExitCode.unexpected);
  return new HippoError('unexpected', `unexpected error: ${message}`, ExitCode.unexpected, { cause: error });
}

/** oclif puts the reason on later lines ("Parsing --limit \n Expected an integer…"): keep them, drop the help hint. */
function oclifReason(full: string): string {
  return full
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^See more help with --help$/.test(line) && line !== 'The following error occurred:')
    .join(' ');
}

// Pieces of the --json document are gathered up to this size before each write.
const JSON_WRITE_CHUNK = 64 * 1024;

/**
 * The --json document and its newline on stdout, written in pieces (`jsonTextPieces`) so a large document (the facts
 * of a large file) is never held as one string; the bytes are those of `jsonText(value)`. stdout is written
 * synchronously to a file or pipe (Node on Linux), so nothing queues up.
 */
function writeJsonDocument(value: unknown): void {
  let pending = '';
  for (const piece of jsonTextPieces(value)) {
    pending += piece;
    if (pending.length >= JSON_WRITE_CHUNK) {
      process.stdout.write(pending);
      pending = '';
    }
  }
  process.stdout.write(`${pending}\n`);
}
