import { describe, expect, it } from 'vitest';
import { texts } from './helpers.js';

describe('url recogniser', () => {
  // First in the file: the linkifiers are built once per module, on first use, so this test sees how they are built.
  it('reads the added schemes, and no // or mailto: link, e-mail or bare IP', () => {
    expect(texts('url', 'get sftp://files.example.com/a and ftps://files.example.com/b, git://example.com/r.git, ws://example.com/s')).toEqual([
      'sftp://files.example.com/a',
      'ftps://files.example.com/b',
      'git://example.com/r.git',
      'ws://example.com/s',
    ]);
    expect(texts('url', 'sftp://files.example.com_ and ssh://')).toEqual([]);
    expect(texts('url', 'see //example.com/x or mailto:jane@example.com, jane@example.com')).toEqual([]);
    expect(texts('url', 'www.example.org/docs, 192.168.1.1/abc')).toEqual(['www.example.org/docs']);
  });

  it('finds links with a scheme or starting with www., value as written', () => {
    expect(texts('url', 'See https://Example.com/A?b=1 and www.example.org/docs and HTTP://GOOGLE.COM')).toEqual([
      'https://Example.com/A?b=1',
      'www.example.org/docs',
      'HTTP://GOOGLE.COM',
    ]);
  });

  it('trims trailing punctuation and unbalanced closing brackets', () => {
    expect(texts('url', 'http://example.com/foo_bar.jpg.')).toEqual(['http://example.com/foo_bar.jpg']);
    expect(texts('url', 'http://example.com/123!!!')).toEqual(['http://example.com/123']);
    expect(texts('url', 'See http://example.com/123; Example link.')).toEqual(['http://example.com/123']);
    expect(texts('url', '(Scoped http://example.com/foo_bar)')).toEqual(['http://example.com/foo_bar']);
    expect(texts('url', '<http://domain.com/foo>.')).toEqual(['http://domain.com/foo']);
    expect(texts('url', 'http://example.com/foo_bar,')).toEqual(['http://example.com/foo_bar']);
  });

  it('keeps balanced brackets inside a path', () => {
    expect(texts('url', 'http://example.com/foo_bar_(wiki)')).toEqual(['http://example.com/foo_bar_(wiki)']);
  });

  it('keeps user info (urlAuth) and ports', () => {
    expect(texts('url', 'http://user:pass@example.com:8080 and http://user@example.com')).toEqual([
      'http://user:pass@example.com:8080',
      'http://user@example.com',
    ]);
  });

  it('does not report bare domains, protocol-relative links, e-mail addresses or mailto: links', () => {
    expect(texts('url', 'microsoft.com google.co.il //example.com jane@example.com mailto:jane@example.com')).toEqual([]);
    expect(texts('url', '192.168.1.1/abc')).toEqual([]);
    // With a scheme or www., the same links are found.
    expect(texts('url', 'https://microsoft.com www.google.co.il https://example.com http://192.168.1.1/abc')).toEqual([
      'https://microsoft.com',
      'www.google.co.il',
      'https://example.com',
      'http://192.168.1.1/abc',
    ]);
  });

  it('rejects malformed links', () => {
    expect(texts('url', 'http:// http://. hppt://example.com _http://example.com http://example.com_')).toEqual([]);
    expect(texts('url', 'www.microsoft')).toEqual([]);
    expect(texts('url', 'http://example.com and www.microsoft.com')).toEqual(['http://example.com', 'www.microsoft.com']);
  });

  it('accepts other common hierarchical schemes', () => {
    expect(texts('url', 'clone ssh://git@github.com/org/repo and wss://example.com/socket')).toEqual([
      'ssh://git@github.com/org/repo',
      'wss://example.com/socket',
    ]);
  });

  it('finds www. links only where a link can start', () => {
    expect(texts('url', '(www.example.org), "www.example.org/a?b=1". WWW.EXAMPLE.ORG')).toEqual([
      'www.example.org',
      'www.example.org/a?b=1',
      'WWW.EXAMPLE.ORG',
    ]);
    expect(texts('url', 'xwww.example.org a.www.example.org a@www.example.org a-www.example.org')).toEqual([]);
    expect(texts('url', 'https://www.example.org/www.x.com')).toEqual(['https://www.example.org/www.x.com']);
  });

  it('handles pathological input (no catastrophic backtracking: the test timeout would catch it)', () => {
    expect(texts('url', '.'.repeat(3000))).toEqual([]);
    expect(texts('url', `www.${'a.'.repeat(3000)}`)).toEqual([]);
    // A link after the same runs is still found.
    expect(texts('url', `${'.'.repeat(3000)} www.example.com`)).toEqual(['www.example.com']);
    expect(texts('url', `www.${'a.'.repeat(3000)} www.example.com`)).toEqual(['www.example.com']);
  });
});
