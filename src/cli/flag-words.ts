import { stripVTControlCharacters } from 'node:util';
import { UsageError, type HippoError } from '../core/errors.js';
import { closest, orList, suggestions } from '../core/suggest.js';
import { shellQuote } from '../views/hints.js';

interface FlagShape {
  char?: string;
}

/** What the base command knows about the command whose flags failed to parse. */
export interface CommandShape {
  id: string | undefined;
  argv: readonly string[];
  flags?: Record<string, FlagShape>;
  baseFlags?: Record<string, FlagShape>;
  args?: Record<string, unknown>;
}

/** The oclif error for flags the command does not have (`NonExistentFlagsError`). */
function unknownFlags(error: unknown): string[] | undefined {
  const flags = (error as { flags?: unknown }).flags;
  const message = error instanceof Error ? error.message : '';
  return /^Nonexistent flags?:/.test(message) && Array.isArray(flags) && flags.every((flag) => typeof flag === 'string') ? flags : undefined;
}

/**
 * Words an unknown flag deserves: the flag it is probably a typo of (`--limt` → `--limit`), or — for a command whose
 * argument is free text, when the "flag" is a word starting with `-` (`hippo search -foo`) — to put the text after
 * `--`. Undefined for any other error (the base command maps those as before).
 */
export function flagMistake(error: unknown, command: CommandShape): HippoError | undefined {
  const flags = unknownFlags(error);
  if (flags === undefined || flags.length === 0) return undefined;
  const known = { ...command.baseFlags, ...command.flags };
  const longNames = Object.keys(known).map((name) => `--${name}`);
  const words = (command.id ?? '').split(':').filter(Boolean);
  const takesText = Object.keys(command.args ?? {}).length > 0;
  const parts = flags.map((flag) => {
    const named = flag.replace(/=.*$/, '');
    const typo = named.startsWith('--') ? closest(named, longNames) : undefined;
    if (typo) return `${named} is not a flag of hippo ${words.join(' ')}; did you mean ${typo}?`;
    if (takesText && /^-[^-]/.test(flag)) {
      return `${flag} is not a flag of hippo ${words.join(' ')}; if it is text that starts with "-", put it after --: hippo ${shellQuote([...words, '--', flag])}`;
    }
    return `${named} is not a flag of hippo ${words.join(' ')}`;
  });
  return new UsageError('usage', `${parts.join('; ')} (see --help)`, { details: { flags } });
}

/** oclif's error for missing arguments (`RequiredArgsError`): the arguments it found missing, with their descriptions. */
function missingArgs(error: unknown): { name: string; description?: string }[] | undefined {
  const args = (error as { args?: unknown }).args;
  const message = error instanceof Error ? error.message : '';
  if (!/^Missing \d+ required args?/.test(message) || !Array.isArray(args)) return undefined;
  return args.filter((arg): arg is { name: string; description?: string } => typeof (arg as { name?: unknown })?.name === 'string');
}

/** The usage line of a command, from its arguments: `hippo db copy FROM TO [flags]` (a variadic command ends in `…`). */
export function usageLine(command: CommandShape & { strict?: boolean }): string {
  const args = Object.entries((command.args ?? {}) as Record<string, { required?: boolean }>).map(([name, arg]) =>
    arg.required ? name.toUpperCase() : `[${name.toUpperCase()}]`,
  );
  const last = args.length - 1;
  if (command.strict === false && last >= 0) args[last] = `${args[last]}…`;
  return ['hippo', ...(command.id ?? '').split(':').filter(Boolean), ...args, '[flags]'].join(' ');
}

/**
 * Missing arguments as `gh` says them (issue 30): what is missing, each missing argument on a line of its own with
 * its description, then the usage line — instead of oclif's run-together one-liner. Undefined for any other error.
 */
export function missingArgsMistake(error: unknown, command: CommandShape & { strict?: boolean }): HippoError | undefined {
  const missing = missingArgs(error);
  if (missing === undefined || missing.length === 0) return undefined;
  const width = Math.max(...missing.map((arg) => arg.name.length));
  const lines = missing.map((arg) => `  ${arg.name.toUpperCase().padEnd(width)}  ${arg.description ?? ''}`.trimEnd());
  const usage = usageLine(command);
  const what = missing.length === 1 ? 'missing required argument' : `missing ${missing.length} required arguments`;
  return new UsageError('usage', [`${what}:`, ...lines, `usage: ${usage} (see --help)`].join('\n'), {
    details: { missing: missing.map((arg) => arg.name), usage },
  });
}

/**
 * Flags given together that exclude each other (oclif: "The following errors occurred: --clear=true cannot also be
 * provided when using --set --set=t cannot also be provided when using --clear", one run-together line naming each
 * side twice, with the values): each pair once, by name only — `--set and --clear cannot be used together`.
 * Undefined for any other error.
 */
export function exclusiveMistake(error: unknown): HippoError | undefined {
  const message = error instanceof Error ? error.message : '';
  if (!/^The following errors? occurred:/.test(message)) return undefined;
  const reasons = message
    .split('\n')
    .slice(1)
    .map((line) => stripVTControlCharacters(line).trim())
    .filter((line) => line !== '' && line !== 'See more help with --help');
  const pairs = new Map<string, [string, string]>();
  for (const reason of reasons) {
    const match = /^--([\w-]+)(?:=[\s\S]*)? cannot also be provided when using --([\w-]+)$/.exec(reason);
    if (!match) return undefined;
    const key = [match[1]!, match[2]!].sort().join(' ');
    if (!pairs.has(key)) pairs.set(key, [match[2]!, match[1]!]);
  }
  if (pairs.size === 0) return undefined;
  const said = [...pairs.values()].map(([one, other]) => `--${one} and --${other} cannot be used together`);
  return new UsageError('usage', `${said.join('; ')} (see --help)`, { details: { exclusive: [...pairs.values()] } });
}

/**
 * A flag value outside its choices (oclif: `Expected --durability=perm to be one of: …`): the choices, and the one
 * meant when the value is the start of one or a typo of one (`--durability perm` → `permanent`). Undefined otherwise.
 */
export function choiceMistake(error: unknown): HippoError | undefined {
  const message = error instanceof Error ? error.message : '';
  const match = /Expected --([\w-]+)=([\s\S]*?) to be one of: ([^\n]+)/.exec(message);
  if (!match) return undefined;
  const [, flag, value, list] = match as unknown as [string, string, string, string];
  const allowed = list
    .split(',')
    .map((choice) => choice.trim())
    .filter(Boolean);
  const meant = suggestions(value, allowed);
  const shown = value.length > 32 ? `${value.slice(0, 32)}…` : value;
  const guess = meant.length === 0 ? '' : `; did you mean ${orList(meant)}?`;
  return new UsageError('usage', `--${flag} must be one of ${allowed.join(', ')} (got "${shown}")${guess} (see --help)`, {
    details: { flag, allowed, ...(meant.length > 0 ? { suggestion: meant[0] } : {}) },
  });
}
