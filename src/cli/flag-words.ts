import { UsageError, type HippoError } from '../core/errors.js';
import { closest } from '../core/suggest.js';
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
