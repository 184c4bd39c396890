/**
 * Grounded fact extraction with its I/O (SPEC §5): passages from files, stdin or the agent's top search results, the
 * pure recognisers of `facts/`, and the model fallback (§5.3) for kinds that no validator covers. The model only
 * points at text in the passages it was shown; `verifyPointers` keeps what is found there verbatim, and nothing the
 * model said is logged, returned or stored.
 */
import { readFileSync } from 'node:fs';
import type { CountryCode } from 'libphonenumber-js/max';
import { z } from 'zod';
import { loadConfig, type HippoConfig } from './config.js';
import { HippoError, InterruptedError, UsageError } from './errors.js';
import { capPerKind, extractFacts } from './facts/facts.js';
import { validated, type Kind, type UnvalidatedKind } from './facts/kinds.js';
import { DEFAULT_REGIONS, defaultRegion, parseRegion, parseRegions } from './facts/region.js';
import type { Fact, Passage } from './facts/types.js';
import { buildFallbackPrompt, fallbackAnswerJsonSchema, verifyPointers } from './facts/verify.js';
import { decodeUtf8 } from './import.js';
import type { ModelClient } from './model/client.js';
import { search } from './search.js';
import type { Store } from './store/store.js';

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

/** Where the home region came from: the caller's flag, `HIPPO_REGION`, the config file, the locale, or nowhere. */
export type RegionSource = 'flag' | 'HIPPO_REGION' | 'config' | 'locale' | 'none';

/** The regions in force for phone numbers and numeric dates (docs/extract.md §Regions). */
export interface RegionSettings {
  /** The home region: national numbers valid here are taken first; undefined when none is known. */
  region: CountryCode | undefined;
  regionSource: RegionSource;
  /** The candidate regions tried next, in order (the home region left out). */
  regions: CountryCode[];
  regionsSource: 'config' | 'default';
}

/**
 * The regions in force. Home region: `flag` > `HIPPO_REGION` > config `region` > the locale (LC_ALL, LC_MESSAGES,
 * LANG; `C`/`POSIX` or none gives none). Candidate list: config `regions`, else `DEFAULT_REGIONS`. An unknown code
 * anywhere is exit 2 (`unknown_region`) naming where it was written; `flagName` is how the caller names its flag.
 */
export function resolveRegions(input: { flag?: string; flagName?: string; env?: NodeJS.ProcessEnv; config?: HippoConfig } = {}): RegionSettings {
  const env = input.env ?? process.env;
  const config = input.config ?? loadConfig({ env });
  const fromEnv = env.HIPPO_REGION?.trim();
  let region: CountryCode | undefined;
  let regionSource: RegionSource;
  if (input.flag !== undefined) {
    region = parseRegion(input.flag, input.flagName);
    regionSource = 'flag';
  } else if (fromEnv !== undefined && fromEnv !== '') {
    region = parseRegion(fromEnv, 'HIPPO_REGION');
    regionSource = 'HIPPO_REGION';
  } else if (config.region !== undefined) {
    region = parseRegion(config.region, 'config "region"');
    regionSource = 'config';
  } else {
    region = defaultRegion(env);
    regionSource = region === undefined ? 'none' : 'locale';
  }
  const listed = config.regions === undefined ? undefined : parseRegions(config.regions, 'config "regions"');
  const regions = (listed ?? DEFAULT_REGIONS).filter((code) => code !== region);
  return { region, regionSource, regions, regionsSource: listed === undefined ? 'default' : 'config' };
}

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
  /** Home region for phone numbers and numeric dates (see `extractFacts`). */
  region?: string | null;
  /** Candidate regions for national phone numbers not valid in the home region (see `extractFacts`). */
  regions?: readonly string[];
  /** At most this many facts per kind; no cap when omitted. */
  limit?: number;
  /**
   * The model fallback for kinds with no validator. Omitted (no model configured, or `--no-ai`): no model call, and
   * such kinds yield nothing, since no deterministic recogniser exists for them.
   */
  fallback?: FallbackOptions;
}

/**
 * SPEC §5: the facts of the requested kinds in ranked passages. Validated kinds come from the recognisers only (the
 * model is never asked about them); each kind without a validator gets one model call over the passages that fit
 * the budget. A failed call yields no model rows and leaves the rest unchanged.
 */
export async function extract(passages: readonly Passage[], request: ExtractRequest): Promise<Fact[]> {
  const facts = extractFacts(passages, request);
  const fallback = request.fallback;
  if (fallback === undefined) return facts;
  for (const kind of new Set(request.kinds)) {
    if (validated(kind)) continue;
    const recognised = facts.filter((fact) => fact.kind === kind);
    const room = request.limit === undefined ? undefined : Math.max(0, request.limit - recognised.length);
    const fromModel = withoutRecognised(await modelFallback(kind, passages, fallback), recognised);
    facts.push(...capPerKind(fromModel, room));
  }
  return facts;
}

/**
 * Model facts minus the places a recogniser already certified (an address a postcode certifies is never listed again
 * as the model's): occurrences overlapping a recognised one are dropped, and a fact left with none goes.
 */
function withoutRecognised(fromModel: readonly Fact[], recognised: readonly Fact[]): Fact[] {
  const taken = recognised.flatMap((fact) => fact.occurrences);
  const kept: Fact[] = [];
  for (const fact of fromModel) {
    const occurrences = fact.occurrences.filter(
      (occurrence) => !taken.some((other) => other.source === occurrence.source && other.start < occurrence.end && occurrence.start < other.end),
    );
    const [first] = occurrences;
    if (first === undefined) continue;
    kept.push({ ...fact, value: first.text, label: occurrences.find((occurrence) => occurrence.label !== '')?.label ?? '', occurrences });
  }
  return kept;
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
      // Each pointer is checked on its own by verifyPointers: one malformed pointer must not sink the others.
      schema: z.unknown(),
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
    const status = error instanceof HippoError ? error.code : 'unexpected';
    options.log(`model fallback for ${kind}: ${status}; no model rows, validated facts unchanged`);
    return [];
  }
}

/** The agent's top search results for `query` as passages, best first. A lookup: retrieval counts are not bumped. */
export function memoryPassages(store: Store, options: { agentId: string; query: string; top: number }): Passage[] {
  return search(store, { agentId: options.agentId, query: options.query, limit: options.top, recordRetrieval: false }).map(({ memory }) => ({
    source: memory.id,
    text: memory.content,
  }));
}

/** A whole file as one passage, decoded as strict UTF-8; unreadable or non-UTF-8 files are usage errors naming it. */
export function filePassage(path: string): Passage {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError('unreadable_file', `${path}: cannot read (${code})`, { details: { path } });
  }
  // Keep a byte-order mark: offsets then index the file exactly as `readFileSync(path, 'utf8')` returns it (§5.2).
  return { source: path, text: decodeUtf8(bytes, path, { keepBom: true }) };
}
