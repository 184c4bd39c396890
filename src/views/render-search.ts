import { randomBytes } from 'node:crypto';
import { factBoxKinds, type SearchReport } from '../core/search-facts.js';
import { searchPassages, type SearchResult } from '../core/search.js';
import { dateWords } from '../core/store/context.js';
import { safeText } from '../core/text-guard.js';
import type { Painter, TextContext, View } from './output.js';
import { factTable, warningNotes } from './render-facts.js';
import { shownNote } from './hints.js';

/** Where a snippet's match starts and ends, asked of the search in text mode. */
export interface SnippetMarks {
  open: string;
  close: string;
}

/**
 * Fresh markers for one search: a random token between private-use characters. Stored text may hold any character,
 * the private-use ones included (icon fonts live there), so fixed markers could be forged by a memory — a lone
 * "close, open" pair would turn the terminal bold yellow after the snippet. Nothing stored can contain a token drawn
 * after it was stored. The markers survive the text guard, which runs first, and only they become colour or `**`.
 */
export function snippetMarks(): SnippetMarks {
  const token = randomBytes(12).toString('hex');
  return { open: `\uE000${token}\uE001`, close: `\uE001${token}\uE000` };
}

function highlight(snippet: string, marks: SnippetMarks | undefined, paint: Painter): string {
  const safe = safeText(snippet.replace(/\s*\n\s*/g, ' '));
  if (!marks) return safe;
  return safe
    .split(marks.open)
    .join(paint.enabled ? '\u001b[1;33m' : '**')
    .split(marks.close)
    .join(paint.enabled ? '\u001b[22;39m' : '**');
}

/**
 * A BM25 score as people read it: two decimals, or two significant digits when smaller (on a small store the scores
 * are tiny and would all print as 0.00).
 */
export function formatScore(score: number): string {
  return Math.abs(score) >= 0.01 || score === 0 ? score.toFixed(2) : score.toPrecision(2);
}

/**
 * Why a hit is there when its own text does not show the words (docs/design.md §6): the neighbour in its thread whose
 * text matched, or its date. Nothing when its own text, subject or tags matched.
 */
function whyLine(result: SearchResult, marks: SnippetMarks | undefined, paint: Painter): string | undefined {
  const own = result.matched.some((part) => part === 'content' || part === 'subject' || part === 'tags');
  if (own) return undefined;
  if (result.nearby) return `  ${paint('dim', `matched nearby (${result.nearby.memoryId}):`)} ${highlight(result.nearby.snippet, marks, paint)}`;
  if (result.matched.includes('date')) return `  ${paint('dim', `matched its date: ${dateWords(result.memory.createdAt)}`)}`;
  return undefined;
}

function resultLines(results: readonly SearchResult[], marks: SnippetMarks | undefined, { paint, time }: Pick<TextContext, 'paint' | 'time'>): string {
  if (results.length === 0) return 'no matches';
  return results
    .map((result) =>
      [
        `${paint('bold', result.memory.id)}  ${paint('dim', `${time(result.memory.createdAt)}  score ${formatScore(result.score)}`)}`,
        `  ${highlight(result.snippet, marks, paint)}`,
        whyLine(result, marks, paint),
      ]
        .filter((line) => line !== undefined)
        .join('\n'),
    )
    .join('\n');
}

/**
 * `search`: the fact box (when the query asks for a kind, something matched, and a fact was found or the user asked
 * for facts on purpose: `onPurpose`), then the results; warnings on stderr. `marks` are the ones the search was given
 * (snippetMarks()).
 */
export function searchView(query: string, marks?: SnippetMarks, { onPurpose = false }: { onPurpose?: boolean } = {}): View<SearchReport> {
  return {
    text: (report, context) => {
      const { results, facts } = report;
      const { paint } = context;
      const kinds = factBoxKinds(query, report, onPurpose);
      const box =
        kinds.length === 0
          ? undefined
          : facts.length === 0
            ? paint('dim', `no ${kinds.join(', ')} in these results`)
            : factTable(facts, searchPassages(results), paint);
      return [box, resultLines(results, marks, context)].filter(Boolean).join('\n\n');
    },
    notes: (report, context) => [
      ...warningNotes(report),
      shownNote(
        report.results.length,
        { total: report.total, truncated: report.total > report.results.length },
        { json: context.json, noun: 'matches', all: false },
      ),
    ],
  };
}
