import { LinkifyIt } from 'linkify-it';
import { rawMatch } from '../text.js';
import type { RawMatch, RecogniserOptions } from '../types.js';

/**
 * linkify-it configured for our url kind: `urlAuth` so `http://user@host` is not cut at the `@`, no protocol-relative
 * `//host` links, and no `mailto:` links, which also leaves out its fuzzy e-mails (e-mails and IPs are their own kinds;
 * fuzzy IPs are off by default). A few common hierarchical schemes are
 * added beside http(s)/ftp. `fuzzyLink` (links without a scheme) is on only for the `www.` windows below: its search
 * is ten times slower than the scheme search, and we keep no other scheme-less link anyway.
 */
function createLinkify(fuzzyLink: boolean): LinkifyIt {
  const linkify = new LinkifyIt({ fuzzyLink, urlAuth: true });
  linkify.add('//', null).add('mailto:', null);
  // Same tail rules as http: (linkify-it's string aliases are not in its types; delegating is equivalent).
  const likeHttp = { validate: (text: string, pos: number, self: LinkifyIt) => self.testSchemaAt(text, 'http:', pos) };
  for (const scheme of ['ftps:', 'sftp:', 'ssh:', 'git:', 'ws:', 'wss:']) linkify.add(scheme, likeHttp);
  return linkify;
}

const linkifiers = new Map<boolean, LinkifyIt>();
function linkify(fuzzyLink: boolean): LinkifyIt {
  const shared = linkifiers.get(fuzzyLink) ?? createLinkify(fuzzyLink);
  linkifiers.set(fuzzyLink, shared);
  return shared;
}

// Where a `www.` link may start: not inside a word, a host, a path or an address (linkify-it's own rule for fuzzy
// links: not after a letter, digit, `.`, `:`, `/`, `-`, `_` or `@`).
const WWW_RE = /(?<![\p{L}\p{N}\p{M}.:/_@-])www\./giu;
// A link ends at whitespace, so the text up to the next whitespace is all linkify-it needs to see.
const TOKEN_END_RE = /\s/g;

/** Links starting with `www.`: linkify-it's fuzzy search run only on the token at each `www.` (see createLinkify). */
function wwwLinks(text: string): Array<{ index: number; lastIndex: number }> {
  const links: Array<{ index: number; lastIndex: number }> = [];
  for (const www of text.matchAll(WWW_RE)) {
    TOKEN_END_RE.lastIndex = www.index;
    // Stryker disable next-line LogicalOperator: only bounds the work: linkify-it's first link, at the www., ends at that whitespace anyway
    const end = TOKEN_END_RE.exec(text)?.index ?? text.length;
    const hit = linkify(true).match(text.slice(www.index, end))?.[0];
    if (hit?.index === 0) links.push({ index: www.index, lastIndex: www.index + hit.lastIndex });
  }
  return links;
}

/** URLs as written (linkify-it already trims trailing punctuation and unbalanced closing brackets). */
export function recogniseUrls(text: string, _opts: RecogniserOptions = {}): RawMatch[] {
  const schemed = linkify(false).match(text) ?? [];
  return [...schemed, ...wwwLinks(text)].map((hit) => rawMatch('url', text, hit.index, hit.lastIndex, text.slice(hit.index, hit.lastIndex)));
}
