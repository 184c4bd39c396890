/**
 * `-n/--limit` and `--all` of every listing with a default limit (issue 30: a list says what it hides). `--all` lifts
 * the limit to the most rows a listing returns.
 */
import * as Flags from '@oclif/core/flags';
import { MAX_ROWS } from '../core/limits.js';
import { intFlag, RANGES } from './int-flag.js';

export function limitFlags(defaultLimit: number, description = 'how many') {
  return {
    limit: intFlag({ ...RANGES.count, char: 'n', default: defaultLimit, description: `${description} (default ${defaultLimit})` }),
    all: Flags.boolean({ default: false, description: 'every row (no limit)', exclusive: ['limit'] }),
  };
}

/** The limit those flags stand for. */
export function limitOf(flags: { limit: number; all: boolean }): number {
  return flags.all ? MAX_ROWS : flags.limit;
}
