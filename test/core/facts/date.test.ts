import { describe, expect, it } from 'vitest';
import { texts, values } from './helpers.js';

describe('date recogniser', () => {
  it('finds full calendar dates in common forms and normalises to YYYY-MM-DD', () => {
    const text = 'On 2021-05-21, 5/20/2021, 21.5.2021, 5-May-2021, March 5, 2021 and Tuesday, 12 March 2024.';
    expect(values('date', text, { region: null })).toEqual([
      '2021-05-21',
      '2021-05-20',
      '2021-05-21',
      '2021-05-05',
      '2021-03-05',
      '2024-03-12',
    ]);
  });

  it('rejects partial dates: no year, no day, or a year alone', () => {
    expect(texts('date', 'May-21, 21-May, 5/21, 05/2021, May-2021, March 2021, in 2021, 5 March', { region: null })).toEqual(
      [],
    );
  });

  it('does not read a count after a month-name date as a two-digit year', () => {
    expect(texts('date', 'moved to May 21, 22 people came', { region: null })).toEqual([]);
    expect(texts('date', 'moved to May 21, 2022', { region: null })).toEqual(['May 21, 2022']);
  });

  it('rejects impossible dates', () => {
    expect(texts('date', 'on 2024-02-30 or 31/02/2020', { region: null })).toEqual([]);
  });

  it('covers an ISO-8601 timestamp whole, fractions and offset included', () => {
    expect(texts('date', 'Today is,2024-03-15T14:30:00.123456Z or not?', { region: null })).toEqual([
      '2024-03-15T14:30:00.123456Z',
    ]);
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
  });

  it('does not match full-width digits', () => {
    expect(texts('date', '２０２１-０５-２１', { region: null })).toEqual([]);
  });
});
