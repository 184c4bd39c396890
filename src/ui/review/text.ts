/**
 * Plain-text helpers for the review screen. The screen wraps and cuts text itself (rather than leaving it to ink) so
 * it knows how many lines the evidence takes — that is what makes the detail pane scrollable with a position shown.
 */

/**
 * Memory text and model claims are data, not terminal commands: escape sequences and other control characters are
 * replaced so a stored string cannot move the cursor, recolour or retitle the reviewer's terminal. Tabs become spaces.
 */
export function sanitize(text: string): string {
  return text.replace(/\t/g, '  ').replace(/\r\n?/g, '\n').replace(/(?!\n)\p{Cc}/gu, '\uFFFD');
}

/** One line: newlines and runs of whitespace collapsed (list rows, prompts). */
export function oneLine(text: string): string {
  return sanitize(text).replace(/\s+/g, ' ').trim();
}

const ZERO_WIDTH = /^(?:\p{Mn}|\p{Me}|\p{Variation_Selector}|[\u200B-\u200F\u2060])$/u;
const WIDE = /^[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{1FA70}-\u{1FAFF}\u{20000}-\u{3FFFD}]$/u;

/** Terminal columns a code point takes: 0 for combining marks, 2 for East Asian wide characters and emoji, else 1. */
export function charWidth(char: string): number {
  if (ZERO_WIDTH.test(char)) return 0;
  return WIDE.test(char) ? 2 : 1;
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

/** Cuts one line to `width` columns, marking the cut with `…`. */
export function cutTo(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = charWidth(char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/** Pads (or cuts) to exactly `width` columns. */
export function fit(text: string, width: number): string {
  const cut = cutTo(text, width);
  return cut + ' '.repeat(Math.max(0, width - displayWidth(cut)));
}

/**
 * Word-wraps text to `width` columns, keeping its own line breaks (blank lines included). A word longer than the
 * width is broken hard, so no line is ever wider than `width`.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  const safeWidth = Math.max(1, width);
  for (const paragraph of sanitize(text).split('\n')) {
    let line = '';
    let lineWidth = 0;
    for (const word of paragraph.split(/(\s+)/)) {
      if (word === '') continue;
      const isSpace = /^\s+$/.test(word);
      const wordWidth = displayWidth(word);
      if (lineWidth + wordWidth <= safeWidth) {
        line += word;
        lineWidth += wordWidth;
        continue;
      }
      if (isSpace) {
        // A break point: the spaces themselves are dropped at the end of a line.
        lines.push(line.trimEnd());
        line = '';
        lineWidth = 0;
        continue;
      }
      if (lineWidth > 0) {
        lines.push(line.trimEnd());
        line = '';
        lineWidth = 0;
      }
      for (const char of word) {
        const w = charWidth(char);
        if (lineWidth + w > safeWidth && lineWidth > 0) {
          lines.push(line);
          line = '';
          lineWidth = 0;
        }
        line += char;
        lineWidth += w;
      }
    }
    lines.push(line.trimEnd());
  }
  return lines;
}
