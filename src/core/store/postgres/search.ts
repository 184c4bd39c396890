/**
 * The search of memories on PostgreSQL (docs/postgres.md, "Search"): one statement built by fts.ts ranks one agent's
 * matches like SQLite's BM25, then snippets are finished and a context-only hit gets the neighbour that matched. The
 * terms and weights are core/search-terms.ts's.
 */
import { UsageError } from '../../errors.js';
import type { Memory } from '../../records.js';
import { CONTEXT_AFTER, CONTEXT_BEFORE } from '../context.js';
import { SEARCH_PARTS, type SearchHit, type SearchPart, type SearchQuery } from '../port.js';
import { MEMORY_TABLE } from '../tables.js';
import { fromRow } from './codec.js';
import { finishSnippet, mapRawQueryError, nearbySql, searchSql } from './fts.js';
import type { Session, TxState } from './session.js';

const COLUMN_NAMES = MEMORY_TABLE.columns.map((column) => column.name);

/**
 * One agent's search (port.ts `MemoryRepo.searchWithTotal`): fts.ts's statement, then the snippets and the neighbour a
 * context-only hit owes its match to. `total` (how many matches pass the filters, without the limit) comes from the same
 * statement's pass over the matches.
 */
export async function searchMemories(session: Session, bound: TxState | undefined, q: SearchQuery): Promise<{ hits: SearchHit[]; total: number }> {
  const query = <R extends Record<string, unknown> = Record<string, unknown>>(text: string, values: readonly unknown[] = []) =>
    session.query<R>(text, values, bound);
  if (!Number.isInteger(q.limit) || q.limit < 1)
    throw new UsageError('bad_limit', 'the limit must be a whole number of at least 1', { details: { option: 'limit' } });
  const statement = searchSql({
    agentId: q.agentId,
    query: q.text,
    raw: q.raw,
    limit: q.limit,
    now: q.now,
    ...(q.tag !== undefined ? { tag: q.tag } : {}),
    ...(q.since !== undefined ? { since: q.since } : {}),
    ...(q.durability !== undefined ? { durability: q.durability } : {}),
    includeArchived: q.includeArchived ?? false,
    highlight: q.highlight,
    columns: COLUMN_NAMES,
    ...(q.weights !== undefined ? { weights: q.weights } : {}),
  });
  if (!statement) return { hits: [], total: 0 };
  // A search inside a transaction that bulk-loaded memories sees their contexts as they will be committed.
  const tx = bound ?? session.current();
  if (tx?.beforeCommit?.size) await session.settle(tx);
  const { rows } = await session.query<Record<string, unknown> & { score: number; total: number; headline: string; seq: number }>(
    statement.text,
    statement.values,
    bound,
    {
      ...(q.raw ? { mapError: mapRawQueryError } : {}),
    },
  );
  const hits: SearchHit[] = [];
  for (const row of rows) {
    const memory = fromRow<Memory>(MEMORY_TABLE, row);
    const matched = SEARCH_PARTS.filter((part: SearchPart) => row[`in_${part}`] === true);
    const own = matched.some((part) => part === 'content' || part === 'subject' || part === 'tags');
    let nearby: SearchHit['nearby'] = null;
    if (!own && matched.includes('context') && memory.thread !== null) {
      const sql = nearbySql({
        agentId: q.agentId,
        thread: memory.thread,
        createdAt: memory.createdAt,
        seq: Number(row.seq),
        query: q.text,
        raw: q.raw,
        highlight: q.highlight,
        before: CONTEXT_BEFORE,
        after: CONTEXT_AFTER,
      });
      const found = sql ? (await query<{ id: string; content: string; headline: string }>(sql.text, sql.values)).rows[0] : undefined;
      if (found) nearby = { memoryId: found.id, snippet: finishSnippet(found.content, found.headline, q.highlight) };
    }
    hits.push({ memory, score: row.score, snippet: finishSnippet(memory.content, row.headline, q.highlight), matched, nearby });
  }
  return { hits, total: rows[0]?.total ?? 0 };
}
