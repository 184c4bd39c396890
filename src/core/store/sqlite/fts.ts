/**
 * FTS5 query text from user text (docs/design.md §6, docs/decisions.md "Search"). Pure and driver-free, so the library
 * can export `buildMatchExpression` without loading SQLite.
 */
import { queryTerms, TERM } from '../../search-terms.js';
import { SEARCH_PARTS, type SearchPart, type SearchWeights } from '../port.js';

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

/** The FTS5 columns of `memories_fts`, in order, with the weight each takes (agent_id is only a filter: 0). */
const COLUMNS: readonly { name: string; weight: keyof SearchWeights | null; part: SearchPart | null }[] = [
  { name: 'content', weight: 'content', part: 'content' },
  { name: 'tags', weight: 'tags', part: 'tags' },
  { name: 'subject', weight: 'subject', part: 'subject' },
  { name: 'agent_id', weight: null, part: null },
  { name: 'context_before', weight: 'contextBefore', part: 'context' },
  { name: 'context_after', weight: 'contextAfter', part: 'context' },
  { name: 'date_words', weight: 'date', part: 'date' },
];

/** The weights as bm25's arguments, in column order. */
function bm25Arguments(weights: SearchWeights): string {
  return COLUMNS.map((column) => (column.weight ? weights[column.weight] : 0).toFixed(4)).join(', ');
}

/** `bm25(memories_fts, …)` with these weights: lower is better (the search negates it). */
export function bm25Sql(weights: SearchWeights): string {
  return `bm25(memories_fts, ${bm25Arguments(weights)})`;
}

/**
 * FTS5's rank function with these weights (`bm25(…)` without the table), as the table's `rank` setting or a query's
 * `rank MATCH` takes it: `ORDER BY rank` then ranks inside FTS5 with exactly the value `bm25Sql` computes.
 */
export function rankFunction(weights: SearchWeights): string {
  return `bm25(${bm25Arguments(weights)})`;
}

/**
 * The rank migration 8 stored in every store (`INSERT INTO memories_fts (memories_fts, rank) VALUES ('rank', …)`),
 * i.e. `rankFunction(RANK_WEIGHTS)` when it shipped. A search with other weights (a tuning override, or RANK_WEIGHTS
 * changed without a new migration) passes its own with `rank MATCH`, so the ranking never silently uses stale weights.
 */
export const STORED_RANK = 'bm25(1.0000, 0.5000, 0.7500, 0.0000, 0.4000, 0.1500, 0.3000)';

/**
 * The column filter of a natural-language query: the weighted columns only, so a word of the agent id matches
 * nothing and a part weighted 0 is not searched at all.
 */
export function searchedColumns(weights: SearchWeights): string {
  return `{${COLUMNS.filter((column) => column.weight && weights[column.weight] > 0)
    .map((column) => column.name)
    .join(' ')}}`;
}

/** The columns holding one part of the search entry, as an FTS5 column filter (`{context_before context_after}`). */
export function partColumns(part: SearchPart): string {
  return `{${COLUMNS.filter((column) => column.part === part)
    .map((column) => column.name)
    .join(' ')}}`;
}

/**
 * SQL flags, one per search part in SEARCH_PARTS order (`… AS part_content`, …): whether the query's terms occur in
 * that part of the current row, read off FTS5's highlight() (the column's text comes back changed exactly when a phrase
 * of the query matched in it). Valid on a row of a query whose MATCH searched every part (`everyPart`).
 */
export function partFlags(): string {
  return SEARCH_PARTS.map((part) => {
    // The column's text as the index holds it (the view memories_search: a context is computed, not stored).
    const tests = COLUMNS.flatMap((column, index) =>
      column.part === part ? [`highlight(memories_fts, ${index}, char(1), '') IS NOT memories_fts.${column.name}`] : [],
    );
    return `(${tests.join(' OR ')}) AS part_${part}`;
  }).join(', ');
}

/** The column filter of every part of the search entry (all but agent_id), whatever the weights. */
export function everyPart(): string {
  return `{${COLUMNS.filter((column) => column.part !== null)
    .map((column) => column.name)
    .join(' ')}}`;
}
