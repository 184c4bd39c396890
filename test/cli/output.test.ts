import { describe, expect, it } from 'vitest';
import { cut, printable } from '../../src/cli/output.js';

describe('terminal-safe text', () => {
  it('turns escape sequences and a bare carriage return into U+FFFD, keeping tabs and newlines', () => {
    expect(printable('a\u001b[2Jb\u0007c\rd\te\nf')).toBe('a\uFFFD[2Jb\uFFFDc\uFFFDd\te\nf');
  });

  it('cuts to one line: line breaks (CRLF too) become a space, not a replacement character', () => {
    expect(cut('4 Grand Canal Square,\r\nDublin 2', 80)).toBe('4 Grand Canal Square, Dublin 2');
    expect(cut('abcdefghij', 5)).toBe('abcd…');
  });
});
