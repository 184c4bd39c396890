/**
 * Search with its fact box (docs/design.md §6): the search, then — when the query names a kind of fact and something
 * matched — the facts of that kind in the results. Above both search.ts and extract/: the fact box reads search
 * results and runs extraction over them.
 */
import type { RedactMode } from './config-values.js';
import type { FactsReport, FactsRequest } from './extract/extract.js';
import { factBoxTimeoutMs, MEMORY_FACT_LIMIT } from './extract/limits.js';
import type { Kind } from './facts/kinds.js';
import { kindsAskedFor } from './facts/lexicon.js';
import type { Fact } from './facts/types.js';
import { elsewhereWarning } from './memory/memory.js';
import type { ModelClient } from './model/client.js';
import { searchPassages, searchWithTotal, type SearchOptions, type SearchResult } from './search.js';
import type { Store } from './store/port.js';

/** Search's fact box (§6): the named kinds in the results, at most 5 facts a kind, the model given 800 ms (or `HIPPO_FACT_BOX_TIMEOUT_MS`). */
export async function factBox(
  kinds: readonly Kind[],
  results: readonly SearchResult[],
  options: Pick<FactsRequest, 'region' | 'ai' | 'model' | 'signal' | 'redact'>,
): Promise<FactsReport> {
  // Loaded here: the recognisers and the model layer load only for a query that names a kind (most name none).
  const { extractReport } = await import('./extract/extract.js');
  return extractReport(searchPassages(results), { ...options, kinds, limit: MEMORY_FACT_LIMIT, timeoutMs: factBoxTimeoutMs() });
}

/** `search` with its fact box and warnings: what the command prints, and its --json document. */
export interface SearchReport {
  results: SearchResult[];
  /** How many memories matched in all (the results are the best `limit` of them). */
  total: number;
  /** The fact box: facts of the kinds the query names (`[]` when it names none). */
  facts: Fact[];
  /** Why the results or the box may be empty; `[]` when there is nothing to say. */
  warnings: string[];
}

/**
 * §6: the search, then — when the query asks for a kind of fact and something matched — the fact box over the results.
 * A kind is asked for when a phrase names it clearly (`phone number`, `address`), or by a cue (`where is`, `call`)
 * when the user asked for facts on purpose (`onPurpose`: the CLI's `--ai` or `--model` given). The recognisers and the
 * model layer load only then: most queries ask for none, and a question that asks for no fact never calls a model.
 */
export async function searchWithFacts(
  store: Store,
  options: SearchOptions & {
    facts: {
      region?: string;
      ai: boolean;
      model: () => Promise<ModelClient | undefined>;
      signal?: AbortSignal;
      redact?: RedactMode;
      /** The user asked for facts on purpose (`--ai`, `--model`): cues count, and an empty box says nothing was found. */
      onPurpose?: boolean;
    };
    /** False: an empty result never names other agents (a server serving one agent of many, docs/mcp.md). */
    nameOtherAgents?: boolean;
  },
): Promise<SearchReport> {
  const { results, total } = await searchWithTotal(store, options);
  const elsewhere = results.length === 0 && options.nameOtherAgents !== false ? await elsewhereWarning(store, options.agentId) : undefined;
  const kinds = kindsAskedFor(options.query, { cues: options.facts.onPurpose === true });
  if (kinds.length === 0 || results.length === 0) return { results, total, facts: [], warnings: elsewhere ? [elsewhere] : [] };
  return { results, total, ...(await factBox(kinds, results, options.facts)) };
}

/**
 * Whether search shows its fact box, and for which kinds: only when a kind is asked for (`searchWithFacts`), something
 * matched, and either a fact was found or the user asked for facts on purpose (then "none found" is an answer).
 */
export function factBoxKinds(query: string, report: Pick<SearchReport, 'results' | 'facts'>, onPurpose: boolean): Kind[] {
  const kinds = kindsAskedFor(query, { cues: onPurpose });
  if (kinds.length === 0 || report.results.length === 0) return [];
  return report.facts.length > 0 || onPurpose ? kinds : [];
}
