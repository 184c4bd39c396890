import { describe, expect, it } from 'vitest';
import { cardContextBefore, phoneContextBefore, phoneLabelRegions } from '../../../src/core/facts/index.js';
import { contextWords, otherKindBefore, phoneLabelLanguages } from '../../../src/core/facts/context.js';

const at = (text: string) => text.indexOf('#');

describe('context words right before a value', () => {
  it('sees phone words and symbols, in several languages, with a short filler', () => {
    for (const text of [
      'Tel: #',
      'Phone number: #',
      'Mobile (work): #',
      'call us on #',
      'Telefon #',
      'Téléphone : #',
      '☎ #',
      'Тел.: #',
      '電話：#',
      'Tel. kom. #',
    ]) {
      expect(phoneContextBefore(text, at(text)), text).toBe(true);
    }
  });

  it('does not see a word that is not right before, glued to other letters, or on another line', () => {
    for (const text of ['Tel: see the list of numbers #', 'Hotel #', 'Phone:\n#', 'telephone poles numbered #', 'Tel: 2 rooms, #']) {
      expect(phoneContextBefore(text, at(text)), text).toBe(false);
    }
    // Right before, unglued, on the same line: the same words are seen.
    for (const text of ['Tel: #', 'Tel #', 'Phone: #', 'telephone #']) expect(phoneContextBefore(text, at(text)), text).toBe(true);
  });

  it('tells the regions of the label language, none for words written everywhere', () => {
    expect(phoneLabelRegions('Telefono: #', 10)).toEqual(['IT', 'CH', 'SM']);
    expect(phoneLabelRegions('Tel: #', 5)).toEqual([]);
    expect(phoneLabelRegions('nothing #', 8)).toBeUndefined();
    expect(phoneLabelRegions('Tel. kom. #', 10)).toEqual(['PL']);
  });

  it('sees card words', () => {
    expect(cardContextBefore('Card number: #', 13)).toBe(true);
    expect(cardContextBefore('Kreditkarte: #', 13)).toBe(true);
    expect(cardContextBefore('Tracking #', 9)).toBe(false);
  });
});

describe('the language of a phone label', () => {
  it('reads a word of several parts however its gaps are written, and no language for a symbol', () => {
    for (const text of ['Tel. kom. #', 'TEL. KOM.: #', 'Telefon komórkowy: #', 'Telefon  komórkowy: #', 'Telefon.komórkowy: #']) {
      expect(phoneLabelLanguages(text, at(text)), text).toEqual(['pl']);
    }
    expect(phoneLabelLanguages('Telefon: #', 9)).toEqual(['de', 'sv', 'da', 'no', 'pl', 'tr']);
    expect(phoneLabelLanguages('☎ #', 2)).toEqual([]);
    expect(phoneLabelLanguages('Fax: #', 5)).toEqual([]);
  });

  it('looks for a label at most 48 characters back', () => {
    const far = `Phone:${' '.repeat(50)}#`;
    expect(phoneContextBefore(far, at(far))).toBe(false);
    const near = `Phone:${' '.repeat(40)}#`;
    expect(phoneContextBefore(near, at(near))).toBe(true);
  });

  it('lists the context words, for documentation', () => {
    const words = contextWords();
    expect(words.phone).toEqual(expect.arrayContaining(['phone', 'telefon komórkowy', 'tel. kom', '電話', '☎', '📱']));
    expect(words.card).toEqual(expect.arrayContaining(['card number', 'kreditkarte', 'カード']));
  });
});

describe('words of another kind right before a value (issue 28)', () => {
  it('sees identity, tax, account, order, invoice, ticket, reference, credit-note, PO box and postcode words, with a copula', () => {
    for (const text of [
      'SSN: #',
      'His social security number is #',
      'Tax ID: #',
      'Account number: #',
      'Order #',
      'Invoice no. #',
      'Ticket #',
      'Reference: #',
      'Credit note #',
      'PO Box #',
      'ZIP #',
      'Kundennummer: #',
      'Facture n° #',
      'Fatura n.º #',
      'Fattura n. #',
      'Numer zamówienia #',
      '〒#',
    ]) {
      expect(otherKindBefore(text, at(text)), text).toBe(true);
    }
  });

  it('does not see a word of another kind that is not right before, is glued to letters, or is plural', () => {
    for (const text of ['Order line: #', 'Invoice queries: call #', 'Reservations: #', 'Reorder #', 'Account manager: #', 'Order:\n#']) {
      expect(otherKindBefore(text, at(text)), text).toBe(false);
    }
    // Right before, unglued, singular, on the same line: the same words are seen.
    for (const text of ['Order: #', 'Invoice #', 'Reservation: #', 'Order #', 'Account: #']) expect(otherKindBefore(text, at(text)), text).toBe(true);
  });

  it('sees every listed word in any case, after text in any script, after the same letters inside another word', () => {
    for (const word of contextWords().other) {
      const capitalised = word.charAt(0).toUpperCase() + word.slice(1);
      for (const written of [word, word.toUpperCase(), capitalised]) {
        for (const text of [`${written} #`, `Paid – ${written} #`, `Müller, ${written} #`, `2 x ${written}, then ${written} #`]) {
          expect(otherKindBefore(text, at(text)), text).toBe(true);
        }
      }
    }
    // The letters of a word inside another one, then the word itself (`order` in `Reorder`, then `order`).
    for (const text of ['Reorder or order no. #', 'REORDER, ORDER: #', 'Exports via PO Box #']) expect(otherKindBefore(text, at(text)), text).toBe(true);
    for (const text of ['Reorder #', 'Export #', 'Kontoauszug #', 'Postcodes #']) expect(otherKindBefore(text, at(text)), text).toBe(false);
  });

  it('lists the words for documentation', () => {
    expect(contextWords().other).toEqual(expect.arrayContaining(['ssn', 'invoice', 'credit note', 'po box', 'zip', 'kundennummer', '〒']));
  });
});
