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

export { recogniseAddresses, recogniseCards, recogniseDates, recogniseEmails, recogniseIbans, recogniseIps, recognisePhones, recogniseUrls };
