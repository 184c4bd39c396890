import type { Kind } from './kinds.js';

/**
 * Query phrases that name a kind (docs/design.md §5.1 lexicon). Matching is case-insensitive and word-bounded, a space in a
 * phrase matches any run of spaces or hyphens, and a plural `s`/`es` is accepted. At each position the longest
 * phrase wins, so `email address` is email only, `ip address` is ip only and `web address` is url only.
 *
 * Left out on purpose, because they are too common in ordinary questions to mean "show me facts of this kind":
 * `when`, `number`, `account`, `site`, `contact`, and `where` alone (`where did it fail?`); `where is` / `where's`
 * asks where something is, which is an address.
 */
const PHRASES: ReadonlyArray<readonly [string, Kind]> = [
  ['email address', 'email'],
  ['e-mail address', 'email'],
  ['mail address', 'email'],
  ['email', 'email'],
  ['e-mail', 'email'],
  ['mail', 'email'],

  ['phone number', 'phone'],
  ['telephone number', 'phone'],
  ['mobile number', 'phone'],
  ['cell number', 'phone'],
  ['phone', 'phone'],
  ['telephone', 'phone'],
  ['mobile', 'phone'],
  ['cellphone', 'phone'],
  ['tel', 'phone'],
  ['call', 'phone'],
  ['fax', 'phone'],

  ['iban', 'iban'],
  ['bank account', 'iban'],
  ['bank details', 'iban'],

  ['credit card', 'card'],
  ['debit card', 'card'],
  ['card number', 'card'],
  ['card', 'card'],

  ['url', 'url'],
  ['link', 'url'],
  ['website', 'url'],
  ['web site', 'url'],
  ['web address', 'url'],
  ['homepage', 'url'],

  ['ip address', 'ip'],
  ['ip', 'ip'],
  ['ipv4', 'ip'],
  ['ipv6', 'ip'],

  ['date', 'date'],
  ['date of birth', 'date'],
  ['birthday', 'date'],
  ['deadline', 'date'],

  ['address', 'address'],
  ['postal address', 'address'],
  ['office address', 'address'],
  ['mailing address', 'address'],
  ['street address', 'address'],
  ['home address', 'address'],
  ['postcode', 'address'],
  ['where are we', 'address'],
  ['where is', 'address'],
  ["where's", 'address'],
  ['where’s', 'address'],
  ['located', 'address'],
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function phrasePattern(phrase: string): string {
  return phrase
    .split(/[\s-]+/)
    .map(escapeRegExp)
    .join('[\\s-]+');
}

// Longest first: JavaScript tries alternatives in order, so at any position the longest phrase is taken.
const BY_LENGTH = [...PHRASES].sort((a, b) => b[0].length - a[0].length);
const KIND_OF = new Map(BY_LENGTH.map(([phrase, kind]) => [phrase.replace(/[\s-]+/g, ' '), kind]));
const QUERY_RE = new RegExp(`(?<![\\p{L}\\p{N}])(${BY_LENGTH.map(([phrase]) => phrasePattern(phrase)).join('|')})(?:e?s)?(?![\\p{L}\\p{N}])`, 'giu');

function kindOfMatch(matched: string): Kind | undefined {
  return KIND_OF.get(matched.toLowerCase().replace(/[\s-]+/g, ' '));
}

/** The kinds a query names, each once, in the order they first appear. */
export function kindsInQuery(query: string): Kind[] {
  const kinds: Kind[] = [];
  for (const match of query.matchAll(QUERY_RE)) {
    const kind = kindOfMatch(match[1]!);
    if (kind !== undefined && !kinds.includes(kind)) kinds.push(kind);
  }
  return kinds;
}

const WHOLE_RE = new RegExp(`^${QUERY_RE.source}$`, 'iu');

/** The kind a whole input names when it is exactly one lexicon phrase (used for "did you mean" hints). */
export function suggestKind(input: string): Kind | undefined {
  const match = WHOLE_RE.exec(input.trim());
  return match === null ? undefined : kindOfMatch(match[1]!);
}

/** The lexicon as data, for documentation and `--help` output. */
export function lexiconPhrases(): ReadonlyArray<readonly [string, Kind]> {
  return PHRASES;
}
