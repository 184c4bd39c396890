/**
 * The FTS5 search of memories on SQLite (docs/decisions.md, "Search ranks inside FTS5"): the best matches by FTS5's
 * rank, their rows and snippets, and why each matched. The terms and weights are core/search-terms.ts's; the FTS5
 * expressions are fts.ts's.
 */
import { CONTEXT_AFTER, CONTEXT_BEFORE } from '../context.js';
import { rawSyntaxError, SEARCH_PARTS, type SearchHit, type SearchPart, type SearchQuery, type SearchWeights } from '../port.js';
import { rankWeights } from '../../search-terms.js';
import { mapSqliteError, type Connection } from './connection.js';
import { agentExpression, bm25Sql, buildMatchExpression, everyPart, partColumns, partFlags, searchedColumns } from './fts.js';
import { MEMORY_COLUMNS, memoryFromRow, type MemoryRow } from './codec.js';

/** A hit as ranked: its rowid (`ord`), creation time (the tie-break) and score (higher is better). */
type Ranked = { ord: number; created_at: string; score: number };

/** A hit's row: the memory, its rank, its snippet and (when read with them) the parts the query matched in it. */
type HitRow = MemoryRow & Ranked & { snippet: string } & Partial<Record<`part_${SearchPart}`, number>>;

/** The bound values of a search's queries. */
type SearchParams = Record<string, string | number | null> & { match: string; limit: number };

/** The memory's columns of a search, from the join's `m`. */
const SEARCH_COLUMNS = `${MEMORY_COLUMNS.split(', ')
  .map((column) => `m.${column}`)
  .join(', ')}, m.rowid AS ord`;

/** A connection's match tally (`hippo_tally()` counts one and returns 1), registered once per database handle. */
const tallies = new WeakMap<Connection['db'], { count: number }>();

function tallyOf(c: Connection): { count: number } {
  let tally = tallies.get(c.db);
  if (!tally) {
    const fresh = { count: 0 };
    c.db.function('hippo_tally', { deterministic: false, directOnly: true }, () => {
      fresh.count += 1;
      return 1;
    });
    tallies.set(c.db, fresh);
    tally = fresh;
  }
  return tally;
}

/**
 * What a connection that searches reads through a memory map of the store file (address space, not memory; SQLite
 * caps it at its build's limit). A search reads most of the full-text index once; through the page cache a fresh
 * process (every CLI command) spends a good part of its search growing that cache, page by page, and copying each page
 * into it (docs/decisions.md "Issue 26: where a cold search's time goes"). Set at a connection's first search and kept
 * (a server's later searches find the map in place); connections that never search (an import) read as before.
 */
export const SEARCH_MMAP_BYTES = 2 ** 30;
const mapped = new WeakSet<Connection['db']>();

function mapForSearch(c: Connection): void {
  if (mapped.has(c.db)) return;
  mapped.add(c.db);
  if ((c.db.pragma('mmap_size', { simple: true }) as number) < SEARCH_MMAP_BYTES) c.db.pragma(`mmap_size = ${SEARCH_MMAP_BYTES}`);
}

export class SqliteSearch {
  constructor(private readonly c: Connection) {}

  /**
   * The top `limit` matches by score (ties: the newer first, then the earlier stored), then their rows (docs/decisions.md,
   * "Search ranks inside FTS5"): one statement ranks every match with its row and keeps the best `limit` (SQLite's
   * sorter keeps only those for `ORDER BY … LIMIT`, and the ties are part of that order, so there is never a second
   * pass). Rows, snippets and the matched parts are read for those few hits only.
   */
  async search(query: SearchQuery): Promise<SearchHit[]> {
    return (await this.find(query, false)).hits;
  }

  /**
   * `search`, and how many memories it would find without its limit, from the same statement: every match that passes
   * the filters is tallied as the ranking statement meets it (a function of the connection, `hippo_tally`), so the
   * count costs no second pass over the matches.
   */
  async searchWithTotal(query: SearchQuery): Promise<{ hits: SearchHit[]; total: number }> {
    return this.find(query, true);
  }

  private async find(query: SearchQuery, counting: boolean): Promise<{ hits: SearchHit[]; total: number }> {
    const built = this.matchOf(query);
    if (built === undefined) return { hits: [], total: 0 };
    const { weights, terms, columns, match, filters } = built;
    const params = {
      match,
      agentId: query.agentId,
      now: query.now,
      tag: query.tag ?? null,
      since: query.since ?? null,
      durability: query.durability ?? null,
      limit: query.limit,
    };
    // The matched parts come with the rows (highlight()) when the query searched every part; else one query per part.
    const flagged = !query.raw && columns === everyPart();
    await this.c.ready();
    this.c.mapped(() => mapForSearch(this.c));
    // One read transaction: the ranking, the hits' rows and why each matched see the store at one instant. Apart,
    // another process forgetting or editing a hit between the ranking and the rows made it a memory of nulls (review
    // rev26f).
    const { rows, total, explained } = await this.c.readTransaction(async () => {
      let rows: HitRow[];
      let total: number;
      try {
        const tally = counting ? tallyOf(this.c) : undefined;
        if (tally) tally.count = 0;
        const top = this.rank(weights, filters, params, tally !== undefined);
        total = tally ? tally.count : top.length;
        rows = this.hitRows(top, match, query.highlight, flagged);
      } catch (error) {
        if (query.raw && (error as { code?: string }).code === 'SQLITE_ERROR') {
          throw rawSyntaxError('FTS5', (error as Error).message, { option: 'raw' });
        }
        throw mapSqliteError(error, this.c.path);
      }
      const explained = this.c.mapped(() => this.explain(rows, terms, query, flagged));
      return { rows, total, explained };
    });
    const hits = rows.map((row, index) => ({ memory: memoryFromRow(row), score: row.score, snippet: row.snippet, ...explained[index]! }));
    return { hits, total: Math.max(total, hits.length) };
  }

  /** A search's FTS5 expression (the agent's, over the weighted parts) and its filters; undefined when the text holds no term. */
  private matchOf(query: SearchQuery) {
    const weights = rankWeights(query.weights);
    const terms = query.raw ? (query.text.trim() === '' ? undefined : `(${query.text})`) : buildMatchExpression(query.text);
    if (terms === undefined) return undefined;
    const columns = searchedColumns(weights);
    const text = query.raw ? terms : `${columns} : (${terms})`;
    const agent = agentExpression(query.agentId);
    const match = agent ? `${agent} AND (${text})` : text;
    const filters = ['m.agent_id = @agentId'];
    if (!query.includeArchived) filters.push('m.archived_at IS NULL', '(m.expires_at IS NULL OR m.expires_at > @now)');
    if (query.tag !== undefined) filters.push('EXISTS (SELECT 1 FROM json_each(m.tags) WHERE value = @tag)');
    if (query.since !== undefined) filters.push('m.created_at >= @since');
    if (query.durability !== undefined) filters.push('m.durability = @durability');
    return { weights, terms, columns, match, filters };
  }

  /**
   * The best `limit` matches that pass the filters, in the search's order, from one statement: FTS5 yields every match
   * with its bm25 score (the search's weights), each is checked against its row, and SQLite's sorter keeps the best
   * `limit` by (score, newer, earlier stored).
   */
  private rank(weights: SearchWeights, filters: readonly string[], params: SearchParams, tallied: boolean): Ranked[] {
    // Tallied: the filters as one CASE, so the tally runs exactly once for each match that passes them all.
    const passes = tallied ? `CASE WHEN ${filters.join(' AND ')} THEN hippo_tally() ELSE 0 END` : filters.join(' AND ');
    return this.c
      .statement(
        `SELECT m.rowid AS ord, m.created_at, -${bm25Sql(weights)} AS score
         FROM memories_fts CROSS JOIN memories m ON m.rowid = memories_fts.rowid
         WHERE memories_fts MATCH @match AND ${passes}
         ORDER BY score DESC, m.created_at DESC, m.rowid
         LIMIT @limit`,
      )
      .all(params) as Ranked[];
  }

  /** The rows of the hits, in their order, with a snippet of each and (`flagged`) the parts the query matched in it. */
  private hitRows(top: readonly Ranked[], match: string, highlight: SearchQuery['highlight'], flagged: boolean): HitRow[] {
    if (top.length === 0) return [];
    const rows = this.c
      .statement(
        `SELECT ${SEARCH_COLUMNS}, snippet(memories_fts, 0, @open, @close, '…', 16) AS snippet${flagged ? `, ${partFlags()}` : ''}
         FROM memories_fts CROSS JOIN memories m ON m.rowid = memories_fts.rowid
         WHERE memories_fts MATCH @match AND memories_fts.rowid IN (SELECT value FROM json_each(@ords))`,
      )
      .all({ match, open: highlight.open, close: highlight.close, ords: JSON.stringify(top.map((hit) => hit.ord)) }) as HitRow[];
    const byOrd = new Map(rows.map((row) => [row.ord, row]));
    return top.map((hit) => ({ ...byOrd.get(hit.ord)!, score: hit.score }));
  }

  /**
   * Why each hit matched: the parts of its search entry the query matches (from the row's flags, or else one small
   * FTS5 query per part over the hits' rowids), and for a hit whose own parts did not match, the neighbour whose text
   * did, with a snippet of it. A `--raw` query with column filters of its own may not combine with a part's filter:
   * its hits then say nothing.
   */
  private explain(rows: readonly HitRow[], terms: string, query: SearchQuery, flagged: boolean): Pick<SearchHit, 'matched' | 'nearby'>[] {
    const none = rows.map(() => ({ matched: [] as SearchPart[], nearby: null }));
    if (rows.length === 0) return none;
    let inPart: (row: HitRow, part: SearchPart) => boolean;
    if (flagged) inPart = (row, part) => row[`part_${part}`] === 1;
    else {
      const ords = JSON.stringify(rows.map((row) => row.ord));
      const hitsOf = new Map<SearchPart, Set<number>>();
      try {
        for (const part of SEARCH_PARTS) {
          const hits = this.c
            .statement('SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))')
            .pluck()
            .all(`${partColumns(part)} : (${terms})`, ords) as number[];
          hitsOf.set(part, new Set(hits));
        }
      } catch (error) {
        if (query.raw && (error as { code?: string }).code === 'SQLITE_ERROR') return none;
        throw error;
      }
      inPart = (row, part) => hitsOf.get(part)!.has(row.ord);
    }
    return rows.map((row) => {
      const matched = SEARCH_PARTS.filter((part) => inPart(row, part));
      const own = matched.some((part) => part === 'content' || part === 'subject' || part === 'tags');
      const nearby = !own && matched.includes('context') && row.thread !== null ? this.nearby(row, terms, query) : null;
      return { matched, nearby };
    });
  }

  /** The neighbour (of those lending `row` its context) whose own text matches best, with a snippet of it. */
  private nearby(row: MemoryRow & { ord: number }, terms: string, query: SearchQuery): SearchHit['nearby'] {
    const place = { agentId: row.agent_id, thread: row.thread, createdAt: row.created_at, ord: row.ord };
    const live = 'agent_id = @agentId AND thread = @thread AND archived_at IS NULL';
    const neighbours = [
      ...(this.c
        .statement(
          `SELECT rowid FROM memories WHERE ${live} AND (created_at, rowid) < (@createdAt, @ord) ORDER BY created_at DESC, rowid DESC LIMIT ${CONTEXT_BEFORE}`,
        )
        .pluck()
        .all(place) as number[]),
      ...(this.c
        .statement(`SELECT rowid FROM memories WHERE ${live} AND (created_at, rowid) > (@createdAt, @ord) ORDER BY created_at, rowid LIMIT ${CONTEXT_AFTER}`)
        .pluck()
        .all(place) as number[]),
    ];
    if (neighbours.length === 0) return null;
    const best = this.c
      .statement(
        `SELECT m.id AS memoryId, snippet(memories_fts, 0, @open, @close, '…', 16) AS snippet
         FROM memories_fts CROSS JOIN memories m ON m.rowid = memories_fts.rowid
         WHERE memories_fts MATCH @match AND memories_fts.rowid IN (SELECT value FROM json_each(@rowids))
         ORDER BY bm25(memories_fts), m.created_at DESC LIMIT 1`,
      )
      .get({ match: `{content} : (${terms})`, rowids: JSON.stringify(neighbours), open: query.highlight.open, close: query.highlight.close }) as
      { memoryId: string; snippet: string } | undefined;
    return best ?? null;
  }
}
