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
}

export interface RecogniserOptions {
  /**
   * Default region (ISO 3166 alpha-2) for national phone numbers and for the day/month order of numeric dates.
   * `null` or an unsupported code: none, so only `+`-international phone numbers are found.
   */
  region?: string | null;
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
  model?: string;
  occurrences: Occurrence[];
}
