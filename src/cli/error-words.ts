/**
 * The CLI's words for core errors. Core speaks to a library user: its messages name options and concepts, never a
 * command-line flag, and its errors carry the data (`details`) a caller needs to say more. Here, and only here, the
 * CLI rewords the errors whose fix is a flag or a command — same `code`, same exit code, same `details`; only the
 * message changes. The review screen words its own (src/ui/review/controller.ts): it cannot take a flag.
 */
import { HippoError } from '../core/errors.js';
import { sourcesGone } from '../core/rem/review.js';
import { hintBuilder, type Hint } from './hints.js';

type Details = Record<string, unknown>;

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

const withPromptOnly = (error: HippoError): string => `${error.message} ${PROMPT_ONLY}`;

const WORDS: Record<string, (error: HippoError, details: Details, hint: Hint) => string | undefined> = {
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
  bad_agent: (error) => `${error.message} (set --agent or HIPPO_AGENT)`,
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
    return elsewhere ? `no memories in scope to distill: ${elsewhere} (give --agent)` : 'no memories in scope to distill (try --since 7d or --scope all)';
  },
  handoff_expired: (_error, details, hint) => {
    const [id, expiresAt] = [text(details.handoffId), text(details.expiresAt)];
    return id && expiresAt && `handoff ${id} expired at ${expiresAt}; run ${hint(['rem', 'rapid', '--prompt-only'])} again`;
  },
  source_deleted: (_error, details) => {
    const [id, missing] = [text(details.candidateId), texts(details.missing)];
    return id && missing && `${sourcesGone(id, missing)}; pass --allow-missing-sources to promote anyway`;
  },

  // Snapshots and restore.
  snapshot_not_found: (_error, details, hint) => {
    const snapshot = text(details.snapshot);
    return snapshot && `no snapshot "${snapshot}" (list them with: ${hint(['rem', 'snapshots'], { agent: null })})`;
  },
  snapshot_damaged: (error, _details, hint) => `${error.message} (${hint(['rem', 'snapshots', '--check'], { agent: null })})`,

  // The memory lifecycle.
  tag_added_and_removed: (_error, details) =>
    `a tag cannot be both added (--tag / --add-tag) and removed (--remove-tag) in one edit: ${texts(details.tags)?.join(', ') ?? ''}`,
  nothing_to_edit: () => 'say what to change: --content, --tag / --add-tag / --remove-tag, --subject, --durability or --expires',
  nothing_to_forget: () => 'say what to forget: memory ids, or --match TEXT (--match - reads it from stdin)',
  snapshot_not_rewritable: (error) => error.message.replace('forget without purging snapshots', 'forget without --purge-snapshots'),
  snapshot_purge_incomplete: (error) =>
    error.message.replace('forget the same ids again with purging snapshots', 'run the same forget again with --purge-snapshots'),

  // The database file.
  // db copy's FROM is an argument, not --db: the store to copy must be given as it is (check the path).
  store_not_found: (error, details) =>
    details.copySource === true
      ? `${error.message} (check the path)`
      : `${error.message} (check --db and HIPPO_DB; only memory add, memory import and demo create a store)`,
  not_a_database: (_error, details) => {
    const path = text(details.path);
    return details.directory === true && path ? `${path} is a directory, not a hippo database file; pass a file path with --db` : undefined;
  },
  empty_db_path: (error, details) =>
    details.from === 'path' ? '--db is empty; give a database file path or a postgres:// URL, or leave --db out for the default store' : error.message,
  not_a_hippo_database: (_error, details) => {
    const path = text(details.path);
    return path && `${path} is a SQLite database, but not a hippo one; it was not changed. Pass another path with --db.`;
  },
  unsupported_database: (_error, details) => {
    const scheme = text(details.scheme);
    const from = details.from === 'HIPPO_DB' ? 'HIPPO_DB' : '--db';
    return scheme && `${from} is a ${scheme}:// URL; give a SQLite file path or a postgres:// URL`;
  },
  database_not_empty: (_error, details) => {
    const memories = details.memories;
    return typeof memories === 'number'
      ? `the database already holds ${memories} ${memories === 1 ? 'memory' : 'memories'}; the demo loads only into an empty one (--force replaces earlier demo data; without --db and HIPPO_DB the demo gets a store of its own)`
      : undefined;
  },

  // The model: the core's fix, plus what the CLI offers instead (core says nothing about flags).
  model_not_configured: (error) => `${error.message} Pass --model to choose one for a single command. ${PROMPT_ONLY}`,
  model_unreachable: withPromptOnly,
  model_timeout: withPromptOnly,
  // A rejected answer to a handoff already came from outside: no --prompt-only to suggest.
  model_output_invalid: (error, details) => (details.handoffId === undefined ? withPromptOnly(error) : undefined),
};

/**
 * The message the CLI shows for an error: its own words where the fix is a flag or a command, else core's. Commands
 * it names carry the `--agent` and `--db` in effect (`hint`, src/cli/hints.ts).
 */
export function cliMessage(error: HippoError, hint: Hint = hintBuilder({})): string {
  const details = error.details ?? {};
  const words = WORDS[error.code] ?? (/^http_status_5\d\d$/.test(error.code) ? withPromptOnly : undefined);
  return words?.(error, details, hint) ?? error.message;
}
