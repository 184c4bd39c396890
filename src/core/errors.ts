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

export class HippoError extends Error {
  readonly code: string;
  readonly exitCode: ExitCode;
  /** Extra machine-readable detail for `--json` (never content from a model). */
  readonly details?: Record<string, unknown>;

  constructor(code: string, message: string, exitCode: ExitCode, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
    this.details = options?.details;
  }
}

/** Exit 2: bad flag, bad value, bad input file, bad config. */
export class UsageError extends HippoError {
  constructor(code: string, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(code, message, ExitCode.usage, options);
  }
}

/** Exit 3: memory, candidate, handoff, snapshot or run not found (also: owned by another agent). */
export class NotFoundError extends HippoError {
  constructor(code: string, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(code, message, ExitCode.notFound, options);
  }
}

/** Exit 4: state conflict (already decided, already ingested, a run already holds the lock). */
export class ConflictError extends HippoError {
  constructor(code: string, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(code, message, ExitCode.conflict, options);
  }
}

/** Exit 5: no model configured, or the model could not be reached. */
export class ModelUnavailableError extends HippoError {
  constructor(code: string, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(code, message, ExitCode.modelUnavailable, options);
  }
}

/** Exit 6: the model answered, but what it said was rejected; nothing was staged. */
export class ModelOutputError extends HippoError {
  constructor(code: string, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(code, message, ExitCode.modelOutputRejected, options);
  }
}

/**
 * Exit 8: the store's server (PostgreSQL) could not be reached, refused the connection (bad password, no access, TLS
 * required, database missing), or went away mid-command, in which case the transaction was rolled back whole. The
 * message names host, port and database, never the password.
 */
export class StoreUnavailableError extends HippoError {
  constructor(message: string, options?: { details?: Record<string, unknown> }) {
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
      `nothing was sent: after redaction the text still holds a value of a redacted kind (${kinds.join(', ')}), found on a second reading; this is a gap in hippo's recognisers, please report it (the value is not shown)`,
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
