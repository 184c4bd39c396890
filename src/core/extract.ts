/**
 * Grounded fact extraction with its I/O (docs/design.md §5): passages from files, stdin or the agent's top search results, the
 * pure recognisers of `facts/`, and the model fallback (§5.3) for kinds that no validator covers. The model only
 * points at text in the passages it was shown; `verifyPointers` keeps what is found there verbatim, and nothing the
 * model said is logged, returned or stored.
 */
import { statSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CountryCode } from 'libphonenumber-js/max';
import { loadConfig, type HippoConfig } from './config.js';
import { HippoError, InterruptedError, NotFoundError } from './errors.js';
import { capPerKind, extractFacts } from './facts/facts.js';
import { listKinds, validated, type Kind, type KindInfo, type UnvalidatedKind } from './facts/kinds.js';
import { DEFAULT_REGIONS, defaultRegion, parseRegion, parseRegions } from './facts/region.js';
import { scanFacts, type StreamedFacts, type TextPieces } from './facts/stream.js';
import type { LineCol } from './facts/text.js';
import type { Fact, Passage } from './facts/types.js';
import type { Redactor } from './facts/redact.js';
import type { ModelClient } from './model/client.js';
import type { RedactMode } from './redaction.js';
import { search, searchPassages, type SearchResult } from './search.js';
import { elsewhereWarning, getMemories } from './memory.js';
import type { Store } from './store/port.js';
import { readUtf8File, Utf8FileChunks } from './text.js';

export {
  EXTRACT_FALLBACK_TIMEOUT_MS,
  EXTRACT_READ_LIMIT,
  FALLBACK_PASSAGE_BUDGET,
  MAX_EXTRACT_BYTES,
  MEMORY_FACT_LIMIT,
  SEARCH_FALLBACK_TIMEOUT_MS,
} from './extract-limits.js';
import { EXTRACT_READ_LIMIT, FALLBACK_PASSAGE_BUDGET, MEMORY_FACT_LIMIT, SEARCH_FALLBACK_TIMEOUT_MS } from './extract-limits.js';

// Room for the verifier's 100 pointers of a line or two each; a longer answer is cut by the provider and then rejected as truncated.
const MAX_OUTPUT_TOKENS = 4096;

/**
 * Where the home region came from: the caller's own choice (`flag`: the CLI's `--region`, a library caller's `region`),
 * `HIPPO_REGION`, the config file, the locale, or nowhere.
 */
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
 * The regions in force. Home region: the caller's `region` > `HIPPO_REGION` > config `region` > the locale (LC_ALL,
 * LC_MESSAGES, LANG; `C`/`POSIX` or none gives none). Candidate list: config `regions`, else `DEFAULT_REGIONS`. An
 * unknown code anywhere is exit 2 (`unknown_region`); `details.source` says where it was written (`HIPPO_REGION`,
 * `config "region"`, `config "regions"`), and its absence means the caller's own `region` (the CLI words that one).
 */
export function resolveRegions(input: { region?: string; env?: NodeJS.ProcessEnv; config?: HippoConfig } = {}): RegionSettings {
  const env = input.env ?? process.env;
  const config = input.config ?? loadConfig({ env });
  const fromEnv = env.HIPPO_REGION?.trim();
  let region: CountryCode | undefined;
  let regionSource: RegionSource;
  if (input.region !== undefined) {
    region = parseRegion(input.region);
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
  /**
   * Redacts the passages before they are sent (docs/redaction.md): a fresh redactor for the request, or undefined when
   * the policy does not redact for this model.
   */
  redactor?: () => Promise<Redactor | undefined>;
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
   * The model fallback for kinds with no validator. Omitted (no model configured, or model calls turned off): no model
   * call, and such kinds yield only what their recogniser certifies (an address ending in a valid postcode).
   */
  fallback?: FallbackOptions;
}

/**
 * docs/design.md §5: the facts of the requested kinds in ranked passages. Validated kinds come from the recognisers only (the
 * model is never asked about them); each kind without a validator gets one model call over the passages that fit
 * the budget. A failed call yields no model rows and leaves the rest unchanged.
 */
export async function extract(passages: readonly Passage[], request: ExtractRequest): Promise<Fact[]> {
  return withModelFacts(extractFacts(passages, request), passages, request);
}

/** `extract`'s second half: the recognised `facts` of `passages`, then the model's for each kind with no validator. */
async function withModelFacts(facts: Fact[], passages: readonly Passage[], request: ExtractRequest): Promise<Fact[]> {
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
  // Loaded here: the verifier's schema is zod, which a fact box of validated kinds never needs (docs/decisions.md, "Fact box").
  const { buildFallbackPrompt, fallbackAnswerJsonSchema, verifyPointers } = await import('./facts/verify.js');
  const { $schema: _dialect, ...pointersJsonSchema } = fallbackAnswerJsonSchema as Record<string, unknown>;
  try {
    // Redacted passages go out; pointers are verified against them and mapped back to the source (verifyPointers).
    const redactor = await options.redactor?.();
    // Each passage is redacted whole and then cut where it was cut for the budget: a value the cut goes through is
    // left out whole rather than sent in part (passage i of `shown` is a prefix of passage i of `passages`).
    const redacted = redactor ? shown.map((passage, index) => redactor.redact(passages[index]!.text, { cutAt: passage.text.length })) : undefined;
    const sent = redacted ? shown.map((passage, index) => ({ source: passage.source, text: redacted[index]!.text })) : shown;
    await options.client.prepare();
    const answer = await options.client.generateObject({
      prompt: buildFallbackPrompt(kind, sent),
      // No zod schema: each pointer is checked on its own by verifyPointers, so one malformed pointer cannot sink the others.
      jsonSchema: pointersJsonSchema,
      schemaName: 'pointers',
      maxOutputTokens: MAX_OUTPUT_TOKENS,
      temperature: 0,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    return verifyPointers(shown, answer.value, { kind, allowedPassageCount: shown.length, model: answer.model, ...(redacted ? { redacted } : {}) });
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    const code = error instanceof HippoError ? error.code : 'unexpected';
    // Loaded here: a search that names no kind must not load the model layer (test/commands/startup.test.ts).
    const { answerProblemOf } = await import('./model/answer-problem.js');
    const reason = answerProblemOf(error);
    const status = `${code}${reason ? ` (${reason})` : ''}`;
    options.log(`model fallback for ${kind}: ${status} (${fallbackFailure(code, reason)}); no model rows, validated facts unchanged`);
    return [];
  }
}

/** What a failed fallback call means, in words, for its error code (and, for a rejected answer, its reason). */
function fallbackFailure(code: string, reason: string | undefined): string {
  if (code === 'model_timeout') return 'the model timed out';
  if (code === 'model_unreachable') return 'the model could not be reached';
  if (code.startsWith('http_status_')) return `the model server answered HTTP ${code.slice('http_status_'.length)}`;
  if (code === 'model_bad_response') return 'the model server did not answer in its format';
  if (reason === 'response_too_large') return "the model's answer was too large";
  if (code === 'model_output_invalid') return "the model's answer was not the JSON asked for";
  return 'the model call failed';
}

/** The agent's top search results for `query` as passages, best first. A lookup: retrieval counts are not bumped. */
export async function memoryPassages(store: Store, options: { agentId: string; query: string; top: number }): Promise<Passage[]> {
  return searchPassages(await search(store, { agentId: options.agentId, query: options.query, limit: options.top, recordRetrieval: false }));
}

/**
 * A whole file as one passage, decoded as strict UTF-8; unreadable, non-UTF-8, over-large files and devices are usage
 * errors naming it.
 */
export function filePassage(path: string): Passage {
  // Keep a byte-order mark: offsets then index the file exactly as `readFileSync(path, 'utf8')` returns it (§5.2).
  return { source: path, text: readUtf8File(path, { keepBom: true, limit: EXTRACT_READ_LIMIT }) };
}

/** Where the model fallback's client comes from: called only when a kind needs it (undefined: no model configured). */
export type ModelSource = () => Promise<ModelClient | undefined>;

/** Extraction as the commands ask for it: the fallback set up from a model source, and warnings instead of log lines. */
export interface FactsRequest {
  kinds: readonly Kind[];
  /** Home region (an ISO code such as IE); omitted: `HIPPO_REGION`, config `region`, then the locale (`resolveRegions`). */
  region?: string;
  limit?: number;
  /**
   * False: never call a model (kinds with no validator then find only what their recogniser certifies, and a warning
   * says so).
   */
  ai: boolean;
  /**
   * True: the recognisers alone, as asked for (`extract --all`): no model call, and no warning that a model would
   * find more.
   */
  recognisersOnly?: boolean;
  model: ModelSource;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The caller's redaction mode for what the model is sent (docs/redaction.md); omitted: config `redact`, else `auto`. */
  redact?: RedactMode;
  /**
   * Files and stdin (`extractFrom`): called as the recognisers get through them, with the bytes done and the bytes in
   * all; not called for memories or a text.
   */
  onProgress?: (done: number, total: number) => void;
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
 * The one place the model fallback is set up, for `extract` and for the fact box of `search`: the regions in force
 * are resolved (`resolveRegions`), and kinds with no validator get the model from `request.model` (asked only when
 * such a kind is requested, `ai` is on and `recognisersOnly` is not); without one they find only what their recogniser
 * certifies, and a warning says why.
 */
export async function extractReport(passages: readonly Passage[], request: FactsRequest): Promise<FactsReport> {
  const { region, regions, warnings, fallback } = await factsSetup(request);
  const facts = await extract(passages, { kinds: request.kinds, region: region ?? null, regions, limit: request.limit, fallback });
  return { facts, warnings };
}

/** What `extractReport` sets up before reading: the regions in force, the model fallback (or a warning why none). */
async function factsSetup(
  request: FactsRequest,
): Promise<{ region: CountryCode | undefined; regions: CountryCode[]; warnings: string[]; fallback: FallbackOptions | undefined }> {
  const { region, regions } = resolveRegions({ region: request.region });
  const warnings: string[] = [];
  const unvalidated = request.recognisersOnly === true ? [] : request.kinds.filter((kind) => !validated(kind));
  let fallback: FallbackOptions | undefined;
  if (unvalidated.length > 0) {
    const client = request.ai ? await request.model() : undefined;
    if (client) {
      // Resolved now, so a malformed setting is an error rather than a failed fallback.
      const { destinationOf, redactorFor, resolveRedaction } = await import('./redaction.js');
      const policy = resolveRedaction({ mode: request.redact });
      const destination = destinationOf(client.config);
      const redactor = () => redactorFor(policy, destination);
      fallback = { client, timeoutMs: request.timeoutMs, signal: request.signal, log: (line) => warnings.push(line), redactor };
    } else warnings.push(needsModel(unvalidated, request.ai ? 'no model is configured: see hippo model check' : 'model calls are turned off'));
  }
  return { region, regions, warnings, fallback };
}

function needsModel(kinds: readonly Kind[], why: string): string {
  return `${kinds.join(', ')} ${kinds.length === 1 ? 'needs' : 'need'} a model for what no postcode certifies, and ${why}`;
}

/** `extract --kinds`: every kind with how its facts are checked, and the regions in force. */
export interface KindsReport {
  kinds: KindInfo[];
  regions: RegionSettings;
}

/** The kinds and the regions in force for a caller who names `region` (or not: see `resolveRegions`). */
export function kindsReport(options: { region?: string } = {}): KindsReport {
  return { kinds: listKinds(), regions: resolveRegions(options) };
}

/** Search's fact box (§6): the named kinds in the results, at most 5 facts a kind, the model given 800 ms. */
export async function factBox(
  kinds: readonly Kind[],
  results: readonly SearchResult[],
  options: Pick<FactsRequest, 'region' | 'ai' | 'model' | 'signal' | 'redact'>,
): Promise<FactsReport> {
  return extractReport(searchPassages(results), { ...options, kinds, limit: MEMORY_FACT_LIMIT, timeoutMs: SEARCH_FALLBACK_TIMEOUT_MS });
}

/**
 * Where `extract` reads: files (`-` is stdin) or stdin alone; the agent's top search results for a query; some of the
 * agent's memories by id (the MCP tool); or a text given in the call (the MCP tool: its source is `text`).
 */
export type ExtractInput =
  | { files: readonly string[]; stdin: () => Promise<string> }
  | { store: Store; agentId: string; query: string; top: number; nameOtherAgents?: boolean }
  | { store: Store; agentId: string; memoryIds: readonly string[] }
  | { text: string };

export interface ExtractOutcome extends FactsReport {
  /**
   * The passages read and held whole, in order (search results, memories, a text; files and stdin when a model
   * fallback needs their text): facts point into them. Files and stdin read for the recognisers alone are read a
   * window at a time and not held (docs/decisions.md, "Extraction in windows, held as facts"): `firstAt` places
   * their facts instead.
   */
  passages: Passage[];
  /** Line and column of each fact's first occurrence, for facts found in text that was not held. */
  firstAt?: ReadonlyMap<Fact, LineCol>;
}

/** `extractFrom`'s request: `FactsRequest` with an optional cap, and whether a table will place the facts. */
export type ExtractFromRequest = Omit<FactsRequest, 'limit'> & {
  limit?: number;
  /**
   * False: the facts will not be shown in a table, so text read a window at a time does not count lines for
   * `firstAt` (the JSON document has offsets only). Default true.
   */
  lineCols?: boolean;
};

/**
 * `extract`: the passages from `input`, then `extractReport` over them. Over search results the facts per kind are
 * capped (5 unless `limit` says otherwise), and finding no result for the agent while other agents hold memories is
 * a warning too. Files (and stdin) are read a window at a time unless a model fallback needs their text.
 */
export async function extractFrom(input: ExtractInput, request: ExtractFromRequest): Promise<ExtractOutcome> {
  if ('query' in input) {
    const passages = await memoryPassages(input.store, input);
    const report = await extractReport(passages, { ...request, limit: request.limit ?? MEMORY_FACT_LIMIT });
    const elsewhere = passages.length === 0 && input.nameOtherAgents !== false ? await elsewhereWarning(input.store, input.agentId) : undefined;
    return { passages, facts: report.facts, warnings: [...(elsewhere ? [elsewhere] : []), ...report.warnings] };
  }
  if ('memoryIds' in input) return extractFromMemories(input, request);
  if ('text' in input) {
    const passages = [{ source: 'text', text: input.text }];
    return { passages, ...(await extractReport(passages, request)) };
  }
  const setup = await factsSetup(request);
  if (setup.fallback === undefined) return extractFromFiles(input, request, setup);
  const passages: Passage[] = [];
  if (input.files.length === 0) passages.push({ source: 'stdin', text: await input.stdin() });
  for (const file of input.files) passages.push(file === '-' ? { source: 'stdin', text: await input.stdin() } : filePassage(file));
  const options = { kinds: request.kinds, region: setup.region ?? null, regions: setup.regions, limit: request.limit, fallback: setup.fallback };
  // The recognisers a step at a time (the facts extractFacts finds: docs/decisions.md, "Recognition in windows"), so
  // Ctrl-C is seen between steps; then the model.
  const texts = passages.map((passage) => ({ source: passage.source, pieces: [passage.text] }));
  const recognised = await scanned(texts, { ...options, lineCols: false }, request.signal, passageProgress(passages, request.onProgress));
  const facts = await withModelFacts(recognised.facts, passages, options);
  // A model call that ended as the signal came is not shown as a finished extraction.
  if (request.signal?.aborted === true) throw new InterruptedError();
  return { passages, facts, warnings: setup.warnings };
}

/**
 * The window the recognisers read files and stdin in: smaller than extractFacts' (any size finds the same facts), so
 * that a step of the scan — one kind over one window — is short and Ctrl-C is seen within a moment even in text
 * dense with facts.
 */
const SCAN_WINDOW_CHARS = 128 * 1024;

/**
 * Runs `scanFacts` to its end, turning to the event loop between its steps (so a signal is handled and a progress bar
 * drawn): once `signal` is aborted the scan stops there and the interruption is thrown — no facts of a part-read input.
 */
async function scanned(
  texts: readonly TextPieces[],
  options: Parameters<typeof scanFacts>[1],
  signal: AbortSignal | undefined,
  onStep: (source: string, done: number) => void,
): Promise<StreamedFacts> {
  const steps = scanFacts(texts, { ...options, windowChars: SCAN_WINDOW_CHARS });
  try {
    for (;;) {
      if (signal?.aborted === true) throw new InterruptedError();
      const step = steps.next();
      if (step.done === true) return step.value;
      onStep(step.value.source, step.value.done);
      await nextTurn();
    }
  } finally {
    steps.return(undefined as never);
  }
}

/** Progress over passages held whole: the bytes of the passages done, and of the one being read as far as it is done. */
function passageProgress(passages: readonly Passage[], onProgress: FactsRequest['onProgress']): (source: string, done: number) => void {
  if (onProgress === undefined) return () => undefined;
  const bytes = passages.map((passage) => Buffer.byteLength(passage.text));
  const total = bytes.reduce((sum, size) => sum + size, 0);
  let index = 0;
  let before = 0;
  return (source, done) => {
    // Steps come in passage order; a source named twice is found again by moving on, never back.
    while (index < passages.length - 1 && passages[index]!.source !== source) before += bytes[index++]!;
    const passage = passages[index]!;
    const length = passage.text.length;
    onProgress(before + (length === 0 ? 0 : Math.round((bytes[index]! * Math.min(done, length)) / length)), total);
  };
}

/**
 * Files and stdin for the recognisers alone: every file is opened and checked first (a missing, unreadable or
 * over-large file is refused before anything is recognised), then each is read and recognised a window at a time;
 * stdin is read whole (it is at most EXTRACT_READ_LIMIT, like a file).
 */
async function extractFromFiles(
  input: { files: readonly string[]; stdin: () => Promise<string> },
  request: ExtractFromRequest,
  setup: { region: CountryCode | undefined; regions: CountryCode[]; warnings: string[] },
): Promise<ExtractOutcome> {
  const opened: Utf8FileChunks[] = [];
  try {
    // What is read is counted as it comes, against the sizes of the files and stdin (a pipe's size is 0: what it holds
    // is added as it comes).
    let total = 0;
    let done = 0;
    const counted = (pieces: Iterable<string>): Iterable<string> => ({
      *[Symbol.iterator]() {
        for (const piece of pieces) {
          done += Buffer.byteLength(piece);
          total = Math.max(total, done);
          yield piece;
        }
      },
    });
    const texts: TextPieces[] = [];
    const stdin = async (): Promise<TextPieces> => {
      const text = await input.stdin();
      total += Buffer.byteLength(text);
      return { source: 'stdin', pieces: counted([text]) };
    };
    if (input.files.length === 0) texts.push(await stdin());
    for (const file of input.files) {
      if (file === '-') {
        texts.push(await stdin());
        continue;
      }
      // Read in small chunks: progress moves as the scan does (the scan reads a window ahead).
      const chunks = new Utf8FileChunks(file, { limit: EXTRACT_READ_LIMIT, chunkBytes: SCAN_WINDOW_CHARS });
      opened.push(chunks);
      total += statSync(file).size;
      texts.push({ source: file, pieces: counted(chunks) });
    }
    const onProgress = request.onProgress;
    const { facts, firstAt } = await scanned(
      texts,
      { kinds: request.kinds, region: setup.region ?? null, regions: setup.regions, limit: request.limit, lineCols: request.lineCols },
      request.signal,
      onProgress === undefined ? () => undefined : () => onProgress(done, total),
    );
    return { passages: [], facts, ...(firstAt ? { firstAt } : {}), warnings: setup.warnings };
  } finally {
    for (const chunks of opened) chunks.close();
  }
}

/**
 * The agent's memories by id as passages, in the order given (duplicates once): an id that is not one of the agent's
 * memories — another agent's included — is exit 3 naming it, before anything is read. Archived memories are read too:
 * they were asked for by id. Facts per kind are capped as over search results.
 */
async function extractFromMemories(
  input: { store: Store; agentId: string; memoryIds: readonly string[] },
  request: Omit<FactsRequest, 'limit'> & { limit?: number },
): Promise<ExtractOutcome> {
  const ids = [...new Set(input.memoryIds)];
  const memories = await getMemories(input.store, input.agentId, ids);
  const found = new Set(memories.map((memory) => memory.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new NotFoundError('memory_not_found', `no memory ${missing.join(', ')} for agent "${input.agentId}"`, { details: { missing } });
  }
  const passages = memories.map((memory) => ({ source: memory.id, text: memory.content }));
  return { passages, ...(await extractReport(passages, { ...request, limit: request.limit ?? MEMORY_FACT_LIMIT })) };
}
