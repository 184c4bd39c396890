import { describe, expect, it } from 'vitest';
import { asRegion, parseRegion } from '../../../src/core/facts/index.js';

describe('regions', () => {
  it('accepts supported ISO codes in any case, with spaces around', () => {
    expect(parseRegion(' ie ')).toBe('IE');
    expect(asRegion('us')).toBe('US');
  });

  it('reads null, empty and unknown codes as no region', () => {
    for (const input of [null, undefined, '', 'XX', 'EU', 'IRL']) expect(asRegion(input), String(input)).toBeUndefined();
  });

  it('refuses an unknown --region with a usage error naming it', () => {
    expect(() => parseRegion('XX')).toThrow(expect.objectContaining({ code: 'unknown_region', exitCode: 2, details: { region: 'XX' } }));
    expect(() => parseRegion('XX')).toThrow(/unknown region "XX"/);
  });
});
