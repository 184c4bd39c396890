import { describe, expect, it } from 'vitest';
import { ExitCode, UsageError } from '../../../src/core/errors.js';
import { KINDS, kindsInQuery, listKinds, parseKind, validated } from '../../../src/core/facts/index.js';

describe('kinds', () => {
  it('lists every kind with whether it is validated and a description', () => {
    const kinds = listKinds();
    expect(kinds.map((info) => info.kind)).toEqual(['email', 'phone', 'iban', 'card', 'url', 'ip', 'date', 'address']);
    for (const info of kinds) {
      expect(info.validated).toBe(info.kind !== 'address');
      expect(info.description.length).toBeGreaterThan(10);
    }
  });

  it('says only address has no validator', () => {
    expect(KINDS.filter((kind) => !validated(kind))).toEqual(['address']);
  });

  it('parses kind names case-insensitively', () => {
    expect(parseKind(' IBAN ')).toBe('iban');
    expect(parseKind('address')).toBe('address');
  });

  it('rejects an unknown kind with a usage error (exit 2) that lists the kinds', () => {
    let caught: unknown;
    try {
      parseKind('passport');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    const error = caught as UsageError;
    expect(error.code).toBe('unknown_kind');
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toContain('email, phone, iban, card, url, ip, date, address');
  });

  it('hints at the kind when the lexicon knows the word', () => {
    expect(() => parseKind('telephone')).toThrow(/did you mean "phone"/);
    expect(() => parseKind('e-mail')).toThrow(/did you mean "email"/);
  });
});

describe('kindsInQuery', () => {
  it('maps phrases to kinds, longest first', () => {
    expect(kindsInQuery('what is the email address of Jane?')).toEqual(['email']);
    expect(kindsInQuery('IP address of the build box')).toEqual(['ip']);
    expect(kindsInQuery('the web address of the wiki')).toEqual(['url']);
    expect(kindsInQuery('our postal address')).toEqual(['address']);
    expect(kindsInQuery('mailing address for invoices')).toEqual(['address']);
    expect(kindsInQuery('phone number of the Dublin office')).toEqual(['phone']);
    expect(kindsInQuery('credit card on file')).toEqual(['card']);
    expect(kindsInQuery('bank details for the supplier')).toEqual(['iban']);
  });

  it('is case-insensitive and accepts hyphens, extra spaces and plurals', () => {
    expect(kindsInQuery('E-MAIL')).toEqual(['email']);
    expect(kindsInQuery('Phone-Number?')).toEqual(['phone']);
    expect(kindsInQuery('all the  IP   addresses')).toEqual(['ip']);
    expect(kindsInQuery('emails and links')).toEqual(['email', 'url']);
  });

  it('lists several kinds once each, in order of appearance', () => {
    expect(kindsInQuery('email, phone and office address; email again')).toEqual(['email', 'phone', 'address']);
    expect(kindsInQuery('where are we located? call us')).toEqual(['address', 'phone']);
    expect(kindsInQuery('where is the Dublin office?')).toEqual(['address']);
    expect(kindsInQuery("Where's the warehouse")).toEqual(['address']);
    expect(kindsInQuery('where did the deploy fail? somewhere, elsewhere')).toEqual([]);
  });

  it('only matches whole words', () => {
    expect(kindsInQuery('a telling email')).toEqual(['email']);
    expect(kindsInQuery('recall the discard pile, zipper, shipping')).toEqual([]);
    expect(kindsInQuery('called the landlord')).toEqual([]);
  });

  it('does not treat common question words as kinds', () => {
    expect(kindsInQuery('when did we move the billing cron?')).toEqual([]);
    expect(kindsInQuery('what number do we use')).toEqual([]);
  });
});
