import type { KindsReport } from '../core/extract/kinds-report.js';
import type { ExtractOutcome } from '../core/extract/sources.js';
import type { RegionSettings } from '../core/regions.js';
import type { Kind, KindInfo } from '../core/facts/kinds.js';
import { createLineIndex, type LineCol } from '../core/facts/text.js';
import type { Fact, Passage } from '../core/facts/types.js';
import { safeText } from '../core/text-guard.js';
import { cut, table, type Column, type Painter, type TextContext, type TextView, type View } from './output.js';
import { displayWidth, padTo } from './width.js';

const MAX_VALUE = 60;
const MAX_LABEL = 30;

/**
 * `source:line:col` of a fact's first occurrence, with `+N` when it occurs N more times: from `firstAt` when the text
 * was not held (a file read a window at a time), else counted in the passage.
 */
function locator(passages: readonly Passage[], firstAt?: ReadonlyMap<Fact, LineCol>): (fact: Fact) => string {
  const texts = new Map(passages.map((passage) => [passage.source, passage.text]));
  const indexes = new Map<string, (offset: number) => LineCol>();
  return (fact) => {
    const [first] = fact.occurrences;
    if (first === undefined) return '';
    const indexOf = (source: string) => {
      let index = indexes.get(source);
      if (index === undefined) {
        index = createLineIndex(texts.get(source) ?? '');
        indexes.set(source, index);
      }
      return index;
    };
    const { line, col } = firstAt?.get(fact) ?? indexOf(first.source)(first.start);
    const more = fact.occurrences.length > 1 ? ` +${fact.occurrences.length - 1}` : '';
    return `${safeText(first.source, { lines: 'join' })}:${line}:${col}${more}`;
  };
}

/** The CHECK column: how the fact was certified (`validated`, `labelled`, `postcode`, with a phone's region), or `🤖 <model>`. */
function check(fact: Fact): string {
  if (fact.origin === 'model') return `🤖 ${safeText(fact.model ?? 'model', { lines: 'join' })}`;
  return safeText(fact.region === undefined ? fact.check : `${fact.check} (${fact.region})`, { lines: 'join' });
}

/** Rows padded into columns, measured in terminal columns (a CJK label takes two a character); the last is not padded. */
function columns(rows: readonly string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => displayWidth(row[column] ?? '')))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : padTo(cell, widths[column] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

/**
 * The fact table of `extract` and of the search fact box: kind, value, label, source:line:col, check (with a phone's
 * region). Values and labels are shown on one line (whitespace collapsed, long ones cut); `--json` has them exactly.
 */
export function factTable(facts: readonly Fact[], passages: readonly Passage[], paint: Painter, firstAt?: ReadonlyMap<Fact, LineCol>): string {
  const locate = locator(passages, firstAt);
  const rows = facts.map((fact) => [fact.kind, cut(fact.value, MAX_VALUE), cut(fact.label, MAX_LABEL), locate(fact), check(fact)]);
  const [header, ...body] = columns([['KIND', 'VALUE', 'LABEL', 'SOURCE', 'CHECK'], ...rows]);
  return [paint('dim', header ?? ''), ...body].join('\n');
}

/** `extract --kinds`: each kind, how it is checked, and what it finds; then the regions in force. */
export function kindTable(kinds: readonly KindInfo[], regions: RegionSettings, context: TextContext): string {
  const rows = kinds.map((info) => [info.kind, info.check, info.description]);
  const kindColumns: Column[] = [{ header: 'KIND', style: 'bold' }, { header: 'CHECK' }, { header: 'FINDS', flex: true }];
  return [table(kindColumns, rows, context), '', regionsInForce(regions)].join('\n');
}

const REGION_SOURCES: Record<RegionSettings['regionSource'], string> = {
  flag: '--region',
  HIPPO_REGION: 'HIPPO_REGION',
  config: 'config "region"',
  locale: 'the locale',
  none: '',
};

/** One line: the home region and where it came from, then the candidate regions (`extract --kinds`, `--help`). */
export function regionsInForce(settings: RegionSettings): string {
  const home =
    settings.region === undefined ? 'home region: none (C/POSIX or no locale)' : `home region: ${settings.region} (${REGION_SOURCES[settings.regionSource]})`;
  const list = settings.regions.length === 0 ? 'none' : settings.regions.join(' ');
  return `${home}; then ${list} (${settings.regionsSource === 'config' ? 'config "regions"' : 'default list'}); international numbers always`;
}

/** `extract --kinds`: the kind table and the regions in force; the JSON document is `{kinds, regions}`. */
export const kindsView: TextView<KindsReport> = ({ kinds, regions }, context) => kindTable(kinds, regions, context);

/**
 * The regions in force, shown as the default of `extract --region` in `--help` (read at help time: environment, config
 * file, locale). A broken setting is named rather than thrown: help must still print. Core is loaded only here, so a
 * view module the search command imports stays free of the recognisers (test/commands/startup.test.ts).
 */
export async function regionsHelp(): Promise<string> {
  try {
    const { resolveRegions } = await import('../core/regions.js');
    return regionsInForce(resolveRegions());
  } catch (error) {
    return `cannot tell: ${safeText(error instanceof Error ? error.message : String(error), { lines: 'join' })}`;
  }
}

/** Warnings go to stderr in both modes (and into the --json document, so a script can tell why nothing was found). */
export const warningNotes = ({ warnings }: { warnings: readonly string[] }) => warnings;

/** `extract`: the fact table, or that none was found; the JSON document is `{facts, warnings}`. */
export function extractView(kinds: readonly Kind[]): View<ExtractOutcome> {
  return {
    json: ({ facts, warnings }) => ({ facts, warnings }),
    text: ({ facts, passages, firstAt }, { paint }) => (facts.length === 0 ? `no ${kinds.join(', ')} found` : factTable(facts, passages, paint, firstAt)),
    notes: warningNotes,
  };
}
