import stringWidth from 'string-width';
import { safeText } from '../../core/text-guard.js';
import { displayWidth, graphemes } from '../../views/width.js';
/**
 * Plain-text helpers for the review screen. The screen wraps and cuts text itself (rather than leaving it to ink) so
 * it knows how many lines the evidence takes — that is what makes the detail pane scrollable with a position shown.
 * Everything shown passes the one text guard (`safeText`, docs/output.md) before it is measured: controls, bidi
 * controls and invisible format characters become a visible U+FFFD, so what is measured is what the terminal draws.
 */

/** The guard with the screen's tab rule: a tab becomes two spaces (the screen counts columns, a tab has none). */
function guarded(text: string): string {
  return safeText(text, { tab: '  ' });
}

/** One line: guarded, newlines and runs of whitespace collapsed (list rows, prompts, facts). */
export function oneLine(text: string): string {
  return safeText(text, { lines: 'join' });
}

/*
 * Widths are measured exactly as ink measures them, with the same string-width package (src/views/width.ts): if the two
 * disagreed, ink would cut a line this module believes fits and text would silently vanish behind "…".
 * test/ui/review/text.test.ts checks that ink resolves the very same copy.
 */
export { cutTo, displayWidth, fitTo, graphemes } from '../../views/width.js';

/** Terminal columns one grapheme cluster takes: ink's own measure (string-width), so what we cut is what it draws. */
export function graphemeWidth(segment: string): number {
  return stringWidth(segment);
}

/**
 * Columns one code point takes on its own, for the prompt (whose cursor moves by code point). Never less than what
 * the code point adds inside a cluster, so a prompt row measured this way is never wider than ink thinks.
 */
export function charWidth(char: string): number {
  return stringWidth(char);
}

/**
 * Word-wraps text to `width` columns, keeping its own line breaks (blank lines included). A word longer than the
 * width is broken hard, so no line is ever wider than `width`.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  const safeWidth = Math.max(1, width);
  for (const paragraph of guarded(text).split('\n')) {
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
      for (const char of graphemes(word)) {
        const w = graphemeWidth(char);
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
