import { quote } from 'shell-quote';

/**
 * The one builder of the follow-up commands hippo prints (`hippo rem ingest hof_… answer.json`, `hippo rem
 * candidates`, `export HIPPO_DB=…`): each carries the `--agent` and `--db` in effect when they are not the defaults,
 * and every word is quoted for a POSIX shell, so a hint pasted back runs against the same store and agent. An agent
 * id that starts with "-" cannot follow `--agent` on a command line, so it is carried as `HIPPO_AGENT=… hippo …`.
 */
export interface HintContext {
  /** The agent in effect, when it is not `default` (from `--agent` or `HIPPO_AGENT`). */
  agent?: string;
  /** The database in effect (absolute), when it is not the default file (from `--db` or `HIPPO_DB`). */
  db?: string;
  /**
   * HIPPO_AGENT is set in the environment the hint will be pasted into: a hint for the `default` agent must then say
   * `--agent default`, or the pasted command would run as HIPPO_AGENT's agent.
   */
  keepDefaultAgent?: boolean;
}

export interface Hint {
  /**
   * `hippo <words…> [--agent A] [--db PATH]`, shell-quoted. `agent` overrides the agent in effect (null: leave it out,
   * for commands where `--agent` narrows rather than selects). Words after a `--` stay after it.
   */
  (words: readonly string[], options?: { agent?: string | null }): string;
  /** `export NAME=VALUE`, shell-quoted. */
  exportLine(variables: Record<string, string>): string;
  readonly context: HintContext;
}

/** A word a POSIX shell (and bash, zsh: no leading `=`) takes literally: it needs no quotes. */
const PLAIN_WORD = /^(?!=)[\w@%+=:,./-]+$/;

/**
 * Words quoted for a POSIX shell: a plain word as it is (a postgres URL such as `postgres://ana@db:5432/hippo` stays
 * readable: `:` and `@` need no escape); any other word without a single quote inside single quotes as a whole
 * (`'postgres://ana@db/hippo?sslmode=require&application_name=x'`, not a backslash before each special character);
 * a word holding a single quote as shell-quote writes it (`"o'brien"`).
 */
export function shellQuote(words: readonly string[]): string {
  return words.map((word) => (PLAIN_WORD.test(word) ? word : word.includes("'") ? quote([word]) : `'${word}'`)).join(' ');
}

export function hintBuilder(context: HintContext, bin = 'hippo'): Hint {
  const hint = ((words: readonly string[], options: { agent?: string | null } = {}) => {
    const agent = options.agent === undefined ? context.agent : options.agent;
    const named = agent && (agent !== 'default' || context.keepDefaultAgent) ? agent : undefined;
    // An agent id that starts with "-" (`-h`, `--json`) would be read as a flag after --agent (oclif takes `-h` for
    // help anywhere, and refuses a value that names a flag even as `--agent=--json`): it goes in HIPPO_AGENT instead.
    const viaEnv = named?.startsWith('-') ?? false;
    const globals = [...(named && !viaEnv ? ['--agent', named] : []), ...(context.db ? ['--db', context.db] : [])];
    const end = words.indexOf('--');
    const all = end < 0 ? [...words, ...globals] : [...words.slice(0, end), ...globals, ...words.slice(end)];
    return `${viaEnv ? `HIPPO_AGENT=${shellQuote([named!])} ` : ''}${bin} ${shellQuote(all)}`;
  }) as Hint;
  hint.exportLine = (variables) =>
    `export ${Object.entries(variables)
      .map(([name, value]) => `${name}=${shellQuote([value])}`)
      .join(' ')}`;
  Object.defineProperty(hint, 'context', { value: context });
  return hint;
}

/**
 * What a listing's limit hid, for stderr in text mode (under --json the document carries `total` and `truncated`):
 * "showing 50 of 200 000 (use -n / --all)". Nothing when every row was shown.
 */
export function shownNote(
  shown: number,
  listed: { total: number; truncated: boolean },
  options: { json: boolean; noun?: string; all?: boolean },
): string | undefined {
  if (options.json || !listed.truncated) return undefined;
  const noun = options.noun ? ` ${options.noun}` : '';
  return `showing ${shown.toLocaleString('en-US')} of ${listed.total.toLocaleString('en-US')}${noun} (use -n${options.all === false ? '' : ' / --all'})`;
}
