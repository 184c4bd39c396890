import { createHash } from 'node:crypto';
import { NotFoundError, UsageError } from './errors.js';
import { newId } from './ids.js';
import { inTransaction, prepared, type Store } from './store/store.js';
import { iso } from './time.js';

export const DURABILITIES = ['permanent', 'persistent', 'standard', 'ephemeral'] as const;
export type Durability = (typeof DURABILITIES)[number];

/** docs/design.md §2.1: content is at most 64 KiB of UTF-8. */
export const MAX_CONTENT_BYTES = 64 * 1024;
/** Ephemeral memories expire a day after creation unless told otherwise. */
export const EPHEMERAL_TTL_MS = 24 * 3_600_000;

export interface Memory {
  id: string;
  agentId: string;
  content: string;
  durability: Durability;
  tags: string[];
  subject: string | null;
  source: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string | null;
  archivedAt: string | null;
  archivedReason: string | null;
  derivedFrom: string[];
  promotedFrom: string | null;
  contentHash: string;
  lastReflectedAt: string | null;
  retrievalCount: number;
  lastRetrievedAt: string | null;
}

/** What a caller may give when writing a memory; everything but agentId and content has a default. */
export interface NewMemory {
  agentId: string;
  content: string;
  durability?: Durability;
  tags?: string[];
  subject?: string | null;
  source?: string;
  expiresAt?: string | null;
  /** Import only: keep an exported memory's identity and history (lossless round trip). */
  id?: string;
  createdAt?: string;
  updatedAt?: string;
  archivedAt?: string | null;
  archivedReason?: string | null;
  derivedFrom?: string[];
  promotedFrom?: string | null;
  lastReflectedAt?: string | null;
  retrievalCount?: number;
  lastRetrievedAt?: string | null;
}

export interface AddMemoryResult {
  memory: Memory;
  /** Ids of this agent's memories with the same normalised content: reported, never silently dropped. */
  duplicateOf: string[];
}

/** Whitespace collapsed and trimmed: the form hashed for duplicate detection. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

export function contentHash(content: string): string {
  return createHash('sha256').update(normalizeWhitespace(content)).digest('hex');
}

export function validateAgentId(agentId: string): string {
  if (agentId.trim() === '' || agentId.length > 128 || /\p{Cc}/u.test(agentId)) {
    throw new UsageError('bad_agent', 'the agent id must be 1–128 printable characters', { details: { option: 'agentId' } });
  }
  return agentId;
}

export function validateContent(content: string): string {
  if (content.trim() === '') throw new UsageError('empty_content', 'memory text is empty; give some text (or pipe it on stdin)');
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_CONTENT_BYTES) {
    throw new UsageError(
      'content_too_large',
      `memory text is ${bytes} bytes; the limit is ${MAX_CONTENT_BYTES} bytes (64 KiB). Split it into several memories.`,
    );
  }
  return content;
}

export function validateTags(tags: string[]): string[] {
  const cleaned = [...new Set(tags.map((tag) => tag.trim()))];
  if (cleaned.some((tag) => tag === '' || tag.length > 64)) throw new UsageError('bad_tag', 'tags must be 1–64 characters');
  return cleaned;
}

/** The one stored time format: ISO-8601 UTC with milliseconds (zod is kept off this hot path: it costs startup). */
const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function checkIso(value: string | null | undefined, field: string): string | null {
  if (value === null || value === undefined) return null;
  if (!ISO_UTC_MS.test(value) || Number.isNaN(Date.parse(value)) || new Date(value).toISOString() !== value) {
    throw new UsageError('bad_date', `${field} must be an ISO-8601 UTC time with milliseconds, like 2026-11-02T09:30:00.000Z`);
  }
  return value;
}

/** Builds the full row for a new memory, applying docs/design.md §2.1's durability and expiry rules. */
export function buildMemory(input: NewMemory, now: Date): Memory {
  const agentId = validateAgentId(input.agentId);
  const content = validateContent(input.content);
  const durability = input.durability ?? 'standard';
  if (!DURABILITIES.includes(durability)) {
    throw new UsageError('bad_durability', `durability must be one of ${DURABILITIES.join(', ')}`, {
      details: { option: 'durability', allowed: [...DURABILITIES] },
    });
  }
  const createdAt = checkIso(input.createdAt, 'createdAt') ?? iso(now);
  let expiresAt = checkIso(input.expiresAt, 'expiresAt');
  if (expiresAt && (durability === 'persistent' || durability === 'permanent')) {
    throw new UsageError('expires_on_durable', `a ${durability} memory never expires: give no expiresAt, or make it standard or ephemeral`, {
      details: { durability },
    });
  }
  if (!expiresAt && durability === 'ephemeral') expiresAt = iso(new Date(Date.parse(createdAt) + EPHEMERAL_TTL_MS));
  const id = input.id ?? newId('mem', Date.parse(createdAt));
  if (!/^mem_[0-9A-HJKMNP-TV-Z]{26}$/.test(id)) throw new UsageError('bad_id', `"${id}" is not a memory id (mem_ + 26 ULID characters)`);
  return {
    id,
    agentId,
    content,
    durability,
    tags: validateTags(input.tags ?? []),
    subject: input.subject?.trim() ? input.subject.trim() : null,
    source: input.source?.trim() ? input.source : 'cli',
    createdAt,
    updatedAt: checkIso(input.updatedAt, 'updatedAt') ?? createdAt,
    expiresAt,
    archivedAt: checkIso(input.archivedAt, 'archivedAt'),
    archivedReason: input.archivedReason ?? (input.archivedAt ? 'imported' : null),
    derivedFrom: input.derivedFrom ?? [],
    promotedFrom: input.promotedFrom ?? null,
    contentHash: contentHash(content),
    lastReflectedAt: checkIso(input.lastReflectedAt, 'lastReflectedAt'),
    retrievalCount: input.retrievalCount ?? 0,
    lastRetrievedAt: checkIso(input.lastRetrievedAt, 'lastRetrievedAt'),
  };
}

interface MemoryRow {
  id: string;
  agent_id: string;
  content: string;
  durability: Durability;
  tags: string;
  subject: string | null;
  source: string;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
  archived_at: string | null;
  archived_reason: string | null;
  derived_from: string;
  promoted_from: string | null;
  content_hash: string;
  last_reflected_at: string | null;
  retrieval_count: number;
  last_retrieved_at: string | null;
}

export const MEMORY_COLUMNS =
  'id, agent_id, content, durability, tags, subject, source, created_at, updated_at, expires_at, archived_at, archived_reason, derived_from, promoted_from, content_hash, last_reflected_at, retrieval_count, last_retrieved_at';

export function memoryFromRow(row: MemoryRow): Memory {
  return {
    id: row.id,
    agentId: row.agent_id,
    content: row.content,
    durability: row.durability,
    tags: JSON.parse(row.tags) as string[],
    subject: row.subject,
    source: row.source,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    archivedAt: row.archived_at,
    archivedReason: row.archived_reason,
    derivedFrom: JSON.parse(row.derived_from) as string[],
    promotedFrom: row.promoted_from,
    contentHash: row.content_hash,
    lastReflectedAt: row.last_reflected_at,
    retrievalCount: row.retrieval_count,
    lastRetrievedAt: row.last_retrieved_at,
  };
}

function rowParams(memory: Memory): unknown[] {
  return [
    memory.id,
    memory.agentId,
    memory.content,
    memory.durability,
    JSON.stringify(memory.tags),
    memory.subject,
    memory.source,
    memory.createdAt,
    memory.updatedAt,
    memory.expiresAt,
    memory.archivedAt,
    memory.archivedReason,
    JSON.stringify(memory.derivedFrom),
    memory.promotedFrom,
    memory.contentHash,
    memory.lastReflectedAt,
    memory.retrievalCount,
    memory.lastRetrievedAt,
  ];
}

/** Inserts a built memory. Returns false (and writes nothing) when its id already exists. Call inside a transaction. */
export function insertMemory(store: Store, memory: Memory): boolean {
  const result = prepared(store, `INSERT INTO memories (${MEMORY_COLUMNS}) VALUES (${Array(18).fill('?').join(', ')}) ON CONFLICT (id) DO NOTHING`).run(
    ...rowParams(memory),
  );
  return result.changes === 1;
}

/** Rows per multi-row INSERT: 18 parameters each, well under SQLite's 32 766 parameter limit. */
const INSERT_BATCH = 500;

/**
 * Inserts many built memories with multi-row INSERTs and returns how many were new (existing ids are skipped).
 * Call inside a transaction. Batching matters for the FTS index: SQLite opens a statement savepoint per statement,
 * and FTS5 flushes its pending index data at each one, so row-at-a-time inserts index several times slower.
 */
export function insertMemories(store: Store, memories: readonly Memory[]): number {
  let inserted = 0;
  for (let start = 0; start < memories.length; start += INSERT_BATCH) {
    const batch = memories.slice(start, start + INSERT_BATCH);
    const placeholders = Array(batch.length)
      .fill(`(${Array(18).fill('?').join(', ')})`)
      .join(', ');
    const statement = prepared(store, `INSERT INTO memories (${MEMORY_COLUMNS}) VALUES ${placeholders} ON CONFLICT (id) DO NOTHING`);
    inserted += statement.run(...batch.flatMap(rowParams)).changes;
  }
  return inserted;
}

export function findDuplicateIds(store: Store, agentId: string, hash: string, exceptId?: string): string[] {
  // `+created_at`: without it SQLite walks the (agent_id, created_at) index to avoid a sort — every memory of the
  // agent, ~25 s per `memory add` at 1 M memories — instead of the (agent_id, content_hash) index (2 ms).
  const rows = prepared(store, 'SELECT id FROM memories WHERE agent_id = ? AND content_hash = ? AND id IS NOT ? ORDER BY +created_at').all(
    agentId,
    hash,
    exceptId ?? null,
  ) as { id: string }[];
  return rows.map((row) => row.id);
}

export function addMemory(store: Store, input: NewMemory): AddMemoryResult {
  const memory = buildMemory(input, store.clock());
  return inTransaction(store, () => {
    const duplicateOf = findDuplicateIds(store, memory.agentId, memory.contentHash);
    if (!insertMemory(store, memory)) throw new UsageError('id_exists', `memory ${memory.id} already exists`);
    return { memory, duplicateOf };
  });
}

/** A memory of this agent, or exit 3. Another agent's id is "not found" too: ids do not leak across agents. */
export function getMemory(store: Store, agentId: string, id: string): Memory {
  const row = store.db.prepare(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE id = ? AND agent_id = ?`).get(id, agentId) as MemoryRow | undefined;
  if (!row) throw new NotFoundError('memory_not_found', `no memory ${id} for agent "${agentId}"`);
  return memoryFromRow(row);
}

/** Memories by id for one agent, in the order asked; missing ids are left out. */
export function getMemories(store: Store, agentId: string, ids: readonly string[]): Memory[] {
  const statement = store.db.prepare(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE id = ? AND agent_id = ?`);
  return ids.flatMap((id) => {
    const row = statement.get(id, agentId) as MemoryRow | undefined;
    return row ? [memoryFromRow(row)] : [];
  });
}

export interface ListOptions {
  agentId: string;
  limit?: number;
  tag?: string;
  /** Only memories created at or after this time (the same filter as search's). */
  since?: Date;
  durability?: Durability;
  includeArchived?: boolean;
}

/** Newest first. Archived memories only when asked for. */
export function listMemories(store: Store, options: ListOptions): Memory[] {
  const where = ['agent_id = @agentId'];
  if (!options.includeArchived) where.push('archived_at IS NULL');
  if (options.tag !== undefined) where.push('EXISTS (SELECT 1 FROM json_each(memories.tags) WHERE value = @tag)');
  if (options.since !== undefined) where.push('created_at >= @since');
  if (options.durability !== undefined) where.push('durability = @durability');
  const rows = store.db.prepare(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @limit`).all({
    agentId: options.agentId,
    tag: options.tag ?? null,
    since: options.since === undefined ? null : iso(options.since),
    durability: options.durability ?? null,
    limit: options.limit ?? 50,
  }) as MemoryRow[];
  return rows.map(memoryFromRow);
}

/** How many agents besides the one read are named in `elsewhereWarning`. */
const ELSEWHERE_SHOWN = 3;

/**
 * Said when a read for one agent (a search, extract over search results) finds nothing while other agents hold
 * memories: the usual cause is a missing `--agent` (after `hippo demo`, say), and an empty answer alone hides it.
 * Undefined when no other agent has a memory that is not archived.
 */
export function elsewhereWarning(store: Store, agentId: string, found: 'matches' | 'memories' = 'matches'): string | undefined {
  const others = store.db
    .prepare(
      'SELECT agent_id AS agentId, count(*) AS memories FROM memories WHERE agent_id != ? AND archived_at IS NULL GROUP BY agent_id ORDER BY memories DESC, agent_id',
    )
    .all(agentId) as { agentId: string; memories: number }[];
  if (others.length === 0) return undefined;
  const named = others.slice(0, ELSEWHERE_SHOWN).map((other) => `${other.agentId} (${other.memories})`);
  const more = others.length > ELSEWHERE_SHOWN ? `, and ${others.length - ELSEWHERE_SHOWN} more` : '';
  return `no ${found} for agent ${agentId}; other agents have memories: ${named.join(', ')}${more}`;
}

/** Every memory of the agent — or of every agent when none is given — archived too, oldest first: the export order. */
export function* iterateMemories(store: Store, agentId?: string): Generator<Memory> {
  const statement = store.db.prepare(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE @agentId IS NULL OR agent_id = @agentId ORDER BY created_at, id`);
  for (const row of statement.iterate({ agentId: agentId ?? null }) as IterableIterator<MemoryRow>) yield memoryFromRow(row);
}

export interface ArchiveResult {
  archived: Memory[];
  alreadyArchived: string[];
}

/** Soft-deletes memories in one transaction. Any unknown id → exit 3 and nothing is archived. */
export function archiveMemories(store: Store, agentId: string, ids: readonly string[], reason = 'archived by hand'): ArchiveResult {
  const now = iso(store.clock());
  return inTransaction(store, () => {
    const archived: Memory[] = [];
    const alreadyArchived: string[] = [];
    for (const id of ids) {
      const memory = getMemory(store, agentId, id);
      if (memory.archivedAt) {
        alreadyArchived.push(id);
        continue;
      }
      store.db.prepare('UPDATE memories SET archived_at = ?, archived_reason = ?, updated_at = ? WHERE id = ?').run(now, reason, now, id);
      archived.push({ ...memory, archivedAt: now, archivedReason: reason, updatedAt: now });
    }
    return { archived, alreadyArchived };
  });
}
