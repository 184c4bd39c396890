import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonText, jsonTextPieces } from '../../src/core/json-text.js';
import { decodeUtf8, formatBytes, readUtf8File, type ReadLimit, Utf8FileChunks } from '../../src/core/read-text.js';
import { hasControlCharacters, hasHiddenCharacters, MARKER, safeText } from '../../src/core/text-guard.js';
import { illFormedField, isWellFormed, requireWellFormed } from '../../src/core/well-formed.js';

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

describe('jsonTextPieces (a --json document written in pieces)', () => {
  it('joins to exactly jsonText of the value, however large its arrays', () => {
    const fact = (index: number) => ({ kind: 'email', value: `a${index}@x.ie\u2028\u202e`, occurrences: [{ start: index, label: '', gone: undefined }] });
    const values: unknown[] = [
      { facts: Array.from({ length: 1000 }, (_, index) => fact(index)), warnings: ['one \u009b', 'two'] },
      { facts: [], warnings: [] },
      { skipped: undefined, fn: () => 1, list: [undefined, () => 1, null, 1, 'x', [2, [3]], { deep: { er: [4] } }], when: new Date(0) },
      [],
      [1, [2, [3, [4]]]],
      'text',
      7,
      null,
    ];
    for (const value of values) {
      for (const depth of [0, 1, 2, 3]) expect([...jsonTextPieces(value, depth)].join('')).toBe(jsonText(value));
    }
    // Large arrays go out in several pieces, never as one string.
    expect([...jsonTextPieces(values[0])].length).toBeGreaterThan(4);
  });
});

describe('Utf8FileChunks (a file read a piece at a time)', () => {
  const withFile = (content: Buffer | string, body: (path: string) => void) => {
    const dir = mkdtempSync(join(tmpdir(), 'hippo-text-'));
    try {
      const path = join(dir, 'f.txt');
      writeFileSync(path, content);
      body(path);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('joins to exactly what readUtf8File keeps, a character split between reads held for the next piece, the BOM kept', () => {
    const text = '\uFEFFhé €100 — 😀 done\r\nnext ✓\n'.repeat(50);
    withFile(text, (path) => {
      for (const chunkBytes of [1, 2, 3, 5, 64, 1 << 20]) {
        const pieces = [...new Utf8FileChunks(path, { chunkBytes })];
        expect(pieces.join('')).toBe(readUtf8File(path, { keepBom: true }));
        if (chunkBytes < 64) expect(pieces.length).toBeGreaterThan(10);
      }
    });
  });

  it('refuses a file that cannot be read when made, and bytes that are not UTF-8 when they are reached', () => {
    expect(() => new Utf8FileChunks('/nonexistent/f.txt')).toThrow(expect.objectContaining({ code: 'unreadable_file', exitCode: 2 }));
    expect(() => new Utf8FileChunks(tmpdir())).toThrow(expect.objectContaining({ code: 'not_a_regular_file' }));
    withFile(Buffer.concat([Buffer.from('x'.repeat(100)), Buffer.from([0xff]), Buffer.from('y')]), (path) => {
      const chunks = new Utf8FileChunks(path, { chunkBytes: 16 });
      const read: string[] = [];
      expect(() => {
        for (const piece of chunks) read.push(piece);
      }).toThrow(expect.objectContaining({ code: 'not_utf8', message: expect.stringContaining('f.txt is not valid UTF-8') }));
      // What came before the bad byte was read; nothing after it.
      expect(read.join('')).toBe('x'.repeat(96));
    });
    // A sequence cut off by the end of the file.
    withFile(Buffer.from([0x41, 0xe2, 0x82]), (path) => {
      expect(() => [...new Utf8FileChunks(path)]).toThrow(expect.objectContaining({ code: 'not_utf8' }));
    });
  });

  it('refuses a file over the limit by its size before reading it', () => {
    withFile('x'.repeat(2048), (path) => {
      expect(() => new Utf8FileChunks(path, { limit: { maxBytes: 1024, what: 'a probe' } })).toThrow(expect.objectContaining({ code: 'input_too_large' }));
    });
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
      expect(() => readUtf8File(join(dir, 'missing.txt'))).toThrow(/missing\.txt: no such file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bounded reads', () => {
  const limit: ReadLimit = { maxBytes: 1024, what: 'a probe' };
  const withDir = (body: (dir: string) => void) => {
    const dir = mkdtempSync(join(tmpdir(), 'hippo-text-'));
    try {
      body(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('reads a file of exactly the limit, and refuses one byte more by size before reading it', () => {
    withDir((dir) => {
      writeFileSync(join(dir, 'exact.txt'), 'x'.repeat(1024));
      expect(readUtf8File(join(dir, 'exact.txt'), { limit })).toHaveLength(1024);
      // Sparse: 600 MiB on paper, nothing on disk. Refused from its size, so nothing is read.
      truncateSync(join(dir, 'exact.txt'), 600 * 1024 * 1024);
      expect(() => readUtf8File(join(dir, 'exact.txt'), { limit })).toThrow(
        expect.objectContaining({
          code: 'input_too_large',
          exitCode: 2,
          message: expect.stringMatching(/exact\.txt is over 1 KiB \(600 MiB\): a probe is at most 1 KiB$/),
        }),
      );
    });
  });

  it('counts the slack: a trailing newline past the limit is read', () => {
    withDir((dir) => {
      writeFileSync(join(dir, 'nl.txt'), `${'x'.repeat(1024)}\r\n`);
      expect(readUtf8File(join(dir, 'nl.txt'), { limit: { ...limit, slack: 2 } })).toHaveLength(1026);
      expect(() => readUtf8File(join(dir, 'nl.txt'), { limit })).toThrow(expect.objectContaining({ code: 'input_too_large' }));
    });
  });

  it('refuses a directory and a device by what they are, without reading', () => {
    withDir((dir) => {
      expect(() => readUtf8File(dir)).toThrow(expect.objectContaining({ code: 'not_a_regular_file', message: `${dir} is a directory, not a regular file` }));
    });
    expect(() => readUtf8File('/dev/zero')).toThrow(
      expect.objectContaining({ code: 'not_a_regular_file', message: expect.stringContaining('/dev/zero is a character device') }),
    );
  });

  it('reads a pipe until it passes the limit', () => {
    withDir((dir) => {
      const fifo = join(dir, 'fifo');
      execFileSync('mkfifo', [fifo]);
      // A writer in another process puts 4 KiB into the pipe, more than the 1 KiB limit. A reader end held open here
      // lets the writer open and finish before the read starts (a pipe nobody writes to reads as empty, by design),
      // so the bytes wait in the pipe whatever the machine's load.
      const held = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        execFileSync('sh', ['-c', `head -c 4096 /dev/zero > '${fifo}'`], { stdio: 'ignore' });
        expect(() => readUtf8File(fifo, { limit })).toThrow(
          expect.objectContaining({ code: 'input_too_large', message: expect.stringContaining(`${fifo} is over 1 KiB:`) }),
        );
      } finally {
        closeSync(held);
      }
    });
  });

  it('words sizes in binary units', () => {
    expect([formatBytes(512), formatBytes(65536), formatBytes(64 * 1024 * 1024), formatBytes(1_000_000_000)]).toEqual([
      '512 bytes',
      '64 KiB',
      '64 MiB',
      '953.7 MiB',
    ]);
  });
});

describe('lone surrogates (text no UTF-8 can hold)', () => {
  it('isWellFormed: false for an unpaired high or low surrogate, true for a pair (an emoji) and plain text', () => {
    expect(['\ud800 lone', 'lone \udfff', 'ab\ud83d', '😀', 'plain', ''].map(isWellFormed)).toEqual([false, false, false, true, true, true]);
  });

  it('illFormedField names the first field holding one, down arrays and objects', () => {
    expect(illFormedField({ content: 'ok', tags: ['a', 'b\ud800'] })).toBe('tags.1');
    expect(illFormedField({ content: '\udc00' })).toBe('content');
    expect(illFormedField({ content: 'ok', nested: { deep: ['x', { y: '\ud800' }] } })).toBe('nested.deep.1.y');
    expect(illFormedField({ content: 'ok 😀', tags: ['a'] })).toBeUndefined();
  });

  it('requireWellFormed: exit 2, code lone_surrogate, naming what and never quoting the text', () => {
    expect(() => requireWellFormed('secret \ud800', 'memory text')).toThrow(
      expect.objectContaining({ code: 'lone_surrogate', exitCode: 2, message: expect.stringMatching(/^memory text holds a lone surrogate/) }),
    );
    expect(() => requireWellFormed('secret \ud800', 'memory text')).not.toThrow(/secret/);
    expect(requireWellFormed('fine', 'memory text')).toBe('fine');
  });
});
