import { describe, expect, it } from 'vitest';
import { labelAt } from '../../../src/core/facts/index.js';

// More of labelAt's rule (the main cases are in facts.test.ts): the spaced dash before a value that is not prose,
// and the 40-character cut of a label with no word boundary in its tail.
describe('labelAt, the marker and the cut', () => {
  const label = (text: string, value: string): string => labelAt(text, text.indexOf(value));

  it('keeps a spaced dash as the marker when a value, not a word, follows it', () => {
    expect(label('Billing contact — #1, jane@x.com', 'jane')).toBe('Billing contact');
    expect(label('Billing contact – 7, jane@x.com', 'jane')).toBe('Billing contact');
  });

  it('keeps the last 40 characters whole when they hold no space', () => {
    const name = 'Supercalifragilisticexpialidocious-switchboard-line';
    expect(label(`${name}: 01 234 5678`, '01')).toBe(name.slice(-40));
    expect(label(`Main ${name}: 01 234 5678`, '01')).toBe(name.slice(-40));
  });

  it('cuts after the first space of the tail, even one near its start', () => {
    // The tail is the last 40 characters, "b on-call…", with its first space at index 1.
    expect(label('Ab on-call line to ring when it all burns: 01 234 5678', '01')).toBe('on-call line to ring when it all burns');
  });

  it('strips each emphasis mark, not only runs of them', () => {
    expect(label('*Support* _line_: 01 234 5678', '01')).toBe('Support line');
  });
});
