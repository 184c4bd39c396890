import { describe, expect, it } from 'vitest';
import { texts, values } from './helpers.js';

describe('date recogniser', () => {
  // First in the file: the parsers are built once per module, on first use (month first without a region, day first
  // in IE), so this test sees how they are built: only the full-date parsers, no range merger, overlaps removed.
  it('reads written full dates only, each once, a range as two, in both orders of day and month', () => {
    for (const region of [null, 'IE']) {
      expect(texts('date', 'from 2021-05-01 to 2021-05-03', { region }), String(region)).toEqual(['2021-05-01', '2021-05-03']);
      expect(texts('date', 'the cron finished in 34 minutes, two weeks ago, see you next Tuesday', { region }), String(region)).toEqual([]);
      expect(texts('date', 'batch 2021/25/05', { region }), String(region)).toEqual([]);
      expect(texts('date', 'due 12 March 2024 at 10pm', { region }), String(region)).toEqual(['12 March 2024']);
    }
    expect(values('date', '05/06/2021', { region: 'IE' })).toEqual(['2021-06-05']);
  });

  it('finds full calendar dates in common forms and normalises to YYYY-MM-DD', () => {
    const text = 'On 2021-05-21, 5/20/2021, 21.5.2021, 5-May-2021, March 5, 2021 and Tuesday, 12 March 2024.';
    expect(values('date', text, { region: null })).toEqual(['2021-05-21', '2021-05-20', '2021-05-21', '2021-05-05', '2021-03-05', '2024-03-12']);
  });

  it('rejects partial dates: no year, no day, or a year alone', () => {
    expect(texts('date', 'May-21, 21-May, 5/21, 05/2021, May-2021, March 2021, in 2021, 5 March', { region: null })).toEqual([]);
    // Completed, the same dates are found.
    expect(texts('date', '21-May-2021, 5/21/2021, March 5, 2021, 5 March 2021', { region: null })).toEqual([
      '21-May-2021',
      '5/21/2021',
      'March 5, 2021',
      '5 March 2021',
    ]);
  });

  it('does not read a count after a month-name date as a two-digit year', () => {
    expect(texts('date', 'moved to May 21, 22 people came', { region: null })).toEqual([]);
    expect(texts('date', 'moved to May 21, 2022', { region: null })).toEqual(['May 21, 2022']);
  });

  it('rejects impossible dates', () => {
    expect(texts('date', 'on 2024-02-30 or 31/02/2020', { region: null })).toEqual([]);
    expect(texts('date', 'on 2024-02-29 or 29/02/2020', { region: null })).toEqual(['2024-02-29', '29/02/2020']);
  });

  it('covers an ISO-8601 timestamp whole, fractions and offset included', () => {
    expect(texts('date', 'Today is,2024-03-15T14:30:00.123456Z or not?', { region: null })).toEqual(['2024-03-15T14:30:00.123456Z']);
    expect(values('date', '2024-06-05T09:15:30.500-07:00', { region: null })).toEqual(['2024-06-05']);
  });

  it('splits a range into its two dates', () => {
    expect(texts('date', 'from 2021-05-01 to 2021-05-03', { region: null })).toEqual(['2021-05-01', '2021-05-03']);
  });

  it('reads numeric dates in the region order', () => {
    expect(values('date', '05/06/2021', { region: 'US' })).toEqual(['2021-05-06']);
    expect(values('date', '05/06/2021', { region: 'IE' })).toEqual(['2021-06-05']);
    expect(values('date', '05/06/2021', { region: null })).toEqual(['2021-05-06']);
  });

  it('rejects dates glued to words', () => {
    expect(texts('date', 'Today is2024-06-05T09:15:30.500-07:00', { region: null })).toEqual([]);
    expect(texts('date', 'build2021-05-05x', { region: null })).toEqual([]);
    expect(texts('date', 'Today is 2024-06-05T09:15:30.500-07:00', { region: null })).toEqual(['2024-06-05T09:15:30.500-07:00']);
    expect(texts('date', 'build 2021-05-05 x', { region: null })).toEqual(['2021-05-05']);
  });

  it('does not match full-width digits', () => {
    expect(texts('date', '２０２１-０５-２１', { region: null })).toEqual([]);
    expect(texts('date', '2021-05-21', { region: null })).toEqual(['2021-05-21']);
  });

  it('never reads a relative expression as a date: it is resolved against a reference, not written', () => {
    const relative = [
      'the cron finished in 34 minutes',
      'we agreed two weeks ago',
      'paused for 3 days',
      'ship in six weeks',
      'reply within 2 weeks',
      'renewal 2 weeks from now',
      '3 days later it broke',
      'back in 2 hours',
      'see you next Tuesday',
      'tomorrow or today',
    ];
    for (const text of relative) {
      for (const region of [null, 'IE', 'US']) expect(texts('date', text, { region })).toEqual([]);
    }
    // A written date in the same sentence is found.
    for (const region of [null, 'IE', 'US']) expect(texts('date', 'we agreed on 2024-03-12, two weeks ago', { region })).toEqual(['2024-03-12']);
  });

  it('keeps a written date next to a relative expression, without the relative part', () => {
    expect(texts('date', '3 days after 2021-05-01', { region: null })).toEqual(['2021-05-01']);
    expect(texts('date', 'due 12 Jan 2027, in 3 days', { region: 'IE' })).toEqual(['12 Jan 2027']);
  });

  it('spans the date itself: no leading "on", weekday or time of day', () => {
    expect(texts('date', 'expires on 12 January 2027; ON  7 May 2021', { region: 'IE' })).toEqual(['12 January 2027', '7 May 2021']);
    expect(texts('date', 'on Tuesday, 12 March 2024 (Friday, 13 March 2026)', { region: 'IE' })).toEqual(['12 March 2024', '13 March 2026']);
    expect(texts('date', 'At 10:30 on 5 March 2021, and March 6, 2021 at 10am', { region: null })).toEqual(['5 March 2021', 'March 6, 2021']);
    expect(texts('date', 'by the 3rd of May, 2022', { region: null })).toEqual(['3rd of May, 2022']);
  });

  it('rejects "on" glued to the date', () => {
    expect(texts('date', 'on5 March 2021', { region: null })).toEqual([]);
    expect(texts('date', 'on 5 March 2021', { region: null })).toEqual(['5 March 2021']);
  });

  it('rejects a numeric date inside a longer run of digit groups (an address, a version)', () => {
    for (const region of [null, 'IE', 'US']) {
      expect(texts('date', 'nodes 10.20.1.21 to 10.20.1.26, v1.5.20.2021 and 5/20/2021/7', { region })).toEqual([]);
    }
    expect(texts('date', 'from 2021-05-01/2021-05-03', { region: null })).toEqual(['2021-05-01', '2021-05-03']);
    expect(texts('date', 'released 20.1.2021.', { region: 'IE' })).toEqual(['20.1.2021']);
    expect(texts('date', 'v1.2 released 12 March 2024.5 followed', { region: 'IE' })).toEqual(['12 March 2024']);
  });

  it('reads year-first forms with a slash or a month name', () => {
    expect(values('date', '2021/05/21, 2021 March 5 and 2021-Mar-06', { region: 'IE' })).toEqual(['2021-05-21', '2021-03-05', '2021-03-06']);
  });

  it('leaves a trailing number or zone word out of the span, and a serial like 05-20-2021-7 out entirely', () => {
    expect(texts('date', 'on 2021-05-01 GMT and 12 March 2024 -7', { region: null })).toEqual(['2021-05-01', '12 March 2024']);
    for (const text of ['id 05-20-2021-7', 'id 7-05-20-2021', 'n 2021-05-01-3', 'n 3-2021-05-01', 'build 20.1.21.5', 'ref 1/5/20/2021']) {
      expect(texts('date', text, { region: 'IE' }), text).toEqual([]);
    }
  });

  it('covers ISO timestamps in each written precision', () => {
    const stamps = ['2024-03-15T14:30Z', '2024-03-15 14:30:00,5+0100', '2024-03-15T14:30:00-05', '2024-03-15T14:30:00.123+02:00', '2024-03-15T14:30'];
    for (const stamp of stamps) expect(texts('date', `at ${stamp} ok`, { region: null }), stamp).toEqual([stamp]);
  });

  it('needs a four-digit year with a month name wherever the date stands', () => {
    expect(texts('date', 'moved to May 21, 2022 today', { region: null })).toEqual(['May 21, 2022']);
    expect(texts('date', 'Mayday 21, 22 people', { region: null })).toEqual([]);
  });

  it('rejects a numeric date without a year, whatever the region', () => {
    for (const region of [null, 'IE', 'US']) expect(texts('date', 'due 5/21 or by 12/31, not later', { region }), String(region)).toEqual([]);
    // With a year, the same dates are found.
    expect(texts('date', 'due 5/21/2021 or by 12/31/2021, not later', { region: 'US' })).toEqual(['5/21/2021', '12/31/2021']);
  });

  it('does not swap a month and a day written year-first out of order', () => {
    expect(texts('date', 'batch 2021/25/05 and 2021.31.12', { region: 'IE' })).toEqual([]);
    expect(texts('date', 'batch 2021/05/25 and 2021/12/31', { region: 'IE' })).toEqual(['2021/05/25', '2021/12/31']);
  });

  it('reads two dates in a row, whatever their forms (issue 27: a partial reading across both hid the first)', () => {
    for (const separator of [' ', '\n', '\t', ', ', '; ', ' / ']) {
      expect(texts('date', `2024-03-15${separator}March 5, 2021`, { region: 'IE' })).toEqual(['2024-03-15', 'March 5, 2021']);
      expect(texts('date', `15 March 2024${separator}2024-03-15T14:30:00Z`, { region: 'IE' })).toEqual(['15 March 2024', '2024-03-15T14:30:00Z']);
      // A number before a month-name date is not its year when the date reads longer without it.
      expect(texts('date', `4111 1111 1111 1111${separator}March 5, 2021`, { region: 'IE' })).toEqual(['March 5, 2021']);
    }
  });

  it('reads a date after a separator that follows no digit (a dash bullet)', () => {
    expect(texts('date', 'Changes:\n-2021-05-01 first release\n-2021-06-01 second', { region: 'IE' })).toEqual(['2021-05-01', '2021-06-01']);
  });
});
