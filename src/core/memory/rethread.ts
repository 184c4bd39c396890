/**
 * `memory thread` (docs/decisions.md, "Issue 30 point 6"): puts memories into a thread, or takes them out of any, after
 * the fact — the way to unthread a plain list that an older hippo imported as one thread (one file was one thread
 * then), or to thread notes that were imported without one. The store re-indexes the neighbours they leave and join,
 * and their own search context, in the same transaction (MemoryRepo.setThread).
 */
import { resolve } from 'node:path';
import { NotFoundError, UsageError } from '../errors.js';
import { fileThread } from './import.js';
import { missingMemories, validateThread } from './memory.js';
import type { Memory } from '../records.js';
import type { StoreOps, Store } from '../store/port.js';
import { iso } from '../time.js';

export interface ThreadOptions {
  agentId: string;
  /** These memories (all must be the agent's, or nothing changes: exit 3). */
  ids?: readonly string[];
  /** Every memory now in this thread (archived ones too). */
  from?: string;
  /**
   * Everything imported from this file: the memories whose source is its path (a text or Markdown file's paragraphs)
   * or whose thread is the one an import named after it (every line of it, before issue 30).
   */
  file?: string;
  /** The thread to move them into; null takes them out of any thread (undefined: refused, nothing said). */
  thread: string | null | undefined;
}

export interface ThreadResult {
  /** The thread they are in now (null: none). */
  thread: string | null;
  /** The ids of the memories whose thread changed. */
  moved: string[];
  /** Ids selected that were in that thread already (nothing written for them). */
  unchanged: string[];
}

/** Every memory of the agent a list filter selects, archived ones too. */
async function selected(tx: StoreOps, agentId: string, filter: { thread?: string; source?: string }): Promise<Memory[]> {
  const query = { agentId, ...filter, includeArchived: true };
  const count = await tx.memories.count(query);
  return count === 0 ? [] : tx.memories.list({ ...query, limit: count });
}

/**
 * Moves the selected memories into `thread` (or out of any thread) in one transaction; their search entries and their
 * old and new neighbours' follow in it. Unknown ids → exit 3, nothing changed; a thread or file selecting nothing →
 * exit 3 too.
 */
export async function threadMemories(openStore: () => Promise<Store>, options: ThreadOptions): Promise<ThreadResult> {
  const ids = options.ids ?? [];
  if (ids.length === 0 && options.from === undefined && options.file === undefined) {
    throw new UsageError('nothing_to_thread', 'say which memories: their ids, a thread, or a file they were imported from', {
      details: { missing: 'memories' },
    });
  }
  if (options.thread === undefined) {
    throw new UsageError('nothing_to_thread', 'say where to: a thread name, or out of any thread', { details: { missing: 'thread' } });
  }
  const thread = options.thread === null ? null : validateThread(options.thread);
  const from = options.from === undefined ? undefined : validateThread(options.from);
  const file = options.file === undefined ? undefined : resolve(options.file);
  const store = await openStore(); // only now: a refused command opens nothing
  return store.transaction(async (tx) => {
    const chosen = new Map<string, Memory>();
    const found = new Map((await tx.memories.getMany(options.agentId, ids)).map((memory) => [memory.id, memory]));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw await missingMemories(tx, options.agentId, missing, ' (no thread was changed)');
    }
    for (const id of ids) chosen.set(id, found.get(id)!);
    const add = (memories: readonly Memory[]) => memories.forEach((memory) => chosen.set(memory.id, memory));
    if (from !== undefined) {
      const inThread = await selected(tx, options.agentId, { thread: from });
      if (inThread.length === 0)
        throw new NotFoundError('nothing_matches', `agent "${options.agentId}" has no memory in thread "${from}" (no thread was changed)`);
      add(inThread);
    }
    if (file !== undefined) {
      const imported = [...(await selected(tx, options.agentId, { source: file })), ...(await selected(tx, options.agentId, { thread: fileThread(file) }))];
      if (imported.length === 0) {
        throw new NotFoundError('nothing_matches', `agent "${options.agentId}" has no memory imported from ${file} (no thread was changed)`, {
          details: { path: file },
        });
      }
      add(imported);
    }
    const now = iso(tx.clock());
    const moved = await tx.memories.setThread(options.agentId, [...chosen.keys()], thread, now);
    const changed = new Set(moved);
    return { thread, moved, unchanged: [...chosen.keys()].filter((id) => !changed.has(id)) };
  });
}
