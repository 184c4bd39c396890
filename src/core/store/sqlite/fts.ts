/**
 * FTS5 query text from user text (docs/design.md §6, docs/decisions.md "Search"). Pure and driver-free, so the library
 * can export `buildMatchExpression` without loading SQLite.
 */
import { queryTerms, TERM } from '../../search-terms.js';

/**
 * Turns any user text into a safe FTS5 expression: each distinct term quoted and OR-ed, so quotes, operators, `*`,
 * `-`, `:`, parentheses or `NEAR` in the text never raise a syntax error, and BM25 ranks memories that match more
 * (and rarer) terms first. Returns undefined when the text has no searchable term.
 */
export function buildMatchExpression(query: string): string | undefined {
  const chosen = queryTerms(query);
  if (chosen.length === 0) return undefined;
  return chosen.map((term) => `"${term}"`).join(' OR ');
}

/** Restricts the match to one agent inside FTS5 (the column is weighted 0 in bm25, so it does not move the score). */
export function agentExpression(agentId: string): string | undefined {
  const terms = agentId.match(TERM);
  return terms ? `agent_id : "${terms.join(' ')}"` : undefined;
}
