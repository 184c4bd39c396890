import { describe, expect, it } from 'vitest';
import { find, texts, values } from './helpers.js';

describe('email recogniser', () => {
  it('finds addresses in prose and lower-cases the normalised value', () => {
    expect(texts('email', 'write to Jane.Doe@Example.COM or ops+alerts@mail.example.co.uk today')).toEqual([
      'Jane.Doe@Example.COM',
      'ops+alerts@mail.example.co.uk',
    ]);
    expect(values('email', 'Jane.Doe@Example.COM')).toEqual(['jane.doe@example.com']);
  });

  it('reports offsets as UTF-16 indices after astral characters', () => {
    const text = '😀 naïve → jane@example.ie';
    const [match] = find('email', text);
    expect(match?.start).toBe(text.indexOf('jane'));
  });

  it('accepts punycode and internationalised domains with a real public suffix', () => {
    expect(texts('email', 'a@xn--d1acufc.xn--p1ai and b@bündnis-für-krankenhäuser.de')).toEqual(['a@xn--d1acufc.xn--p1ai', 'b@bündnis-für-krankenhäuser.de']);
  });

  it('rejects unknown or missing public suffixes', () => {
    expect(texts('email', 'foo@bar')).toEqual([]);
    expect(texts('email', 'foo@example.invalid foo@example.coma foo@server.local')).toEqual([]);
    expect(texts('email', 'my email is info@presidio.')).toEqual([]);
    expect(texts('email', 'user@192.168.1.1')).toEqual([]);
    // With a known public suffix, the same addresses are found.
    expect(texts('email', 'foo@bar.com foo@example.com my email is info@presidio.ai.')).toEqual(['foo@bar.com', 'foo@example.com', 'info@presidio.ai']);
  });

  it('takes the address out of a mailto: link and out of brackets and quotes', () => {
    expect(texts('email', 'mailto:name@example.com')).toEqual(['name@example.com']);
    expect(texts('email', '<user@domain.com>. "test@example.com" (email@example.com)')).toEqual(['user@domain.com', 'test@example.com', 'email@example.com']);
    expect(texts('email', "reply to 'jane@example.com', please")).toEqual(['jane@example.com']);
  });

  it('does not let a sentence glued on after a dot become part of the domain', () => {
    expect(texts('email', 'mail jane@example.com.Thanks')).toEqual(['jane@example.com']);
    expect(texts('email', 'メールはtest@example.comです')).toEqual(['test@example.com']);
  });

  it('ends an address at a sign glued after its suffix (a hyphen, an underscore), and takes Markdown italics off it', () => {
    expect(texts('email', 'Mail jane@example.ie-2024 about the renewal.')).toEqual(['jane@example.ie']);
    expect(texts('email', 'write to ops@mail.example.co.uk-team now')).toEqual(['ops@mail.example.co.uk']);
    // (Before issue 27's review `jane@example.com-foo` gave nothing, and redaction sent the address whole.)
    expect(texts('email', 'jane@example.com-foo')).toEqual(['jane@example.com']);
    expect(texts('email', 'Keys: ask _jane@example.ie_ first.')).toEqual(['jane@example.ie']);
    expect(texts('email', 'backup to x@foo.ie_old')).toEqual(['x@foo.ie']);
    // Hyphens inside a domain's labels stay; an underscore that opens a local part stays when none closes it.
    expect(texts('email', 'a@b-c.com and jane@my-site.co.uk and _ops@example.ie')).toEqual(['a@b-c.com', 'jane@my-site.co.uk', '_ops@example.ie']);
    // A label cut at its hyphen must still end in a real suffix.
    expect(texts('email', 'jane@example.zz-2024 and jane@example-2024')).toEqual([]);
  });

  it('reads two addresses glued by a dot as two, and a chain of them (issue 27 review)', () => {
    expect(texts('email', 'Mail jane@example.ie.jane@example.org today.')).toEqual(['jane@example.ie', 'jane@example.org']);
    expect(values('email', 'a@x.ie.B@y.ie.c@z.com')).toEqual(['a@x.ie', 'b@y.ie', 'c@z.com']);
    // After the dot, the next address must be one: a sentence, a bad suffix or a local part of signs is not.
    expect(texts('email', 'jane@example.ie.Thanks and jane@example.ie.x@example.zz and a@x.ie..b@y.ie')).toEqual([
      'jane@example.ie',
      'jane@example.ie',
      'a@x.ie',
    ]);
    expect(texts('email', "jane@example.ie.'@example.org")).toEqual(['jane@example.ie']);
  });

  it('does not cut an address out of a malformed local part', () => {
    expect(texts('email', 'a..b@example.com')).toEqual([]);
    expect(texts('email', 'a.b@example.com and jane@example.com foo')).toEqual(['a.b@example.com', 'jane@example.com']);
  });

  it('keeps quoted local-part segments whole', () => {
    expect(texts('email', 'test."foo".bar@gmail.co.uk!')).toEqual(['test."foo".bar@gmail.co.uk']);
  });

  it('finds nothing in text that only looks like it might hold an address', () => {
    expect(texts('email', 'this is not an email: hello-world here, @example.com, node.js')).toEqual([]);
    expect(texts('email', 'this is an email: hello-world@example.com, node.js')).toEqual(['hello-world@example.com']);
  });

  it('treats any run of leading quote-like characters as punctuation, and a local part made only of them as none', () => {
    expect(texts('email', "''jane@example.ie'' and --@example.ie")).toEqual(['jane@example.ie']);
  });

  it('rejects a domain that is a public suffix alone', () => {
    expect(texts('email', 'jane@co.uk, jane@com.au')).toEqual([]);
    expect(texts('email', 'jane@example.co.uk, jane@example.com.au')).toEqual(['jane@example.co.uk', 'jane@example.com.au']);
  });

  it('reads a domain of up to 253 characters, the DNS limit, and nothing in a longer one', () => {
    const longest = `${'b'.repeat(62)}.${'b'.repeat(62)}.${'b'.repeat(61)}.${'b'.repeat(61)}.com`;
    expect(longest).toHaveLength(253);
    expect(texts('email', `write to jane@${longest} today`)).toEqual([`jane@${longest}`]);
    const tooLong = `${'ab.ie.'.repeat(43)}ab.ie`;
    expect(tooLong.length).toBeGreaterThan(253);
    expect(texts('email', `write to jane@${tooLong} today`)).toEqual([]);
  });

  it('unglues only a trailing run of non-ASCII letters from an internationalised domain', () => {
    expect(texts('email', 'メールはjane@bücher.deです')).toEqual(['jane@bücher.de']);
  });
});
