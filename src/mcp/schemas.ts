/**
 * The shapes `hippo mcp` declares (docs/mcp.md): limits on what a tool accepts, and the output schemas — the same
 * documents as the commands' `--json` (docs/design.md §3.2), records loose so a field added later breaks no client.
 */
import { z } from 'zod';
import { MAX_CONTENT_BYTES } from '../core/memory/memory.js';
import { CANDIDATE_STATUSES, DURABILITIES, FOCUSES } from '../core/records.js';

/** Caps on arguments: far past any real call, and a clear `usage` error instead of work on a 10 MB argument. */
export const LIMITS = {
  /** Characters of memory text (the store's own limit is 64 KiB of UTF-8, checked by the core). */
  content: MAX_CONTENT_BYTES,
  /** A search query, a tag, a subject, an id. */
  query: 4_000,
  short: 500,
  id: 64,
  /** Ids in one call (facts_extract, promote, reject). */
  ids: 100,
  /** Text given to facts_extract, and an answer given to rem_ingest (characters). */
  text: 1_000_000,
  /** Tags on one memory. */
  tags: 64,
} as const;

const nullableString = z.string().nullable();

export const memorySchema = z
  .looseObject({
    id: z.string(),
    agentId: z.string(),
    content: z.string(),
    durability: z.enum(DURABILITIES),
    tags: z.array(z.string()),
    subject: nullableString,
    source: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    expiresAt: nullableString,
    archivedAt: nullableString,
    derivedFrom: z.array(z.string()),
    promotedFrom: nullableString,
    thread: nullableString,
  })
  .describe('a memory (docs/design.md §3.2)');

export const candidateSchema = z
  .looseObject({
    id: z.string(),
    agentId: z.string(),
    claim: z.string(),
    editedClaim: nullableString,
    status: z.enum(CANDIDATE_STATUSES),
    sourceMemoryIds: z.array(z.string()),
    tags: z.array(z.string()),
    generatedBy: z.string(),
    provider: z.string(),
    generatedAt: z.string(),
    runId: z.string(),
    reviewer: nullableString,
    reviewRationale: nullableString,
    decidedAt: nullableString,
    promotedMemoryId: nullableString,
  })
  .describe('a candidate insight');

export const factSchema = z
  .looseObject({
    kind: z.string(),
    value: z.string(),
    normalized: z.string(),
    label: z.string(),
    origin: z.enum(['validated', 'model']),
    occurrences: z.array(z.looseObject({ source: z.string(), start: z.number(), end: z.number(), text: z.string(), label: z.string() })),
  })
  .describe('a fact: every occurrence is sliced from its source (source.slice(start, end) === text)');

export const runSchema = z.looseObject({ id: z.string(), kind: z.string(), agentId: nullableString, status: z.string() }).describe('a run of the audit log');

export const countsSchema = z.record(z.string(), z.number());

export const handoffSchema = z.looseObject({
  id: z.string(),
  agentId: z.string(),
  createdAt: z.string(),
  focus: z.enum(FOCUSES),
  refs: z.record(z.string(), z.string()),
  promptSha256: z.string(),
  expiresAt: z.string(),
  maxCandidates: z.number(),
  ingestedAt: nullableString,
  ingestRunId: nullableString,
});

export const warningsSchema = z.array(z.string()).describe('why a result may be empty or short; [] when there is nothing to say');

export const distillSchema = z.object({
  run: runSchema,
  model: nullableString,
  candidates: z.array(candidateSchema),
  counts: countsSchema,
  rejectedMatches: z
    .array(z.object({ rejectedId: z.string(), match: z.enum(['exact', 'reworded']) }))
    .describe('the claims skipped as previously rejected: the rejected candidate each repeated, word for word or reworded'),
});

/** `{error: {code, message, details?, actions?}}`: the commands' `--json` error document, as a failed tool's structured content. */
export const errorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional(), actions: z.array(z.string()).optional() }),
});

/** A read of the audit (docs/governance.md): ids only. */
export const readSchema = z.object({
  agentId: z.string(),
  id: z.string(),
  at: z.string(),
  channel: z.enum(['mcp-stdio', 'mcp-http', 'cli']),
  client: z.string(),
  tokenId: z.string().nullable(),
  operation: z.string(),
  memoryIds: z.array(z.string()),
  queryHash: z.string().nullable(),
});
