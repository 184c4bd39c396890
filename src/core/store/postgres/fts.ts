/**
 * Full-text search on PostgreSQL: the tsquery built from any user text, `--raw` queries, ranking and snippets. The
 * SQL is built here with placeholders only; user text reaches the server as parameters, never as SQL, and in the
 * natural-language mode never as tsquery syntax either: each term goes through `plainto_tsquery`, which treats its
 * input as plain words, and the terms are OR-ed with tsquery's `||` operator. See docs/postgres.md.
 */
import { UsageError } from '../../errors.js';
import { queryTerms, rankWeights } from '../../search-terms.js';
import { rawSyntaxError, type SearchPart, type SearchWeights } from '../port.js';

/** The text search configuration made by the schema (English stemming without stopwords, diacritics folded). */
export const TS_CONFIG = 'hippo';

export interface TsQuery {
  /** A SQL expression of type tsquery using `$first`… placeholders. */
  sql: string;
  values: string[];
}

/**
 * A `--raw` query: PostgreSQL's own tsquery syntax (`deploy & (fail | broke) & !staging`, `migrat:*`, `billing <-> cron`),
 * passed as a parameter to `to_tsquery`. A NUL character cannot reach the server (it refuses it in text), so it is
 * refused here with the same code as a syntax error. Undefined for blank text (no results, as on SQLite).
 */
export function rawTsQuery(query: string, firstParameter = 1): TsQuery | undefined {
  if (query.trim() === '') return undefined;
  if (query.includes('\u0000')) throw tsquerySyntaxError('it contains a NUL character');
  return { sql: `to_tsquery('${TS_CONFIG}', $${firstParameter})`, values: [query] };
}

function tsquerySyntaxError(why: string): UsageError {
  return rawSyntaxError('PostgreSQL tsquery', why, { engine: 'postgres' });
}

/**
 * Maps the server's refusal of a `--raw` query (SQLSTATE 42601, "syntax error in tsquery") to the same UsageError as
 * SQLite's bad FTS5 syntax (`fts_syntax`, exit 2). Anything else passes through.
 */
export function mapRawQueryError(error: unknown): unknown {
  const shape = error as { code?: unknown; message?: unknown };
  if (shape.code === '42601' && typeof shape.message === 'string' && /tsquery/i.test(shape.message)) return tsquerySyntaxError(shape.message);
  return error;
}

/** BM25's parameters, as SQLite's FTS5 uses them. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/**
 * How many of the best matches by `ts_rank` (computed in C, cheap) are re-ranked by BM25 (computed in SQL from the
 * tsvector's positions, dearer): at least this many, and ten times the limit.
 */
export const RERANK_AT_LEAST = 200;

/** Which tsvector and weight class holds each part (`{a,b}`: ts_filter's spelling). */
export const PART_CLASSES: Record<SearchPart, { vector: 'fts' | 'fts_context'; classes: string }> = {
  content: { vector: 'fts', classes: '{a}' },
  subject: { vector: 'fts', classes: '{b}' },
  tags: { vector: 'fts', classes: '{c}' },
  context: { vector: 'fts_context', classes: '{a,b}' },
  date: { vector: 'fts_context', classes: '{c}' },
};

/** Markers around matched words in a snippet (the CLI gives `**`). */
export interface Highlight {
  open: string;
  close: string;
}

/** How long a snippet is, in words, like SQLite's `snippet(…, 16)`. */
export const SNIPPET_WORDS = 16;

/** A ts_headline option value in double quotes (the option parser's own quoting: a `"` is doubled). */
function optionValue(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}

/**
 * The `ts_headline` options for a snippet: the markers, about SNIPPET_WORDS words around the best match. The markers
 * come from hippo (not the query) but are quoted all the same, so any text works as a marker.
 */
export function headlineOptions(highlight: Highlight): string {
  return [
    `StartSel=${optionValue(highlight.open)}`,
    `StopSel=${optionValue(highlight.close)}`,
    `MaxWords=${SNIPPET_WORDS}`,
    `MinWords=${Math.floor(SNIPPET_WORDS / 2)}`,
    'ShortWord=0',
    'HighlightAll=false',
    'MaxFragments=1',
  ].join(', ');
}

/** Text with no letter or digit in it: what ts_headline leaves off the ends of a fragment (a final `.`, `)`, `!`…). */
const NO_WORDS = /^[^\p{L}\p{N}]*$/u;

/**
 * Adds `…` where a headline cut the text, as SQLite's snippet() does: before it when the content does not start with
 * the headline's text, after it when it does not end with it. ts_headline ends a fragment on a word, so the
 * punctuation it left off at either end of the content is put back instead (`Clean, no migrations.`, not
 * `Clean, no migrations…`, which would say that text was cut).
 */
export function finishSnippet(content: string, headline: string, highlight: Highlight): string {
  const plain = headline.split(highlight.open).join('').split(highlight.close).join('');
  const trimmedContent = content.trim();
  const trimmedPlain = plain.trim();
  if (trimmedPlain === '') return headline;
  const at = trimmedContent.indexOf(trimmedPlain);
  const head = at < 0 ? undefined : trimmedContent.slice(0, at);
  const tail = at < 0 ? undefined : trimmedContent.slice(at + trimmedPlain.length);
  const before = head === undefined ? (trimmedContent.startsWith(trimmedPlain) ? '' : '…') : NO_WORDS.test(head) ? head : '…';
  const after = tail === undefined ? (trimmedContent.endsWith(trimmedPlain) ? '' : '…') : NO_WORDS.test(tail) ? tail : '…';
  return `${before}${headline.trim()}${after}`;
}

/**
 * A stored tsvector read (detoasted, decompressed) once per row: the same vector as a new in-memory value (`||` with
 * the empty vector copies it unchanged). Without it, every function given the column (each rank, each length, each
 * term's `@@`) detoasts it again: sixteen reads of a row's two vectors where two do (docs/postgres.md, "Search").
 * The `OFFSET 0` around it keeps the planner from folding the copies back into each use.
 */
const DETOASTED = (column: string): string => `(${column} || ''::tsvector)`;

export interface SearchSqlOptions {
  agentId: string;
  query: string;
  raw?: boolean;
  limit: number;
  /** ISO time: hits must not have expired by then (unless includeArchived). */
  now: string;
  tag?: string;
  /** ISO time: created at or after. */
  since?: string;
  durability?: string;
  includeArchived?: boolean;
  highlight: Highlight;
  /** The memory columns to select, e.g. every column but `fts`. */
  columns: readonly string[];
  /** Tuning override of RANK_WEIGHTS; a part weighted 0 is not searched. */
  weights?: Partial<SearchWeights>;
}

/**
 * The query as a tsquery expression over parameters (added through `param`): a `--raw` query is one `to_tsquery`, else
 * each term its own `plainto_tsquery` (the text is words, never syntax), OR-ed; `termParams` are the terms' parameters
 * (none for raw). Undefined when the query has no term.
 */
function tsQuerySql(options: { raw?: boolean; query: string }, param: (value: unknown) => string): { querySql: string; termParams: string[] } | undefined {
  if (options.raw) return rawTsQuery(options.query) ? { querySql: `to_tsquery('${TS_CONFIG}', ${param(options.query)})`, termParams: [] } : undefined;
  const terms = queryTerms(options.query);
  if (terms.length === 0) return undefined;
  const termParams = terms.map((term) => param(term));
  return { querySql: termParams.map((term) => `plainto_tsquery('${TS_CONFIG}', ${term})`).join(' || '), termParams };
}

/**
 * The whole search as one statement over parameters, ranked like SQLite's BM25 (see docs/postgres.md):
 *
 * 1. `matches`: one pass over the agent's memories matching any term in `fts` or `fts_context`, through the GIN
 *    indexes: for each, its length (distinct lexemes of both), `ts_rank` of both (computed in C: the cheap first
 *    ranking) and which terms it matches. Each term is its own `plainto_tsquery` (the text is words, never syntax); a
 *    `--raw` query is one `to_tsquery`.
 * 2. `stats` and `corpus`: document frequency of each term and the average length over the agent's matches, and the
 *    agent's memory count — per agent, so another agent's memories never move a score. They are taken before the
 *    archive/expiry/tag/date filters, as SQLite's index counts every row. `stats` also counts the matches that pass
 *    the filters (`total`, the search's "N matched"): the same pass, so no second statement walks the matches again.
 * 3. `candidates`: the filtered matches, the best RERANK_AT_LEAST (or 10 × limit) by ts_rank.
 * 4. BM25 over the candidates: Σ idf(term) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen)), tf weighted by part
 *    (RANK_WEIGHTS) from both tsvectors' positions. `--raw` hits keep the ts_rank order.
 * 5. The limit, then ts_headline for the rows returned only, and which parts each matched (`in_content`, …).
 *
 * Rows carry the columns, `seq`, `score`, `total`, `headline` (pass it through `finishSnippet`) and `in_<part>` for each
 * SearchPart. Undefined when the query has no term (no results, like SQLite).
 */
export function searchSql(options: SearchSqlOptions): { text: string; values: unknown[] } | undefined {
  const weights = rankWeights(options.weights);
  const values: unknown[] = [options.agentId];
  const param = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  const tsquery = tsQuerySql(options, param);
  if (!tsquery) return undefined;
  const { querySql, termParams } = tsquery;
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
  // Each term's tsquery is built once (in `q`), not once per row; the hit columns test the row's vectors detoasted once
  // (`v`, below), so a row's vectors are read once however many terms and ranks test them.
  const termQueries = termParams.map((term, index) => `, plainto_tsquery('${TS_CONFIG}', ${term}) AS t${index}`).join('');
  const foundIn = (query: string) => (useContext ? `(v.fts @@ ${query} OR v.fts_context @@ ${query})` : `v.fts @@ ${query}`);
  const hits = termParams.map((_, index) => `, ${foundIn(`q.t${index}`)} AS hit${index}`).join('');
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
      FROM candidates c JOIN memories m ON m.agent_id = $1 AND m.id = c.id
      CROSS JOIN LATERAL (SELECT ${termFrequencies} FROM (${lexemes}) v, unnest(v.weights) w) f, stats, corpus`;
  // ts_rank's weights are {D, C, B, A}.
  const firstRank =
    `ts_rank('{0, ${weights.tags}, ${weights.subject}, ${weights.content}}', v.fts, q.query, 1)` +
    (useContext ? ` + ts_rank('{0, ${weights.date}, ${weights.contextAfter}, ${weights.contextBefore}}', v.fts_context, q.query, 1)` : '');
  const parts = Object.entries(PART_CLASSES)
    .map(([part, { vector, classes }]) => `, ts_filter(m.${vector}, '${classes}') @@ q.query AS in_${part}`)
    .join('');
  const text = `
    WITH q AS MATERIALIZED (SELECT (${querySql}) AS query${termQueries}),
    matches AS MATERIALIZED (
      SELECT m.id, m.created_at, m.archived_at, m.expires_at, m.tags, m.durability, (length(v.fts) + length(v.fts_context))::float8 AS len,
             ${firstRank} AS pre${hits}
      FROM memories m CROSS JOIN q
      CROSS JOIN LATERAL (SELECT ${DETOASTED('m.fts')} AS fts, ${DETOASTED('m.fts_context')} AS fts_context OFFSET 0) v
      WHERE m.agent_id = $1 AND ${found('q.query')}
    ),
    stats AS MATERIALIZED (SELECT avg(len) AS avglen${frequencies}, count(*) FILTER (WHERE ${filters.join(' AND ')})::int AS total FROM matches x),
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
    SELECT ${columns}, m.seq, s.score, stats.total, ts_headline('${TS_CONFIG}', m.content, q.query, ${headline}) AS headline${parts}
    FROM scored s JOIN memories m ON m.agent_id = $1 AND m.id = s.id, q, stats
    ORDER BY s.score DESC, s.pre DESC, s.created_at DESC, s.id DESC`;
  return { text, values };
}

/**
 * The neighbour of a context-only hit whose own text matches best (the memories lending the hit its context: the
 * CONTEXT_BEFORE live ones before it and CONTEXT_AFTER after it in its thread), with a headline of that text.
 * Parameters: $1 agent, $2 thread, $3 created_at, $4 seq, $5 the query as in `searchSql` (re-sent), then the markers.
 */
export function nearbySql(options: {
  agentId: string;
  thread: string;
  createdAt: string;
  seq: number;
  query: string;
  raw: boolean;
  highlight: Highlight;
  before: number;
  after: number;
}): { text: string; values: unknown[] } | undefined {
  const values: unknown[] = [options.agentId, options.thread, options.createdAt, options.seq];
  const param = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  let querySql: string;
  if (options.raw) querySql = `to_tsquery('${TS_CONFIG}', ${param(options.query)})`;
  else {
    const terms = queryTerms(options.query);
    if (terms.length === 0) return undefined;
    querySql = terms.map((term) => `plainto_tsquery('${TS_CONFIG}', ${param(term)})`).join(' || ');
  }
  const headline = param(headlineOptions(options.highlight));
  const live = `n.agent_id = $1 AND n.thread = $2 AND n.archived_at IS NULL`;
  const text = `
    WITH q AS MATERIALIZED (SELECT (${querySql}) AS query),
    neighbours AS (
      (SELECT n.id FROM memories n WHERE ${live} AND (n.created_at, n.seq) < ($3::timestamptz, $4::bigint) ORDER BY n.created_at DESC, n.seq DESC LIMIT ${options.before})
      UNION ALL
      (SELECT n.id FROM memories n WHERE ${live} AND (n.created_at, n.seq) > ($3::timestamptz, $4::bigint) ORDER BY n.created_at, n.seq LIMIT ${options.after})
    )
    SELECT m.id, m.content, ts_headline('${TS_CONFIG}', m.content, q.query, ${headline}) AS headline
    FROM neighbours x JOIN memories m ON m.agent_id = $1 AND m.id = x.id, q
    WHERE ts_filter(m.fts, '{a}') @@ q.query
    ORDER BY ts_rank(m.fts, q.query, 1) DESC, m.created_at DESC
    LIMIT 1`;
  return { text, values };
}
