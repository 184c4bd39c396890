import { expect } from 'vitest';
import { recognise, type RawMatch, type RecogniserOptions, type Kind } from '../../../src/core/facts/index.js';

/** Runs a recogniser and checks the slice invariant on every match before returning it. */
export function find(kind: Kind, text: string, opts: RecogniserOptions = {}): RawMatch[] {
  const matches = recognise(kind, text, opts);
  for (const match of matches) {
    expect(match.kind).toBe(kind);
    expect(text.slice(match.start, match.end)).toBe(match.text);
  }
  return matches;
}

/** The texts a recogniser finds. */
export function texts(kind: Kind, text: string, opts: RecogniserOptions = {}): string[] {
  return find(kind, text, opts).map((match) => match.text);
}

/** The normalised values a recogniser finds. */
export function values(kind: Kind, text: string, opts: RecogniserOptions = {}): string[] {
  return find(kind, text, opts).map((match) => match.normalized);
}
