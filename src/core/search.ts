import { UsageError } from './errors.js';
import { kindsInQuery } from './facts/lexicon.js';
import type { Fact, Passage } from './facts/types.js';
import { DURABILITIES, elsewhereWarning, MEMORY_COLUMNS, memoryFromRow, type Durability, type Memory } from './memory.js';
import type { ModelClient } from './model/client.js';
import { mapSqliteError, prepared, tryWrite, type Store } from './store/store.js';
import { iso } from './time.js';

export interface SearchOptions {
  agentId: string;
  query: string;
  limit?: number;
  tag?: string;
  /** Only memories created at or after this time. */
  since?: Date;
  durability?: Durability;
  includeArchived?: boolean;
  /** Pass the query to FTS5 as written (its own syntax); otherwise every term is quoted. */
  raw?: boolean;
  /** Markers around matched terms in the snippet. */
  highlight?: { open: string; close: string };
  /** Bump retrievalCount / lastRetrievedAt on the hits (the CLI does; pure lookups may not). */
  recordRetrieval?: boolean;
}

export interface SearchResult {
  memory: Memory;
  /** BM25 relevance, higher is better (SQLite's bm25() negated). */
  score: number;
  snippet: string;
}

/** Words that carry no topic: dropped from natural-language queries as long as some other term remains. */
const STOPWORDS = new Set(
  (
    'a an and are as at be but by can could did do does for from had has have how i if in into is it its me my no not of ' +
    'on or our so than that the their them then there these they this to us was we were what when where which who whom ' +
    'why will with would you your about after again all am any been before being both each few more most other same ' +
    'should some such too very just over under up down out off once only own here hers his him her she he'
  ).split(' '),
);

/** Letters and digits of any script: the same notion of a term as FTS5's unicode61 tokenizer. */
const TERM = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * Turns any user text into a safe FTS5 expression: each distinct term quoted and OR-ed, so quotes, operators, `*`,
 * `-`, `:`, parentheses or `NEAR` in the text never raise a syntax error, and BM25 ranks memories that match more
 * (and rarer) terms first. Returns undefined when the text has no searchable term.
 */
export function buildMatchExpression(query: string): string | undefined {
  const terms = [...new Set((query.normalize('NFKC').match(TERM) ?? []).map((term) => term.toLowerCase()))];
  const topical = terms.filter((term) => !STOPWORDS.has(term));
  const chosen = topical.length > 0 ? topical : terms;
  if (chosen.length === 0) return undefined;
  return chosen.map((term) => `"${term}"`).join(' OR ');
}

/** Restricts the match to one agent inside FTS5 (the column is weighted 0 in bm25, so it does not move the score). */
function agentExpression(agentId: string): string | undefined {
  const terms = agentId.match(TERM);
  return terms ? `agent_id : "${terms.join(' ')}"` : undefined;
}

/** docs/design.md §6: BM25 full-text search over one agent's memories. */
export function search(store: Store, options: SearchOptions): SearchResult[] {
  const limit = options.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new UsageError('bad_limit', 'the limit must be a whole number of at least 1', { details: { option: 'limit' } });
  }
  if (options.durability && !DURABILITIES.includes(options.durability)) {
    throw new UsageError('bad_durability', `durability must be one of ${DURABILITIES.join(', ')}`, {
      details: { option: 'durability', allowed: [...DURABILITIES] },
    });
  }
  const text = options.raw ? (options.query.trim() === '' ? undefined : `(${options.query})`) : buildMatchExpression(options.query);
  if (text === undefined) return [];
  const agent = agentExpression(options.agentId);
  const match = agent ? `${agent} AND (${text})` : text;
  const now = iso(store.clock());
  // CROSS JOIN keeps FTS5 as the outer loop: the match drives, the agent and filters are checked per hit (an index on
  // agent_id would otherwise lead and run MATCH per row of that agent, and never parse a bad --raw query at all).
  const where = ['memories_fts MATCH @match', 'm.agent_id = @agentId'];
  if (!options.includeArchived) where.push('m.archived_at IS NULL', '(m.expires_at IS NULL OR m.expires_at > @now)');
  if (options.tag !== undefined) where.push('EXISTS (SELECT 1 FROM json_each(m.tags) WHERE value = @tag)');
  if (options.since) where.push('m.created_at >= @since');
  if (options.durability) where.push('m.durability = @durability');
  const open = options.highlight?.open ?? '**';
  const close = options.highlight?.close ?? '**';
  const sql = `
    SELECT ${MEMORY_COLUMNS.split(', ')
      .map((column) => `m.${column}`)
      .join(', ')},
           -bm25(memories_fts, 1.0, 0.5, 0.75, 0.0) AS score,
           snippet(memories_fts, 0, @open, @close, '…', 16) AS snippet
    FROM memories_fts CROSS JOIN memories m ON m.rowid = memories_fts.rowid
    WHERE ${where.join(' AND ')}
    ORDER BY score DESC, m.created_at DESC
    LIMIT @limit`;
  let rows: (Parameters<typeof memoryFromRow>[0] & { score: number; snippet: string })[];
  try {
    rows = store.db.prepare(sql).all({
      match,
      agentId: options.agentId,
      now,
      tag: options.tag ?? null,
      since: options.since ? iso(options.since) : null,
      durability: options.durability ?? null,
      open,
      close,
      limit,
    }) as typeof rows;
  } catch (error) {
    if (options.raw && (error as { code?: string }).code === 'SQLITE_ERROR') {
      const syntaxError = (error as Error).message;
      throw new UsageError('fts_syntax', `the raw query is not valid FTS5 syntax (${syntaxError}); search without raw to match the words as plain text`, {
        details: { option: 'raw', syntaxError },
      });
    }
    throw mapSqliteError(error, store.path);
  }
  const results = rows.map((row) => ({ memory: memoryFromRow(row), score: Number(row.score.toPrecision(4)), snippet: row.snippet }));
  if (
    options.recordRetrieval !== false &&
    results.length > 0 &&
    recordRetrieval(
      store,
      results.map((result) => result.memory.id),
      now,
    )
  ) {
    for (const { memory } of results) {
      memory.retrievalCount += 1;
      memory.lastRetrievedAt = now;
    }
  }
  return results;
}

/**
 * Bumps the usage counters of the hits. Best effort: a search must never fail, or wait out the busy timeout, because
 * another process is writing — the counters are signals, the results are the answer. Returns whether it recorded.
 */
function recordRetrieval(store: Store, ids: string[], now: string): boolean {
  const bump = prepared(store, 'UPDATE memories SET retrieval_count = retrieval_count + 1, last_retrieved_at = ? WHERE id = ?');
  return tryWrite(store, () => ids.forEach((id) => bump.run(now, id))) !== undefined;
}

/** Search results as fact passages: each memory's whole text under its id, best first (the fact box reads these). */
export function searchPassages(results: readonly SearchResult[]): Passage[] {
  return results.map(({ memory }) => ({ source: memory.id, text: memory.content }));
}

/** `search` with its fact box and warnings: what the command prints, and its --json document. */
export interface SearchReport {
  results: SearchResult[];
  /** The fact box: facts of the kinds the query names (`[]` when it names none). */
  facts: Fact[];
  /** Why the results or the box may be empty; `[]` when there is nothing to say. */
  warnings: string[];
}

/**
 * §6: the search, then — when the query names a kind of fact and something matched — the fact box over the results.
 * The recognisers and the model layer load only then: most queries name no kind.
 */
export async function searchWithFacts(
  store: Store,
  options: SearchOptions & { facts: { region?: string; ai: boolean; model: () => Promise<ModelClient | undefined>; signal?: AbortSignal } },
): Promise<SearchReport> {
  const results = search(store, options);
  const elsewhere = results.length === 0 ? elsewhereWarning(store, options.agentId) : undefined;
  const kinds = kindsInQuery(options.query);
  if (kinds.length === 0 || results.length === 0) return { results, facts: [], warnings: elsewhere ? [elsewhere] : [] };
  const { factBox } = await import('./extract.js');
  return { results, ...(await factBox(kinds, results, options.facts)) };
}
