/**
 * Where `extract` reads (docs/design.md §5): files and stdin (a window at a time when no model fallback needs their
 * text), the agent's top search results, memories by id, or a text given in the call; then `extractReport` over them.
 */
import { statSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CountryCode } from 'libphonenumber-js/max';
import { InterruptedError, NotFoundError } from '../errors.js';
import { scanFacts, type StreamedFacts, type TextPieces } from '../facts/stream.js';
import type { LineCol } from '../facts/text.js';
import type { Fact, Passage } from '../facts/types.js';
import { elsewhereWarning, getMemories } from '../memory/memory.js';
import { readUtf8File, Utf8FileChunks } from '../read-text.js';
import { search, searchPassages } from '../search.js';
import type { Store } from '../store/port.js';
import { extractReport, factsSetup, withModelFacts, type FactsReport, type FactsRequest } from './extract.js';
import { EXTRACT_READ_LIMIT, MEMORY_FACT_LIMIT } from './limits.js';

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
