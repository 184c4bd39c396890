import { createRequire } from 'node:module';

/*
 * Terminal columns, measured with string-width — the package ink measures with too — so a CJK label or an emoji takes
 * the two columns the terminal gives it, and what is cut is what the terminal draws. One set of helpers for the text
 * renderers (`src/views/render-*.ts`) and the review screen (`src/ui/review/text.ts`).
 *
 * string-width builds an Intl.Segmenter and its Unicode property expressions (the RGI emoji set) when it loads: tens of
 * milliseconds of a start. So it loads at the first measure, not with the commands, and a command that prints no text
 * (`--json`, where a cold `search` is timed: docs/decisions.md, "Text widths load when text is drawn") never pays for it.
 * Synchronously, through Node's require of an ES module (Node ≥ 20.19, package.json's engines), since the renderers are
 * synchronous.
 */

type Measure = (text: string) => number;
let stringWidth: Measure | undefined;
let segmenter: Intl.Segmenter | undefined;

function measure(text: string): number {
  stringWidth ??= (createRequire(import.meta.url)('string-width') as { default: Measure }).default;
  return stringWidth(text);
}

/** The grapheme clusters of a text: the units it is cut by (an emoji or a letter with its accents is never split). */
export function graphemes(text: string): string[] {
  segmenter ??= new Intl.Segmenter();
  return Array.from(segmenter.segment(text), ({ segment }) => segment);
}

/** Columns a text takes on a terminal. */
export function displayWidth(text: string): number {
  return measure(text);
}

/** Cuts one line to `width` columns, marking the cut with `…`. */
export function cutTo(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of graphemes(text)) {
    const w = measure(char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/**
 * Cuts one line to `width` columns at a word boundary when one falls in the last third of the room (so a line ends
 * on a whole word, as it would if the terminal wrapped it), else at the last grapheme that fits; marks the cut `…`.
 */
export function cutAtWord(text: string, width: number): string {
  const hard = cutTo(text, width);
  if (hard === text || hard.length <= 1) return hard;
  const kept = hard.slice(0, -1);
  const space = kept.search(/\s\S*$/);
  if (space > 0 && displayWidth(kept.slice(0, space)) >= (width * 2) / 3) return `${kept.slice(0, space).trimEnd()} …`;
  return hard;
}

/** Pads (or cuts) to exactly `width` columns. */
export function fitTo(text: string, width: number): string {
  const cut = cutTo(text, width);
  return cut + ' '.repeat(Math.max(0, width - displayWidth(cut)));
}

/** Pads on the right to at least `width` columns (never cuts). */
export function padTo(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}
