import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { editLine, lineValue, type LineValue } from '../../../src/ui/review/line-editor.js';
import { promptView } from '../../../src/ui/review/layout.js';
import { cutTo, displayWidth, wrap } from '../../../src/ui/review/text.js';

const noKey: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};
const press = (value: LineValue, input: string, key: Partial<Key> = {}) => editLine(value, { input, key: { ...noKey, ...key } });
const valueOf = (edit: ReturnType<typeof editLine>) => (edit.kind === 'change' || edit.kind === 'submit' ? edit.value : undefined);

describe('the prompt line editor', () => {
  it('inserts at the cursor, moves with ←/→ and Home/End, deletes before the cursor', () => {
    let value = lineValue('helo');
    value = valueOf(press(value, '', { leftArrow: true }))!;
    value = valueOf(press(value, 'l'))!;
    expect(value).toEqual({ text: 'hello', cursor: 4 });
    value = valueOf(press(value, '', { home: true }))!;
    expect(press(value, '', { backspace: true })).toEqual({ kind: 'ignored' });
    value = valueOf(press(value, '', { end: true }))!;
    // Terminals send DEL for Backspace, which ink reports as `delete`.
    value = valueOf(press(value, '', { delete: true }))!;
    expect(value).toEqual({ text: 'hell', cursor: 4 });
  });

  it('clears with Ctrl-U, deletes a word with Ctrl-W, submits on Enter and cancels on Esc', () => {
    expect(valueOf(press(lineValue('one two  '), 'w', { ctrl: true }))).toEqual({ text: 'one ', cursor: 4 });
    expect(valueOf(press({ text: 'one two', cursor: 3 }, 'u', { ctrl: true }))).toEqual({ text: '', cursor: 0 });
    expect(press(lineValue('ok'), '\r', { return: true })).toEqual({ kind: 'submit', value: { text: 'ok', cursor: 2 } });
    expect(press(lineValue('ok'), '', { escape: true, meta: true })).toEqual({ kind: 'cancel' });
  });

  it('keeps a paste on one line; a trailing line break (typed Enter) submits', () => {
    expect(press(lineValue('a'), 'b\nc\r\nd')).toEqual({ kind: 'change', value: { text: 'ab c d', cursor: 6 } });
    expect(press(lineValue(''), 'because it held\r')).toEqual({ kind: 'submit', value: { text: 'because it held', cursor: 15 } });
    expect(press(lineValue(''), '\u001B[31mred')).toEqual({ kind: 'change', value: { text: '[31mred', cursor: 7 } });
  });

  it('counts the cursor in code points, so emoji and accents edit as one character', () => {
    const value = valueOf(press(lineValue('café 🦛'), '', { delete: true }))!;
    expect(value).toEqual({ text: 'café ', cursor: 5 });
  });
});

describe('prompt wrapping', () => {
  it('puts the terminal cursor where the next character goes, across wrapped lines', () => {
    const view = promptView({ text: 'abcdefghij', cursor: 10 }, 7); // 5 columns of text after "› "
    expect(view.lines).toEqual(['› abcde', '  fghij', '  ']);
    expect(view.cursor).toEqual({ line: 2, column: 2 });
    expect(promptView({ text: 'abcdefghij', cursor: 6 }, 7).cursor).toEqual({ line: 1, column: 3 });
  });

  it('shows at most six lines, scrolled to the cursor', () => {
    const view = promptView(lineValue('x'.repeat(100)), 12);
    expect(view.lines).toHaveLength(6);
    expect(view.cursor.line).toBe(5);
  });
});

describe('screen text', () => {
  it('wraps words within the width, breaking a word longer than a line, keeping blank lines', () => {
    const lines = wrap('one two three\n\nsupercalifragilistic end', 8);
    expect(lines).toEqual(['one two', 'three', '', 'supercal', 'ifragili', 'stic end']);
    expect(Math.max(...lines.map(displayWidth))).toBeLessThanOrEqual(8);
  });

  it('counts wide characters as two columns and cuts with a marker', () => {
    expect(displayWidth('会議 ok')).toBe(7);
    expect(cutTo('会議室の予約', 7)).toBe('会議室…');
    expect(wrap('会議室の予約', 4)).toEqual(['会議', '室の', '予約']);
  });

  it('turns control characters into a visible replacement, keeping newlines', () => {
    expect(wrap('a\u001B[2Jb\u0007\nc\td\u009B', 80)).toEqual(['a\uFFFD[2Jb\uFFFD', 'c  d\uFFFD']);
  });
});
