import { styleText } from 'node:util';
import { safeText } from '../core/text.js';

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

/** Cuts text to one line of `width` characters, marking the cut; the text guard applies (`safeText`, docs/output.md). */
export function cut(text: string, width: number): string {
  const line = safeText(text, { lines: 'join' });
  if (line.length <= width) return line;
  return `${line.slice(0, Math.max(0, width - 1))}…`;
}

/** `2026-11-02 09:30` from a stored ISO time (UTC). */
export function shortDate(isoTime: string): string {
  return `${isoTime.slice(0, 10)} ${isoTime.slice(11, 16)}`;
}

/** What a text renderer gets besides the result: colour (or none) and the width to cut lines to. */
export interface TextContext {
  paint: Painter;
  width: number;
}

/**
 * How one command's result is shown (docs/output.md): the JSON document under `--json`, the text on stdout otherwise,
 * lines for stderr, and an error or exit code the result implies. A command computes the result with one call and
 * hands it to `HippoCommand.output` with its view; the views live in `src/cli/render-*.ts`.
 */
export interface View<T> {
  /** The `--json` document (default: the result itself). */
  json?(result: T): unknown;
  /** Text for stdout (nothing when undefined or empty). */
  text?(result: T, context: TextContext): string | undefined;
  /** Lines for stderr, written after stdout; `json` says whether stdout held the JSON document. */
  notes?(result: T, json: boolean): readonly (string | undefined | false)[];
  /** An error the result amounts to: thrown after the text (and instead of the JSON document). */
  failure?(result: T): Error | undefined;
  /** An exit code for an outcome that is not an error (a partial night, an interrupted review). */
  exitCode?(result: T): number | undefined;
}

/** A view that only renders text: the JSON document is the result itself. */
export type TextView<T> = (result: T, context: TextContext) => string | undefined;
