import { kindsInQuery } from '../core/facts/lexicon.js';
import { searchPassages, type SearchReport, type SearchResult } from '../core/search.js';
import { safeText } from '../core/text.js';
import type { Painter, TextContext, View } from './output.js';
import { factTable, warningNotes } from './render-facts.js';

/**
 * Where a snippet's match starts and ends, asked of the search in text mode. Private-use characters survive the text
 * guard, which turns any escape sequence stored in the text itself into U+FFFD; they become colour or `**` here.
 */
export const SNIPPET_MARKS = { open: '\uE000', close: '\uE001' };

function highlight(snippet: string, paint: Painter): string {
  return safeText(snippet.replace(/\s*\n\s*/g, ' '))
    .replaceAll(SNIPPET_MARKS.open, paint.enabled ? '\u001b[1;33m' : '**')
    .replaceAll(SNIPPET_MARKS.close, paint.enabled ? '\u001b[22;39m' : '**');
}

/**
 * A BM25 score as people read it: two decimals, or two significant digits when smaller (on a small store the scores
 * are tiny and would all print as 0.00).
 */
export function formatScore(score: number): string {
  return Math.abs(score) >= 0.01 || score === 0 ? score.toFixed(2) : score.toPrecision(2);
}

function resultLines(results: readonly SearchResult[], { paint, time }: Pick<TextContext, 'paint' | 'time'>): string {
  if (results.length === 0) return 'no matches';
  return results
    .map(
      ({ memory, score, snippet }) =>
        `${paint('bold', memory.id)}  ${paint('dim', `${time(memory.createdAt)}  score ${formatScore(score)}`)}\n  ${highlight(snippet, paint)}`,
    )
    .join('\n');
}

/** `search`: the fact box (when the query names a kind and something matched), then the results; warnings on stderr. */
export function searchView(query: string): View<SearchReport> {
  return {
    text: ({ results, facts }, context) => {
      const { paint } = context;
      const kinds = kindsInQuery(query);
      const box =
        kinds.length === 0 || results.length === 0
          ? undefined
          : facts.length === 0
            ? paint('dim', `no ${kinds.join(', ')} in these results`)
            : factTable(facts, searchPassages(results), paint);
      return [box, resultLines(results, context)].filter(Boolean).join('\n\n');
    },
    notes: warningNotes,
  };
}
