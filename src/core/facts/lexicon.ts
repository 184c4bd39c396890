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
const PHRASES: ReadonlyArray<readonly [string, Kind, 'cue'?]> = [
  ['email address', 'email'],
  ['e-mail address', 'email'],
  ['mail address', 'email'],
  ['email', 'email'],
  ['e-mail', 'email'],
  ['mail', 'email', 'cue'],

  ['phone number', 'phone'],
  ['telephone number', 'phone'],
  ['mobile number', 'phone'],
  ['cell number', 'phone'],
  ['phone', 'phone'],
  ['telephone', 'phone'],
  ['mobile', 'phone', 'cue'],
  ['cellphone', 'phone'],
  ['tel', 'phone', 'cue'],
  ['call', 'phone', 'cue'],
  ['fax', 'phone', 'cue'],

  ['iban', 'iban'],
  ['bank account', 'iban'],
  ['bank details', 'iban'],

  ['credit card', 'card'],
  ['debit card', 'card'],
  ['card number', 'card'],
  ['card', 'card', 'cue'],

  ['url', 'url'],
  ['link', 'url', 'cue'],
  ['website', 'url'],
  ['web site', 'url'],
  ['web address', 'url'],
  ['homepage', 'url'],

  ['ip address', 'ip'],
  ['ip', 'ip', 'cue'],
  ['ipv4', 'ip'],
  ['ipv6', 'ip'],

  ['date', 'date', 'cue'],
  ['date of birth', 'date'],
  ['birthday', 'date'],
  ['deadline', 'date', 'cue'],

  ['address', 'address'],
  ['postal address', 'address'],
  ['office address', 'address'],
  ['mailing address', 'address'],
  ['street address', 'address'],
  ['home address', 'address'],
  ['postcode', 'address'],
  ['where are we', 'address', 'cue'],
  ['where is', 'address', 'cue'],
  ["where's", 'address', 'cue'],
  ['where’s', 'address', 'cue'],
  ['located', 'address', 'cue'],
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
const CUES = new Set(BY_LENGTH.filter(([, , cue]) => cue === 'cue').map(([phrase]) => phrase.replace(/[\s-]+/g, ' ')));
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

/**
 * The kinds a query asks for, each once, in the order they first appear: those a phrase names clearly, and — with
 * `cues` (the user asked for facts on purpose) — those only a cue names too.
 */
export function kindsAskedFor(query: string, { cues }: { cues: boolean }): Kind[] {
  const kinds: Kind[] = [];
  for (const match of query.matchAll(QUERY_RE)) {
    const phrase = match[1]!.toLowerCase().replace(/[\s-]+/g, ' ');
    const kind = kindOfMatch(match[1]!);
    if (kind !== undefined && !kinds.includes(kind) && (cues || !CUES.has(phrase))) kinds.push(kind);
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
export function lexiconPhrases(): ReadonlyArray<readonly [string, Kind, 'cue'?]> {
  return PHRASES;
}
