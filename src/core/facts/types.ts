import type { Kind } from './kinds.js';

/** A passage to scan: `text` is the whole text of `source` (a memory id or a file path). */
export interface Passage {
  source: string;
  text: string;
}

/**
 * One recogniser hit. Offsets are UTF-16 indices into the scanned text and `text === scanned.slice(start, end)`
 * always holds (build it with `rawMatch`, never by hand).
 */
export interface RawMatch {
  kind: Kind;
  start: number;
  end: number;
  text: string;
  normalized: string;
  /** How the match was certified; `validated` when omitted (see `Check`). */
  check?: Check;
  /** phone: the region (ISO 3166 alpha-2) the number was validated in; absent for non-geographic numbers. */
  region?: string;
}

/**
 * How a fact was certified (docs/extract.md):
 * - `validated`: a validator accepted the value on its own (checksum, numbering plan, public suffix, …);
 * - `labelled`: the value is only plausible (a phone number libphonenumber calls possible but not valid, or valid in
 *   several candidate regions; a Luhn-valid card number of no known issuer) and a label of its kind stands right
 *   before it;
 * - `postcode`: an address block certified by a postcode valid for its country, with a street line and house number;
 * - `model`: a model pointed at the text and it was found verbatim (origin `model`).
 */
export type Check = 'validated' | 'labelled' | 'postcode' | 'model';

export interface RecogniserOptions {
  /**
   * Default region (ISO 3166 alpha-2) for national phone numbers and for the day/month order of numeric dates.
   * `null` or an unsupported code: none, so only `+`-international phone numbers are found.
   */
  region?: string | null;
  /**
   * phone: the regions tried, in order, for a national number that is not valid in `region` (the home region).
   * Omitted: `DEFAULT_REGIONS`. An empty list: only the home region and international numbers.
   */
  regions?: readonly string[];
}

export type Recogniser = (text: string, opts: RecogniserOptions) => RawMatch[];

/** docs/design.md §5.2 occurrence: where one fact was found. */
export interface Occurrence {
  source: string;
  start: number;
  end: number;
  text: string;
  label: string;
}

/** docs/design.md §5.2 fact: one kind + normalised value, with every place it was found. */
export interface Fact {
  kind: Kind;
  value: string;
  normalized: string;
  label: string;
  origin: 'validated' | 'model';
  /** How it was certified: the strongest check among its occurrences (`validated` > `postcode` > `labelled`). */
  check: Check;
  /** phone: the region the number was validated in (absent for non-geographic numbers). */
  region?: string;
  model?: string;
  occurrences: Occurrence[];
}
