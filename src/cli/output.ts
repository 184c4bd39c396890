import { styleText } from 'node:util';
import { CONTROL_CHARACTERS } from '../core/control.js';

type Style = Parameters<typeof styleText>[0];

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org) or FORCE_COLOR=0. */
export function colorEnabled(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR === '0') return false;
  return Boolean(stream.isTTY);
}

export interface Painter {
  (style: Style, text: string): string;
  enabled: boolean;
}

export function painter(stream: NodeJS.WriteStream): Painter {
  const enabled = colorEnabled(stream);
  const paint = ((style: Style, text: string) => (enabled ? styleText(style, text) : text)) as Painter;
  paint.enabled = enabled;
  return paint;
}

/** Terminal width for cutting lines; a pipe gets a generous fixed width so scripts see whole lines. */
export function terminalWidth(stream: NodeJS.WriteStream): number {
  return stream.isTTY && stream.columns ? stream.columns : 160;
}

/**
 * Makes stored text safe to print on a terminal: C0/C1 control characters other than tab and newline (ESC, BEL, CSI…,
 * which start escape sequences that can clear the screen or retitle the window) become U+FFFD. Every text renderer
 * passes memory content, claims and model-derived text through this.
 */
export function printable(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '\uFFFD');
}

/** Cuts a single line to `width` characters, marking the cut. */
export function cut(text: string, width: number): string {
  const line = printable(text.replace(/\s+/g, ' ')).trim();
  if (line.length <= width) return line;
  return `${line.slice(0, Math.max(0, width - 1))}…`;
}

/** `2026-11-02 09:30` from a stored ISO time (UTC). */
export function shortDate(isoTime: string): string {
  return `${isoTime.slice(0, 10)} ${isoTime.slice(11, 16)}`;
}
