import type { Kind } from '../kinds.js';
import { dropOverlaps } from '../text.js';
import type { RawMatch, Recogniser, RecogniserOptions } from '../types.js';
import { recogniseAddresses } from './address.js';
import { recogniseCards } from './card.js';
import { recogniseDates } from './date.js';
import { recogniseEmails } from './email.js';
import { recogniseIbans } from './iban.js';
import { recogniseIps } from './ip.js';
import { recognisePhones } from './phone.js';
import { recogniseUrls } from './url.js';

export const RECOGNISERS: Readonly<Record<Kind, Recogniser>> = {
  email: recogniseEmails,
  phone: recognisePhones,
  iban: recogniseIbans,
  card: recogniseCards,
  url: recogniseUrls,
  ip: recogniseIps,
  date: recogniseDates,
  address: recogniseAddresses,
};

/** Runs one kind's recogniser over a text: non-overlapping matches in offset order. Pure. */
export function recognise(kind: Kind, text: string, opts: RecogniserOptions = {}): RawMatch[] {
  return dropOverlaps(RECOGNISERS[kind](text, opts));
}

/**
 * One text's recognition, a kind at a time (each kind asked at most once): `recognise(kind, text, opts)` for every kind,
 * except that card numbers are recognised once and handed to the phone recogniser, which reads around them — so a
 * caller asking for both kinds does not recognise cards twice (issue 28).
 */
export function recogniserOf(text: string, opts: RecogniserOptions = {}): (kind: Kind) => RawMatch[] {
  let cards: RawMatch[] | undefined;
  const cardsOf = (): RawMatch[] => (cards ??= recogniseCards(text));
  return (kind) => {
    // Both branches only save work, measured, not tested: without them each kind's recogniser finds the same cards itself.
    // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent — the card recogniser's own answer.
    if (kind === 'card') return dropOverlaps(cardsOf());
    // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent — the phone recogniser recognises the cards itself.
    if (kind === 'phone') return dropOverlaps(recognisePhones(text, opts, cardsOf()));
    return recognise(kind, text, opts);
  };
}

export { recogniseAddresses, recogniseCards, recogniseDates, recogniseEmails, recogniseIbans, recogniseIps, recognisePhones, recogniseUrls };
