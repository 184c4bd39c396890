import { createRequire } from 'node:module';
import { UsageError } from './errors.js';

/** chrono-node's English entry (not every locale), loaded on first use only: most commands never read a time in words. */
const load = createRequire(import.meta.url);
let chrono: typeof import('chrono-node/en') | undefined;

/** The clock is injectable so tests can pin "now" without touching the thing under test. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/** ISO-8601 UTC with milliseconds, the only time format stored (docs/design.md §2). */
export function iso(date: Date): string {
  return date.toISOString();
}

const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/** `90m`, `24h`, `7d`, `2w`, `30s` → milliseconds; undefined if it is not a duration. */
export function parseDurationMs(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$/i.exec(text);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = UNIT_MS[match[2]!.toLowerCase()]!;
  return amount * unit;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** Years a date or a duration may reach: beyond them JavaScript dates break down ("Invalid time value"). */
const MIN_TIME = Date.UTC(1000, 0, 1);
const MAX_TIME = Date.UTC(9999, 11, 31);

/** A strict ISO date or date-time; a date alone is midnight UTC. Calendar-impossible dates (02-31) are refused. */
export function parseIsoDate(text: string): Date | undefined {
  const trimmed = text.trim();
  const match = ISO_DATE.exec(trimmed);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCFullYear() !== year || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return undefined;
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(trimmed);
  const normalised = trimmed.length === 10 ? `${trimmed}T00:00:00Z` : hasZone ? trimmed.replace(' ', 'T') : `${trimmed.replace(' ', 'T')}Z`;
  const date = new Date(normalised);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function withinRange(time: number): Date | undefined {
  return Number.isFinite(time) && time >= MIN_TIME && time <= MAX_TIME ? new Date(time) : undefined;
}

function tooFar(text: string, flag: string): never {
  throw new UsageError('bad_duration', `${flag} "${text}" reaches past the years 1000–9999`);
}

/** Which way a time in words leans when the words leave it open (`monday`, `december 1`): back for `--since`, ahead for `--expires`. */
export type Lean = 'past' | 'future';

/**
 * A time in words, in English (`yesterday`, `last monday`, `3 days ago`, `monday 9am`, `tomorrow`, `next friday`,
 * `in 2 weeks`), read by chrono-node relative to `now` in the local time zone; the words must be one time and nothing
 * else. A day without a time of day means the start of that day (`since yesterday` includes all of yesterday).
 *
 * Words that name no direction lean as asked: `past` reads `monday` on a Sunday as the Monday just gone and `december
 * 1` in November as last year's (for `--since`); `future` reads them as the next ones (for `--expires`). Words that
 * name one (`last`, `next`, `ago`, `in`, `tomorrow`) are taken as said.
 */
export function parseTimeWords(text: string, now: Date, lean: Lean = 'past'): Date | undefined {
  chrono ??= load('chrono-node/en') as typeof import('chrono-node/en');
  const trimmed = text.trim();
  const results = chrono.casual.parse(trimmed, now, { forwardDate: lean === 'future' });
  const [first] = results;
  if (results.length !== 1 || first === undefined || first.index !== 0 || first.text.length !== trimmed.length) return undefined;
  const date = first.start.date();
  const start = first.start;
  const dayOnly = !start.isCertain('hour');
  if (dayOnly) date.setHours(0, 0, 0, 0);
  if (lean === 'past' && date > now && !/\b(next|in|tomorrow|from now|later|after)\b/i.test(trimmed)) {
    // chrono has no backward reading: a bare weekday ahead of today is last week's, a bare date ahead this year last year's.
    if (start.isCertain('weekday') && !start.isCertain('day')) date.setDate(date.getDate() - 7);
    else if (start.isCertain('month') && !start.isCertain('year')) date.setFullYear(date.getFullYear() - 1);
  }
  return withinRange(date.getTime());
}

/**
 * What `since` takes, in words, wherever it is asked for — the CLI's `--since` and the MCP tools' and prompt's `since`:
 * exactly what `parseSince` reads.
 */
export const SINCE_HELP = '90m, 24h, 7d, an ISO date, or words: yesterday, last monday, 3 days ago';

/** `--since`: a duration back from now, an ISO date/time, or a time in words (`yesterday`, `last monday`); never one ahead of now. */
export function parseSince(text: string, flag: string, now: Date): Date {
  // A signed duration is not words: chrono would read "-5d" or "-5 days" as five days ago or as five days ahead, a
  // guess either way. Nothing valid here starts with a sign and a digit.
  if (/^\s*[+-]\s*\d/.test(text)) {
    const unsigned = text.trim().replace(/^[+-]\s*/, '');
    const meant = parseDurationMs(unsigned) === undefined ? 'say how long ago without it, like 5d or 5 days ago' : `${unsigned} already means that long ago`;
    throw new UsageError('bad_duration', `${flag} "${text}": a duration takes no sign (${meant})`);
  }
  const ms = parseDurationMs(text);
  if (ms !== undefined) return withinRange(now.getTime() - ms) ?? tooFar(text, flag);
  const date = parseIsoDate(text) ?? parseTimeWords(text, now);
  if (date && date > now) throw new UsageError('bad_duration', `${flag} "${text}" is in the future: nothing was created since then`);
  if (date) return date;
  throw new UsageError(
    'bad_duration',
    `${flag} "${text}" is neither a duration (90m, 24h, 7d, 2w), an ISO date (2026-11-02 or 2026-11-02T09:30:00Z), nor a time in words (yesterday, last monday, 3 days ago)`,
  );
}

/** What `expires` takes, in words, wherever it is asked for (the CLI's `--expires`, the MCP tool's `expires`). */
export const EXPIRES_HELP = '90m, 24h, 7d, an ISO date, or words: tomorrow, friday, next monday 9am, in 2 weeks';

/**
 * `--expires`: a duration forward from now, an ISO date/time, or a time in words read forwards (`tomorrow`, `friday` =
 * the next Friday, `in 2 weeks`) — not one already past (it would hide the memory at once).
 */
export function parseExpires(text: string, flag: string, now: Date): Date {
  const ms = parseDurationMs(text);
  const date = ms !== undefined ? (withinRange(now.getTime() + ms) ?? tooFar(text, flag)) : (parseIsoDate(text) ?? parseTimeWords(text, now, 'future'));
  if (!date) {
    throw new UsageError(
      'bad_date',
      `${flag} "${text}" is neither a duration (90m, 24h, 7d), an ISO date (2026-12-31 or 2026-12-31T09:30:00Z), nor a time in words (tomorrow, friday, in 2 weeks)`,
    );
  }
  if (date <= now) throw new UsageError('bad_date', `${flag} ${text} is in the past: the memory would be hidden at once`);
  return date;
}

/** `--timeout`: whole milliseconds (`800`) or a duration (`800ms`, `30s`, `2m`); at least 1 ms, at most 2^31-1. */
export function parseTimeoutMs(text: string, flag: string): number {
  const millis = /^\s*(\d+)\s*(?:ms)?\s*$/i.exec(text);
  const ms = millis ? Number(millis[1]) : parseDurationMs(text);
  if (ms === undefined || ms < 1 || ms > 2 ** 31 - 1) {
    throw new UsageError('bad_timeout', `${flag} "${text}" is not a timeout: use milliseconds (800) or a duration (800ms, 30s, 2m)`);
  }
  return Math.round(ms);
}
