import { describe, expect, it } from 'vitest';
import { cut } from '../../src/views/output.js';

describe('cut', () => {
  it('cuts to one line: line breaks (CRLF too) become a space, not a replacement character', () => {
    expect(cut('4 Grand Canal Square,\r\nDublin 2', 80)).toBe('4 Grand Canal Square, Dublin 2');
    expect(cut('abcdefghij', 5)).toBe('abcd…');
  });

  it('applies the text guard: escapes and bidi controls never survive a cut', () => {
    expect(cut('a\u001b]0;title\u0007 b \u202Eevil', 80)).toBe('a\uFFFD]0;title\uFFFD b \uFFFDevil');
  });
});
