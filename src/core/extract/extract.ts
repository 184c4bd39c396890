/**
 * Grounded fact extraction (docs/design.md §5): the pure recognisers of `facts/` over passages, and the model fallback
 * (§5.3, fallback.ts) for kinds that no validator covers, set up in one place for `extract` (sources.ts) and the fact
 * box of `search` (search-facts.ts).
 */
import type { CountryCode } from 'libphonenumber-js/max';
import type { RedactMode } from '../config-values.js';
import { capPerKind, extractFacts } from '../facts/facts.js';
import { validated, type Kind } from '../facts/kinds.js';
import type { Fact, Passage } from '../facts/types.js';
import type { ModelClient } from '../model/client.js';
import { destinationOf, redactorFor, resolveRedaction } from '../redaction.js';
import { resolveRegions } from '../regions.js';
import { modelFallback, type FallbackOptions } from './fallback.js';

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
export async function withModelFacts(facts: Fact[], passages: readonly Passage[], request: ExtractRequest): Promise<Fact[]> {
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
export async function factsSetup(
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
