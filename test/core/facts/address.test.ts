import { describe, expect, it } from 'vitest';
import { find, texts } from './helpers.js';

describe('address recogniser (certified by a postcode)', () => {
  it('finds a block of lines from the street to the postcode, leaving names and countries out', () => {
    expect(texts('address', 'Larkspur Ltd\n4 Grand Canal Square\nDublin 2\nD02 X525\nIreland')).toEqual(['4 Grand Canal Square\nDublin 2\nD02 X525']);
    expect(texts('address', '10 Downing Street\r\nLondon\r\nSW1A 2AA')).toEqual(['10 Downing Street\r\nLondon\r\nSW1A 2AA']);
  });

  it('finds a comma-separated run inside prose, from the house number or the street name', () => {
    expect(texts('address', 'We are at 1600 Amphitheatre Pkwy, Mountain View, CA 94043 since 2004.')).toEqual([
      '1600 Amphitheatre Pkwy, Mountain View, CA 94043',
    ]);
    expect(texts('address', 'Wir sitzen in der Hauptstraße 5, 10115 Berlin.')).toEqual(['Hauptstraße 5, 10115 Berlin']);
    expect(texts('address', 'Adresse : 12 rue de Rivoli, 75004 Paris')).toEqual(['12 rue de Rivoli, 75004 Paris']);
    expect(texts('address', 'Calle de Alcalá 42, 28014 Madrid')).toEqual(['Calle de Alcalá 42, 28014 Madrid']);
    expect(texts('address', 'Bahnhofstrasse 21, CH-8001 Zürich')).toEqual(['Bahnhofstrasse 21, CH-8001 Zürich']);
    expect(texts('address', 'Kalverstraat 92\n1012 PH Amsterdam')).toEqual(['Kalverstraat 92\n1012 PH Amsterdam']);
    expect(texts('address', 'Via Roma 10\nRoma 00184')).toEqual(['Via Roma 10\nRoma 00184']);
  });

  it('marks the match as certified by a postcode, with the text as its value', () => {
    const [match] = find('address', 'Office: 4 Grand Canal Square, Dublin 2, D02 X525');
    expect(match).toMatchObject({
      check: 'postcode',
      text: '4 Grand Canal Square, Dublin 2, D02 X525',
      normalized: '4 Grand Canal Square, Dublin 2, D02 X525',
    });
  });

  it('needs a valid postcode for the country format', () => {
    expect(texts('address', '12 Fitzwilliam Square, Dublin 2, D02 AB12')).toEqual([]);
    expect(texts('address', '350 Fifth Avenue, New York, NY 1011')).toEqual([]);
    expect(texts('address', '350 Fifth Avenue, New York, 10118')).toEqual([]);
    expect(texts('address', 'Calle Mayor 5, 999 Madrid')).toEqual([]);
  });

  it('needs a street with a house number, reached through address-like parts only', () => {
    expect(texts('address', 'Order 12345 Shipped today')).toEqual([]);
    expect(texts('address', 'Version 2.3 released on 12 May, 10115 downloads')).toEqual([]);
    expect(texts('address', 'Visit us at 12 Rue de Rivoli. In 2024 Paris hosted the games.')).toEqual([]);
    expect(texts('address', 'Grand Canal Square\nDublin 2\nD02 X525')).toEqual([]);
    expect(texts('address', '4 Grand Canal Square\n\nD02 X525')).toEqual([]);
    expect(texts('address', '4 Grand Canal Square\nwe moved here last year, it is lovely!\nD02 X525')).toEqual([]);
  });

  it('reaches at most four lines or parts back', () => {
    expect(texts('address', '4 Grand Canal Square\nBlock A\nFloor 3\nDublin 2\nD02 X525')).toEqual([]);
    expect(texts('address', '4 Grand Canal Square\nFloor 3\nDublin 2\nD02 X525')).toEqual(['4 Grand Canal Square\nFloor 3\nDublin 2\nD02 X525']);
  });
});
