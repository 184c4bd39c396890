/**
 * The read audit (docs/governance.md): every read that hands an agent's memory text to someone records who, when, by
 * which operation, and which memory ids — never the query or any memory's text. A query is kept, if at all, as a keyed
 * hash (HMAC-SHA-256 under a random key kept in the store's settings) so reads of the same query group together
 * without the query being guessable from the record by hashing candidate texts.
 *
 * Writing a record never fails or delays the read it records: it is a best-effort write (as the retrieval counters),
 * made after the answer, that gives up at once when another writer holds the store and swallows any failure. Records
 * are bounded per agent (AUDIT_CAP newest kept) and pruned by age on demand (`pruneReads`).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { UsageError } from '../errors.js';
import { newId } from '../ids.js';
import { requireCount } from '../limits.js';
import type { ReadChannel, ReadRecord, Run } from '../records.js';
import { withRun } from '../runs.js';
import type { Store, StoreOps } from '../store/port.js';
import { iso } from '../time.js';

/** Records kept per agent at most: past it the oldest go (a read is never refused for it). */
export const AUDIT_CAP = 100_000;
/** Memory ids per record at most: a read handing over more (an export) is recorded as several records of one read. */
export const IDS_PER_RECORD = 1000;
/** Every this many records written by one process, the agent's records are cut back to the cap. */
const CAP_EVERY = 500;
/** The settings key holding the query-hash key (hex). */
export const QUERY_KEY_SETTING = 'audit_query_key';
/** How long a best-effort audit write waits for another writer (the read is already answered). */
const AUDIT_WAIT_MS = 50;

/** Who reads: the channel, the client (MCP handshake name and version, or the OS user), the token over HTTP. */
export interface Reader {
  channel: ReadChannel;
  client: string;
  tokenId?: string;
}

export interface ReadEvent {
  agentId: string;
  operation: string;
  memoryIds: readonly string[];
  /** The query text, hashed with the store's key before anything is written; never stored. */
  query?: string;
}

/** The reader a CLI command is: `cli`, and the OS user running it. */
export function cliReader(): Reader {
  let user = 'unknown';
  try {
    user = userInfo().username || 'unknown';
  } catch {
    // No passwd entry for this uid (a container): the uid stands in.
    user = `uid ${process.getuid?.() ?? '?'}`;
  }
  return { channel: 'cli', client: user };
}

/** One line of printable text, bounded: a client's self-reported name is not trusted to be either. */
function clean(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const line = text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g, ' ').trim();
  return line.slice(0, max) || 'unknown';
}

const keys = new WeakMap<StoreOps, string>();
const written = new WeakMap<StoreOps, number>();

async function queryKey(tx: StoreOps, store: StoreOps): Promise<string> {
  const cached = keys.get(store);
  if (cached !== undefined) return cached;
  await tx.settings.setIfAbsent(QUERY_KEY_SETTING, randomBytes(32).toString('hex'));
  const key = (await tx.settings.get(QUERY_KEY_SETTING))!;
  keys.set(store, key);
  return key;
}

/** The keyed hash of a query: whitespace collapsed, so the same question typed twice groups together. */
export function queryHash(key: string, query: string): string {
  return createHmac('sha256', Buffer.from(key, 'hex')).update(query.trim().replace(/\s+/g, ' ')).digest('hex').slice(0, 32);
}

/**
 * Records a read, best effort: resolves false (never throws) when the store is busy or the write fails. Call it after
 * the answer is built; the read's own result never waits on it beyond this call.
 */
export async function recordRead(store: Store, reader: Reader, event: ReadEvent): Promise<boolean> {
  try {
    const done = await store.tryTransaction(async (tx) => {
      const key = event.query === undefined ? undefined : await queryKey(tx, store);
      const now = store.clock();
      const ids = [...new Set(event.memoryIds)];
      // One record per IDS_PER_RECORD ids (an empty read is one record too), at the same time, in one transaction.
      for (let from = 0; from === 0 || from < ids.length; from += IDS_PER_RECORD) {
        const record: ReadRecord = {
          agentId: event.agentId,
          id: newId('read', now.getTime()),
          at: iso(now),
          channel: reader.channel,
          client: clean(reader.client, 200),
          tokenId: reader.tokenId ?? null,
          operation: event.operation,
          memoryIds: ids.slice(from, from + IDS_PER_RECORD),
          queryHash: key === undefined || event.query === undefined ? null : queryHash(key, event.query),
        };
        await tx.audit.insert(record);
        const count = (written.get(store) ?? 0) + 1;
        written.set(store, count);
        if (count % CAP_EVERY === 0) await tx.audit.cap(event.agentId, AUDIT_CAP);
      }
      return true;
    }, AUDIT_WAIT_MS);
    return done === true;
  } catch {
    return false;
  }
}

/**
 * Passes a stream of memories through unchanged, noting each one's id under its agent in `into` (a streamed read, as
 * an export, is recorded once it has been handed over). With no `into`, the stream itself.
 */
export async function* notingIds<T extends { id: string; agentId: string }>(items: AsyncIterable<T>, into?: Map<string, string[]>): AsyncGenerator<T> {
  for await (const item of items) {
    if (into) {
      const ids = into.get(item.agentId);
      if (ids) ids.push(item.id);
      else into.set(item.agentId, [item.id]);
    }
    yield item;
  }
}

/** The memories a list of facts was sliced from, in order, once each (a fact from a file or a given text is no memory's). */
export function factMemoryIds(facts: readonly { occurrences: readonly { source: string }[] }[]): string[] {
  return [...new Set(facts.flatMap((fact) => fact.occurrences.map((occurrence) => occurrence.source).filter((source) => source.startsWith('mem_'))))];
}

export interface ReadsQuery {
  agentId: string;
  memoryId?: string;
  client?: string;
  since?: Date;
  limit?: number;
}

/** `audit reads`: one agent's reads, newest first (who saw this memory; what did this client read). */
export async function listReads(store: StoreOps, query: ReadsQuery): Promise<ReadRecord[]> {
  const limit = requireCount(query.limit ?? 100, 'limit');
  if (query.client !== undefined && query.client.trim() === '') {
    throw new UsageError('usage', 'the client to filter by is empty', { details: { option: 'client' } });
  }
  return store.audit.list({
    agentId: query.agentId,
    memoryId: query.memoryId,
    client: query.client,
    since: query.since ? iso(query.since) : undefined,
    limit,
  });
}

export interface PruneReadsResult {
  before: string;
  pruned: number;
  dryRun: boolean;
  run: Run | null;
}

/** `audit prune`: deletes every agent's read records older than `before`, recorded as a run (`audit prune`). */
export async function pruneReads(store: Store, options: { before: Date; dryRun?: boolean }): Promise<PruneReadsResult> {
  const before = iso(options.before);
  if (options.dryRun) return { before, pruned: await store.audit.prune(before, { dryRun: true }), dryRun: true, run: null };
  return withRun(store, 'audit prune', null, async (scope) =>
    store.transaction(async (tx) => {
      const pruned = await tx.audit.prune(before);
      const run = await scope.finish({ status: 'completed', counts: { pruned }, steps: { prune: `read records before ${before}` } }, tx);
      return { before, pruned, dryRun: false, run };
    }),
  );
}
