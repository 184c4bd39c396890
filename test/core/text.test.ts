import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeUtf8, hasControlCharacters, hasHiddenCharacters, jsonText, MARKER, readUtf8File, safeText } from '../../src/core/text.js';

describe('safeText: the one text guard', () => {
  it('replaces C0 and C1 controls (ESC, BEL, the 8-bit CSI, NEL) with U+FFFD, keeping tabs and newlines', () => {
    expect(safeText('a\u001b[2Jb\u0007c\u009b31md\te\nf\u0085g\u0000h\u007f')).toBe('a\uFFFD[2Jb\uFFFDc\uFFFD31md\te\nf\uFFFDg\uFFFDh\uFFFD');
  });

  it('turns CRLF and a bare CR into a newline, so later text cannot overwrite a line', () => {
    expect(safeText('safe\rEVIL\r\nnext')).toBe('safe\nEVIL\nnext');
  });

  it('neutralises every bidi embedding, override, isolate and mark', () => {
    const bidi = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'];
    for (const char of bidi) expect(safeText(`x${char}y`), `U+${char.codePointAt(0)!.toString(16)}`).toBe(`x${MARKER}y`);
  });

  it('shows other invisible format characters as the marker: soft hyphen, zero-width space, word joiner, BOM, tags', () => {
    expect(safeText('a\u00ADb\u200Bc\u2060d\uFEFFe\u2062f\u{E0001}g\u{E0068}\u{E0069}h')).toBe(
      `a${MARKER}b${MARKER}c${MARKER}d${MARKER}e${MARKER}f${MARKER}g${MARKER}${MARKER}h`,
    );
  });

  it('keeps what text needs: ZWJ emoji, ZWNJ, accents, CJK, and the flag of Scotland (a tag sequence)', () => {
    const kept = 'family 👨‍👩‍👧, می‌خواهم, e\u0301, 日本語, 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} and 🏳️‍🌈';
    expect(safeText(kept)).toBe(kept);
  });

  it('joins to one line when asked: whitespace runs become one space, ends trimmed, tabs as told', () => {
    expect(safeText('  a\r\n\tb  \u202Ec ', { lines: 'join' })).toBe(`a b ${MARKER}c`);
    expect(safeText('a\tb', { tab: '  ' })).toBe('a  b');
  });
});

describe('hasHiddenCharacters (what an agent id may not hold)', () => {
  it('is true for every character the guard marks, and for tab and line breaks; false for visible text', () => {
    for (const text of ['a\u001bb', 'a\tb', 'a\nb', 'a\u202Eb', 'a\u200Bb', 'a\u00ADb', 'a\uFEFFb', 'a\u{E0041}b']) {
      expect([text, hasHiddenCharacters(text)]).toEqual([text, true]);
    }
    expect(hasHiddenCharacters('émoji 👨‍👩‍👧 🏴󠁧󠁢󠁷󠁬󠁳󠁿 オペ')).toBe(false);
    expect([hasHiddenCharacters('\u202E'), hasHiddenCharacters('\u202E')]).toEqual([true, true]);
  });
});

describe('hasControlCharacters (what validation rejects)', () => {
  it('is true for C0/C1 controls other than tab and newline, and for bidi controls', () => {
    expect(hasControlCharacters('a\u001bb')).toBe(true);
    expect(hasControlCharacters('a\rb')).toBe(true);
    expect(hasControlCharacters('a\u202Eb')).toBe(true);
    expect(hasControlCharacters('a\u2066b\u2069')).toBe(true);
    expect(hasControlCharacters('tab\tand\nnewline, émoji 👨‍👩‍👧')).toBe(false);
  });

  it('gives the same answer when called twice (no regex state carried over)', () => {
    expect([hasControlCharacters('\u202E'), hasControlCharacters('\u202E')]).toEqual([true, true]);
  });
});

describe('jsonText', () => {
  it('escapes C1 and bidi controls, so a JSON document is safe on a terminal and parses back to the same value', () => {
    const value = { claim: 'x\u009b2J \u202Eevil\u2028', esc: '\u001b' };
    const text = jsonText(value);
    expect([...text].filter((char) => /[\u007f-\u009f\u202e\u2028]/u.test(char) || char === '\u001b')).toEqual([]);
    expect(text).toContain('\\u009b');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('reading text in', () => {
  it('refuses bytes that are not UTF-8 and drops a BOM unless asked to keep it', () => {
    expect(() => decodeUtf8(Uint8Array.from([0xff, 0xfe, 0x41]), 'x.txt')).toThrow(/x.txt is not valid UTF-8/);
    expect(decodeUtf8(Uint8Array.from([0xef, 0xbb, 0xbf, 0x41]), 'x')).toBe('A');
    expect(decodeUtf8(Uint8Array.from([0xef, 0xbb, 0xbf, 0x41]), 'x', { keepBom: true })).toBe('\uFEFFA');
  });

  it('names an unreadable file and the reason', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hippo-text-'));
    try {
      writeFileSync(join(dir, 'ok.txt'), 'hello');
      expect(readUtf8File(join(dir, 'ok.txt'))).toBe('hello');
      expect(() => readUtf8File(join(dir, 'missing.txt'))).toThrow(/missing\.txt: cannot read \(ENOENT\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
