/**
 * The memory lifecycle besides adding and forgetting (docs/design.md §2.1, §3): `memory edit`, `memory archive`,
 * `memory unarchive`, and `agents` (what each agent holds). Adding is memory.ts, forgetting forget.ts.
 */
import { ConflictError, NotFoundError, UsageError } from '../errors.js';
import { forgetRewriter } from './forget.js';
import { newId } from '../ids.js';
import { contentHash, EPHEMERAL_TTL_MS, getMemory, missingMemories, reindexNeighbours, validateContent, validateTags } from './memory.js';
import { DURABILITIES, type Durability, type Memory } from '../records.js';
import type { ReclaimResult, Store } from '../store/port.js';
import { requireWellFormed } from '../well-formed.js';
import { iso } from '../time.js';

/** What a prompt shows in place of a memory's text an edit replaced (without history). */
export const EDITED_MARKER = '[replaced by an edit]';
/** The reason an older version kept by `--keep-history` is archived with. */
export const OLDER_VERSION_REASON = 'older version (edited)';

export interface EditOptions {
  agentId: string;
  id: string;
  content?: string;
  /** The whole new tag list (replaces the old one). */
  tags?: readonly string[];
  addTags?: readonly string[];
  removeTags?: readonly string[];
  /** New subject; null or blank clears it. */
  subject?: string | null;
  durability?: Durability;
  /** New expiry (ISO-8601 UTC); null clears it. */
  expiresAt?: string | null;
  /** Keep the old version as an archived memory whose `versionOf` is this one. */
  keepHistory?: boolean;
}

export type EditedField = 'content' | 'tags' | 'subject' | 'durability' | 'expiresAt';

export interface EditResult {
  /** The memory as it is now (the same id). */
  memory: Memory;
  /** The fields that changed ([] when the edit asked for what was there already: nothing is written then). */
  changed: EditedField[];
  /** With `keepHistory`: the old version, archived, `versionOf` = the memory's id. */
  previous: Memory | null;
  /** Other memories of the agent with the same text (reported, as `memory add` does). */
  duplicateOf: string[];
  /** Present when the old text was taken out of the store's files (a content edit without history). */
  reclaim: ReclaimResult | null;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, index) => item === b[index]);

/** The new tag list an edit asks for, validated; undefined when the edit leaves tags alone. */
function editedTags(old: readonly string[], options: EditOptions): string[] | undefined {
  if (options.tags === undefined && options.addTags === undefined && options.removeTags === undefined) return undefined;
  const remove = new Set(validateTags([...(options.removeTags ?? [])]));
  const asked = validateTags([...(options.tags ?? []), ...(options.addTags ?? [])]);
  const both = asked.filter((tag) => remove.has(tag));
  if (both.length > 0) {
    // Adding and removing one tag in one edit has no single meaning: refused, nothing changed (docs/decisions.md).
    throw new UsageError('tag_added_and_removed', `a tag cannot be both set and removed in one edit: ${both.join(', ')}`, { details: { tags: both } });
  }
  const base = options.tags === undefined ? [...old] : validateTags([...options.tags]);
  return validateTags([...base, ...(options.addTags ?? [])]).filter((tag) => !remove.has(tag));
}

/**
 * `memory edit`: rewrites a memory in place — same id, so what cites it still does — with `updatedAt` now, its hash
 * and search index entry following (the old text leaves the index). Durability rules as on add (docs/design.md §2.1):
 * a persistent or permanent memory never expires (its expiry is dropped; one given is refused), an ephemeral one
 * without an expiry gets one a day from now. Without `keepHistory` the old text is not kept: it is taken out of the
 * prompts stored with candidates and handoffs too, and out of the store's files (`reclaim`). With it, the old version
 * stays as an archived memory pointing at this one (`versionOf`). An older version itself cannot be edited (exit 4).
 */
export async function editMemory(store: Store, options: EditOptions): Promise<EditResult> {
  const content = options.content === undefined ? undefined : validateContent(options.content);
  if (options.durability !== undefined && !DURABILITIES.includes(options.durability)) {
    throw new UsageError('bad_durability', `durability must be one of ${DURABILITIES.join(', ')}`, {
      details: { option: 'durability', allowed: [...DURABILITIES] },
    });
  }
  const subject = options.subject === undefined ? undefined : options.subject === null || options.subject.trim() === '' ? null : options.subject.trim();
  if (subject) requireWellFormed(subject, 'subject');
  const asked = [content, options.tags, options.addTags, options.removeTags, options.subject, options.durability, options.expiresAt];
  if (asked.every((value) => value === undefined)) {
    throw new UsageError('nothing_to_edit', 'say what to change: the content, tags, subject, durability or expiry', { details: { option: 'content' } });
  }
  const result = await store.transaction(async (tx) => {
    const old = await getMemory(tx, options.agentId, options.id);
    if (old.versionOf !== null) {
      throw new ConflictError('older_version', `${old.id} is an older version of ${old.versionOf}; edit that memory instead`, {
        details: { id: old.id, versionOf: old.versionOf },
      });
    }
    const now = tx.clock();
    const tags = editedTags(old.tags, options) ?? old.tags;
    const durability = options.durability ?? old.durability;
    let expiresAt = options.expiresAt === undefined ? old.expiresAt : options.expiresAt;
    if (durability === 'persistent' || durability === 'permanent') {
      if (options.expiresAt) {
        throw new UsageError('expires_on_durable', `a ${durability} memory never expires: give no expiry, or make it standard or ephemeral`, {
          details: { durability },
        });
      }
      expiresAt = null;
    } else if (durability === 'ephemeral' && expiresAt === null) {
      expiresAt = iso(new Date(now.getTime() + EPHEMERAL_TTL_MS));
    }
    const next: Memory = {
      ...old,
      content: content ?? old.content,
      tags,
      subject: subject === undefined ? old.subject : subject,
      durability,
      expiresAt,
    };
    const changed: EditedField[] = [];
    if (next.content !== old.content) changed.push('content');
    if (!sameList(next.tags, old.tags)) changed.push('tags');
    if (next.subject !== old.subject) changed.push('subject');
    if (next.durability !== old.durability) changed.push('durability');
    if (next.expiresAt !== old.expiresAt) changed.push('expiresAt');
    if (changed.length === 0) return { memory: old, changed, previous: null, duplicateOf: [], scrubbed: false };
    next.contentHash = contentHash(next.content);
    next.updatedAt = iso(now);
    let previous: Memory | null = null;
    if (options.keepHistory) {
      previous = {
        ...old,
        id: newId('mem', now.getTime()),
        archivedAt: iso(now),
        archivedReason: OLDER_VERSION_REASON,
        versionOf: old.id,
      };
      await tx.memories.insert(previous);
    }
    if (!(await tx.memories.update(next))) throw new NotFoundError('memory_not_found', `no memory ${options.id} for agent "${options.agentId}"`);
    // The old text is not kept: it leaves the prompts that showed it, as a forgotten memory's does.
    const scrub = !options.keepHistory && changed.includes('content');
    if (scrub) await tx.erasure.erase({ agentId: options.agentId, memoryIds: [] }, forgetRewriter(undefined, EDITED_MARKER, [old.content]));
    await reindexNeighbours(tx, [old]);
    const duplicateOf = changed.includes('content') ? await tx.memories.idsWithHash(old.agentId, next.contentHash, old.id) : [];
    return { memory: next, changed, previous, duplicateOf: duplicateOf.filter((id) => id !== previous?.id), scrubbed: scrub };
  });
  const { scrubbed, ...edited } = result;
  return { ...edited, reclaim: scrubbed ? await store.reclaim() : null };
}

export interface ArchiveResult {
  archived: Memory[];
  alreadyArchived: string[];
}

/** Soft-deletes memories in one transaction. Any unknown id → exit 3 and nothing is archived. */
export async function archiveMemories(store: Store, agentId: string, ids: readonly string[], reason = 'archived by hand'): Promise<ArchiveResult> {
  const now = iso(store.clock());
  return store.transaction(async (tx) => {
    const found = new Map((await tx.memories.getMany(agentId, ids)).map((memory) => [memory.id, memory]));
    const archived: Memory[] = [];
    const alreadyArchived: string[] = [];
    const toArchive: string[] = [];
    for (const id of ids) {
      const memory = found.get(id);
      if (!memory) throw await missingMemories(tx, agentId, [id]);
      if (memory.archivedAt || toArchive.includes(id)) {
        alreadyArchived.push(id);
        continue;
      }
      toArchive.push(id);
      archived.push({ ...memory, archivedAt: now, archivedReason: reason, updatedAt: now });
    }
    await tx.memories.archive(agentId, toArchive, reason, now);
    return { archived, alreadyArchived };
  });
}

export interface UnarchiveResult {
  unarchived: Memory[];
  /** Ids that were not archived (left as they are). */
  notArchived: string[];
  /** Unarchived memories whose expiry has passed: the next nightly run archives them again unless it is changed. */
  expired: string[];
}

/** `memory unarchive`: archived memories back to live, in one transaction. Any unknown id → exit 3, nothing changed. */
export async function unarchiveMemories(store: Store, agentId: string, ids: readonly string[]): Promise<UnarchiveResult> {
  return store.transaction(async (tx) => {
    const now = iso(tx.clock());
    const found = new Map((await tx.memories.getMany(agentId, ids)).map((memory) => [memory.id, memory]));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw await missingMemories(tx, agentId, missing);
    // An older version (`memory edit --keep-history`) stays archived: live, it would be a second copy of the memory,
    // searched and distilled beside it, and one that cannot be edited. All or nothing, as for an unknown id.
    const version = ids.map((id) => found.get(id)!).find((memory) => memory.versionOf !== null);
    if (version) {
      throw new ConflictError('older_version', `${version.id} is an older version of ${version.versionOf}; it stays archived (nothing was unarchived)`, {
        details: { id: version.id, versionOf: version.versionOf },
      });
    }
    const archived = [...new Set(ids)].filter((id) => found.get(id)!.archivedAt !== null);
    const changed = new Set(await tx.memories.unarchive(agentId, archived, now));
    const unarchived = [...changed].map((id) => ({ ...found.get(id)!, archivedAt: null, archivedReason: null, updatedAt: now }));
    return {
      unarchived,
      notArchived: [...new Set(ids)].filter((id) => !changed.has(id)),
      expired: unarchived.filter((memory) => memory.expiresAt !== null && memory.expiresAt <= now).map((memory) => memory.id),
    };
  });
}

export interface AgentSummary {
  agentId: string;
  /** Memories not archived. */
  memories: number;
  archived: number;
  /** createdAt of its newest memory (archived included); null when it has none. */
  newest: string | null;
  pendingCandidates: number;
}

/** `hippo agents`: every agent with memories or pending candidates, in agent order. Reads all agents by design. */
export async function listAgents(store: Store): Promise<AgentSummary[]> {
  const counts = await store.memories.agentCounts();
  const pending = new Map((await store.candidates.pendingCounts()).map((row) => [row.agentId, row.pending]));
  const agents = new Map<string, AgentSummary>(
    counts.map((row) => [
      row.agentId,
      { agentId: row.agentId, memories: row.memories, archived: row.archived, newest: row.newest, pendingCandidates: pending.get(row.agentId) ?? 0 },
    ]),
  );
  for (const [agentId, count] of pending) {
    if (!agents.has(agentId)) agents.set(agentId, { agentId, memories: 0, archived: 0, newest: null, pendingCandidates: count });
  }
  return [...agents.values()].sort((a, b) => (a.agentId < b.agentId ? -1 : a.agentId > b.agentId ? 1 : 0));
}
