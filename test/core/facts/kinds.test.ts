import { describe, expect, it } from 'vitest';
import { ExitCode, UsageError } from '../../../src/core/errors.js';
import { KINDS, kindsInQuery, listKinds, parseKind, suggestKind, validated } from '../../../src/core/facts/index.js';
import { lexiconPhrases } from '../../../src/core/facts/lexicon.js';

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

  it('gives the unknown name and the kinds as details, and no hint for a word the lexicon does not know', () => {
    const error = (() => {
      try {
        parseKind('passport');
      } catch (caught) {
        return caught as UsageError;
      }
      throw new Error('parseKind accepted "passport"');
    })();
    expect(error.details).toEqual({ kind: 'passport', kinds: [...KINDS] });
    expect(error.message).toBe('unknown kind "passport"; kinds: email, phone, iban, card, url, ip, date, address');
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
    expect(kindsInQuery('what phone number do we use')).toEqual(['phone']);
  });

  it('knows every phrase of the lexicon in a natural query', () => {
    const queries: Array<[string, string]> = [
      ['what is her email address', 'email'],
      ['his e-mail address please', 'email'],
      ['the mail address on file', 'email'],
      ['send an email to sales', 'email'],
      ['her e-mail', 'email'],
      ['mail for the auditors', 'email'],
      ['phone number of support', 'phone'],
      ['telephone number of the bank', 'phone'],
      ['Conor mobile number', 'phone'],
      ['cell number for Niamh', 'phone'],
      ['phone for the NOC', 'phone'],
      ['telephone of the colo', 'phone'],
      ['Tomasz mobile', 'phone'],
      ['his cellphone', 'phone'],
      ['tel of reception', 'phone'],
      ['who to call at night', 'phone'],
      ['fax of the clinic', 'phone'],
      ['iban for refunds', 'iban'],
      ['bank account of Kestrel', 'iban'],
      ['bank details for the supplier', 'iban'],
      ['credit card on file', 'card'],
      ['debit card used', 'card'],
      ['card number of the test account', 'card'],
      ['the staging card', 'card'],
      ['url of the dashboard', 'url'],
      ['link to the runbook', 'url'],
      ['website of the vendor', 'url'],
      ['web site of the vendor', 'url'],
      ['web address of the wiki', 'url'],
      ['homepage of the project', 'url'],
      ['ip address of the bastion', 'ip'],
      ['ip of the replica', 'ip'],
      ['ipv4 of the bastion', 'ip'],
      ['ipv6 range of the office', 'ip'],
      ['date of the audit', 'date'],
      ['date of birth of the founder', 'date'],
      ['birthday of Maeve', 'date'],
      ['deadline for the renewal', 'date'],
      ['address of the colo', 'address'],
      ['postal address of the auditors', 'address'],
      ['office address in Cork', 'address'],
      ['mailing address for invoices', 'address'],
      ['street address of the venue', 'address'],
      ['home address of the contractor', 'address'],
      ['postcode of the warehouse', 'address'],
      ['where are we based', 'address'],
      ['where is the offsite', 'address'],
      ["where's the offsite", 'address'],
      ['where’s the offsite', 'address'],
      ['where is the colo located', 'address'],
      ['the colo is located in Cork', 'address'],
    ];
    for (const [query, kind] of queries) expect(kindsInQuery(query), query).toEqual([kind]);
  });

  it('treats a hyphen or several spaces inside a phrase like one space', () => {
    expect(kindsInQuery('phone--number')).toEqual(['phone']);
    expect(kindsInQuery('bank   account')).toEqual(['iban']);
    expect(kindsInQuery('web-site')).toEqual(['url']);
  });
});

describe('suggestKind', () => {
  it('names the kind of an input that is exactly one lexicon phrase, spaces around it ignored', () => {
    expect(suggestKind(' telephone ')).toBe('phone');
    expect(suggestKind('Bank Account')).toBe('iban');
  });

  it('suggests nothing for several kinds, a phrase inside other words, or no phrase', () => {
    expect(suggestKind('email phone')).toBeUndefined();
    expect(suggestKind('my phone')).toBeUndefined();
    expect(suggestKind('passport')).toBeUndefined();
    expect(suggestKind('phone')).toBe('phone');
  });
});

describe('kindsInQuery with letters that only Unicode case folding matches', () => {
  it('returns only kinds: a phrase spelled with the long s (which /iu folds to s, lower-casing does not) names none', () => {
    // `addreſſ` matches the `address` phrase case-insensitively, but is no key of the lexicon once lower-cased.
    const kinds = kindsInQuery('our addreſſ and e-mail');
    expect(kinds).toContain('email');
    for (const kind of kinds) expect(KINDS).toContain(kind);
  });
});

describe('lexiconPhrases', () => {
  it('lists the query phrases with their kinds, for documentation', () => {
    const phrases = lexiconPhrases();
    expect(phrases).toEqual(
      expect.arrayContaining([
        ['email address', 'email'],
        ['bank details', 'iban'],
        ['where is', 'address', 'cue'],
      ]),
    );
    for (const [phrase] of phrases) expect(kindsInQuery(phrase), phrase).toHaveLength(1);
  });
});
