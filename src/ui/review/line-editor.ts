import type { KeyPress } from './keys.js';

/** The text of an inline prompt and where the cursor is in it (an index into the array of code points). */
export interface LineValue {
  text: string;
  cursor: number;
}

export type LineEdit = { kind: 'change'; value: LineValue } | { kind: 'submit'; value: LineValue } | { kind: 'cancel' } | { kind: 'ignored' };

export function lineValue(text: string): LineValue {
  return { text, cursor: [...text].length };
}

/**
 * A single-line editor driven by key presses: printable input (a paste arrives as one string) is inserted at the
 * cursor, ←/→ Home/End (Ctrl-A/Ctrl-E) move, Backspace deletes before the cursor, Ctrl-U clears the line, Ctrl-W deletes
 * a word, Enter submits, Esc cancels.
 */
export function editLine(value: LineValue, press: KeyPress): LineEdit {
  const { input, key } = press;
  const chars = [...value.text];
  const at = Math.min(value.cursor, chars.length);
  const change = (next: string[], cursor: number): LineEdit => ({ kind: 'change', value: { text: next.join(''), cursor } });
  if (key.return) return { kind: 'submit', value };
  if (key.escape) return { kind: 'cancel' };
  if (key.leftArrow) return change(chars, Math.max(0, at - 1));
  if (key.rightArrow) return change(chars, Math.min(chars.length, at + 1));
  if (key.home || (key.ctrl && input === 'a')) return change(chars, 0);
  if (key.end || (key.ctrl && input === 'e')) return change(chars, chars.length);
  // Terminals send DEL (0x7f) for Backspace, which ink reports as `delete`: both erase the character before the cursor.
  if (key.backspace || key.delete) {
    if (at === 0) return { kind: 'ignored' };
    return change([...chars.slice(0, at - 1), ...chars.slice(at)], at - 1);
  }
  if (key.ctrl && input === 'u') return change([], 0);
  if (key.ctrl && input === 'w') {
    let start = at;
    while (start > 0 && /\s/.test(chars[start - 1]!)) start--;
    while (start > 0 && !/\s/.test(chars[start - 1]!)) start--;
    return change([...chars.slice(0, start), ...chars.slice(at)], start);
  }
  if (key.ctrl || key.meta || key.upArrow || key.downArrow || key.pageUp || key.pageDown || key.tab || input === '') return { kind: 'ignored' };
  // Text typed fast (or pasted) can arrive in one piece with the Enter that ended it: a trailing line break submits;
  // line breaks inside become spaces, since every prompt here takes one line.
  const submits = /[\r\n]$/.test(input);
  const inserted = [
    ...input
      .replace(/[\r\n]+$/, '')
      .replace(/\r\n?|\n/g, ' ')
      .replace(/\p{Cc}/gu, ''),
  ];
  const next = { text: [...chars.slice(0, at), ...inserted, ...chars.slice(at)].join(''), cursor: at + inserted.length };
  if (submits) return { kind: 'submit', value: next };
  if (inserted.length === 0) return { kind: 'ignored' };
  return { kind: 'change', value: next };
}
