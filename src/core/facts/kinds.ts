import { UsageError } from '../errors.js';
import { suggestKind } from './lexicon.js';

/** The fact kinds of docs/design.md §5.1, in the order they are listed to users. */
export const KINDS = ['email', 'phone', 'iban', 'card', 'url', 'ip', 'date', 'address'] as const;
export type Kind = (typeof KINDS)[number];

/** A kind with a deterministic recogniser + validator (every kind but `address`). */
export type ValidatedKind = Exclude<Kind, 'address'>;
/**
 * A kind with no full validator (§5.3): a model may be asked to point at it. `address` still has a deterministic
 * recogniser for the addresses a postcode certifies (`"check": "postcode"`); the model is for the rest.
 */
export type UnvalidatedKind = Exclude<Kind, ValidatedKind>;

export interface KindInfo {
  kind: Kind;
  /** True when a validator covers the kind, so no model is ever asked about it. */
  validated: boolean;
  /** The checks its facts may carry (`validated`, `labelled`, `postcode`, `model`), as shown by `extract --kinds`. */
  check: string;
  description: string;
}

const CHECKS: Record<Kind, string> = {
  email: 'validated',
  phone: 'validated, labelled',
  iban: 'validated',
  card: 'validated, labelled',
  url: 'validated',
  ip: 'validated',
  date: 'validated',
  address: 'postcode, model',
};

const DESCRIPTIONS: Record<Kind, string> = {
  email: 'e-mail address; the domain must end in a public suffix (tldts); normalised lower-case',
  phone:
    'phone number valid in the home region, in international form, or in one region of the candidate list (libphonenumber-js, max metadata); ' +
    'labelled: only possible, or valid in several regions, with a phone word before it; normalised E.164 (;ext=N)',
  iban: 'IBAN in any case with a valid country format and mod-97 checksum (ibantools); normalised upper-case electronic format',
  card: 'payment card number with a known issuer prefix and length (13-digit Visa too), passing Luhn; labelled: unknown issuer, Luhn, card word before it; normalised digits',
  url: 'link with a scheme (http, https, ftp, …) or starting with www. (linkify-it); as written',
  ip: 'IPv4 or IPv6 address, optionally with /prefix (ipaddr.js); normalised canonical form',
  date: 'full calendar date with year, month and day (chrono-node, strict); normalised YYYY-MM-DD',
  address:
    'postal address: a street with a house number ending in a valid postcode (Eircode, UK, US ZIP after a state, 4–5 digits and town for DE FR NL BE AT CH ES IT); ' +
    'otherwise only a configured model may point at one (verified verbatim); as written',
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
  return KINDS.map((kind) => ({ kind, validated: validated(kind), check: CHECKS[kind], description: DESCRIPTIONS[kind] }));
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

/** The kinds egress redaction may cover (docs/redaction.md): validated kinds that are personal or identifying. */
export const REDACTABLE_KINDS = ['email', 'phone', 'iban', 'card', 'ip', 'url'] as const satisfies readonly ValidatedKind[];
export type RedactKind = (typeof REDACTABLE_KINDS)[number];
/** Redacted unless configured otherwise: the kinds that are personal data in almost every note. */
export const DEFAULT_REDACT_KINDS: readonly RedactKind[] = ['email', 'phone', 'iban', 'card'];

export function isRedactKind(value: string): value is RedactKind {
  return (REDACTABLE_KINDS as readonly string[]).includes(value);
}
