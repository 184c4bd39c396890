/**
 * The CLI's words for core errors. Core speaks to a library user: its messages name options and concepts, never a
 * command-line flag, and its errors carry the data (`details`) a caller needs to say more. Here, and only here, the
 * CLI rewords the errors whose fix is a flag or a command — same `code`, same exit code, same `details`; only the
 * message changes. The review screen words its own (src/ui/review/controller.ts): it cannot take a flag.
 */
import type { ErrorCode, HippoError } from '../core/errors.js';
import { sourcesGone } from '../core/rem/review.js';
import { hintBuilder, type Hint } from '../views/hints.js';

type Details = Record<string, unknown>;

/** The CLI's words for one error: the message, and the next steps a person can take (after core's own, if any). */
export interface CliWords {
  message: string;
  actions?: string[];
}

/** A rewording: a new message, or the message (default: core's) with next steps; undefined keeps core's words. */
type Words = (error: HippoError, details: Details, hint: Hint) => string | { message?: string; actions: string[] } | undefined;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const texts = (value: unknown): string[] | undefined => (Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined);
const oneOf = (allowed: string[]): string => (allowed.length === 2 ? `${allowed[0]} or ${allowed[1]}` : `one of ${allowed.join(', ')}`);

/** `--flag must be one of …`, from the allowed values the core error carries. */
const mustBeOneOf =
  (flag: string) =>
  (_error: HippoError, details: Details): string | undefined => {
    const allowed = texts(details.allowed);
    return allowed && `${flag} must be ${oneOf(allowed)}`;
  };

const required = (flag: string) => (_error: HippoError, details: Details) => {
  const what = text(details.what);
  return what && `${flag} is required and must not be blank: say ${what}`;
};

/** The CLI's words for a core range error (it carries `min` and `max`); an error the flag parser raised is already in them. */
const unlessFromFlag =
  (flag: string) =>
  (_error: HippoError, details: Details): string | undefined => {
    if (details.flag !== undefined) return undefined;
    const [min, max] = [details.min, details.max];
    return typeof min === 'number' && typeof max === 'number' ? `${flag} must be a whole number from ${min} to ${max}` : `${flag} must be a whole number`;
  };

/** What a CLI user can do instead of calling a model: hand the prompt over. */
const PROMPT_ONLY = 'Without a model, use --prompt-only to hand the prompt to any LLM and bring the answer back with `hippo rem ingest`.';

const withPromptOnly: Words = () => ({ actions: [PROMPT_ONLY] });

const WORDS: Partial<Record<ErrorCode, Words>> = {
  // Options of rem rapid, search, rem candidates, nightly: usually caught by the flag parser first.
  // From the flag parser (details.flag set) the message already names the flag and its range.
  bad_limit: unlessFromFlag('--limit'),
  bad_max_candidates: unlessFromFlag('--max-candidates'),
  bad_max_memories: unlessFromFlag('--max-memories'),
  bad_keep_days: unlessFromFlag('--keep-days'),
  bad_max_age_days: unlessFromFlag('--keep-days'),
  bad_keep_last: unlessFromFlag('--keep-last'),
  bad_keep_hourly: unlessFromFlag('--keep-hourly'),
  bad_keep_daily: unlessFromFlag('--keep-daily'),
  bad_keep_weekly: unlessFromFlag('--keep-weekly'),
  bad_scope: mustBeOneOf('--scope'),
  bad_focus: mustBeOneOf('--focus'),
  bad_status: mustBeOneOf('--status'),
  bad_durability: mustBeOneOf('--durability'),
  tag_required: () => '--scope tagged needs --tag TAG (it never means "everything")',
  rationale_required: required('--rationale'),
  reason_required: required('--reason'),
  bad_agent: () => ({ actions: ['Set --agent or HIPPO_AGENT.'] }),
  expires_on_durable: (_error, details) => {
    const durability = text(details.durability);
    return durability && `a ${durability} memory never expires: give no --expires, or make it standard or ephemeral`;
  },
  // A region written in HIPPO_REGION or the config file names its source itself; one with no source is the option's.
  unknown_region: (error, details) => (details.source === undefined ? `--region: ${error.message}` : undefined),
  fts_syntax: (_error, details) => {
    const syntaxError = text(details.syntaxError);
    const syntax = text(details.syntax);
    return syntaxError && syntax && `the --raw query is not valid ${syntax} syntax (${syntaxError}); drop --raw to search the words as plain text`;
  },

  // REM.
  nothing_to_distill: (_error, details) => {
    const elsewhere = text(details.elsewhere);
    return elsewhere
      ? { message: `no memories in scope to distill: ${elsewhere}`, actions: ['Give --agent.'] }
      : { message: 'no memories in scope to distill', actions: ['Try --since 7d or --scope all.'] };
  },
  handoff_expired: (_error, details, hint) => {
    const [id, expiresAt] = [text(details.handoffId), text(details.expiresAt)];
    return id && expiresAt && { message: `handoff ${id} expired at ${expiresAt}`, actions: [`Run ${hint(['rem', 'rapid', '--prompt-only'])} again.`] };
  },
  source_deleted: (_error, details) => {
    const [id, missing] = [text(details.candidateId), texts(details.missing)];
    return id && missing && { message: sourcesGone(id, missing), actions: ['Pass --allow-missing-sources to promote anyway.'] };
  },

  // Snapshots and restore.
  snapshot_not_found: (_error, details, hint) => {
    const snapshot = text(details.snapshot);
    return snapshot && { message: `no snapshot "${snapshot}"`, actions: [`List them with: ${hint(['rem', 'snapshots'], { agent: null })}`] };
  },
  snapshot_damaged: (_error, _details, hint) => ({ actions: [`Check the snapshots with: ${hint(['rem', 'snapshots', '--check'], { agent: null })}`] }),

  // The memory lifecycle.
  tag_added_and_removed: (_error, details) =>
    `a tag cannot be both added (--tag / --add-tag) and removed (--remove-tag) in one edit: ${texts(details.tags)?.join(', ') ?? ''}`,
  nothing_to_edit: () => 'say what to change: --content, --add-tag / --remove-tag / --set-tags, --subject, --durability or --expires',
  nothing_to_thread: (_error, details) =>
    details.missing === 'thread'
      ? 'say where to: --set NAME (a thread), or --clear (out of any thread)'
      : 'say which memories: their ids, --from THREAD (every memory in it) or --file PATH (everything imported from that file)',
  nothing_to_forget: () => 'say what to forget: memory ids, or --match TEXT (--match - reads it from stdin)',
  snapshot_not_rewritable: (error) => error.message.replace('forget without purging snapshots', 'forget without --purge-snapshots'),
  snapshot_purge_incomplete: (error) =>
    error.message.replace('forget the same ids again with purging snapshots', 'run the same forget again with --purge-snapshots'),

  // The database file.
  // db copy's FROM is an argument, not --db: the store to copy must be given as it is (check the path).
  store_not_found: (_error, details) => ({
    actions: [details.copySource === true ? 'Check the path.' : 'Check --db and HIPPO_DB; only memory add, memory import and demo create a store.'],
  }),
  not_a_database: (_error, details) => {
    const path = text(details.path);
    return details.directory === true && path
      ? { message: `${path} is a directory, not a hippo database file`, actions: ['Pass a file path with --db.'] }
      : undefined;
  },
  empty_db_path: (_error, details) =>
    details.from === 'path'
      ? { message: '--db is empty', actions: ['Give a database file path or a postgres:// URL, or leave --db out for the default store.'] }
      : undefined,
  not_a_hippo_database: (_error, details) => {
    const path = text(details.path);
    return path && { message: `${path} is a SQLite database, but not a hippo one; it was not changed`, actions: ['Pass another path with --db.'] };
  },
  unsupported_database: (_error, details) => {
    const scheme = text(details.scheme);
    const from = details.from === 'HIPPO_DB' ? 'HIPPO_DB' : '--db';
    return scheme && { message: `${from} is a ${scheme}:// URL`, actions: ['Give a SQLite file path or a postgres:// URL.'] };
  },
  database_not_empty: (_error, details) => {
    const memories = details.memories;
    return typeof memories === 'number'
      ? {
          message: `the database already holds ${memories} ${memories === 1 ? 'memory' : 'memories'}; the demo loads only into an empty one`,
          actions: ['Pass --force to replace earlier demo data.', 'Without --db and HIPPO_DB, the demo gets a store of its own.'],
        }
      : undefined;
  },

  // The model: the core's fix, plus what the CLI offers instead (core says nothing about flags).
  model_not_configured: () => ({ actions: ['Pass --model to choose one for a single command.', PROMPT_ONLY] }),
  model_unreachable: withPromptOnly,
  model_timeout: withPromptOnly,
  // A rejected answer to a handoff already came from outside: no --prompt-only to suggest.
  model_output_invalid: (_error, details) => (details.handoffId === undefined ? { actions: [PROMPT_ONLY] } : undefined),
};

/** The codes the CLI words itself (besides `http_status_5xx`, worded like model_unreachable); every other keeps core's words. */
export const CLI_WORDED: ReadonlySet<ErrorCode> = new Set(Object.keys(WORDS) as ErrorCode[]);

/**
 * The CLI's words for an error: its own message where the fix is a flag or a command, else core's; and the next
 * steps, core's own first (`HippoError.actions`), then the CLI's. Commands it names carry the `--agent` and `--db` in
 * effect (`hint`, src/views/hints.ts). `--json` shows both (`message`, `actions`).
 */
export function cliWords(error: HippoError, hint: Hint = hintBuilder({})): CliWords {
  const words = WORDS[error.code] ?? (/^http_status_5\d\d$/.test(error.code) ? withPromptOnly : undefined);
  const worded = words?.(error, error.details ?? {}, hint);
  const reworded: { message?: string; actions?: string[] } | undefined = typeof worded === 'string' ? { message: worded } : worded;
  const actions = [...(error.actions ?? []), ...(reworded?.actions ?? [])];
  return { message: reworded?.message ?? error.message, ...(actions.length > 0 ? { actions } : {}) };
}

/** What a person reads for an error: the message, then each next step on a line of its own. */
export function cliMessage(error: HippoError, hint?: Hint): string {
  const { message, actions } = cliWords(error, hint);
  return [message, ...(actions ?? [])].join('\n');
}
