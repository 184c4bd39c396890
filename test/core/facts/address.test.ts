import { describe, expect, it } from 'vitest';
import { addressCountries } from '../../../src/core/facts/recognisers/address.js';
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
    // The same addresses with a valid postcode are found.
    expect(texts('address', '12 Fitzwilliam Square, Dublin 2, D02 X525')).toEqual(['12 Fitzwilliam Square, Dublin 2, D02 X525']);
    expect(texts('address', '350 Fifth Avenue, New York, NY 10118')).toEqual(['350 Fifth Avenue, New York, NY 10118']);
    expect(texts('address', 'Calle Mayor 5, 28013 Madrid')).toEqual(['Calle Mayor 5, 28013 Madrid']);
  });

  it('needs a street with a house number, reached through address-like parts only', () => {
    expect(texts('address', 'Order 12345 Shipped today')).toEqual([]);
    expect(texts('address', 'Version 2.3 released on 12 May, 10115 downloads')).toEqual([]);
    expect(texts('address', 'Visit us at 12 Rue de Rivoli. In 2024 Paris hosted the games.')).toEqual([]);
    expect(texts('address', 'Grand Canal Square\nDublin 2\nD02 X525')).toEqual([]);
    expect(texts('address', '4 Grand Canal Square\n\nD02 X525')).toEqual([]);
    expect(texts('address', '4 Grand Canal Square\nwe moved here last year, it is lovely!\nD02 X525')).toEqual([]);
    // With the street's number, a comma instead of a full stop, and the city line, the same parts are found.
    expect(texts('address', 'Visit us at 12 Rue de Rivoli, 75004 Paris')).toEqual(['12 Rue de Rivoli, 75004 Paris']);
    expect(texts('address', '4 Grand Canal Square\nDublin 2\nD02 X525')).toEqual(['4 Grand Canal Square\nDublin 2\nD02 X525']);
  });

  it('reaches at most four lines or parts back', () => {
    expect(texts('address', '4 Grand Canal Square\nBlock A\nFloor 3\nDublin 2\nD02 X525')).toEqual([]);
    expect(texts('address', '4 Grand Canal Square\nFloor 3\nDublin 2\nD02 X525')).toEqual(['4 Grand Canal Square\nFloor 3\nDublin 2\nD02 X525']);
  });

  it('takes the four parts before the postcode, and no fifth one', () => {
    expect(texts('address', '4 Grand Canal Square, Block A, Floor 3, Dublin 2, D02 X525')).toEqual([
      '4 Grand Canal Square, Block A, Floor 3, Dublin 2, D02 X525',
    ]);
    expect(texts('address', '4 Grand Canal Square, Unit 5, Block A, Floor 3, Dublin 2, D02 X525')).toEqual([]);
  });

  it('stops at a blank or whitespace-only line, whatever the line breaks', () => {
    expect(texts('address', '4 Grand Canal Square\r\rD02 X525')).toEqual([]);
    expect(texts('address', '4 Grand Canal Square\r\rDublin 2\rD02 X525')).toEqual([]);
    expect(texts('address', '4 Grand Canal Square\n   \nD02 X525')).toEqual([]);
    expect(texts('address', '4 Grand Canal Square\rDublin 2\rD02 X525')).toEqual(['4 Grand Canal Square\rDublin 2\rD02 X525']);
  });

  it('reads parts without the spaces around them: a long indentation, trailing spaces after the street', () => {
    const pad = ' '.repeat(56);
    expect(texts('address', `${pad}4 Grand Canal Square\n${pad}Dublin 2\n${pad}D02 X525`)).toEqual([`4 Grand Canal Square\n${pad}Dublin 2\n${pad}D02 X525`]);
    expect(texts('address', '4 Grand Canal Square  \nDublin 2\nD02 X525')).toEqual(['4 Grand Canal Square  \nDublin 2\nD02 X525']);
  });

  it('reads an abbreviated street type with its full stop', () => {
    expect(texts('address', '350 Fifth Ave., New York, NY 10118')).toEqual(['350 Fifth Ave., New York, NY 10118']);
    expect(texts('address', 'Bahnhofstr. 5, 10115 Berlin')).toEqual(['Bahnhofstr. 5, 10115 Berlin']);
  });

  it('takes a word ending like a compound street name only with a stem of three letters or more', () => {
    expect(texts('address', 'Ostring 5, 10115 Berlin')).toEqual(['Ostring 5, 10115 Berlin']);
    expect(texts('address', 'Spring 5, 10115 Berlin')).toEqual([]);
    expect(texts('address', 'Bring 3, 80331 München')).toEqual([]);
  });

  it('starts a name-first street at its first capitalised word, and needs the street word before the number', () => {
    expect(texts('address', 'Paket für eBay Hauptstraße 5, 10115 Berlin')).toEqual(['Hauptstraße 5, 10115 Berlin']);
    expect(texts('address', 'Station Road annex 5, 10115 Berlin')).toEqual([]);
    expect(texts('address', 'Road works near Kiosk 5, 10115 Berlin')).toEqual([]);
    expect(texts('address', 'Calle de Alcalá 42 3º\n28014 Madrid')).toEqual(['Calle de Alcalá 42 3º\n28014 Madrid']);
  });

  it('needs the postcode to fit the country its prefix names', () => {
    expect(texts('address', 'Hauptstraße 5, D-1234 Berlin')).toEqual([]);
    expect(texts('address', 'Hauptstraße 5, 1234 Berlin')).toEqual(['Hauptstraße 5, 1234 Berlin']);
  });

  it('gives each address the countries its postcode fits', () => {
    expect(addressCountries('4 Grand Canal Square, Dublin 2, D02 X525')).toEqual([['IE']]);
    expect(addressCountries('10 Downing Street, London SW1A 2AA')).toEqual([['GB']]);
    expect(addressCountries('1600 Amphitheatre Pkwy, Mountain View, CA 94043')).toEqual([['US']]);
    expect(addressCountries('Bahnhofstrasse 21, CH-8001 Zürich')).toEqual([['CH']]);
    expect(addressCountries('Hauptstraße 5, D-10115 Berlin')).toEqual([['DE']]);
    expect(addressCountries('1 Rue X, 1010 Wien')).toEqual([['BE', 'AT', 'CH']]);
    expect(addressCountries('Hauptstraße 5, D-1234 Berlin')).toEqual([]);
  });
});
