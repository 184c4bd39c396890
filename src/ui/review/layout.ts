import { age } from '../../views/render-rem.js';
import { formatTime } from '../../views/output.js';
import type { LineValue } from './line-editor.js';
import { charWidth, cutTo, displayWidth, fitTo, oneLine, wrap } from './text.js';
import type { ReviewItem } from './types.js';

/** At this width and wider the list and the evidence sit side by side; narrower, they stack. */
export const SIDE_BY_SIDE_MIN_COLUMNS = 120;
export const MIN_COLUMNS = 40;
export const MIN_ROWS = 12;
/** Long prompt text (an edited claim) shows at most this many lines, scrolled to the cursor. */
const MAX_PROMPT_LINES = 6;

export interface Pane {
  width: number;
  height: number;
  /** Inside the border. */
  innerWidth: number;
  innerHeight: number;
}

export interface ScreenLayout {
  columns: number;
  /** Lines the screen uses: one short of the terminal, so ink redraws in place instead of clearing the terminal. */
  height: number;
  arrangement: 'side-by-side' | 'stacked' | 'too-small';
  bodyHeight: number;
  list: Pane;
  detail: Pane;
}

function pane(width: number, height: number): Pane {
  return { width, height, innerWidth: Math.max(0, width - 4), innerHeight: Math.max(0, height - 2) };
}

/**
 * Splits the terminal: a header line, the body (list + detail), and a footer of `footerHeight` lines (notice, then the
 * key hints or the open prompt). Wide terminals put the list left of the evidence; narrow ones put it above.
 */
export function screenLayout(columns: number, rows: number, footerHeight: number, listCount: number): ScreenLayout {
  const height = Math.max(1, rows - 1);
  const bodyHeight = Math.max(0, height - 1 - footerHeight);
  if (columns < MIN_COLUMNS || rows < MIN_ROWS || bodyHeight < 6) {
    return { columns, height, arrangement: 'too-small', bodyHeight, list: pane(0, 0), detail: pane(0, 0) };
  }
  if (columns >= SIDE_BY_SIDE_MIN_COLUMNS) {
    const listWidth = Math.max(50, Math.floor(columns / 2));
    return { columns, height, arrangement: 'side-by-side', bodyHeight, list: pane(listWidth, bodyHeight), detail: pane(columns - listWidth, bodyHeight) };
  }
  // Stacked: the list takes what it needs (title + rows + border), up to two fifths; the evidence gets the rest.
  const listHeight = Math.min(listCount + 3, Math.max(5, Math.floor((bodyHeight * 2) / 5)));
  return { columns, height, arrangement: 'stacked', bodyHeight, list: pane(columns, listHeight), detail: pane(columns, bodyHeight - listHeight) };
}

/** Width of the model column: the longest model name shown, within bounds (0 when the list is too narrow for it). */
export function modelColumnWidth(items: readonly ReviewItem[], width: number): number {
  if (width < 40 || items.length === 0) return 0;
  const longest = Math.max(...items.map((item) => displayWidth(oneLine(item.candidate.generatedBy))));
  return Math.max(5, Math.min(longest, 16, Math.floor(width / 5)));
}

/** One list row: selection marker, the claim cut to fit, then model, age and number of cited memories. */
export function listRow(item: ReviewItem, width: number, options: { selected: boolean; skipped: boolean; now: Date; modelWidth: number }): string {
  const { candidate } = item;
  const sources = `${candidate.sourceMemoryIds.length} src`;
  const when = age(candidate.generatedAt, options.now.getTime()).padStart(4);
  const model = options.modelWidth > 0 ? `${fitTo(oneLine(candidate.generatedBy), options.modelWidth)} ` : '';
  const meta = `${model}${when} ${sources.padStart(6)}`;
  const marker = options.selected ? '› ' : '  ';
  const claimWidth = Math.max(4, width - marker.length - displayWidth(meta) - 2);
  const claim = `${options.skipped ? '(skipped) ' : ''}${oneLine(candidate.claim)}`;
  return `${marker}${fitTo(claim, claimWidth)}  ${meta}`;
}

/** Which slice of the list to show so the selected row stays in view (kept near the middle once the list scrolls). */
export function listWindow(selectedIndex: number, count: number, height: number): { start: number; end: number } {
  if (count <= height) return { start: 0, end: count };
  const start = Math.max(0, Math.min(selectedIndex - Math.floor(height / 2), count - height));
  return { start, end: start + height };
}

export type LineTone = 'heading' | 'label' | 'body' | 'source' | 'missing' | 'muted';

export interface DetailLine {
  text: string;
  tone: LineTone;
}

/** Joins short parts (each guarded, on one line) with `separator` into lines of at most `width` columns, breaking only between parts. */
function packed(parts: string[], separator: string, width: number): string[] {
  const lines: string[] = [];
  for (const part of parts.map(oneLine)) {
    const last = lines[lines.length - 1];
    if (last !== undefined && displayWidth(last) + displayWidth(separator) + displayWidth(part) <= width)
      lines[lines.length - 1] = `${last}${separator}${part}`;
    else lines.push(...wrap(part, width));
  }
  return lines;
}

/** A time on the review screen, as everywhere else: local (the process's `TZ`) with its offset. */
const when = (isoTime: string) => formatTime(isoTime, 'local');

/**
 * The evidence for one candidate as lines of at most `width` columns: the full claim, its tags, model, run and age,
 * then every cited memory in full with its date (or a line saying it is no longer in the database).
 */
export function detailLines(item: ReviewItem, width: number, now: Date): DetailLine[] {
  const { candidate } = item;
  const lines: DetailLine[] = [{ text: 'Claim', tone: 'heading' }];
  for (const text of wrap(candidate.claim, width)) lines.push({ text, tone: 'body' });
  lines.push({ text: '', tone: 'body' });
  const facts = [
    `tags ${candidate.tags.length ? candidate.tags.join(', ') : '(none)'}`,
    `model ${candidate.generatedBy} (${candidate.provider})`,
    `generated ${when(candidate.generatedAt)}, ${age(candidate.generatedAt, now.getTime())} ago`,
    `run ${candidate.runId}`,
    `id ${candidate.id}`,
  ];
  for (const text of packed(facts, ' · ', width)) lines.push({ text, tone: 'label' });
  if (candidate.reopenedAt) {
    wrap(`reopened ${when(candidate.reopenedAt)} by ${candidate.reopenedBy ?? '?'}: ${candidate.reopenReason ?? ''}`, width).forEach((text) =>
      lines.push({ text, tone: 'label' }),
    );
  }
  lines.push({ text: '', tone: 'body' });
  lines.push({ text: `Cited memories (${item.cited.length}) — check the claim against them`, tone: 'heading' });
  item.cited.forEach((cited, index) => {
    if (index > 0) lines.push({ text: '', tone: 'body' });
    if (!cited.memory) {
      const gone = candidate.forgottenSourceIds.includes(cited.id) ? 'forgotten (memory forget): its text is gone' : 'no longer in the database';
      wrap(`[${index + 1}] ${cited.id} — ${gone}`, width).forEach((text) => lines.push({ text, tone: 'missing' }));
      return;
    }
    const archived = cited.memory.archivedAt ? ' (archived)' : '';
    wrap(`[${index + 1}] ${when(cited.memory.createdAt)}  ${cited.id}${archived}`, width).forEach((text) => lines.push({ text, tone: 'source' }));
    for (const text of wrap(cited.memory.content, width)) lines.push({ text, tone: 'body' });
  });
  return lines;
}

export interface PromptView {
  lines: string[];
  /** Where the terminal cursor goes, relative to the first input line. */
  cursor: { line: number; column: number };
}

/**
 * Hard-wraps prompt text (by characters, so the cursor position is exact) to `width` columns after a `› ` lead, and
 * keeps at most a few lines, scrolled so the cursor line shows.
 */
export function promptView(value: LineValue, width: number): PromptView {
  const lead = '› ';
  const textWidth = Math.max(4, width - lead.length);
  const rows: string[] = [''];
  let rowWidth = 0;
  let cursor = { line: 0, column: 0 };
  const chars = [...value.text];
  chars.forEach((char, index) => {
    if (index === value.cursor) cursor = { line: rows.length - 1, column: rowWidth };
    const w = charWidth(char);
    if (rowWidth + w > textWidth) {
      rows.push('');
      rowWidth = 0;
      if (index === value.cursor) cursor = { line: rows.length - 1, column: 0 };
    }
    rows[rows.length - 1] += char;
    rowWidth += w;
  });
  if (value.cursor >= chars.length) {
    if (rowWidth >= textWidth) {
      rows.push('');
      rowWidth = 0;
    }
    cursor = { line: rows.length - 1, column: rowWidth };
  }
  const start = Math.max(0, Math.min(cursor.line - MAX_PROMPT_LINES + 1, rows.length - MAX_PROMPT_LINES));
  const shown = rows.slice(start, start + MAX_PROMPT_LINES);
  return {
    lines: shown.map((row, index) => `${index === 0 ? lead : '  '}${row}`),
    cursor: { line: cursor.line - start, column: lead.length + cursor.column },
  };
}

/** Key hints for the bottom line, shorter on narrow terminals. */
export function browseHints(width: number): string {
  const full = '↑/↓ j/k move · PgDn/PgUp scroll · p promote · e edit+promote · r reject · s skip · / filter · ? help · q quit';
  const short = 'j/k move  p promote  e edit  r reject  s skip  / filter  ? help  q quit';
  return cutTo(displayWidth(full) <= width ? full : short, width);
}
