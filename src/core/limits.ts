/**
 * Counts a caller gives (how many rows to list or return, how many memories or candidates a prompt may hold):
 * whole numbers inside a stated range, checked in the core so a library caller's `limit: 2 ** 60` is bad input (exit
 * 2, `bad_<option>`) rather than the engine's "datatype mismatch" (exit 1). The command line checks the same ranges
 * on its flags first (src/cli/int-flag.ts).
 */
import { UsageError, type ErrorCode } from './errors.js';

export interface CountRange {
  min: number;
  max: number;
}

/** How many rows a listing shows or a search returns, at most. */
export const MAX_ROWS = 1_000_000;
export const ROWS: CountRange = { min: 1, max: MAX_ROWS };

/** Each count option and its error code, `bad_<snake case of option>`. */
const COUNT_CODES = {
  limit: 'bad_limit',
  maxCandidates: 'bad_max_candidates',
  maxMemories: 'bad_max_memories',
  charBudget: 'bad_char_budget',
  keepLast: 'bad_keep_last',
  keepHourly: 'bad_keep_hourly',
  keepDaily: 'bad_keep_daily',
  keepWeekly: 'bad_keep_weekly',
  maxAgeDays: 'bad_max_age_days',
} as const satisfies Record<string, ErrorCode>;
export type CountOption = keyof typeof COUNT_CODES;

/** `value` when it is a whole number inside `range`; else UsageError `bad_<snake case of option>` naming the range. */
export function requireCount(value: number, option: CountOption, range: CountRange = ROWS): number {
  if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
    throw new UsageError(COUNT_CODES[option], `${option} must be a whole number from ${range.min} to ${range.max}`, {
      details: { option, min: range.min, max: range.max },
    });
  }
  return value;
}

/**
 * What a listing's limit hid (issue 30): how many rows there are in all and whether the limit cut them. `count` (one
 * COUNT statement naming the agent) runs only when the rows fill the limit — otherwise they are all there is.
 */
export interface Shown {
  total: number;
  truncated: boolean;
}

export async function shownOf(shown: number, limit: number, count: () => Promise<number>): Promise<Shown> {
  // A row written between the two statements may make the count lag the rows: never say fewer than were shown.
  const total = shown < limit ? shown : Math.max(shown, await count());
  return { total, truncated: total > shown };
}
