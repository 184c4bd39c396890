/**
 * The words and weights of a search (docs/design.md §6), the one home both engines import: which terms a
 * natural-language query searches and how much each part of a memory's search entry weighs. Pure, no driver: the
 * adapters turn the terms into their engine's query (store/sqlite/fts.ts quotes and OR-s them for FTS5,
 * store/postgres/fts.ts gives each to `plainto_tsquery`) and the weights into their engine's ranking.
 *
 * A term is a run of letters, digits and combining marks of any script (FTS5's unicode61 notion of a term),
 * NFKC-normalised and lower-cased, each once, with a short English stopword list dropped while another term remains,
 * and at most MAX_TERMS of them.
 */
import type { SearchWeights } from './store/port.js';

/** Words that carry no topic: dropped from natural-language queries as long as some other term remains. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by can could did do does for from had has have how i if in into is it its me my no not of ' +
    'on or our so than that the their them then there these they this to us was we were what when where which who whom ' +
    'why will with would you your about after again all am any been before being both each few more most other same ' +
    'should some such too very just over under up down out off once only own here hers his him her she he'
  ).split(' '),
);

/** Letters and digits of any script: the same notion of a term as FTS5's unicode61 tokenizer. */
export const TERM = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * More distinct terms than this are cut (the first ones are kept): a bound on the query built for a huge paste, the
 * same on both engines (docs/decisions.md, "Issue 24: one search vocabulary").
 */
export const MAX_TERMS = 256;

/**
 * The distinct terms of `query`, stopwords dropped while another term remains, the first MAX_TERMS of them; empty
 * when it has no term at all.
 */
export function queryTerms(query: string): string[] {
  const terms = [...new Set((query.normalize('NFKC').match(TERM) ?? []).map((term) => term.toLowerCase()))];
  const topical = terms.filter((term) => !STOPWORDS.has(term));
  return (topical.length > 0 ? topical : terms).slice(0, MAX_TERMS);
}

/**
 * The ranking (tuned on bench/search-context.ts's dev set): the weight of each part of the search entry, as FTS5's
 * bm25() takes them on SQLite and as the term frequencies of PostgreSQL's BM25 are weighted. The neighbours before a
 * memory weigh more than those after it (an answer follows its question); both, and the date, weigh little: they
 * rank, the memory's own words decide.
 */
export const RANK_WEIGHTS: Readonly<SearchWeights> = {
  content: 1.0,
  subject: 0.75,
  tags: 0.5,
  contextBefore: 0.4,
  contextAfter: 0.15,
  date: 0.3,
};

/** The weights with a tuning override (port.ts `SearchQuery.weights`). */
export function rankWeights(override?: Partial<SearchWeights>): SearchWeights {
  return { ...RANK_WEIGHTS, ...override };
}
