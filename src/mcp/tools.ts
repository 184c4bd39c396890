/**
 * The tools of `hippo mcp` (docs/mcp.md). Each one validates its arguments with a zod schema, calls the same core
 * function as the command it mirrors, and returns that command's `--json` document (through the command's own view,
 * so the shapes cannot drift) plus a short text rendering for a model to read, passed through the text guard.
 */
import { z } from 'zod';
import { formatTime, zoneOf, type Painter, type TextContext, type View } from '../views/output.js';
import { hintBuilder } from '../views/hints.js';
import { candidatePageView, candidateShowView, handoffView, ingestView, promoteView, rejectView } from '../views/render-rem.js';
import { memoryAddView, memoryListView, memoryShowView } from '../views/render-memory.js';
import { searchView } from '../views/render-search.js';
import { auditReadsView } from '../views/render-governance.js';
import { listReads } from '../core/governance/audit.js';
import { extractView } from '../views/render-facts.js';
import type { ModelSource } from '../core/extract/extract.js';
import { EXTRACT_FALLBACK_TIMEOUT_MS } from '../core/extract/limits.js';
import { extractFrom } from '../core/extract/sources.js';
import { KINDS, parseKind, type Kind } from '../core/facts/kinds.js';
import { UsageError } from '../core/errors.js';
import { addMemory, forgottenSources, getMemories, getMemory, listMemoryPage } from '../core/memory/memory.js';
import { CANDIDATE_STATUSES, DURABILITIES, FOCUSES } from '../core/records.js';
import { getCandidate, listCandidatePage } from '../core/rem/candidates.js';
import { SCOPES } from '../core/rem/gather.js';
import { createHandoff, ingest } from '../core/rem/handoff.js';
import { promote, PROMOTE_DURABILITIES, reject } from '../core/rem/review.js';
import { searchWithFacts } from '../core/search-facts.js';
import type { Store } from '../core/store/port.js';
import { safeText } from '../core/text-guard.js';
import { EXPIRES_HELP, iso, parseExpires, parseSince, SINCE_HELP } from '../core/time.js';
import { candidateSchema, distillSchema, factSchema, handoffSchema, LIMITS, memorySchema, readSchema, warningsSchema } from './schemas.js';

/** What a tool call runs with: the store, the one agent it serves, who the client is, and its cancellation. */
export interface ToolContext {
  store: Store;
  agentId: string;
  /** The client's name and version from the initialize handshake (`claude-code 2.1.0`), for generatedBy and reviewer. */
  client: string;
  /** Aborted when the client cancels the call or goes away. */
  signal: AbortSignal;
  /** The model for the fact box and the extract fallback (only asked when a kind needs it). */
  model: ModelSource;
}

export interface ToolOutput {
  structured: Record<string, unknown>;
  text: string;
}

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  /** Exists only when the server was started with review allowed (`--allow-review`). */
  review?: true;
  /**
   * A tool that hands memory text to the client: which memories its answer holds (and the query, hashed before it is
   * recorded), for the read audit (docs/governance.md). Recorded after the answer, best effort.
   */
  audit?(args: never, structured: Record<string, unknown>): { memoryIds: string[]; query?: string } | null;
  run(args: never, context: ToolContext): Promise<ToolOutput>;
}

/** The ids of the objects under `key` of a structured answer (`{memories: [{id}]}`, `{sources: [{id}]}`). */
const idsOf = (structured: Record<string, unknown>, key: string): string[] => ((structured[key] as { id: string }[] | undefined) ?? []).map((item) => item.id);

/** The insight memories promoted candidates became: a promoted claim (or its edited wording) is that memory's text. */
const promotedIds = (candidates: { promotedMemoryId?: string | null }[]): string[] =>
  candidates.flatMap((candidate) => (candidate.promotedMemoryId ? [candidate.promotedMemoryId] : []));

/** The memory ids a list of facts was sliced from (text given inline is no memory: source "text"). */
const factSources = (structured: Record<string, unknown>): string[] =>
  ((structured.facts as { occurrences: { source: string }[] }[] | undefined) ?? []).flatMap((fact) =>
    fact.occurrences.map((occurrence) => occurrence.source).filter((source) => source.startsWith('mem_')),
  );

/** One tool, typed by its input schema. */
function tool<I extends z.ZodObject>(
  definition: Omit<ToolDefinition, 'input' | 'run' | 'audit'> & {
    input: I;
    run(args: z.output<I>, context: ToolContext): Promise<ToolOutput>;
    audit?(args: z.output<I>, structured: Record<string, unknown>): { memoryIds: string[]; query?: string } | null;
  },
): ToolDefinition {
  return definition;
}

/** No colour: a model reads the text, not a terminal. */
const plainPainter = Object.assign((_style: unknown, text: string) => text, { enabled: false }) as Painter;

/** The text of a command's view without colour, at a width that keeps whole lines for a model; its notes after it. */
function rendered<T>(result: T, view: View<T>, tool: Pick<ToolContext, 'agentId'>): ToolOutput {
  // Times in UTC (a model compares them with other ISO times); follow-up commands carry the server's agent.
  const time: TextContext['time'] = (isoTime, options) => formatTime(isoTime, 'utc', options);
  const hint = hintBuilder({ agent: tool.agentId === 'default' ? undefined : tool.agentId });
  const context: TextContext = { paint: plainPainter, width: 160, terminal: false, time, zone: (isoTime) => zoneOf(isoTime, 'utc'), hint };
  const text = view.text?.(result, context) ?? '';
  const notes = (view.notes?.(result, { json: true, hint, time }) ?? []).filter((line): line is string => typeof line === 'string' && line !== '');
  const structured = (view.json ? view.json(result) : result) as Record<string, unknown>;
  return { structured, text: [text, ...notes.map((line) => `warning: ${line}`)].filter(Boolean).join('\n\n') };
}

// ---- argument pieces --------------------------------------------------------------------------------------------

const memoryId = z.string().min(1).max(LIMITS.id).describe('a memory id (mem_…), as returned by memory_add, memory_list or memory_search');
const candidateId = z.string().min(1).max(LIMITS.id).describe('a candidate id (cand_…), as returned by rem_ingest or candidates_list');
const tag = z.string().min(1).max(LIMITS.short);
const limit = (fallback: number, max: number) => z.number().int().min(1).max(max).default(fallback);
/** What a list's limit hid (issue 30). */
const shownSchema = {
  total: z.number().int().describe('how many there are in all'),
  truncated: z.boolean().describe('true when the limit left some out (ask again with a larger limit)'),
};
const since = z.string().min(1).max(LIMITS.short).describe(`only memories created since then (${SINCE_HELP})`);

/** A durations-or-date argument, parsed by the core as the command parses its flag (messages name the argument). */
const sinceDate = (value: string | undefined, context: ToolContext, name = 'since') =>
  value === undefined ? undefined : parseSince(value, name, context.store.clock());

// ---- the tools --------------------------------------------------------------------------------------------------

const memoryAdd = tool({
  name: 'memory_add',
  title: 'Remember something',
  description:
    "Store one memory for this agent: a fact, decision, preference or event worth recalling later, in the user's own words where possible. " +
    'Exact duplicates are stored anyway and reported in duplicateOf. Returns the memory with its id.',
  input: z.strictObject({
    content: z.string().min(1).max(LIMITS.content).describe('the memory text (up to 64 KiB of UTF-8)'),
    tags: z.array(tag).max(LIMITS.tags).optional().describe('tags to find it by (e.g. ["billing", "decision"])'),
    durability: z
      .enum(DURABILITIES)
      .default('standard')
      .describe('how long it should live: ephemeral (expires in 24 h unless expires is given), standard (default), persistent or permanent (never expire)'),
    subject: z.string().min(1).max(LIMITS.short).optional().describe('what the memory is about (a person, system, project)'),
    expires: z.string().min(1).max(LIMITS.short).optional().describe(`expiry (${EXPIRES_HELP}); not for persistent or permanent memories`),
    thread: z
      .string()
      .min(1)
      .max(LIMITS.short)
      .optional()
      .describe('the conversation or session this memory belongs to (e.g. "chat-2026-05-04"); search reads a memory with its neighbours in the thread'),
  }),
  output: z.object({ memory: memorySchema, duplicateOf: z.array(z.string()) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(args, context) {
    const result = await addMemory(context.store, {
      agentId: context.agentId,
      content: args.content,
      tags: args.tags ?? [],
      durability: args.durability,
      subject: args.subject,
      source: 'mcp',
      thread: args.thread,
      expiresAt: args.expires === undefined ? undefined : iso(parseExpires(args.expires, 'expires', context.store.clock())),
    });
    return rendered(result, memoryAddView, context);
  },
});

const memoryGet = tool({
  name: 'memory_get',
  title: 'Read one memory',
  description: 'One memory of this agent in full, by id (also readable as the resource hippo://memory/{id}).',
  input: z.strictObject({ id: memoryId }),
  output: z.object({
    memory: memorySchema,
    forgottenSources: z.array(z.string()).describe('memories this insight was derived from that were forgotten since: it may restate them'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  audit: (_args, structured) => ({ memoryIds: [(structured.memory as { id: string }).id] }),
  async run(args, context) {
    const memory = await getMemory(context.store, context.agentId, args.id);
    return rendered({ memory, forgottenSources: await forgottenSources(context.store, memory) }, { text: memoryShowView }, context);
  },
});

const memoryList = tool({
  name: 'memory_list',
  title: 'List recent memories',
  description: "This agent's memories, newest first. To find memories about something, use memory_search instead.",
  input: z.strictObject({
    limit: limit(20, 1_000).describe('how many (default 20)'),
    tag: tag.optional().describe('only memories with this tag'),
    includeArchived: z.boolean().default(false).describe('include archived memories'),
  }),
  output: z.object({ memories: z.array(memorySchema), ...shownSchema, warnings: z.array(z.string()) }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  audit: (_args, structured) => ({ memoryIds: idsOf(structured, 'memories') }),
  async run(args, context) {
    const page = await listMemoryPage(context.store, { agentId: context.agentId, limit: args.limit, tag: args.tag, includeArchived: args.includeArchived });
    return rendered({ ...page, warnings: [] }, memoryListView, context);
  },
});

const memorySearch = tool({
  name: 'memory_search',
  title: 'Search memories',
  description:
    'Full-text search (BM25) over this agent\'s memories. Any text is a valid query; a question works ("when did we move the billing cron?"). ' +
    'When the query names a kind of fact (email, phone, IBAN, address, …: "Ana\'s phone number"), facts holds those facts found in the results, ' +
    'each value sliced verbatim from a memory. warnings says why a result may be empty. Call this before answering questions about past work.',
  input: z.strictObject({
    query: z.string().min(1).max(LIMITS.query).describe('words or a question'),
    limit: limit(10, 100).describe('how many results (default 10)'),
    tag: tag.optional().describe('only memories with this tag'),
    since: since.optional(),
    durability: z.enum(DURABILITIES).optional().describe('only memories of this durability'),
    includeArchived: z.boolean().default(false).describe('include archived and expired memories'),
  }),
  output: z.object({
    results: z.array(
      z.object({
        memory: memorySchema,
        score: z.number(),
        snippet: z.string().describe('matches marked **like this**'),
        matched: z.array(z.string()).describe('which parts of the memory matched: content, subject, tags, context (its thread neighbours), date'),
        nearby: z
          .object({ memoryId: z.string(), snippet: z.string() })
          .nullable()
          .describe('when only a thread neighbour matched: that neighbour and its snippet'),
      }),
    ),
    total: z.number().int().describe('how many memories matched in all (results holds the best `limit`)'),
    facts: z.array(factSchema),
    warnings: warningsSchema,
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  audit: (args, structured) => ({
    memoryIds: (structured.results as { memory: { id: string }; nearby: { memoryId: string } | null }[]).flatMap((result) =>
      result.nearby ? [result.memory.id, result.nearby.memoryId] : [result.memory.id],
    ),
    query: args.query,
  }),
  async run(args, context) {
    const report = await searchWithFacts(context.store, {
      agentId: context.agentId,
      query: args.query,
      limit: args.limit,
      tag: args.tag,
      since: sinceDate(args.since, context),
      durability: args.durability,
      includeArchived: args.includeArchived,
      facts: { ai: true, model: context.model, signal: context.signal },
      // One agent of many: an empty result does not say which other agents hold memories (memory_list neither).
      nameOtherAgents: false,
    });
    return rendered(report, searchView(args.query), context);
  },
});

const factsExtract = tool({
  name: 'facts_extract',
  title: 'Extract facts',
  description:
    `Pull facts of the kinds named (${KINDS.join(', ')}) out of a text, out of memories by id, or out of the top search results for a query — exactly one of text, memoryIds, query. ` +
    'Every value is sliced from the source (occurrences give source, start, end and the exact text); validated kinds are checked by their validators, never guessed.',
  input: z.strictObject({
    kinds: z
      .array(z.string().min(1).max(LIMITS.short))
      .min(1)
      .max(KINDS.length)
      .describe(`kinds of fact, by name: ${KINDS.join(', ')}`),
    text: z.string().min(1).max(LIMITS.text).optional().describe('a text to read (its occurrences have source "text")'),
    memoryIds: z.array(memoryId).min(1).max(LIMITS.ids).optional().describe("this agent's memories to read, by id"),
    query: z.string().min(1).max(LIMITS.query).optional().describe("read this agent's top search results for this query"),
    top: limit(10, 100).describe('with query: how many search results to read (default 10)'),
    limit: z.number().int().min(1).max(1_000).optional().describe('at most this many facts per kind (default: no cap over text, 5 over memories)'),
    region: z.string().min(2).max(8).optional().describe('home region for national phone numbers and numeric dates (ISO code, e.g. IE)'),
  }),
  output: z.object({ facts: z.array(factSchema), warnings: warningsSchema }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  audit: (args, structured) => ({ memoryIds: factSources(structured), query: args.query }),
  async run(args, context) {
    const given = [args.text, args.memoryIds, args.query].filter((value) => value !== undefined).length;
    if (given !== 1) {
      throw new UsageError('usage', 'give exactly one of text, memoryIds or query');
    }
    const kinds: Kind[] = [...new Set(args.kinds.map(parseKind))];
    const { store, agentId } = context;
    const input =
      args.text !== undefined
        ? { text: args.text }
        : args.memoryIds !== undefined
          ? { store, agentId, memoryIds: args.memoryIds }
          : { store, agentId, query: args.query!, top: args.top, nameOtherAgents: false };
    const outcome = await extractFrom(input, {
      kinds,
      region: args.region,
      limit: args.limit,
      ai: true,
      model: context.model,
      timeoutMs: EXTRACT_FALLBACK_TIMEOUT_MS,
      signal: context.signal,
    });
    return rendered(outcome, extractView(kinds), context);
  },
});

const remPrompt = tool({
  name: 'rem_prompt',
  title: 'Get a distillation prompt',
  description:
    "Step 1 of distilling this agent's memories into candidate insights: gathers recent memories and returns the prompt (in the text) and a handoff id. " +
    'Answer the prompt yourself with one JSON object as its output contract says — every candidate citing the refs (m1, m2, …) of the memories it came from — ' +
    'then call rem_ingest with the handoff id and that answer. Nothing is kept until a person reviews the candidates.',
  input: z.strictObject({
    focus: z.enum(FOCUSES).default('lessons').describe('what to look for'),
    scope: z.enum(SCOPES).default('recent').describe('which memories: recent (since), tagged (tag), or all'),
    since: since.default('24h').describe(`recent scope: how far back (${SINCE_HELP}; default 24h)`),
    tag: tag.optional().describe('tagged scope: the tag'),
    maxMemories: z.number().int().min(1).max(10_000).default(50).describe('at most this many memories in the prompt'),
    maxCandidates: z.number().int().min(1).max(100).default(10).describe('an answer with more candidates is rejected whole'),
    unreflected: z.boolean().default(false).describe('only memories never distilled before'),
  }),
  output: z.object({ handoff: handoffSchema, prompt: z.string(), schema: z.record(z.string(), z.unknown()) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  // The gathered memories, and the insights whose kept wording the prompt teaches (their text: lessons.ts).
  audit: (_args, structured) => ({
    memoryIds: [
      ...Object.values((structured.handoff as { refs: Record<string, string> }).refs),
      ...((structured.lessons as { insights?: string[] } | undefined)?.insights ?? []),
    ],
  }),
  async run(args, context) {
    const result = await createHandoff(context.store, {
      agentId: context.agentId,
      focus: args.focus,
      scope: args.scope,
      since: sinceDate(args.since, context),
      tag: args.tag,
      maxMemories: args.maxMemories,
      maxCandidates: args.maxCandidates,
      unreflected: args.unreflected,
      signal: context.signal,
      nameOtherAgents: false,
    });
    const { structured } = rendered(result, handoffView, context);
    const { handoff, counts } = result;
    const head =
      `handoff ${handoff.id}: ${counts.gathered} memories, expires ${handoff.expiresAt}. ` +
      `Answer the prompt below with one JSON object, then call rem_ingest with handoff "${handoff.id}" and your answer.`;
    return { structured, text: `${head}\n\n${safeText(result.prompt)}` };
  },
});

const remIngest = tool({
  name: 'rem_ingest',
  title: 'Hand in a distillation answer',
  description:
    'Step 2 of distilling: the answer to a rem_prompt, checked all or nothing exactly as hippo checks a model it called (every citation must be a ref the prompt showed) ' +
    'and staged as pending candidates for a person to review. A rejected answer stages nothing and leaves the handoff open for a corrected one; a handoff takes one answer.',
  input: z.strictObject({
    handoff: z.string().min(1).max(LIMITS.id).describe('the handoff id rem_prompt returned (hof_…)'),
    answer: z
      .union([z.string().min(1).max(LIMITS.text), z.record(z.string(), z.unknown())])
      .describe('your answer: the JSON object {"candidates": [{"claim": …, "sources": ["m1", …], "tags": […]}]}, as an object or as text'),
    restageRejected: z.boolean().default(false).describe('stage a claim again even if a person rejected it before'),
  }),
  output: distillSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(args, context) {
    const answer = typeof args.answer === 'string' ? args.answer : JSON.stringify(args.answer);
    if (answer.length > LIMITS.text) {
      throw new UsageError('input_too_large', `the answer is over ${LIMITS.text} characters`);
    }
    const result = await ingest(context.store, {
      agentId: context.agentId,
      handoffId: args.handoff,
      answer,
      generatedBy: context.client,
      restageRejected: args.restageRejected,
    });
    return rendered(result, ingestView(args.handoff), context);
  },
});

/** Said wherever review comes up: deciding is a person's job unless the server was started to let agents review. */
export const REVIEW_BY_PERSON =
  "Promoting or rejecting a candidate is a person's decision: ask the user to review with `hippo rem candidates` (this server was started without --allow-review).";

function candidatesList(allowReview: boolean) {
  return tool({
    name: 'candidates_list',
    title: 'List candidate insights',
    description: `Candidate insights staged by distillation, newest first (pending by default). ${allowReview ? 'Decide them with candidate_promote or candidate_reject.' : REVIEW_BY_PERSON}`,
    input: z.strictObject({
      status: z
        .enum([...CANDIDATE_STATUSES, 'all'])
        .default('pending')
        .describe('which candidates'),
      limit: limit(50, 1_000).describe('at most this many (default 50)'),
    }),
    output: z.object({ candidates: z.array(candidateSchema), ...shownSchema }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    // Claims are no memory's text until promoted: a list that holds no promoted candidate is not a read of memories.
    audit: (_args, structured) => {
      const memoryIds = promotedIds(structured.candidates as { promotedMemoryId?: string | null }[]);
      return memoryIds.length > 0 ? { memoryIds } : null;
    },
    async run(args, context) {
      const page = await listCandidatePage(context.store, { agentId: context.agentId, status: args.status, limit: args.limit });
      return rendered(page, candidatePageView(args.status), context);
    },
  });
}

function candidateShow(allowReview: boolean) {
  return tool({
    name: 'candidate_show',
    title: 'Show a candidate and its evidence',
    description:
      `One candidate insight with the full text of every memory it cites (sources; a cited memory deleted since is absent). ${allowReview ? '' : REVIEW_BY_PERSON}`.trim(),
    input: z.strictObject({ id: candidateId }),
    output: z.object({ candidate: candidateSchema, sources: z.array(memorySchema) }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    audit: (_args, structured) => ({
      memoryIds: [...idsOf(structured, 'sources'), ...promotedIds([structured.candidate as { promotedMemoryId?: string | null }])],
    }),
    async run(args, context) {
      const candidate = await getCandidate(context.store, context.agentId, args.id);
      const sources = await getMemories(context.store, context.agentId, candidate.sourceMemoryIds);
      return rendered({ candidate, sources }, { text: candidateShowView }, context);
    },
  });
}

const candidatePromote = tool({
  name: 'candidate_promote',
  title: 'Promote candidates to memories',
  description:
    'Keep candidate insights: each becomes a persistent memory derived from the memories it cites, with your rationale; the reviewer recorded is this MCP client. ' +
    'Several ids are one decision: any failure (unknown id, already decided, a cited memory deleted) promotes none. Only promote what the user asked you to.',
  input: z.strictObject({
    ids: z.array(candidateId).min(1).max(LIMITS.ids),
    rationale: z.string().min(1).max(LIMITS.short).describe('why this should be kept (required)'),
    durability: z.enum(PROMOTE_DURABILITIES).default('persistent').describe('durability of the new memories'),
    allowMissingSources: z.boolean().default(false).describe('promote even if a cited memory was deleted since'),
  }),
  output: z.object({ promoted: z.array(z.object({ candidate: candidateSchema, memory: memorySchema })) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  review: true,
  async run(args, context) {
    const promoted = await promote(context.store, {
      agentId: context.agentId,
      ids: args.ids,
      rationale: args.rationale,
      durability: args.durability,
      reviewer: context.client,
      allowMissingSources: args.allowMissingSources,
    });
    return rendered({ promoted }, { text: promoteView }, context);
  },
});

const candidateReject = tool({
  name: 'candidate_reject',
  title: 'Reject candidates',
  description:
    'Reject candidate insights with a reason (a rejected claim is not staged again unless asked); the reviewer recorded is this MCP client. ' +
    'Several ids are one decision: any failure rejects none. Only reject what the user asked you to.',
  input: z.strictObject({
    ids: z.array(candidateId).min(1).max(LIMITS.ids),
    reason: z.string().min(1).max(LIMITS.short).describe('why (required)'),
  }),
  output: z.object({ rejected: z.array(candidateSchema) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  review: true,
  async run(args, context) {
    const rejected = await reject(context.store, { agentId: context.agentId, ids: args.ids, reason: args.reason, reviewer: context.client });
    return rendered({ rejected }, { text: rejectView }, context);
  },
});

const auditReads = tool({
  name: 'audit_reads',
  title: 'Who read which memories',
  description:
    "The read audit of this agent's memories, newest first: who (MCP client, token id, CLI user) was handed which memories, when, by which tool. " +
    'Ids only: never a query or a memory text. Only this agent’s records.',
  input: z.strictObject({
    memoryId: memoryId.optional().describe('only reads that handed over this memory'),
    client: z.string().min(1).max(LIMITS.short).optional().describe('only reads by this client (exact name and version)'),
    since: z.string().min(1).max(LIMITS.short).optional().describe(`only reads since then (${SINCE_HELP})`),
    limit: limit(100, 1_000).describe('at most this many (default 100)'),
  }),
  output: z.object({ reads: z.array(readSchema) }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  review: true,
  async run(args, context) {
    const reads = await listReads(context.store, {
      agentId: context.agentId,
      memoryId: args.memoryId,
      client: args.client,
      since: sinceDate(args.since, context),
      limit: args.limit,
    });
    return rendered({ reads }, auditReadsView, context);
  },
});

/** Every tool this server offers: the review tools only when review is allowed. */
export function hippoTools(options: { allowReview: boolean }): ToolDefinition[] {
  const tools = [
    memoryAdd,
    memoryGet,
    memoryList,
    memorySearch,
    factsExtract,
    remPrompt,
    remIngest,
    candidatesList(options.allowReview),
    candidateShow(options.allowReview),
    candidatePromote,
    candidateReject,
    auditReads,
  ];
  return tools.filter((definition) => options.allowReview || !definition.review);
}
