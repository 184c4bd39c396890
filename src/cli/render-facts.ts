import { createLineIndex, type LineCol } from '../core/facts/text.js';
import type { ExtractOutcome } from '../core/extract.js';
import type { Kind, KindInfo } from '../core/facts/kinds.js';
import type { Fact, Passage } from '../core/facts/types.js';
import { safeText } from '../core/text.js';
import { cut, type Painter, type TextView, type View } from './output.js';

const MAX_VALUE = 60;
const MAX_LABEL = 30;

/** `source:line:col` of a fact's first occurrence, with `+N` when it occurs N more times. */
function locator(passages: readonly Passage[]): (fact: Fact) => string {
  const texts = new Map(passages.map((passage) => [passage.source, passage.text]));
  const indexes = new Map<string, (offset: number) => LineCol>();
  return (fact) => {
    const [first] = fact.occurrences;
    if (first === undefined) return '';
    let index = indexes.get(first.source);
    if (index === undefined) {
      index = createLineIndex(texts.get(first.source) ?? '');
      indexes.set(first.source, index);
    }
    const { line, col } = index(first.start);
    const more = fact.occurrences.length > 1 ? ` +${fact.occurrences.length - 1}` : '';
    return `${safeText(first.source, { lines: 'join' })}:${line}:${col}${more}`;
  };
}

function origin(fact: Fact): string {
  return fact.origin === 'model' ? `🤖 ${safeText(fact.model ?? 'model', { lines: 'join' })}` : 'validated';
}

/** Rows padded into columns; the last column is not padded. */
function columns(rows: readonly string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

/**
 * The fact table of `extract` and of the search fact box: kind, value, label, source:line:col, origin. Values and
 * labels are shown on one line (whitespace collapsed, long ones cut); `--json` has them exactly.
 */
export function factTable(facts: readonly Fact[], passages: readonly Passage[], paint: Painter): string {
  const locate = locator(passages);
  const rows = facts.map((fact) => [fact.kind, cut(fact.value, MAX_VALUE), cut(fact.label, MAX_LABEL), locate(fact), origin(fact)]);
  const [header, ...body] = columns([['KIND', 'VALUE', 'LABEL', 'SOURCE', 'ORIGIN'], ...rows]);
  return [paint('dim', header ?? ''), ...body].join('\n');
}

/** `extract --kinds`: each kind, whether a validator covers it, and what it finds. */
export function kindTable(kinds: readonly KindInfo[], paint: Painter): string {
  const rows = kinds.map((info) => [info.kind, info.validated ? 'validated' : 'model only', info.description]);
  const [header, ...body] = columns([['KIND', 'CHECK', 'FINDS'], ...rows]);
  return [paint('dim', header ?? ''), ...body].join('\n');
}

export const kindsView: TextView<{ kinds: KindInfo[] }> = ({ kinds }, { paint }) => kindTable(kinds, paint);

/** Warnings go to stderr in both modes (and into the --json document, so a script can tell why nothing was found). */
export const warningNotes = ({ warnings }: { warnings: readonly string[] }) => warnings;

/** `extract`: the fact table, or that none was found; the JSON document is `{facts, warnings}`. */
export function extractView(kinds: readonly Kind[]): View<ExtractOutcome> {
  return {
    json: ({ facts, warnings }) => ({ facts, warnings }),
    text: ({ facts, passages }, { paint }) => (facts.length === 0 ? `no ${kinds.join(', ')} found` : factTable(facts, passages, paint)),
    notes: warningNotes,
  };
}
