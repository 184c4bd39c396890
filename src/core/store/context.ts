/**
 * The search context of a memory in a thread (docs/design.md §6, docs/store.md "Threads and the search context"): the
 * words its neighbours lend it, and its date in words. Pure and engine-neutral: both adapters build a memory's search
 * entry from these functions, in their write paths, their bulk path and their re-indexing, so the engines cannot
 * disagree about what a neighbour is.
 *
 * - A thread is the live (not archived) memories of one agent with the same `thread`, in thread order: `createdAt`,
 *   then insertion order.
 * - A live threaded memory's context is the text of the CONTEXT_BEFORE memories before it (`before`) and the
 *   CONTEXT_AFTER after it (`after`), each cut to NEIGHBOUR_CHARS. An archived or unthreaded memory has none.
 * - SQLite computes the same rule in SQL, in the view its full-text table reads (sqlite/migrations.ts, 13 and 14), so it
 *   stores no copy of a neighbour's text; test/core/store/sqlite/context-view.test.ts holds the two to the same result.
 * - Its date in words (`dateWords`) is computed by each engine in SQL from `createdAt` (UTC); the function here is the
 *   same rule, for display and for tests.
 */

import type { Memory } from '../records.js';

/** Live neighbours before a memory whose text its search entry carries. */
export const CONTEXT_BEFORE = 2;
/** Live neighbours after it. */
export const CONTEXT_AFTER = 2;
/** At most this many characters of each neighbour (cut at a space): a long note lends its opening, not all of it. */
export const NEIGHBOUR_CHARS = 1000;
/**
 * How many neighbours a re-index reads on each side of a changed place: the memories within CONTEXT_BEFORE/AFTER of
 * it change context, and their own contexts reach that far again.
 */
export const WINDOW = CONTEXT_BEFORE + CONTEXT_AFTER;

/** The empty context (no thread, archived, or no neighbours). */
export const NO_CONTEXT: Context = { before: '', after: '' };

export interface Context {
  before: string;
  after: string;
}

/** The spaces of `neighbourText`: space, tab, CR, LF (the rule SQLite's view computes in SQL, migration 13). */
const SPACES = ' \t\r\n';
const EDGE_SPACES = /^[ \t\r\n]+|[ \t\r\n]+$/g;

/**
 * What one neighbour lends: its text without spaces at either end, cut to NEIGHBOUR_CHARS characters (code points)
 * at its last space when that is past the middle. A text holding a NUL (U+0000, which only a SQLite store can hold)
 * lends what comes before its first NUL (SQLite's text functions end a text there). SQLite computes the same in SQL
 * (migration 14's view).
 */
export function neighbourText(content: string): string {
  const text = content.split('\u0000', 1)[0]!.replace(EDGE_SPACES, '');
  const chars = Array.from(text);
  if (chars.length <= NEIGHBOUR_CHARS) return text;
  const cut = chars.slice(0, NEIGHBOUR_CHARS);
  let space = cut.length - 1;
  while (space >= 0 && !SPACES.includes(cut[space]!)) space--;
  return (space > NEIGHBOUR_CHARS / 2 ? cut.slice(0, space) : cut).join('').replace(EDGE_SPACES, '');
}

function join(contents: readonly string[]): string {
  return contents.map(neighbourText).join('\n');
}

/** The contexts of a whole thread, given its live memories' contents in thread order. */
export function threadContexts(contents: readonly string[]): Context[] {
  return contents.map((_, index) => ({
    before: join(contents.slice(Math.max(0, index - CONTEXT_BEFORE), index)),
    after: join(contents.slice(index + 1, index + 1 + CONTEXT_AFTER)),
  }));
}

/**
 * The contexts to write after a change at one place of a thread (a memory added, archived, forgotten or edited there).
 * `before`: up to WINDOW live memories before the place, in thread order; `self`: the live memory at the place, if any;
 * `after`: up to WINDOW live memories after it. Returns the rows whose context depends on the place — the
 * CONTEXT_AFTER memories before it, the memory itself, the CONTEXT_BEFORE after it — with their contexts, computed
 * from the window (which reaches as far as each of their contexts does).
 */
export function windowContexts<R extends { content: string }>(before: readonly R[], self: R | undefined, after: readonly R[]): { row: R; context: Context }[] {
  const rows = [...before, ...(self ? [self] : []), ...after];
  const contexts = threadContexts(rows.map((row) => row.content));
  // The memories before the place whose `after` reaches it, and those after it whose `before` does.
  const first = Math.max(0, before.length - CONTEXT_AFTER);
  const last = before.length + (self ? 1 : 0) + Math.min(after.length, CONTEXT_BEFORE);
  const changed: { row: R; context: Context }[] = [];
  for (let index = first; index < last; index++) changed.push({ row: rows[index]!, context: contexts[index]! });
  return changed;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * A memory's date in words, in UTC, as the search index holds it: month, year, weekday ("May 2023 Monday"). Each
 * engine computes the same words in SQL (SQLite: a generated column; PostgreSQL: `hippo_date_words`).
 */
export function dateWords(iso: string): string {
  const date = new Date(iso);
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ${WEEKDAYS[date.getUTCDay()]}`;
}

/** `agentId NUL thread`: a thread's key in maps (a thread belongs to one agent). */
export function threadKey(agentId: string, thread: string): string {
  return `${agentId}\u0000${thread}`;
}

/** The threads (agent and name) the live threaded memories of a batch belong to, each once. */
export function threadsOf(memories: readonly Memory[]): { agentId: string; thread: string }[] {
  const threads = new Map<string, { agentId: string; thread: string }>();
  for (const memory of memories) {
    if (memory.thread !== null && memory.archivedAt === null)
      threads.set(threadKey(memory.agentId, memory.thread), { agentId: memory.agentId, thread: memory.thread });
  }
  return [...threads.values()];
}

/**
 * The search contexts of a batch of new memories, for the bulk path: the batch's live threaded memories, grouped by
 * thread and put in thread order (createdAt, then their order in the batch, which is insertion order), get the
 * contexts computed within the batch (`contexts[i]` for `memories[i]`; undefined: none). `held` lists the threads the
 * store already holds live memories of: their new memories get no context here and are returned in `joins`, for the
 * adapter to re-index where they join the thread. The batch must hold only memories that will be inserted (no
 * existing id, no id twice): only they may lend context.
 */
export function batchContexts(
  memories: readonly Memory[],
  held: readonly { agentId: string; thread: string }[],
): { contexts: (Context | undefined)[]; joins: { agentId: string; thread: string; ids: string[] }[] } {
  const heldKeys = new Set(held.map(({ agentId, thread }) => threadKey(agentId, thread)));
  const groups = new Map<string, { agentId: string; thread: string; members: number[] }>();
  memories.forEach((memory, index) => {
    if (memory.thread === null || memory.archivedAt !== null) return;
    const key = threadKey(memory.agentId, memory.thread);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { agentId: memory.agentId, thread: memory.thread, members: [] }));
    group.members.push(index);
  });
  const contexts: (Context | undefined)[] = [];
  const joins: { agentId: string; thread: string; ids: string[] }[] = [];
  for (const [key, group] of groups) {
    if (heldKeys.has(key)) {
      joins.push({ agentId: group.agentId, thread: group.thread, ids: group.members.map((index) => memories[index]!.id) });
      continue;
    }
    // A stable sort: equal times keep batch order.
    const at = (index: number) => memories[index]!.createdAt;
    const ordered = [...group.members].sort((a, b) => (at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : 0));
    const computed = threadContexts(ordered.map((index) => memories[index]!.content));
    ordered.forEach((index, position) => (contexts[index] = computed[position]));
  }
  return { contexts, joins };
}
