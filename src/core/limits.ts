/**
 * Counts a caller gives (how many rows to list or return, how many memories or candidates a prompt may hold):
 * whole numbers inside a stated range, checked in the core so a library caller's `limit: 2 ** 60` is bad input (exit
 * 2, `bad_<option>`) rather than the engine's "datatype mismatch" (exit 1). The command line checks the same ranges
 * on its flags first (src/cli/int-flag.ts).
 */
import { UsageError } from './errors.js';

export interface CountRange {
  min: number;
  max: number;
}

/** How many rows a listing shows or a search returns, at most. */
export const MAX_ROWS = 1_000_000;
export const ROWS: CountRange = { min: 1, max: MAX_ROWS };

/** `value` when it is a whole number inside `range`; else UsageError `bad_<snake case of option>` naming the range. */
export function requireCount(value: number, option: string, range: CountRange = ROWS): number {
  if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
    const code = `bad_${option.replace(/([A-Z])/g, '_$1').toLowerCase()}`;
    throw new UsageError(code, `${option} must be a whole number from ${range.min} to ${range.max}`, {
      details: { option, min: range.min, max: range.max },
    });
  }
  return value;
}
