/**
 * The one integer flag of every command (docs/decisions.md, "Integer flags"): a whole number inside a stated range, or
 * exit 2 with code `bad_<flag>` (`bad_limit`, `bad_keep_days`, …) saying the range. oclif's own integer flag has no
 * upper bound: `--limit 99999999999999999999` became 1e20, which SQLite refused as a "datatype mismatch" (exit 1).
 */
import * as Flags from '@oclif/core/flags';
import { isErrorCode, UsageError } from '../core/errors.js';

export type IntRange = {
  min: number;
  max: number;
};

/** A whole number from `min` to `max` for flag `--name`, or a usage error naming the flag and the range. */
export function parseIntFlag(input: string, name: string, range: IntRange): number {
  const value = /^[+-]?\d+$/.test(input.trim()) ? Number(input.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
    const shown = input.length > 32 ? `${input.slice(0, 32)}…` : input;
    // Every integer flag's code is listed in ERROR_CODES (test/cli/int-flag.test.ts checks each command's).
    const code = `bad_${name.replaceAll('-', '_')}`;
    throw new UsageError(isErrorCode(code) ? code : 'bad_value', `--${name} must be a whole number from ${range.min} to ${range.max} (got "${shown}")`, {
      details: { flag: name, min: range.min, max: range.max },
    });
  }
  return value;
}

/** `intFlag({min, max, default?, description})`: every integer flag of every command is one of these. */
export const intFlag = Flags.custom<number, IntRange>({
  parse: async (input, _context, options) => parseIntFlag(input, options.name, options),
});

/** Ranges shared by several commands. */
export const RANGES = {
  /** How many rows a listing shows or a search returns. */
  count: { min: 1, max: 1_000_000 },
} as const satisfies Record<string, IntRange>;
