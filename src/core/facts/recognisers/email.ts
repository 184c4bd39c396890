import { parse as parseDomain } from 'tldts';
import { rawMatch } from '../text.js';
import type { RawMatch, RecogniserOptions } from '../types.js';

// RFC 5322 local part: dot-separated atoms (ASCII: a non-ASCII local part in prose is far more often a word glued
// to the address than an internationalised mailbox) or quoted segments without spaces (`test."foo".bar`).
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const QUOTED = '"[^"\\\\\\s]+"';
const LOCAL = `(?:${ATOM}|${QUOTED})(?:\\.(?:${ATOM}|${QUOTED}))*`;
// Domain labels may be internationalised (`bündnis.de`) or punycode; tldts decides whether the suffix is real.
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]{0,61}[\\p{L}\\p{N}])?';
const DOMAIN = `${LABEL}(?:\\.${LABEL})+`;

// Not preceded by a local-part character or a dot (`a..b@x.com` must not yield `b@x.com`); a non-ASCII letter
// before is a boundary, as in CJK text without spaces. Not followed by a label character, a hyphen or `@`; an
// underscore, which no domain holds, ends it (`_jane@example.ie_` in Markdown italics).
const EMAIL_RE = new RegExp(`(?<![A-Za-z0-9!#$%&'*+/=?^_\`{|}~.-])(${LOCAL})@(${DOMAIN})(?![\\p{L}\\p{N}\\p{M}@-])`, 'gu');

/** True when the domain ends in an ICANN public suffix and has a registrable label before it. */
export function hasPublicSuffix(domain: string): boolean {
  const parsed = parseDomain(domain);
  return parsed.isIcann === true && parsed.domain !== null && !parsed.isIp;
}

/**
 * The longest leading run of the domain's labels that ends in a public suffix, so a sentence glued on after a
 * dot (`jane@x.com.Thanks`) is left out; undefined when none does.
 */
function longestRegistrable(domain: string): string | undefined {
  // DNS caps a name at 253 characters; past that nothing is an address, and trying every prefix would be quadratic.
  if (domain.length > 253) return undefined;
  const labels = domain.split('.');
  for (let count = labels.length; count >= 2; count--) {
    const candidate = labels.slice(0, count).join('.');
    if (hasPublicSuffix(candidate)) return candidate;
    // A sign glued after the suffix (`jane@example.ie-2024`): the label up to its first hyphen, when that ends a
    // registrable domain — a suffix holds no hyphen, so `ie-2024` is `ie` and what follows it.
    const hyphen = labels[count - 1]!.indexOf('-');
    if (hyphen > 0) {
      const cut = [...labels.slice(0, count - 1), labels[count - 1]!.slice(0, hyphen)].join('.');
      if (hasPublicSuffix(cut)) return cut;
    }
  }
  return undefined;
}

/**
 * The domain as written, or failing that without a trailing run of non-ASCII letters glued to an ASCII ending
 * (`example.comです` in text without spaces).
 */
function registrableDomain(domain: string): string | undefined {
  const found = longestRegistrable(domain);
  // Stryker disable next-line ConditionalExpression: ungluing changes only a domain ending in an ASCII letter or digit and non-ASCII letters, which no public suffix does, so a registrable domain stays as found
  if (found !== undefined) return found;
  // Nothing to unglue leaves the domain as it was, which longestRegistrable has just refused.
  return longestRegistrable(domain.replace(/(?<=[A-Za-z0-9])[^\p{ASCII}]+$/u, ''));
}

/** An address that starts right where another ended with a dot (`jane@example.ie.jane@example.org`). */
const EMAIL_AFTER_DOT_RE = new RegExp(`(${LOCAL})@(${DOMAIN})(?![\\p{L}\\p{N}\\p{M}@-])`, 'uy');

/** The address a match of EMAIL_RE (or EMAIL_AFTER_DOT_RE) holds, when its domain is registrable. */
function emailOf(text: string, match: RegExpExecArray): RawMatch | undefined {
  const local = match[1]!;
  const domain = registrableDomain(match[2]!);
  if (domain === undefined) return undefined;
  // Quote-like characters are legal in a local part but, leading one in prose, they are punctuation: `'a@b.ie'`.
  const end = match.index + local.length + 1 + domain.length;
  // An underscore on both sides is Markdown's italics (`_jane@example.ie_`), not the local part's first character.
  const lead = local.search(text[end] === '_' ? /[^!#$%&'*+/=?^`{|}~._-]/ : /[^!#$%&'*+/=?^`{|}~.-]/);
  if (lead === -1) return undefined;
  const start = match.index + lead;
  return rawMatch('email', text, start, end, text.slice(start, end).toLowerCase());
}

/**
 * Email addresses. A local part right after a dot is not one (`a..b@x.com` holds no `b@x.com`), except right after an
 * address of its own: two addresses glued by a dot (`jane@example.ie.jane@example.org`) are two (issue 27 review).
 */
export function recogniseEmails(text: string, _opts: RecogniserOptions = {}): RawMatch[] {
  const matches: RawMatch[] = [];
  for (const match of text.matchAll(EMAIL_RE)) {
    let email = emailOf(text, match);
    while (email !== undefined) {
      matches.push(email);
      if (text[email.end] !== '.') break;
      EMAIL_AFTER_DOT_RE.lastIndex = email.end + 1;
      const next = EMAIL_AFTER_DOT_RE.exec(text);
      email = next === null ? undefined : emailOf(text, next);
    }
  }
  return matches;
}
