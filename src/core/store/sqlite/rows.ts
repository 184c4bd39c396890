/** Whole tables on SQLite (db copy, contract tests): rows in id order, paged so a caller may await between them. */
import type { RowsRepo, Setting, StoreTable, TableRows } from '../port.js';
import type { Connection } from './connection.js';
import { threadsOf } from '../context.js';
import { insertMemoryRows, MEMORY_COLUMNS, memoryFromRow } from './memories.js';
import { SqliteThreads } from './threads.js';
import {
  CANDIDATE_RECORD_COLUMNS,
  candidateParams,
  candidateRecordFromRow,
  HANDOFF_COLUMNS,
  handoffFromRow,
  handoffParams,
  INSERT_CANDIDATE,
  INSERT_HANDOFF,
  INSERT_RUN,
  RUN_COLUMNS,
  runFromRow,
  runParams,
} from './repos.js';

const PAGE = 1000;

interface TableSpec<T extends StoreTable> {
  /** The key the pages follow. */
  key: 'id' | 'key';
  columns: string;
  fromRow(row: never): TableRows[T];
  /** Inserts rows (existing keys skipped); returns how many were new. */
  insert(connection: Connection, rows: readonly TableRows[T][]): number;
}

function eachRow<T extends StoreTable>(sql: string, params: (row: TableRows[T]) => unknown[]): TableSpec<T>['insert'] {
  return (connection, rows) => {
    const statement = connection.statement(sql);
    return rows.reduce((inserted, row) => inserted + statement.run(...params(row)).changes, 0);
  };
}

const TABLES: { [T in StoreTable]: TableSpec<T> } = {
  memories: { key: 'id', columns: MEMORY_COLUMNS, fromRow: memoryFromRow, insert: insertMemoryRows },
  candidates: {
    key: 'id',
    columns: CANDIDATE_RECORD_COLUMNS,
    fromRow: candidateRecordFromRow,
    insert: eachRow<'candidates'>(INSERT_CANDIDATE, candidateParams),
  },
  runs: { key: 'id', columns: RUN_COLUMNS, fromRow: runFromRow, insert: eachRow<'runs'>(INSERT_RUN, runParams) },
  handoffs: { key: 'id', columns: HANDOFF_COLUMNS, fromRow: handoffFromRow, insert: eachRow<'handoffs'>(INSERT_HANDOFF, handoffParams) },
  settings: {
    key: 'key',
    columns: 'key, value',
    fromRow: (row: Setting) => ({ key: row.key, value: row.value }),
    insert: eachRow<'settings'>('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', (row: Setting) => [row.key, row.value]),
  },
};

/**
 * The scope of a table for one agent (or all): settings hold no agent's rows. `+agent_id` keeps the planner on the
 * key's index, so each page is a range read in key order rather than a sort of the agent's rows.
 */
function scope(table: StoreTable, agentId: string | null): { where: string; params: unknown[] } | null {
  if (agentId === null) return { where: '1', params: [] };
  if (table === 'settings') return null;
  return { where: '+agent_id = ?', params: [agentId] };
}

export class SqliteRows implements RowsRepo {
  constructor(private readonly c: Connection) {}

  async *dump<T extends StoreTable>(table: T, agentId: string | null): AsyncIterable<TableRows[T]> {
    const spec = TABLES[table] as TableSpec<T>;
    const scoped = scope(table, agentId);
    if (!scoped) return;
    let after: string | null = null;
    for (;;) {
      const page = await this.c.use(
        () =>
          this.c
            .statement(
              `SELECT ${spec.columns} FROM ${table} WHERE ${scoped.where}${after === null ? '' : ` AND ${spec.key} > ?`} ORDER BY ${spec.key} LIMIT ${PAGE}`,
            )
            .all(...scoped.params, ...(after === null ? [] : [after])) as Record<string, unknown>[],
      );
      for (const row of page) yield spec.fromRow(row as never);
      if (page.length < PAGE) return;
      after = String(page.at(-1)![spec.key]);
    }
  }

  async load<T extends StoreTable>(table: T, rows: readonly TableRows[T][]): Promise<number> {
    if (rows.length === 0) return 0;
    const spec = TABLES[table] as TableSpec<T>;
    return this.c.transaction(async () =>
      this.c.mapped(() => {
        const inserted = spec.insert(this.c, rows);
        // Memories arrive without their search context: the threads they joined are re-indexed.
        if (table === 'memories') {
          const threads = new SqliteThreads(this.c);
          for (const { agentId, thread } of threadsOf(rows as readonly TableRows['memories'][])) threads.whole(agentId, thread);
        }
        return inserted;
      }),
    );
  }

  async deleteAll(table: StoreTable, agentId: string | null): Promise<number> {
    const scoped = scope(table, agentId);
    if (!scoped) return 0;
    return this.c.use(() => this.c.statement(`DELETE FROM ${table} WHERE ${scoped.where.replace('+', '')}`).run(...scoped.params).changes);
  }

  async count(table: StoreTable, agentId: string | null): Promise<number> {
    const scoped = scope(table, agentId);
    if (!scoped) return 0;
    return this.c.use(
      () =>
        this.c
          .statement(`SELECT count(*) FROM ${table} WHERE ${scoped.where.replace('+', '')}`)
          .pluck()
          .get(...scoped.params) as number,
    );
  }
}
