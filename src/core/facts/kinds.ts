import { UsageError } from '../errors.js';
import { suggestKind } from './lexicon.js';

/** The fact kinds of docs/design.md §5.1, in the order they are listed to users. */
export const KINDS = ['email', 'phone', 'iban', 'card', 'url', 'ip', 'date', 'address'] as const;
export type Kind = (typeof KINDS)[number];

/** A kind with a deterministic recogniser + validator (every kind but `address`). */
export type ValidatedKind = Exclude<Kind, 'address'>;
/** A kind only the model fallback can find (§5.3). */
export type UnvalidatedKind = Exclude<Kind, ValidatedKind>;

export interface KindInfo {
  kind: Kind;
  validated: boolean;
  description: string;
}

const DESCRIPTIONS: Record<Kind, string> = {
  email: 'e-mail address; the domain must end in a public suffix (tldts); normalised lower-case',
  phone: 'phone number valid for its region (libphonenumber-js, max metadata); normalised E.164',
  iban: 'IBAN with a valid country format and mod-97 checksum (ibantools); normalised electronic format',
  card: 'payment card number with a known issuer prefix and length, passing Luhn; normalised digits',
  url: 'link with a scheme (http, https, ftp, …) or starting with www. (linkify-it); as written',
  ip: 'IPv4 or IPv6 address, optionally with /prefix (ipaddr.js); normalised canonical form',
  date: 'full calendar date with year, month and day (chrono-node, strict); normalised YYYY-MM-DD',
  address: 'postal address; no validator, so only a model may point at one (verified verbatim)',
};

export function isKind(value: string): value is Kind {
  return (KINDS as readonly string[]).includes(value);
}

/** Whether the kind has a validator; kinds without one may only be found by the model fallback (§5.3). */
export function validated(kind: Kind): kind is ValidatedKind {
  return kind !== 'address';
}

export const VALIDATED_KINDS: readonly ValidatedKind[] = KINDS.filter(validated);

export function listKinds(): KindInfo[] {
  return KINDS.map((kind) => ({ kind, validated: validated(kind), description: DESCRIPTIONS[kind] }));
}

/**
 * Parses a kind name given by a user (case-insensitive, surrounding space ignored). Only the canonical names are
 * accepted so scripts stay unambiguous; an unknown name is a usage error (exit 2) listing the kinds, with a hint
 * when the lexicon knows the word (`telephone` → phone).
 */
export function parseKind(input: string): Kind {
  const name = input.trim().toLowerCase();
  if (isKind(name)) return name;
  const hint = suggestKind(input);
  const didYouMean = hint === undefined ? '' : ` (did you mean "${hint}"?)`;
  throw new UsageError('unknown_kind', `unknown kind "${input}"${didYouMean}; kinds: ${KINDS.join(', ')}`, {
    details: { kind: input, kinds: [...KINDS] },
  });
}
