import { createHash } from 'node:crypto';
import { checkNewAgents } from '../agent-ids.js';
import { NotFoundError, UsageError } from '../errors.js';
import { requireCount, shownOf, type Shown } from '../limits.js';
import { caseSensitiveHint, newId } from '../ids.js';
import { DURABILITIES, type Durability, type Memory } from '../records.js';
import type { ListQuery, Store, StoreOps } from '../store/port.js';
import { hasHiddenCharacters, withoutDefaultIgnorables } from '../text-guard.js';
import { isWellFormed, requireWellFormed } from '../well-formed.js';
import { iso } from '../time.js';

export { DURABILITIES, type Durability, type Memory } from '../records.js';

/** docs/design.md §2.1: content is at most 64 KiB of UTF-8. */
export const MAX_CONTENT_BYTES = 64 * 1024;
/** Ephemeral memories expire a day after creation unless told otherwise. */
export const EPHEMERAL_TTL_MS = 24 * 3_600_000;

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
  /** The thread the memory belongs to (docs/design.md §6); none when absent or null. */
  thread?: string | null;
  versionOf?: string | null;
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

/**
 * The default-ignorable characters an emoji is written with, where they make one: a zero-width joiner between two
 * pictographs (`👨‍👩‍👧`), a text or emoji variation selector after a character with an emoji form (`❤️`), and the tag
 * characters of a subdivision flag after the black flag (`🏴󠁧󠁢󠁷󠁬󠁳󠁿`).
 */
const EMOJI_IGNORABLES =
  /(?<=[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F])\u200D(?=\p{Extended_Pictographic})|(?<=\p{Emoji})[\uFE0E\uFE0F]|(?<=[\u{1F3F4}\u{E0020}-\u{E007E}])[\u{E0020}-\u{E007F}]/gu;

/**
 * Agent ids are 1–128 characters that show as themselves: no control, bidi control or invisible format character (the
 * text guard's own predicate), so `ops\u202Eagent` cannot pass for another agent in a list or a prompt; and no white
 * space at either end, so `ops ` is not a second agent that looks like `ops`. Returned in NFC (issue 27): `café`
 * typed precomposed or as `cafe` + U+0301 is one agent. (A new id that merely looks like an existing one is refused
 * when it is first written: agent-ids.ts.) No default-ignorable character either (review rev27j): a joiner, variation
 * selector, combining grapheme joiner or Hangul filler shows as nothing, so `tea` + U+200D + `m` would be a second
 * agent shown as `team`. Kept where it makes an emoji (`team 👨‍👩‍👧`, `❤️`, a subdivision flag): there it shows.
 */
export function validateAgentId(given: string): string {
  const agentId = isWellFormed(given) ? given.normalize('NFC') : given;
  const outsideEmoji = agentId.replace(EMOJI_IGNORABLES, '');
  if (
    agentId.trim() !== agentId ||
    agentId === '' ||
    agentId.length > 128 ||
    hasHiddenCharacters(agentId) ||
    withoutDefaultIgnorables(outsideEmoji) !== outsideEmoji ||
    !isWellFormed(agentId)
  ) {
    throw new UsageError(
      'bad_agent',
      'the agent id must be 1–128 visible characters, no space at either end: no control, bidi, invisible format or default-ignorable characters (joiners, variation selectors, fillers)',
      {
        details: { option: 'agentId' },
      },
    );
  }
  return agentId;
}

export function validateContent(content: string): string {
  if (content.trim() === '') throw new UsageError('empty_content', 'memory text is empty; give some text (or pipe it on stdin)');
  // SQLite's text functions read a text up to its first NUL (U+0000): a text with nothing before one is empty to the
  // store (its CHECK refused it as an unexpected error). PostgreSQL refuses any NUL (`nul_in_text`, store/postgres/codec.ts).
  if (content.split('\u0000', 1)[0]!.trim() === '') {
    throw new UsageError(
      'nul_in_text',
      'memory text has nothing before its first NUL character (U+0000), where a store stops reading it; remove the character and try again',
    );
  }
  requireWellFormed(content, 'memory text');
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_CONTENT_BYTES) {
    throw new UsageError(
      'content_too_large',
      `memory text is ${bytes} bytes; the limit is ${MAX_CONTENT_BYTES} bytes (64 KiB). Split it into several memories.`,
    );
  }
  return content;
}

/** A thread name is at most this long (an import file's path names its thread). */
export const MAX_THREAD_LENGTH = 4096;

/**
 * A thread name: 1–4096 characters after trimming, showing as itself (no control, bidi or invisible format
 * character, like an agent id), so two threads cannot look the same in a list.
 */
export function validateThread(thread: string): string {
  const trimmed = requireWellFormed(thread, 'the thread').trim().normalize('NFC');
  // A name is one line: no line or paragraph separator (U+2028/9, shown raw by some views and as a space by others),
  // and it does not open with a combining mark (which would draw onto whatever is printed before it).
  if (trimmed === '' || trimmed.length > MAX_THREAD_LENGTH || hasHiddenCharacters(trimmed) || /[\p{Zl}\p{Zp}]|^\p{M}/u.test(trimmed)) {
    throw new UsageError(
      'bad_thread',
      `a thread name must be 1–${MAX_THREAD_LENGTH} visible characters on one line: no control, bidi or invisible format characters`,
      {
        details: { option: 'thread' },
      },
    );
  }
  return trimmed;
}

export function validateTags(tags: string[]): string[] {
  const cleaned = [...new Set(tags.map((tag) => requireWellFormed(tag, 'a tag').trim().normalize('NFC')))];
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
  for (const [field, value] of [
    ['subject', input.subject],
    ['source', input.source],
    ['archivedReason', input.archivedReason],
  ] as const) {
    if (value) requireWellFormed(value, field);
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
    thread: input.thread === undefined || input.thread === null ? null : validateThread(input.thread),
    versionOf: input.versionOf ?? null,
  };
}

/** Ids a not-found message names before it says how many more (the details keep them all). */
const MISSING_NAMED = 5;

/**
 * Exit 3 for ids this agent does not hold: the first few named (then "and N more"), `tail` after them, and when the
 * first one is only in the wrong letter case, the id that exists (ids are case-sensitive).
 */
export async function missingMemories(store: StoreOps, agentId: string, missing: readonly string[], tail = ''): Promise<NotFoundError> {
  const named = missing.slice(0, MISSING_NAMED).join(', ');
  const more = missing.length > MISSING_NAMED ? ` and ${missing.length - MISSING_NAMED} more` : '';
  const hint = await caseSensitiveHint(missing[0]!, async (canonical) => (await store.memories.get(agentId, canonical)) !== undefined);
  return new NotFoundError('memory_not_found', `no memory ${named}${more} for agent "${agentId}"${hint}${tail}`, { details: { ids: [...missing] } });
}

/** A memory of this agent, or exit 3. Another agent's id is "not found" too: ids do not leak across agents. */
export async function getMemory(store: StoreOps, agentId: string, id: string): Promise<Memory> {
  const memory = await store.memories.get(agentId, id);
  if (!memory) throw await missingMemories(store, agentId, [id]);
  return memory;
}

/** `memory show`: a memory of this agent (or exit 3) and its older versions kept by `memory edit --keep-history`, newest first. */
export async function showMemory(store: StoreOps, agentId: string, id: string): Promise<{ memory: Memory; versions: Memory[]; forgottenSources: string[] }> {
  const memory = await getMemory(store, agentId, id);
  return { memory, versions: await store.memories.versions(agentId, memory.id), forgottenSources: await forgottenSources(store, memory) };
}

/**
 * The memories an insight was derived from that `memory forget` erased since (a receipt covers them): "a source was
 * forgotten", so the insight may restate what is gone (docs/governance.md).
 */
export function forgottenSources(store: StoreOps, memory: Memory): Promise<string[]> {
  return memory.derivedFrom.length === 0 ? Promise.resolve([]) : store.receipts.forgottenAmong(memory.agentId, memory.derivedFrom);
}

/** Memories by id for one agent, in the order asked; missing ids are left out. */
export function getMemories(store: StoreOps, agentId: string, ids: readonly string[]): Promise<Memory[]> {
  return store.memories.getMany(agentId, ids);
}

export async function addMemory(store: Store, input: NewMemory): Promise<AddMemoryResult> {
  const memory = buildMemory(input, store.clock());
  return store.transaction(async (tx) => {
    await checkNewAgents(tx, [memory.agentId]);
    const duplicateOf = await tx.memories.idsWithHash(memory.agentId, memory.contentHash);
    if (!(await tx.memories.insert(memory))) throw new UsageError('id_exists', `memory ${memory.id} already exists`);
    return { memory, duplicateOf };
  });
}

export interface ListOptions {
  agentId: string;
  limit?: number;
  tag?: string;
  /** Only memories created at or after this time (the same filter as search's). */
  since?: Date;
  durability?: Durability;
  /** Only this thread, in thread order (createdAt, then insertion order). */
  thread?: string;
  includeArchived?: boolean;
}

/** Newest first, or a thread in its order. Archived memories only when asked for. */
export function listMemories(store: StoreOps, options: ListOptions): Promise<Memory[]> {
  return store.memories.list(listQuery(options, requireCount(options.limit ?? 50, 'limit')));
}

function listQuery(options: ListOptions, limit: number): ListQuery {
  return {
    agentId: options.agentId,
    tag: options.tag,
    since: options.since === undefined ? undefined : iso(options.since),
    durability: options.durability,
    thread: options.thread === undefined ? undefined : validateThread(options.thread),
    includeArchived: options.includeArchived,
    limit,
  };
}

/** `memory list`: the page, with how many memories the filters match in all (`shownOf`). */
export async function listMemoryPage(store: StoreOps, options: ListOptions): Promise<{ memories: Memory[] } & Shown> {
  const memories = await listMemories(store, options);
  const { limit: _limit, ...query } = listQuery(options, options.limit ?? 50);
  return { memories, ...(await shownOf(memories.length, options.limit ?? 50, () => store.memories.count(query))) };
}

/** How many agents besides the one read are named in `elsewhereWarning`. */
const ELSEWHERE_SHOWN = 3;

/**
 * Said when a read for one agent (a search, extract over search results) finds nothing while the agent holds no
 * memories and other agents do: the usual cause is a missing `--agent` (after `hippo demo`, say), and an empty answer
 * alone hides it. Undefined when the agent has memories of its own (then its query or filters found nothing, and
 * naming other agents would mislead) or no other agent has a memory that is not archived.
 */
export async function elsewhereWarning(store: StoreOps, agentId: string, found: 'matches' | 'memories' = 'matches'): Promise<string | undefined> {
  // The usual case first, from one row on the agent's index: an agent with a memory of its own (its query or filters
  // found nothing) names no other agent, and reads no one's counts (a scan of every memory of the store).
  if ((await store.memories.list({ agentId, limit: 1 })).length > 0) return undefined;
  const counts = await store.memories.agentCounts();
  if (counts.some((count) => count.agentId === agentId && count.memories > 0)) return undefined;
  const others = counts.filter((other) => other.agentId !== agentId && other.memories > 0).sort((a, b) => b.memories - a.memories); // stable: ties stay in agent order
  if (others.length === 0) return undefined;
  const named = others.slice(0, ELSEWHERE_SHOWN).map((other) => `${other.agentId} (${other.memories})`);
  const more = others.length > ELSEWHERE_SHOWN ? `, and ${others.length - ELSEWHERE_SHOWN} more` : '';
  return `no ${found} for agent ${agentId}; other agents have memories: ${named.join(', ')}${more}`;
}

/** Every memory of the agent — or of every agent when none is given — archived too, oldest first: the export order. */
export function iterateMemories(store: StoreOps, agentId?: string): AsyncIterable<Memory> {
  return store.memories.iterate(agentId);
}

/**
 * The one hook for what depends on a memory's neighbours (docs/design.md §6: a threaded memory's search entry carries
 * the text of the memories around it in its thread). Called inside the transaction of a change that alters a
 * memory's text in place — `memory edit` — with the memories as they were before the change, so the neighbours of
 * each (and the memory itself) are re-indexed and no neighbour's context keeps the old text. A memory that is deleted
 * (`memory forget`) or archived is re-indexed by the store itself (MemoryRepo.forget, archive, ErasureRepo.erase).
 */
export async function reindexNeighbours(tx: StoreOps, changed: readonly Memory[]): Promise<void> {
  const byAgent = new Map<string, string[]>();
  for (const memory of changed) {
    if (memory.thread === null) continue;
    byAgent.set(memory.agentId, [...(byAgent.get(memory.agentId) ?? []), memory.id]);
  }
  for (const [agentId, ids] of byAgent) await tx.memories.refreshContext(agentId, { ids });
}
