import { UsageError } from './errors.js';
import { requireCount } from './limits.js';
import type { Passage } from './facts/types.js';
import { DURABILITIES, type Durability, type Memory } from './records.js';
import type { SearchPart, SearchQuery, SearchWeights, Store } from './store/port.js';
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
  /** Pass the query to the engine as written (its own syntax: FTS5 MATCH, or to_tsquery); otherwise every term is quoted. */
  raw?: boolean;
  /** Markers around matched terms in the snippet. */
  highlight?: { open: string; close: string };
  /** Bump retrievalCount / lastRetrievedAt on the hits (the CLI does; pure lookups may not). */
  recordRetrieval?: boolean;
  /** Tuning only (benchmarks): other weights for parts of the search entry; a part weighted 0 is not searched. */
  weights?: Partial<SearchWeights>;
}

export interface SearchResult {
  memory: Memory;
  /** BM25 relevance, higher is better (SQLite's bm25() negated), to 4 decimals; comparable within one result list. */
  score: number;
  /** The memory's own text around the match, the matched words marked. */
  snippet: string;
  /** Which parts of the memory's search entry matched: `content`, `subject`, `tags`, `context`, `date`. */
  matched: SearchPart[];
  /** For a hit only its thread neighbours' text matched: that neighbour and a snippet of its text; else null. */
  nearby: { memoryId: string; snippet: string } | null;
}

/** docs/design.md §6: BM25 full-text search over one agent's memories, each read with its thread neighbours and its date. */
export async function search(store: Store, options: SearchOptions): Promise<SearchResult[]> {
  return (await searchAndCount(store, options, false)).results;
}

/**
 * `search`, and how many memories it would find without its limit (search's "N matched"): on SQLite counted in the
 * ranking statement's own pass over the matches, on both engines.
 */
export async function searchWithTotal(store: Store, options: SearchOptions): Promise<{ results: SearchResult[]; total: number }> {
  return searchAndCount(store, options, true);
}

async function searchAndCount(store: Store, options: SearchOptions, counting: boolean): Promise<{ results: SearchResult[]; total: number }> {
  const limit = requireCount(options.limit ?? 10, 'limit');
  if (options.durability && !DURABILITIES.includes(options.durability)) {
    throw new UsageError('bad_durability', `durability must be one of ${DURABILITIES.join(', ')}`, {
      details: { option: 'durability', allowed: [...DURABILITIES] },
    });
  }
  const now = iso(store.clock());
  const query = searchQuery(options, limit, now);
  const { hits, total } = counting ? await store.memories.searchWithTotal(query) : { hits: await store.memories.search(query), total: 0 };
  const results = hits.map((hit) => ({
    memory: hit.memory,
    score: Number(hit.score.toPrecision(4)),
    snippet: hit.snippet,
    matched: hit.matched,
    nearby: hit.nearby,
  }));
  if (
    options.recordRetrieval !== false &&
    results.length > 0 &&
    (await recordRetrieval(
      store,
      options.agentId,
      results.map((result) => result.memory.id),
      now,
    ))
  ) {
    for (const { memory } of results) {
      memory.retrievalCount += 1;
      memory.lastRetrievedAt = now;
    }
  }
  return { results, total: counting ? Math.max(total, results.length) : results.length };
}

function searchQuery(options: SearchOptions, limit: number, now: string): SearchQuery {
  return {
    agentId: options.agentId,
    text: options.query,
    raw: options.raw ?? false,
    limit,
    tag: options.tag,
    since: options.since ? iso(options.since) : undefined,
    durability: options.durability,
    includeArchived: options.includeArchived,
    now,
    highlight: options.highlight ?? { open: '**', close: '**' },
    weights: options.weights,
  };
}

/**
 * Bumps the usage counters of the hits. Best effort: a search must never fail, or wait out the busy timeout, because
 * another process is writing — the counters are signals, the results are the answer. Returns whether it recorded.
 */
async function recordRetrieval(store: Store, agentId: string, ids: string[], now: string): Promise<boolean> {
  const recorded = await store.tryTransaction(async (tx) => {
    await tx.memories.recordRetrieval(agentId, ids, now);
    return true;
  });
  return recorded === true;
}

/** Search results as fact passages: each memory's whole text under its id, best first (the fact box reads these). */
export function searchPassages(results: readonly SearchResult[]): Passage[] {
  return results.map(({ memory }) => ({ source: memory.id, text: memory.content }));
}
