import { LinkifyIt } from 'linkify-it';
import { rawMatch } from '../text.js';
import type { RawMatch, RecogniserOptions } from '../types.js';

/**
 * linkify-it configured for our url kind: `fuzzyLink` so `www.` links are found (bare domains are filtered out
 * below), `urlAuth` so `http://user@host` is not cut at the `@`, no fuzzy e-mails or IPs (their own kinds), and
 * no protocol-relative `//host` or `mailto:` links. A few common hierarchical schemes are added beside http(s)/ftp.
 */
function createLinkify(): LinkifyIt {
  const linkify = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: false, fuzzyIP: false, urlAuth: true });
  linkify.add('//', null).add('mailto:', null);
  // Same tail rules as http: (linkify-it's string aliases are not in its types; delegating is equivalent).
  const likeHttp = { validate: (text: string, pos: number, self: LinkifyIt) => self.testSchemaAt(text, 'http:', pos) };
  for (const scheme of ['ftps:', 'sftp:', 'ssh:', 'git:', 'ws:', 'wss:']) linkify.add(scheme, likeHttp);
  return linkify;
}

let shared: LinkifyIt | undefined;
function linkify(): LinkifyIt {
  shared ??= createLinkify();
  return shared;
}

/** Only links written with a scheme or starting with `www.`: a bare `example.com` is too often not meant as one. */
function hasSchemeOrWww(schema: string, raw: string): boolean {
  return schema !== '' || /^www\./i.test(raw);
}

/** URLs as written (linkify-it already trims trailing punctuation and unbalanced closing brackets). */
export function recogniseUrls(text: string, _opts: RecogniserOptions = {}): RawMatch[] {
  const found = linkify().match(text) ?? [];
  return found
    .filter((hit) => hasSchemeOrWww(hit.schema, hit.raw))
    .map((hit) => rawMatch('url', text, hit.index, hit.lastIndex, text.slice(hit.index, hit.lastIndex)));
}
