/**
 * Grounded fact extraction with its I/O (docs/design.md §5): passages from files, stdin or the agent's top search results, the
 * pure recognisers of `facts/`, and the model fallback (§5.3) for kinds that no validator covers. The model only
 * points at text in the passages it was shown; `verifyPointers` keeps what is found there verbatim, and nothing the
 * model said is logged, returned or stored.
 */
import { HippoError, InterruptedError } from './errors.js';
import { capPerKind, extractFacts } from './facts/facts.js';
import { validated, type Kind, type UnvalidatedKind } from './facts/kinds.js';
import { parseRegion } from './facts/region.js';
import type { Fact, Passage } from './facts/types.js';
import { buildFallbackPrompt, fallbackAnswerJsonSchema, verifyPointers } from './facts/verify.js';
import type { ModelClient } from './model/client.js';
import { search, searchPassages, type SearchResult } from './search.js';
import { elsewhereWarning } from './memory.js';
import type { Store } from './store/port.js';
import { readUtf8File } from './text.js';

/** §5.3 deadlines: a search must stay interactive; `extract` may wait (its `--timeout`). */
export const SEARCH_FALLBACK_TIMEOUT_MS = 800;
export const EXTRACT_FALLBACK_TIMEOUT_MS = 30_000;
/** At most this many characters of passage text go to the model (whole passages in rank order, the last one cut). */
export const FALLBACK_PASSAGE_BUDGET = 24_000;
/** §5.2: facts per kind when the passages are memories, unless the caller says otherwise. */
export const MEMORY_FACT_LIMIT = 5;

// Room for the verifier's 100 pointers of a line or two each; a longer answer is cut by the provider and then rejected as truncated.
const MAX_OUTPUT_TOKENS = 4096;
const { $schema: _dialect, ...POINTERS_JSON_SCHEMA } = fallbackAnswerJsonSchema as Record<string, unknown>;

export interface FallbackOptions {
  client: ModelClient;
  /** Deadline for the model call; composed with `signal`. */
  timeoutMs: number;
  /** The caller's cancellation (Ctrl-C): the request is cancelled and the interruption is rethrown. */
  signal?: AbortSignal;
  /** Receives one line when the call fails: the error code and a fixed string, never anything the model said. */
  log: (line: string) => void;
}

export interface ExtractRequest {
  kinds: readonly Kind[];
  /** Default region for phone numbers and numeric dates (see `extractFacts`). */
  region?: string | null;
  /** At most this many facts per kind; no cap when omitted. */
  limit?: number;
  /**
   * The model fallback for kinds with no validator. Omitted (no model configured, or `--no-ai`): no model call, and
   * such kinds yield nothing, since no deterministic recogniser exists for them.
   */
  fallback?: FallbackOptions;
}

/**
 * docs/design.md §5: the facts of the requested kinds in ranked passages. Validated kinds come from the recognisers only (the
 * model is never asked about them); each kind without a validator gets one model call over the passages that fit
 * the budget. A failed call yields no model rows and leaves the rest unchanged.
 */
export async function extract(passages: readonly Passage[], request: ExtractRequest): Promise<Fact[]> {
  const facts = extractFacts(passages, request);
  const fallback = request.fallback;
  if (fallback === undefined) return facts;
  for (const kind of new Set(request.kinds)) {
    if (validated(kind)) continue;
    facts.push(...capPerKind(await modelFallback(kind, passages, fallback), request.limit));
  }
  return facts;
}

/**
 * Leading passages within `budget` characters. A passage that does not fit whole is cut (at its last line break
 * inside the budget, when there is one) and ends the list; a cut keeps a prefix, so offsets into it are offsets into
 * the source.
 */
export function passagesWithin(passages: readonly Passage[], budget: number): Passage[] {
  const shown: Passage[] = [];
  let left = budget;
  for (const passage of passages) {
    if (left <= 0) break;
    if (passage.text.length <= left) {
      shown.push(passage);
      left -= passage.text.length;
      continue;
    }
    const lineBreak = passage.text.lastIndexOf('\n', left);
    shown.push({ source: passage.source, text: passage.text.slice(0, lineBreak > 0 ? lineBreak : left) });
    break;
  }
  return shown;
}

/**
 * §5.3: asks the model to point at spans of `kind` in the passages that fit the budget and keeps only pointers found
 * verbatim in the passage they name. Any provider error, timeout or rejected answer gives no facts and one log line;
 * only the caller's own abort is rethrown.
 */
export async function modelFallback(kind: UnvalidatedKind, passages: readonly Passage[], options: FallbackOptions): Promise<Fact[]> {
  const shown = passagesWithin(passages, FALLBACK_PASSAGE_BUDGET);
  if (shown.length === 0) return [];
  try {
    await options.client.prepare();
    const answer = await options.client.generateObject({
      prompt: buildFallbackPrompt(kind, shown),
      // No zod schema: each pointer is checked on its own by verifyPointers, so one malformed pointer cannot sink the others.
      jsonSchema: POINTERS_JSON_SCHEMA,
      schemaName: 'pointers',
      maxOutputTokens: MAX_OUTPUT_TOKENS,
      temperature: 0,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    return verifyPointers(shown, answer.value, { kind, allowedPassageCount: shown.length, model: answer.model });
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    const code = error instanceof HippoError ? error.code : 'unexpected';
    // Loaded here: a search that names no kind must not load the model layer (test/commands/startup.test.ts).
    const { answerProblemOf } = await import('./model/answer-problem.js');
    const reason = answerProblemOf(error);
    const status = `${code}${reason ? ` (${reason})` : ''}`;
    options.log(`model fallback for ${kind}: ${status} (${fallbackFailure(reason ?? code)}); no model rows, validated facts unchanged`);
    return [];
  }
}

/** What a failed fallback call means, in words, for its error code. */
function fallbackFailure(code: string): string {
  if (code === 'model_timeout') return 'the model timed out';
  if (code === 'model_unreachable') return 'the model could not be reached';
  if (code.startsWith('http_status_')) return `the model server answered HTTP ${code.slice('http_status_'.length)}`;
  if (code === 'response_too_large') return "the model's answer was too large";
  if (code === 'model_bad_response') return 'the model server did not answer in its format';
  if (code === 'model_output_invalid') return "the model's answer was not the JSON asked for";
  return 'the model call failed';
}

/** The agent's top search results for `query` as passages, best first. A lookup: retrieval counts are not bumped. */
export async function memoryPassages(store: Store, options: { agentId: string; query: string; top: number }): Promise<Passage[]> {
  return searchPassages(await search(store, { agentId: options.agentId, query: options.query, limit: options.top, recordRetrieval: false }));
}

/** A whole file as one passage, decoded as strict UTF-8; unreadable or non-UTF-8 files are usage errors naming it. */
export function filePassage(path: string): Passage {
  // Keep a byte-order mark: offsets then index the file exactly as `readFileSync(path, 'utf8')` returns it (§5.2).
  return { source: path, text: readUtf8File(path, { keepBom: true }) };
}

/** Where the model fallback's client comes from: called only when a kind needs it (undefined: no model configured). */
export type ModelSource = () => Promise<ModelClient | undefined>;

/** Extraction as the commands ask for it: the fallback set up from a model source, and warnings instead of log lines. */
export interface FactsRequest {
  kinds: readonly Kind[];
  /** Default region (an ISO code such as IE); omitted: from the locale. */
  region?: string;
  limit?: number;
  /** False: never call a model (kinds with no validator then find nothing, and a warning says so). */
  ai: boolean;
  model: ModelSource;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface FactsReport {
  facts: Fact[];
  /**
   * Why the facts may be fewer than the text holds: a kind that needs a model without one, a model call that failed.
   * Plain sentences, no flag names; `[]` when there is nothing to say.
   */
  warnings: string[];
}

/**
 * The one place the model fallback is set up, for `extract` and for the fact box of `search`: kinds with no validator
 * get the model from `request.model` (asked only when such a kind is requested and `ai` is on); without one they find
 * nothing, and a warning says why.
 */
export async function extractReport(passages: readonly Passage[], request: FactsRequest): Promise<FactsReport> {
  const region = request.region === undefined ? undefined : parseRegion(request.region);
  const warnings: string[] = [];
  const unvalidated = request.kinds.filter((kind) => !validated(kind));
  let fallback: FallbackOptions | undefined;
  if (unvalidated.length > 0) {
    const client = request.ai ? await request.model() : undefined;
    if (client) fallback = { client, timeoutMs: request.timeoutMs, signal: request.signal, log: (line) => warnings.push(line) };
    else warnings.push(needsModel(unvalidated, request.ai ? 'no model is configured: see hippo model check' : 'model calls are turned off'));
  }
  const facts = await extract(passages, { kinds: request.kinds, region, limit: request.limit, fallback });
  return { facts, warnings };
}

function needsModel(kinds: readonly Kind[], why: string): string {
  return `${kinds.join(', ')} ${kinds.length === 1 ? 'needs' : 'need'} a model (no validator covers ${kinds.length === 1 ? 'it' : 'them'}), and ${why}`;
}

/** Search's fact box (§6): the named kinds in the results, at most 5 facts a kind, the model given 800 ms. */
export async function factBox(
  kinds: readonly Kind[],
  results: readonly SearchResult[],
  options: Pick<FactsRequest, 'region' | 'ai' | 'model' | 'signal'>,
): Promise<FactsReport> {
  return extractReport(searchPassages(results), { ...options, kinds, limit: MEMORY_FACT_LIMIT, timeoutMs: SEARCH_FALLBACK_TIMEOUT_MS });
}

/** Where `extract` reads: files (`-` is stdin) or stdin alone, or the agent's top search results for a query. */
export type ExtractInput = { files: readonly string[]; stdin: () => Promise<string> } | { store: Store; agentId: string; query: string; top: number };

export interface ExtractOutcome extends FactsReport {
  /** The passages read, in order (files, stdin, or search results): facts point into them. */
  passages: Passage[];
}

/**
 * `extract`: the passages from `input`, then `extractReport` over them. Over search results the facts per kind are
 * capped (5 unless `limit` says otherwise), and finding no result for the agent while other agents hold memories is
 * a warning too.
 */
export async function extractFrom(input: ExtractInput, request: Omit<FactsRequest, 'limit'> & { limit?: number }): Promise<ExtractOutcome> {
  if ('query' in input) {
    const passages = await memoryPassages(input.store, input);
    const report = await extractReport(passages, { ...request, limit: request.limit ?? MEMORY_FACT_LIMIT });
    const elsewhere = passages.length === 0 ? await elsewhereWarning(input.store, input.agentId) : undefined;
    return { passages, facts: report.facts, warnings: [...(elsewhere ? [elsewhere] : []), ...report.warnings] };
  }
  const passages: Passage[] = [];
  if (input.files.length === 0) passages.push({ source: 'stdin', text: await input.stdin() });
  for (const file of input.files) passages.push(file === '-' ? { source: 'stdin', text: await input.stdin() } : filePassage(file));
  return { passages, ...(await extractReport(passages, request)) };
}
