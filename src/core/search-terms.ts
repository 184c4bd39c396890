/**
 * The words of a natural-language search (docs/design.md §6), the same for every engine: runs of letters, digits and
 * combining marks of any script (FTS5's unicode61 notion of a term), NFKC-normalised and lower-cased, each once, with
 * a short English stopword list dropped while another term remains. Pure: the adapters turn the terms into their
 * engine's query (store/sqlite/fts.ts quotes and OR-s them for FTS5).
 */

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

/** The distinct terms of `query`, stopwords dropped while another term remains; empty when it has no term at all. */
export function queryTerms(query: string): string[] {
  const terms = [...new Set((query.normalize('NFKC').match(TERM) ?? []).map((term) => term.toLowerCase()))];
  const topical = terms.filter((term) => !STOPWORDS.has(term));
  return topical.length > 0 ? topical : terms;
}
