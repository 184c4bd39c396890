/**
 * The PostgreSQL search statement as it was before it read each row's vectors once (docs/postgres.md, "Search"): kept
 * word for word as the reference that test/core/store/postgres/ranking.test.ts compares the current statement with.
 * Not used by hippo itself.
 */
import {
  BM25_B,
  BM25_K1,
  headlineOptions,
  PART_CLASSES,
  rawTsQuery,
  RERANK_AT_LEAST,
  TS_CONFIG,
  type SearchSqlOptions,
} from '../../../../src/core/store/postgres/fts.js';
import { queryTerms, rankWeights } from '../../../../src/core/search-terms.js';

/**
 * The whole search as one statement over parameters, ranked like SQLite's BM25 (see docs/postgres.md):
 *
 * 1. `matches`: one pass over the agent's memories matching any term in `fts` or `fts_context`, through the GIN
 *    indexes: for each, its length (distinct lexemes of both), `ts_rank` of both (computed in C: the cheap first
 *    ranking) and which terms it matches. Each term is its own `plainto_tsquery` (the text is words, never syntax); a
 *    `--raw` query is one `to_tsquery`.
 * 2. `stats` and `corpus`: document frequency of each term and the average length over the agent's matches, and the
 *    agent's memory count — per agent, so another agent's memories never move a score. They are taken before the
 *    archive/expiry/tag/date filters, as SQLite's index counts every row.
 * 3. `candidates`: the filtered matches, the best RERANK_AT_LEAST (or 10 × limit) by ts_rank.
 * 4. BM25 over the candidates: Σ idf(term) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen)), tf weighted by part
 *    (RANK_WEIGHTS) from both tsvectors' positions. `--raw` hits keep the ts_rank order.
 * 5. The limit, then ts_headline for the rows returned only, and which parts each matched (`in_content`, …).
 *
 * Rows carry the columns, `seq`, `score`, `headline` (pass it through `finishSnippet`) and `in_<part>` for each
 * SearchPart. Undefined when the query has no term (no results, like SQLite).
 */
export function formerSearchSql(options: SearchSqlOptions): { text: string; values: unknown[] } | undefined {
  const weights = rankWeights(options.weights);
  const values: unknown[] = [options.agentId];
  const param = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  let termParams: string[] = [];
  let querySql: string;
  if (options.raw) {
    if (!rawTsQuery(options.query)) return undefined;
    querySql = `to_tsquery('${TS_CONFIG}', ${param(options.query)})`;
  } else {
    const terms = queryTerms(options.query);
    if (terms.length === 0) return undefined;
    termParams = terms.map((term) => param(term));
    querySql = termParams.map((term) => `plainto_tsquery('${TS_CONFIG}', ${term})`).join(' || ');
  }
  // A part weighted 0 is not searched: the context vector only when some part of it weighs; rows found only through
  // a part weighted 0 have a first ranking of 0 and are dropped.
  const useContext = weights.contextBefore > 0 || weights.contextAfter > 0 || weights.date > 0;
  const found = (query: string) => (useContext ? `(m.fts @@ ${query} OR m.fts_context @@ ${query})` : `m.fts @@ ${query}`);
  const filters: string[] = ['x.pre > 0'];
  if (!options.includeArchived) filters.push('x.archived_at IS NULL', `(x.expires_at IS NULL OR x.expires_at > ${param(options.now)})`);
  if (options.tag !== undefined) filters.push(`x.tags @> ARRAY[${param(options.tag)}]::text[]`);
  if (options.since !== undefined) filters.push(`x.created_at >= ${param(options.since)}`);
  if (options.durability !== undefined) filters.push(`x.durability = ${param(options.durability)}`);
  const limit = param(options.limit);
  const headline = param(headlineOptions(options.highlight));
  const columns = options.columns.map((column) => `m.${column}`).join(', ');
  const hits = termParams.map((term, index) => `, ${found(`plainto_tsquery('${TS_CONFIG}', ${term})`)} AS hit${index}`).join('');
  const frequencies = termParams.map((_, index) => `, count(*) FILTER (WHERE hit${index})::float8 AS df${index}`).join('');
  const weight = `CASE v.src || w
      WHEN 'fA' THEN ${weights.content} WHEN 'fB' THEN ${weights.subject} WHEN 'fC' THEN ${weights.tags}
      WHEN 'cA' THEN ${weights.contextBefore} WHEN 'cB' THEN ${weights.contextAfter} WHEN 'cC' THEN ${weights.date} ELSE 0 END`;
  const termFrequencies = termParams
    .map((term, index) => `coalesce(sum(${weight}) FILTER (WHERE v.lexeme = ANY (tsvector_to_array(to_tsvector('${TS_CONFIG}', ${term})))), 0) AS tf${index}`)
    .join(', ');
  const bm25 = termParams
    .map(
      (_, index) =>
        `ln(1 + (corpus.n - stats.df${index} + 0.5) / (stats.df${index} + 0.5)) * f.tf${index} * ${BM25_K1 + 1}` +
        ` / (f.tf${index} + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * c.len / stats.avglen))`,
    )
    .join('\n             + ');
  const lexemes = `SELECT 'f' AS src, lexeme, weights FROM unnest(m.fts) UNION ALL SELECT 'c', lexeme, weights FROM unnest(m.fts_context)`;
  const scored = options.raw
    ? `SELECT c.id, c.created_at, c.pre AS score, c.pre FROM candidates c`
    : `SELECT c.id, c.created_at, ${bm25} AS score, c.pre
      FROM candidates c JOIN memories m ON m.id = c.id
      CROSS JOIN LATERAL (SELECT ${termFrequencies} FROM (${lexemes}) v, unnest(v.weights) w) f, stats, corpus`;
  // ts_rank's weights are {D, C, B, A}.
  const firstRank =
    `ts_rank('{0, ${weights.tags}, ${weights.subject}, ${weights.content}}', m.fts, q.query, 1)` +
    (useContext ? ` + ts_rank('{0, ${weights.date}, ${weights.contextAfter}, ${weights.contextBefore}}', m.fts_context, q.query, 1)` : '');
  const parts = Object.entries(PART_CLASSES)
    .map(([part, { vector, classes }]) => `, ts_filter(m.${vector}, '${classes}') @@ q.query AS in_${part}`)
    .join('');
  const text = `
    WITH q AS MATERIALIZED (SELECT (${querySql}) AS query),
    matches AS MATERIALIZED (
      SELECT m.id, m.created_at, m.archived_at, m.expires_at, m.tags, m.durability, (length(m.fts) + length(m.fts_context))::float8 AS len,
             ${firstRank} AS pre${hits}
      FROM memories m, q
      WHERE m.agent_id = $1 AND ${found('q.query')}
    ),
    stats AS MATERIALIZED (SELECT avg(len) AS avglen${frequencies} FROM matches),
    corpus AS MATERIALIZED (SELECT count(*)::float8 AS n FROM memories WHERE agent_id = $1),
    candidates AS MATERIALIZED (
      SELECT x.id, x.created_at, x.len, x.pre FROM matches x
      WHERE ${filters.join(' AND ')}
      ORDER BY x.pre DESC, x.created_at DESC, x.id DESC
      LIMIT greatest(${RERANK_AT_LEAST}, 10 * ${limit})
    ),
    scored AS MATERIALIZED (
      ${scored}
      ORDER BY score DESC, pre DESC, created_at DESC, id DESC
      LIMIT ${limit}
    )
    SELECT ${columns}, m.seq, s.score, ts_headline('${TS_CONFIG}', m.content, q.query, ${headline}) AS headline${parts}
    FROM scored s JOIN memories m ON m.id = s.id, q
    ORDER BY s.score DESC, s.pre DESC, s.created_at DESC, s.id DESC`;
  return { text, values };
}
