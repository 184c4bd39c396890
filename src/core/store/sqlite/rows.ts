/** Whole tables on SQLite (db copy, contract tests): rows in id order, paged so a caller may await between them. */
import type { RowsRepo, StoreTable, TableRows } from '../port.js';
import type { Connection } from './connection.js';
import { columnList, TABLE_SPECS } from '../tables.js';
import type { Memory, Run } from '../../records.js';
import { fromRow, insertSql, toParams } from './codec.js';
import { ALL_RUNS, insertRun } from './repos.js';
import { insertMemoryRows } from './memories.js';

const PAGE = 1000;

/** Inserts rows (existing keys skipped); returns how many were new. Memories go in batches, with their search context. */
function insertRows<T extends StoreTable>(connection: Connection, table: T, rows: readonly TableRows[T][]): number {
  if (table === 'memories') return insertMemoryRows(connection, rows as readonly TableRows['memories'][]);
  if (table === 'runs') {
    // A run over every agent (agentId null) goes to store_runs.
    return (rows as readonly Run[]).reduce((inserted, run) => {
      const { sql, params } = insertRun(run);
      return inserted + connection.statement(sql).run(...params).changes;
    }, 0);
  }
  const spec = TABLE_SPECS[table];
  const statement = connection.statement(insertSql(spec));
  return rows.reduce((inserted, row) => inserted + statement.run(...toParams(row, spec.columns)).changes, 0);
}

/**
 * The scope of a table for one agent (or all): settings hold no agent's rows. An agent's rows are keyed
 * (agent_id, id), so each page of one agent is a range read of that key in id order: its cost is the agent's rows,
 * not the store's (test/core/store/sqlite/plans.test.ts).
 */
function scope(table: StoreTable, agentId: string | null): { where: string; params: unknown[] } | null {
  if (agentId === null) return { where: '1', params: [] };
  if (TABLE_SPECS[table].owner === 'store') return null;
  return { where: 'agent_id = ?', params: [agentId] };
}

/** The tables of a table in scope: the runs of every agent are in both run tables. */
function tablesOf(table: StoreTable, agentId: string | null): string[] {
  return table === 'runs' && agentId === null ? ['runs', 'store_runs'] : [table];
}

export class SqliteRows implements RowsRepo {
  constructor(private readonly c: Connection) {}

  /**
   * The rows of one query read in pages along an index: each page starts after the last row's place (`next`), so a
   * read of a large table holds one page at a time and never skips or repeats a row.
   */
  private async *keyset<P extends unknown[]>(
    sql: (after: boolean) => string,
    params: readonly unknown[],
    next: (last: Record<string, unknown>) => P,
  ): AsyncIterable<Record<string, unknown>> {
    let place: P | null = null;
    for (;;) {
      const page = await this.c.use(() => this.c.statement(sql(place !== null)).all(...params, ...(place ?? [])) as Record<string, unknown>[]);
      yield* page;
      if (page.length < PAGE) return;
      place = next(page.at(-1)!);
    }
  }

  async *dump<T extends StoreTable>(table: T, agentId: string | null): AsyncIterable<TableRows[T]> {
    const spec = TABLE_SPECS[table];
    const scoped = scope(table, agentId);
    if (!scoped) return;
    // The runs of every agent: both run tables.
    const source = table === 'runs' && agentId === null ? ALL_RUNS : table;
    const rows = this.keyset(
      (after) =>
        `SELECT ${columnList(spec.columns)} FROM ${source} WHERE ${scoped.where}${after ? ` AND ${spec.key} > ?` : ''} ORDER BY ${spec.key} LIMIT ${PAGE}`,
      scoped.params,
      (last) => [String(last[spec.key])],
    );
    for await (const row of rows) yield fromRow<TableRows[T]>(spec, row);
  }

  async *dumpByThread(): AsyncIterable<Memory> {
    const spec = TABLE_SPECS.memories;
    const columns = columnList(spec.columns);
    // The live threaded memories, thread after thread in thread order (created_at, then rowid): pages read along
    // memories_thread from the last row's place.
    const threaded = this.keyset(
      (after) =>
        `SELECT ${columns}, rowid AS hippo_rowid FROM memories WHERE thread IS NOT NULL AND archived_at IS NULL${
          after ? ' AND (agent_id, thread, created_at, rowid) > (?, ?, ?, ?)' : ''
        } ORDER BY agent_id, thread, created_at, rowid LIMIT ${PAGE}`,
      [],
      (last) => [last.agent_id, last.thread, last.created_at, last.hippo_rowid],
    );
    for await (const row of threaded) yield fromRow<Memory>(spec, row);
    // Then the others (unthreaded, archived) in id order.
    const others = this.keyset(
      (after) => `SELECT ${columns} FROM memories WHERE (thread IS NULL OR archived_at IS NOT NULL)${after ? ' AND id > ?' : ''} ORDER BY id LIMIT ${PAGE}`,
      [],
      (last) => [String(last.id)],
    );
    for await (const row of others) yield fromRow<Memory>(spec, row);
  }

  async load<T extends StoreTable>(table: T, rows: readonly TableRows[T][]): Promise<number> {
    if (rows.length === 0) return 0;
    return this.c.transaction(async () =>
      this.c.mapped(() => {
        // Memories are indexed for the search as a batch, with the stored memories of the threads they join.
        return insertRows(this.c, table, rows);
      }),
    );
  }

  async deleteAll(table: StoreTable, agentId: string | null): Promise<number> {
    const scoped = scope(table, agentId);
    if (!scoped) return 0;
    return this.c.use(() =>
      tablesOf(table, agentId).reduce(
        (deleted, name) => deleted + this.c.statement(`DELETE FROM ${name} WHERE ${scoped.where}`).run(...scoped.params).changes,
        0,
      ),
    );
  }

  async count(table: StoreTable, agentId: string | null): Promise<number> {
    const scoped = scope(table, agentId);
    if (!scoped) return 0;
    return this.c.use(() =>
      tablesOf(table, agentId).reduce(
        (count, name) =>
          count +
          (this.c
            .statement(`SELECT count(*) FROM ${name} WHERE ${scoped.where}`)
            .pluck()
            .get(...scoped.params) as number),
        0,
      ),
    );
  }
}
