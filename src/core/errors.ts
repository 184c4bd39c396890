/**
 * The one error hierarchy of hippo. Every failure a user can cause or meet is a HippoError with a stable
 * snake_case `code` (scripts match on it) and an exit code from docs/design.md §3.1. Messages must never carry prompt text,
 * model output, memory content from a provider, or keys: only fixed strings and identifiers.
 */
export const ExitCode = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  notFound: 3,
  conflict: 4,
  modelUnavailable: 5,
  modelOutputRejected: 6,
  partial: 7,
  storeUnavailable: 8,
  redactionIncomplete: 9,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * Every error code hippo gives (the `code` of a HippoError, of `--json`'s error document and of an MCP tool error):
 * scripts match on them, so each is spelled once here and a misspelt one fails to compile. `http_status_<n>` is the
 * model server's HTTP status (core/model/errors.ts); `bad_<option>` is a count out of its range (core/limits.ts, and
 * src/cli/int-flag.ts for a flag). A new code goes here, and, when the CLI words it, in src/cli/error-words.ts.
 */
export const ERROR_CODES = [
  'answer_required',
  'bad_agent',
  'bad_char_budget',
  'bad_config',
  'bad_date',
  'bad_durability',
  'bad_duration',
  'bad_focus',
  'bad_id',
  'bad_import_line',
  'bad_keep_daily',
  'bad_keep_days',
  'bad_keep_hourly',
  'bad_keep_last',
  'bad_keep_weekly',
  'bad_label',
  'bad_limit',
  'bad_max_age_days',
  'bad_max_candidates',
  'bad_max_memories',
  'bad_model_config',
  'bad_partitions',
  'bad_port',
  'bad_postgres_url',
  'bad_row',
  'bad_scope',
  'bad_snapshot_name',
  'bad_status',
  'bad_table',
  'bad_tag',
  'bad_thread',
  'bad_timeout',
  'bad_top',
  'bad_value',
  'broken_pipe',
  'candidate_decided',
  'candidate_not_found',
  'candidate_promoted',
  'cannot_create_database',
  'cannot_listen',
  'cannot_open_database',
  'cannot_write_output',
  'confirmation_required',
  'confusable_agent',
  'content_too_large',
  'copy_same_store',
  'copy_target_not_empty',
  'copy_verification_failed',
  'database_busy',
  'database_not_empty',
  'database_read_only',
  'database_too_new',
  'declined',
  'disk_full',
  'editor_failed',
  'empty_content',
  'empty_db_path',
  'empty_match',
  'expires_on_durable',
  'file_not_found',
  'fts_syntax',
  'handoff_expired',
  'handoff_ingested',
  'handoff_not_found',
  'id_exists',
  'import_failed',
  'input_too_large',
  'interrupted',
  'lone_surrogate',
  'memory_not_found',
  'missing_kind',
  'model_bad_response',
  'model_call_failed',
  'model_not_configured',
  'model_output_invalid',
  'model_timeout',
  'model_unreachable',
  'needs_terminal',
  'nightly_running',
  'no_database',
  'not_a_database',
  'not_a_hippo_database',
  'not_a_hippo_snapshot',
  'not_a_regular_file',
  'not_in_transaction',
  'not_utf8',
  'nothing_matches',
  'nothing_to_distill',
  'nothing_to_edit',
  'nothing_to_forget',
  'nothing_to_import',
  'nothing_to_thread',
  'nul_in_text',
  'older_version',
  'port_in_use',
  'postgres_extension_missing',
  'postgres_permission_denied',
  'postgres_too_old',
  'rationale_required',
  'rationale_too_long',
  'reason_required',
  'reason_too_long',
  'receipt_not_found',
  'redaction_incomplete',
  'response_too_large',
  'restore_failed',
  'restore_verify_failed',
  'reviewer_too_long',
  'run_not_found',
  'snapshot_damaged',
  'snapshot_dir_unreadable',
  'snapshot_failed',
  'snapshot_in_memory',
  'snapshot_is_database',
  'snapshot_not_found',
  'snapshot_not_rewritable',
  'snapshot_purge_incomplete',
  'snapshot_too_new',
  'snapshot_too_old',
  'snapshot_verify_failed',
  'source_deleted',
  'store_not_found',
  'store_unavailable',
  'tag_added_and_removed',
  'tag_flag_ambiguous',
  'tag_required',
  'text_not_in_receipt',
  'token_not_found',
  'transaction_aborted',
  'transaction_closed',
  'unexpected',
  'unknown_command',
  'unknown_config_key',
  'unknown_kind',
  'unknown_region',
  'unreadable_file',
  'unsupported_database',
  'unsupported_file',
  'usage',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number] | `http_status_${number}`;

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** Whether `code` is one of hippo's error codes (for a code built at run time, such as `bad_<flag>`). */
export function isErrorCode(code: string): code is ErrorCode {
  return KNOWN_CODES.has(code) || /^http_status_\d+$/.test(code);
}

/** Options every HippoError takes: the cause, machine-readable details, and the next steps a person can take. */
export interface ErrorOptions {
  cause?: unknown;
  /** Extra machine-readable detail for `--json` (never content from a model). */
  details?: Record<string, unknown>;
  /**
   * What to do next, one step a line ("pass --db PATH", "run `hippo rem snapshots`"): shown after the message in text
   * and as `actions` in the `--json` error document.
   */
  actions?: readonly string[];
}

export class HippoError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: ExitCode;
  /** Extra machine-readable detail for `--json` (never content from a model). */
  readonly details?: Record<string, unknown>;
  /** Next steps for a person (ErrorOptions.actions); undefined when the message says it all. */
  readonly actions?: readonly string[];

  constructor(code: ErrorCode, message: string, exitCode: ExitCode, options?: ErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
    this.details = options?.details;
    if (options?.actions !== undefined && options.actions.length > 0) this.actions = options.actions;
  }
}

/** Exit 2: bad flag, bad value, bad input file, bad config. */
export class UsageError extends HippoError {
  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, ExitCode.usage, options);
  }
}

/** Exit 3: memory, candidate, handoff, snapshot or run not found (also: owned by another agent). */
export class NotFoundError extends HippoError {
  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, ExitCode.notFound, options);
  }
}

/** Exit 4: state conflict (already decided, already ingested, a run already holds the lock). */
export class ConflictError extends HippoError {
  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, ExitCode.conflict, options);
  }
}

/** Exit 5: no model configured, or the model could not be reached. */
export class ModelUnavailableError extends HippoError {
  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, ExitCode.modelUnavailable, options);
  }
}

/** Exit 6: the model answered, but what it said was rejected; nothing was staged. */
export class ModelOutputError extends HippoError {
  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, ExitCode.modelOutputRejected, options);
  }
}

/**
 * Exit 8: the store's server (PostgreSQL) could not be reached, refused the connection (bad password, no access, TLS
 * required, database missing), or went away mid-command, in which case the transaction was rolled back whole. The
 * message names host, port and database, never the password.
 */
export class StoreUnavailableError extends HippoError {
  constructor(message: string, options?: Omit<ErrorOptions, 'cause'>) {
    super('store_unavailable', message, ExitCode.storeUnavailable, options);
  }
}

/**
 * Exit 9: a redacted text, read again with its placeholders in place, still held a value of a redacted kind (issue 27):
 * the request was stopped and nothing was sent. `details.kinds` names the kinds, never the values.
 */
export class RedactionIncompleteError extends HippoError {
  constructor(kinds: readonly string[]) {
    super(
      'redaction_incomplete',
      `nothing was sent: after redaction the text still holds a value of a redacted kind (${kinds.join(', ')}), found on a second reading (a value glued to other text or to a decimal point, which is not read as a fact, or a gap in hippo's recognisers): put a space or a line break around the value, or report it (the value is not shown)`,
      ExitCode.redactionIncomplete,
      { details: { kinds: [...kinds] } },
    );
  }
}

/** Exit 1 with a clear message: the database stayed locked past the busy timeout. */
export class BusyError extends HippoError {
  constructor(options?: { cause?: unknown }) {
    super('database_busy', 'database is busy: another hippo process held a lock past the busy timeout; try again', ExitCode.unexpected, options);
  }
}

/** Exit 130: interrupted (Ctrl-C). */
export class InterruptedError extends HippoError {
  constructor(message = 'interrupted', details?: Record<string, unknown>) {
    super('interrupted', message, ExitCode.interrupted, details ? { details } : undefined);
  }
}

export function isHippoError(error: unknown): error is HippoError {
  return error instanceof HippoError;
}
