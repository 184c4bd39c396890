/**
 * Full-text search on PostgreSQL: the tsquery built from any user text, `--raw` queries, ranking and snippets. The
 * SQL is built here with placeholders only; user text reaches the server as parameters, never as SQL, and in the
 * natural-language mode never as tsquery syntax either: each term goes through `plainto_tsquery`, which treats its
 * input as plain words, and the terms are OR-ed with tsquery's `||` operator. See docs/postgres.md.
 */
import { UsageError } from '../../errors.js';

/** The text search configuration made by the schema (English stemming without stopwords, diacritics folded). */
export const TS_CONFIG = 'hippo';

/**
 * Words dropped from natural-language queries while another term remains: the same list as SQLite's search, so both
 * engines search the same words. (The PostgreSQL index keeps them, as SQLite's does, so a query made only of such
 * words still finds them.)
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by can could did do does for from had has have how i if in into is it its me my no not of ' +
    'on or our so than that the their them then there these they this to us was we were what when where which who whom ' +
    'why will with would you your about after again all am any been before being both each few more most other same ' +
    'should some such too very just over under up down out off once only own here hers his him her she he'
  ).split(' '),
);

/** Letters, digits and combining marks of any script: what SQLite's unicode61 tokenizer calls a term. */
const TERM = /[\p{L}\p{N}\p{M}]+/gu;

/** More distinct terms than this are cut (the first ones are kept): a bound on the SQL built for a huge paste. */
export const MAX_TERMS = 256;

/**
 * The distinct terms of a natural-language query, lower-cased after NFKC, stopwords dropped while another term
 * remains: exactly what SQLite's `buildMatchExpression` quotes and OR-s. Empty when the text has no term at all.
 */
export function queryTerms(query: string): string[] {
  const terms = [...new Set((query.normalize('NFKC').match(TERM) ?? []).map((term) => term.toLowerCase()))];
  const topical = terms.filter((term) => !STOPWORDS.has(term));
  return (topical.length > 0 ? topical : terms).slice(0, MAX_TERMS);
}

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
  if (query.includes('\u0000')) throw rawSyntaxError('it contains a NUL character');
  return { sql: `to_tsquery('${TS_CONFIG}', $${firstParameter})`, values: [query] };
}

function rawSyntaxError(why: string): UsageError {
  // Core words it without the flag's name; src/cli/error-words.ts names --raw.
  return new UsageError('fts_syntax', `the raw query is not valid PostgreSQL tsquery syntax (${why}); search without raw to match the words as plain text`, {
    details: { syntaxError: why, engine: 'postgres' },
  });
}

/**
 * Maps the server's refusal of a `--raw` query (SQLSTATE 42601, "syntax error in tsquery") to the same UsageError as
 * SQLite's bad FTS5 syntax (`fts_syntax`, exit 2). Anything else passes through.
 */
export function mapRawQueryError(error: unknown): unknown {
  const shape = error as { code?: unknown; message?: unknown };
  if (shape.code === '42601' && typeof shape.message === 'string' && /tsquery/i.test(shape.message)) return rawSyntaxError(shape.message);
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

/** Column weights, as SQLite's bm25() gets them: content (A) 1.0, subject (B) 0.75, tags (C) 0.5. */
export const WEIGHTS = { A: 1.0, B: 0.75, C: 0.5 } as const;

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

/**
 * Adds `…` where a headline cut the text, as SQLite's snippet() does: before it when the content does not start with
 * the headline's text, after it when it does not end with it.
 */
export function finishSnippet(content: string, headline: string, highlight: Highlight): string {
  const plain = headline.split(highlight.open).join('').split(highlight.close).join('');
  const trimmedContent = content.trim();
  const trimmedPlain = plain.trim();
  if (trimmedPlain === '') return headline;
  const before = trimmedContent.startsWith(trimmedPlain) ? '' : '…';
  const after = trimmedContent.endsWith(trimmedPlain) ? '' : '…';
  return `${before}${headline.trim()}${after}`;
}

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
}

/**
 * The whole search as one statement over parameters, ranked like SQLite's BM25 (see docs/postgres.md):
 *
 * 1. `matches`: one pass over the agent's memories matching any term, through the GIN index: for each, its length
 *    (distinct lexemes), `ts_rank` (computed in C: the cheap first ranking) and which terms it matches. Each term is
 *    its own `plainto_tsquery` (the text is words, never syntax); a `--raw` query is one `to_tsquery`.
 * 2. `stats` and `corpus`: document frequency of each term and the average length over the agent's matches, and the
 *    agent's memory count — per agent, so another agent's memories never move a score. They are taken before the
 *    archive/expiry/tag/date filters, as SQLite's index counts every row.
 * 3. `candidates`: the filtered matches, the best RERANK_AT_LEAST (or 10 × limit) by ts_rank.
 * 4. BM25 over the candidates: Σ idf(term) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen)), tf weighted by column
 *    (content 1.0, subject 0.75, tags 0.5) from the tsvector's positions. `--raw` hits keep the ts_rank order.
 * 5. The limit, then ts_headline for the rows returned only.
 *
 * Rows carry the columns, `score` and `headline` (pass it through `finishSnippet`). Undefined when the query has no
 * term (no results, like SQLite).
 */
export function searchSql(options: SearchSqlOptions): { text: string; values: unknown[] } | undefined {
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
  const filters: string[] = [];
  if (!options.includeArchived) filters.push('x.archived_at IS NULL', `(x.expires_at IS NULL OR x.expires_at > ${param(options.now)})`);
  if (options.tag !== undefined) filters.push(`x.tags @> ARRAY[${param(options.tag)}]::text[]`);
  if (options.since !== undefined) filters.push(`x.created_at >= ${param(options.since)}`);
  if (options.durability !== undefined) filters.push(`x.durability = ${param(options.durability)}`);
  const limit = param(options.limit);
  const headline = param(headlineOptions(options.highlight));
  const columns = options.columns.map((column) => `m.${column}`).join(', ');
  const hits = termParams.map((term, index) => `, m.fts @@ plainto_tsquery('${TS_CONFIG}', ${term}) AS hit${index}`).join('');
  const frequencies = termParams.map((_, index) => `, count(*) FILTER (WHERE hit${index})::float8 AS df${index}`).join('');
  const weight = `CASE w WHEN 'A' THEN ${WEIGHTS.A} WHEN 'B' THEN ${WEIGHTS.B} WHEN 'C' THEN ${WEIGHTS.C} ELSE 0 END`;
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
  const scored = options.raw
    ? `SELECT c.id, c.created_at, c.pre AS score, c.pre FROM candidates c`
    : `SELECT c.id, c.created_at, ${bm25} AS score, c.pre
      FROM candidates c JOIN memories m ON m.id = c.id
      CROSS JOIN LATERAL (SELECT ${termFrequencies} FROM unnest(m.fts) v, unnest(v.weights) w) f, stats, corpus`;
  const text = `
    WITH q AS MATERIALIZED (SELECT (${querySql}) AS query),
    matches AS MATERIALIZED (
      SELECT m.id, m.created_at, m.archived_at, m.expires_at, m.tags, m.durability, length(m.fts)::float8 AS len,
             ts_rank('{0, ${WEIGHTS.C}, ${WEIGHTS.B}, ${WEIGHTS.A}}', m.fts, q.query, 1) AS pre${hits}
      FROM memories m, q
      WHERE m.agent_id = $1 AND m.fts @@ q.query
    ),
    stats AS MATERIALIZED (SELECT avg(len) AS avglen${frequencies} FROM matches),
    corpus AS MATERIALIZED (SELECT count(*)::float8 AS n FROM memories WHERE agent_id = $1),
    candidates AS MATERIALIZED (
      SELECT x.id, x.created_at, x.len, x.pre FROM matches x
      ${filters.length > 0 ? `WHERE ${filters.join(' AND ')}` : ''}
      ORDER BY x.pre DESC, x.created_at DESC, x.id DESC
      LIMIT greatest(${RERANK_AT_LEAST}, 10 * ${limit})
    ),
    scored AS MATERIALIZED (
      ${scored}
      ORDER BY score DESC, pre DESC, created_at DESC, id DESC
      LIMIT ${limit}
    )
    SELECT ${columns}, s.score, ts_headline('${TS_CONFIG}', m.content, q.query, ${headline}) AS headline
    FROM scored s JOIN memories m ON m.id = s.id, q
    ORDER BY s.score DESC, s.pre DESC, s.created_at DESC, s.id DESC`;
  return { text, values };
}
