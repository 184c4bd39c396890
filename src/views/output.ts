import { styleText } from 'node:util';
import { safeText } from '../core/text-guard.js';
import type { Hint } from './hints.js';
import { cutAtWord, cutTo, displayWidth, padTo } from './width.js';

type Style = Parameters<typeof styleText>[0];

/**
 * Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org) or FORCE_COLOR=0; FORCE_COLOR set
 * to anything else (1, 2, 3, true, or empty) forces colour even into a pipe, and wins over NO_COLOR, as in Node itself
 * and the colour libraries ink uses (docs/decisions.md, Output and input).
 */
export function colorEnabled(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
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
 * Cuts text to one line of `width` terminal columns (measured with string-width: a CJK character takes two), at a word
 * boundary where one is near, marking the cut; the text guard applies (`safeText`, docs/output.md).
 */
export function cut(text: string, width: number): string {
  return cutAtWord(safeText(text, { lines: 'join' }), width);
}

/** How times are shown to people: the local time with its UTC offset (the default), or UTC (`--utc`). */
export type TimeZoneStyle = 'local' | 'utc';

const two = (value: number) => String(value).padStart(2, '0');

/**
 * The zone a stored time is shown in, always as an offset (`+05:30`, `-05:00`; `+00:00` with `--utc` or in UTC), so the
 * CLI, the review screen and the MCP tools' text write every time one way.
 */
export function zoneOf(isoTime: string, style: TimeZoneStyle): string {
  const offset = style === 'utc' ? 0 : -new Date(isoTime).getTimezoneOffset();
  return `${offset < 0 ? '-' : '+'}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
}

/**
 * The one formatter for every time shown to people (CLI text, the review screen, the MCP tools' text, notes): a stored
 * time (ISO-8601 UTC) as `2026-11-02 10:30 +01:00` in the local zone (the process's `TZ`), or `2026-11-02 09:30 +00:00`
 * with `--utc`; `seconds` adds them, `zone: false` leaves the zone to a column header
 * (`timeColumn`). JSON keeps the stored ISO time.
 */
export function formatTime(isoTime: string, style: TimeZoneStyle, options: { seconds?: boolean; zone?: boolean } = {}): string {
  const date = new Date(isoTime);
  if (Number.isNaN(date.getTime())) return safeText(isoTime, { lines: 'join' });
  const utc = style === 'utc';
  const [year, month, day, hours, minutes, seconds] = utc
    ? [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()]
    : [date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes(), date.getSeconds()];
  const time = `${year}-${two(month + 1)}-${two(day)} ${two(hours)}:${two(minutes)}${options.seconds ? `:${two(seconds)}` : ''}`;
  return options.zone === false ? time : `${time} ${zoneOf(isoTime, style)}`;
}

/** What a text renderer gets besides the result. */
export interface TextContext {
  /** Colour, or none (off a terminal, NO_COLOR). */
  paint: Painter;
  /** The width to cut lines to: the terminal's, or 160 off a terminal. */
  width: number;
  /** stdout is a terminal: tables get column headers (a pipe gets the rows alone, for scripts). */
  terminal: boolean;
  /** A stored time as people read it (local with the offset, or UTC with --utc). */
  time: (isoTime: string, options?: { seconds?: boolean; zone?: boolean }) => string;
  /** The zone `time` shows for a stored time: `+05:30`, or `+00:00` with --utc. */
  zone: (isoTime: string) => string;
  /** Follow-up commands carrying the --agent and --db in effect (src/views/hints.ts). */
  hint: Hint;
}

/** What a view's stderr notes get: whether stdout held the JSON document, and the hint builder. */
export interface NoteContext {
  json: boolean;
  hint: Hint;
  time: TextContext['time'];
}

/** A column of a `table`: its header, and whether it takes the room that is left (cut to fit) or is right-aligned. */
export interface Column {
  header: string;
  /** Takes the width the other columns leave, cut at a word (one column, usually the last). */
  flex?: boolean;
  align?: 'right';
  style?: Style;
  /**
   * Left out on a terminal too narrow to give the flexible column its least width (the rightmost optional column
   * first), so the content is cut rather than pushed off the line by a column people can do without.
   */
  optional?: boolean;
  /**
   * For an optional column: when it is left out, lower first (columns without one go after those with one, rightmost
   * first). An optional flexible column can go too: what is left then fits at its own width.
   */
  dropOrder?: number;
}

/** The optional columns in the order a narrow terminal leaves them out. */
function dropSequence(columns: readonly Column[]): number[] {
  return columns
    .map((column, index) => ({ column, index }))
    .filter(({ column }) => column.optional)
    .sort((a, b) => (a.column.dropOrder ?? Number.MAX_SAFE_INTEGER) - (b.column.dropOrder ?? Number.MAX_SAFE_INTEGER) || b.index - a.index)
    .map(({ index }) => index);
}

/**
 * A column of times: on a terminal, when every time shows in one zone (no daylight-saving change between them), the
 * zone goes into the header (`CREATED (+05:30)`) and the cells hold the time alone, which keeps tables narrow; otherwise each cell
 * carries its own zone.
 */
export function timeColumn(
  header: string,
  isoTimes: readonly string[],
  { time, zone, terminal }: Pick<TextContext, 'time' | 'zone' | 'terminal'>,
): { header: string; cells: string[] } {
  const zones = new Set(isoTimes.map(zone));
  // Off a terminal there is no header line to carry the zone: every cell keeps its own.
  if (zones.size === 1 && terminal) return { header: `${header} (${[...zones][0]})`, cells: isoTimes.map((isoTime) => time(isoTime, { zone: false })) };
  return { header, cells: isoTimes.map((isoTime) => time(isoTime)) };
}

/** The least a flexible column is given, however narrow the terminal. */
const MIN_FLEX = 20;

/**
 * Rows as aligned columns, measured in terminal columns (string-width), with a dim header line on a terminal. Cells
 * are one line each and already guarded by the caller (`cut`, `safeText(…, {lines: 'join'})`); the flexible column
 * is cut at a word so each line fits the width instead of wrapping mid-word.
 */
export function table(columns: readonly Column[], rows: readonly string[][], context: TextContext): string {
  const { paint, width, terminal } = context;
  const all = terminal ? [columns.map((column) => column.header), ...rows] : [...rows];
  if (terminal && columns.some((column) => column.optional)) {
    const widest = columns.map((_, index) => Math.max(0, ...all.map((row) => displayWidth(row[index] ?? ''))));
    const kept = columns.map(() => true);
    const needed = () =>
      columns.reduce((sum, column, index) => sum + (kept[index] ? (column.flex ? Math.min(MIN_FLEX, widest[index]!) : widest[index]!) + 2 : 0), -2);
    for (const index of dropSequence(columns)) {
      if (needed() <= width) break;
      kept[index] = false;
    }
    if (kept.includes(false)) {
      const keep = <T>(items: readonly T[]) => items.filter((_, index) => kept[index]);
      return table(keep(columns), rows.map(keep), context);
    }
  }
  const widths = columns.map((_, index) => Math.max(0, ...all.map((row) => displayWidth(row[index] ?? ''))));
  const flex = columns.findIndex((column) => column.flex);
  if (flex >= 0) {
    const fixed = widths.reduce((sum, value, index) => (index === flex ? sum : sum + value), 0) + 2 * (columns.length - 1);
    widths[flex] = Math.min(widths[flex]!, Math.max(MIN_FLEX, width - fixed));
  }
  const line = (row: readonly string[], header: boolean) =>
    columns
      .map((column, index) => {
        const last = index === columns.length - 1;
        const raw = row[index] ?? '';
        const cell = index === flex ? cutAtWord(raw, widths[index]!) : raw;
        const padded =
          column.align === 'right' ? ' '.repeat(Math.max(0, widths[index]! - displayWidth(cell))) + cell : last ? cell : padTo(cell, widths[index]!);
        return !header && column.style ? paint(column.style, padded) : padded;
      })
      .join('  ')
      .trimEnd();
  // A terminal too narrow even for the fixed columns: each line is cut to the width, uncoloured, rather than wrapped.
  const tooWide = terminal && widths.reduce((sum, value) => sum + value, 0) + 2 * (columns.length - 1) > width;
  const cutLine = (text: string) => (tooWide ? cutTo(text, width) : text);
  const body = rows.map((row) => (tooWide ? cutLine(line(row, true)) : line(row, false)));
  return terminal ? [paint('dim', cutLine(line(all[0]!, true))), ...body].join('\n') : body.join('\n');
}

/**
 * How one command's result is shown (docs/output.md): the JSON document under `--json`, the text on stdout otherwise,
 * lines for stderr, and an error or exit code the result implies. A command computes the result with one call and
 * hands it to `HippoCommand.output` with its view; the views live in `src/views/render-*.ts`.
 */
export interface View<T> {
  /** The `--json` document (default: the result itself). */
  json?(result: T): unknown;
  /** Text for stdout (nothing when undefined or empty). */
  text?(result: T, context: TextContext): string | undefined;
  /** Lines for stderr, written after stdout (`json`: whether stdout held the JSON document). */
  notes?(result: T, context: NoteContext): readonly (string | undefined | false)[];
  /** An error the result amounts to: thrown after the text (and instead of the JSON document). */
  failure?(result: T): Error | undefined;
  /** An exit code for an outcome that is not an error (a partial night, an interrupted review). */
  exitCode?(result: T): number | undefined;
}

/** A view that only renders text: the JSON document is the result itself. */
export type TextView<T> = (result: T, context: TextContext) => string | undefined;
