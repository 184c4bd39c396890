import { describe, expect, it } from 'vitest';
import { HippoError } from '../../src/core/errors.js';
import { parseDurationMs, parseExpires, parseIsoDate, parseSince, parseTimeoutMs } from '../../src/core/time.js';

const now = new Date('2026-11-02T12:00:00.000Z');

describe('durations and dates', () => {
  it('parses the duration forms of --since', () => {
    expect(parseDurationMs('90m')).toBe(90 * 60_000);
    expect(parseDurationMs('24h')).toBe(86_400_000);
    expect(parseDurationMs('7d')).toBe(7 * 86_400_000);
    expect(parseDurationMs('2w')).toBe(14 * 86_400_000);
    expect(parseDurationMs('1.5h')).toBe(5_400_000);
    expect(parseDurationMs('7 days')).toBeUndefined();
    expect(parseDurationMs('-7d')).toBeUndefined();
  });

  it('parses strict ISO dates and refuses impossible ones', () => {
    expect(parseIsoDate('2026-11-02')?.toISOString()).toBe('2026-11-02T00:00:00.000Z');
    expect(parseIsoDate('2026-11-02T09:30')?.toISOString()).toBe('2026-11-02T09:30:00.000Z');
    expect(parseIsoDate('2026-11-02T09:30:00+02:00')?.toISOString()).toBe('2026-11-02T07:30:00.000Z');
    expect(parseIsoDate('2026-02-31')).toBeUndefined();
    expect(parseIsoDate('yesterday')).toBeUndefined();
  });

  it('turns --since and --expires into times relative to now, or a usage error', () => {
    expect(parseSince('90m', '--since', now).toISOString()).toBe('2026-11-02T10:30:00.000Z');
    expect(parseExpires('1d', '--expires', now).toISOString()).toBe('2026-11-03T12:00:00.000Z');
    expect(() => parseSince('whenever it suits', '--since', now)).toThrow(HippoError);
    try {
      parseSince('whenever it suits', '--since', now);
    } catch (error) {
      expect((error as HippoError).exitCode).toBe(2);
      expect((error as HippoError).message).toContain('--since "whenever it suits"');
    }
  });

  it('reads --since in words relative to now in the local zone; a day alone means its start; never a time ahead of now', () => {
    const local = (date: Date) => [date.getFullYear(), date.getMonth() + 1, date.getDate(), date.getHours(), date.getMinutes()];
    // now is Monday 2026-11-02 12:00 UTC; the tests run with the machine's zone, so compare in local terms.
    const yesterday = parseSince('yesterday', '--since', now);
    const dayBefore = new Date(now);
    dayBefore.setDate(dayBefore.getDate() - 1);
    expect(local(yesterday)).toEqual([dayBefore.getFullYear(), dayBefore.getMonth() + 1, dayBefore.getDate(), 0, 0]);
    expect(parseSince('3 days ago', '--since', now).getDate()).toBe(new Date(now.getTime() - 3 * 86_400_000).getDate());
    expect(parseSince('2 hours ago', '--since', now).toISOString()).toBe('2026-11-02T10:00:00.000Z');
    const lastTuesday = parseSince('last tuesday', '--since', now);
    expect(lastTuesday.getDay()).toBe(2);
    expect(lastTuesday < now && now.getTime() - lastTuesday.getTime() < 8 * 86_400_000).toBe(true);
    expect(() => parseSince('tomorrow', '--since', now)).toThrow(expect.objectContaining({ code: 'bad_duration', exitCode: 2 }));
    // A signed duration is refused, not read as words ("-5d" was the start of the day five days ago).
    for (const signed of ['-5d', '+5d', ' - 2w ', '-5 days', '+3 weeks', '- 2 hours ago']) {
      expect(() => parseSince(signed, '--older-than', now)).toThrow(expect.objectContaining({ code: 'bad_duration', exitCode: 2 }));
    }
    expect(() => parseSince('-5d', '--older-than', now)).toThrow('a duration takes no sign (5d already means that long ago)');
    expect(() => parseSince('-5 days', '--older-than', now)).toThrow('a duration takes no sign (say how long ago without it, like 5d or 5 days ago)');
    expect(parseSince('0d', '--older-than', now)).toEqual(now);
    // One time and nothing else: words around it are not silently dropped.
    expect(() => parseSince('yesterday or so', '--since', now)).toThrow(expect.objectContaining({ code: 'bad_duration' }));
  });

  it('parses --timeout as milliseconds or a duration, and refuses anything else with exit 2', () => {
    expect(parseTimeoutMs('800', '--timeout')).toBe(800);
    expect(parseTimeoutMs(' 800ms ', '--timeout')).toBe(800);
    expect(parseTimeoutMs('30s', '--timeout')).toBe(30_000);
    expect(parseTimeoutMs('1.5s', '--timeout')).toBe(1500);
    expect(parseTimeoutMs('2m', '--timeout')).toBe(120_000);
    for (const bad of ['soon', '0', '0ms', '-5', '30 days', '', String(2 ** 31)]) {
      expect(() => parseTimeoutMs(bad, '--timeout'), bad).toThrow(expect.objectContaining({ code: 'bad_timeout', exitCode: 2 }));
    }
  });
});

describe('out-of-range and rolled-over input', () => {
  it('refuses durations that reach past the calendar as a usage error, not a crash', () => {
    for (const [fn, flag] of [
      [parseSince, '--since'],
      [parseExpires, '--expires'],
    ] as const) {
      try {
        fn('99999999999d', flag, now);
        throw new Error('expected an error');
      } catch (error) {
        expect((error as HippoError).code).toBe('bad_duration');
        expect((error as HippoError).exitCode).toBe(2);
      }
    }
  });

  it('refuses calendar-impossible dates with a time or a zone too', () => {
    expect(parseIsoDate('2027-02-31T10:00:00Z')).toBeUndefined();
    expect(parseIsoDate('2027-02-30T10:00:00+02:00')).toBeUndefined();
    expect(parseIsoDate('2027-13-01')).toBeUndefined();
    expect(parseIsoDate('2028-02-29T23:30:00-01:00')?.toISOString()).toBe('2028-03-01T00:30:00.000Z');
  });
});
