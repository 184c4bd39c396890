/**
 * Candidates, runs, handoffs, settings and whole tables of a PostgreSQL store (port.ts). Guarded writes — a decision,
 * a run's final row, a handoff's ingestion — are single UPDATEs whose WHERE holds the guard (`status = 'pending'`,
 * `status = 'running'`, `ingested_at IS NULL`): under READ COMMITTED a second writer waits for the first one's row
 * lock, re-reads the row, finds the guard false and changes nothing, so exactly one of two concurrent writers wins.
 */
import type { Candidate, Memory, Run, RunKind } from '../../records.js';
import type { CandidateRecord, CandidateRepo, HandoffRecord, HandoffRepo, RowsRepo, RunRepo, SettingsRepo, StoreTable, TableRows } from '../port.js';
import { STORE_TABLES } from '../port.js';
import { UsageError } from '../../errors.js';
import { cursorRows, insertRows } from './bulk.js';
import { insertThreaded } from './memories.js';
import type { Session, TxState } from './session.js';
import {
  CANDIDATE_PUBLIC_COLUMNS,
  CANDIDATE_TABLE,
  columnList,
  HANDOFF_TABLE,
  MEMORY_TABLE,
  RUN_FINISH_COLUMNS,
  RUN_TABLE,
  setList,
  STORE_RUN_TABLE,
  TABLE_SPECS,
  type TableSpec,
} from '../tables.js';
import { fromRow, keyOrder, placeholders, toParams } from './codec.js';

const CANDIDATE_COLUMNS = columnList(CANDIDATE_PUBLIC_COLUMNS);

export function candidateRepo(session: Session, bound?: TxState): CandidateRepo {
  const query = <R extends Record<string, unknown> = Record<string, unknown>>(text: string, values: readonly unknown[] = []) =>
    session.query<R>(text, values, bound);
  const toCandidate = (row: Record<string, unknown>) => fromRow<Candidate>(CANDIDATE_TABLE, row, CANDIDATE_PUBLIC_COLUMNS);
  return {
    async get(agentId, id) {
      const { rows } = await query(`SELECT ${CANDIDATE_COLUMNS} FROM candidates WHERE id = $1 AND agent_id = $2`, [id, agentId]);
      return rows[0] ? toCandidate(rows[0]) : undefined;
    },
    async prompt(agentId, id) {
      const { rows } = await query<{ prompt: string }>('SELECT prompt FROM candidates WHERE id = $1 AND agent_id = $2', [id, agentId]);
      return rows[0]?.prompt;
    },
    async list({ agentId, status, limit }) {
      const { rows } = await query(
        `SELECT ${CANDIDATE_COLUMNS} FROM candidates WHERE agent_id = $1 AND ($2::text = 'all' OR status = $2)
         ORDER BY generated_at DESC, id COLLATE "C" DESC LIMIT $3`,
        [agentId, status, limit],
      );
      return rows.map(toCandidate);
    },
    async count({ agentId, status }) {
      const { rows } = await query<{ n: number }>(`SELECT count(*)::int AS n FROM candidates WHERE agent_id = $1 AND ($2::text = 'all' OR status = $2)`, [
        agentId,
        status,
      ]);
      return rows[0]!.n;
    },
    async claimStatus(agentId, claimNorm) {
      const { rows } = await query<{ live: boolean; rejected: boolean }>(
        `SELECT coalesce(bool_or(status IN ('pending', 'promoted')), false) AS live, coalesce(bool_or(status = 'rejected'), false) AS rejected
         FROM candidates WHERE agent_id = $1 AND claim_norm = $2`,
        [agentId, claimNorm],
      );
      return rows[0]!;
    },
    async decided(agentId, { kind, limit, claimNorm }) {
      const { rows } = await query<{
        id: string;
        claim: string;
        edited_claim: string | null;
        review_rationale: string | null;
        decided_at: string | null;
        promoted_memory_id: string | null;
        forgotten: boolean;
      }>(
        `SELECT id, claim, edited_claim, review_rationale, decided_at, promoted_memory_id, cardinality(forgotten_sources) > 0 AS forgotten FROM candidates
         WHERE agent_id = $1 AND status = $2 AND ($3::boolean IS FALSE OR edited_claim IS NOT NULL) AND ($4::text IS NULL OR claim_norm = $4)
         ORDER BY decided_at DESC, id COLLATE "C" DESC LIMIT $5`,
        [agentId, kind === 'edited' ? 'promoted' : 'rejected', kind === 'edited', claimNorm ?? null, limit],
      );
      return rows.map((row) => ({
        id: row.id,
        claim: row.claim,
        editedClaim: row.edited_claim,
        rationale: row.review_rationale ?? '',
        decidedAt: row.decided_at ?? '',
        sourcesForgotten: row.forgotten,
        promotedMemoryId: row.promoted_memory_id,
      }));
    },
    async insert(candidate: CandidateRecord) {
      const values = toParams(CANDIDATE_TABLE, candidate);
      await query(`INSERT INTO candidates (${columnList(CANDIDATE_TABLE.columns)}) VALUES (${placeholders(values.length)})`, values);
    },
    async decide(agentId, id, decision) {
      // Guarded: only a still-pending row changes. A concurrent decision waits for this row's lock, then finds it
      // decided and changes nothing.
      const result = await query(
        `UPDATE candidates SET status = $3, reviewer = $4, review_rationale = $5, decided_at = $6,
                promoted_memory_id = CASE WHEN $7::boolean THEN $8 ELSE promoted_memory_id END,
                edited_claim = CASE WHEN $9::boolean THEN $10 ELSE edited_claim END
         WHERE id = $1 AND agent_id = $2 AND status = 'pending'`,
        [
          id,
          agentId,
          decision.status,
          decision.reviewer,
          decision.rationale,
          decision.decidedAt,
          decision.promotedMemoryId !== undefined,
          decision.promotedMemoryId ?? null,
          decision.editedClaim !== undefined,
          decision.editedClaim ?? null,
        ],
      );
      return result.rowCount === 1;
    },
    async reopen(agentId, id, reopening) {
      const result = await query(
        `UPDATE candidates SET status = 'pending', reviewer = NULL, review_rationale = NULL, decided_at = NULL,
                reopened_by = $3, reopened_at = $4, reopen_reason = $5
         WHERE id = $1 AND agent_id = $2 AND status = 'rejected'`,
        [id, agentId, reopening.by, reopening.at, reopening.reason],
      );
      return result.rowCount === 1;
    },
    async pendingCounts() {
      const { rows } = await query<{ agent_id: string; pending: number }>(
        `SELECT agent_id, count(*)::int AS pending FROM candidates WHERE status = 'pending' GROUP BY agent_id ORDER BY agent_id COLLATE "C"`,
      );
      return rows.map((row) => ({ agentId: row.agent_id, pending: row.pending }));
    },
    async agentsOf(ids) {
      if (ids.length === 0) return new Map();
      const { rows } = await query<{ id: string; agent_id: string }>(
        // all agents: which agent owns each candidate an import line names (issue 27, promotedFrom).
        'SELECT id, agent_id FROM candidates WHERE id = ANY($1::text[])',
        [[...ids]],
      );
      return new Map(rows.map((row) => [row.id, row.agent_id]));
    },
  };
}

const RUN_COLUMNS = columnList(RUN_TABLE.columns);
const STORE_RUN_COLUMNS = columnList(STORE_RUN_TABLE.columns);
/** A store-wide run's row read with the agent's runs' columns (its agent_id is NULL). */
const STORE_RUN_AS_RUN = RUN_TABLE.columns.map((column) => (column.name === 'agent_id' ? 'NULL::text AS agent_id' : column.name)).join(', ');

/**
 * The audit log in two tables (tables.ts): an agent's runs in `runs` (partitioned by agent), the runs over every agent
 * in `store_runs`. A run's agent routes every write; a read by id alone (`rem runs show` without an agent, a snapshot's
 * run kind, the lock's take-over of a dead run) looks in both, and in every agent's partition — those statements are
 * on the catalogue's list of all-agent statements (test/core/store/postgres/catalogue.test.ts).
 */
export function runRepo(session: Session, bound?: TxState): RunRepo {
  const query = <R extends Record<string, unknown> = Record<string, unknown>>(text: string, values: readonly unknown[] = []) =>
    session.query<R>(text, values, bound);
  const toRun = (row: Record<string, unknown>) => fromRow<Run>(RUN_TABLE, row);
  return {
    async insert(run) {
      if (run.agentId === null) {
        const values = toParams(STORE_RUN_TABLE, run);
        await query(`INSERT INTO store_runs (${STORE_RUN_COLUMNS}) VALUES (${placeholders(values.length)})`, values);
        return;
      }
      const values = toParams(RUN_TABLE, run);
      await query(`INSERT INTO runs (${RUN_COLUMNS}) VALUES (${placeholders(values.length)})`, values);
    },
    async finish(run) {
      // Only while the row is still running.
      const values = toParams(RUN_TABLE, run, RUN_FINISH_COLUMNS);
      const sets = setList(RUN_FINISH_COLUMNS, (index) => `$${index + 2}`);
      const result =
        run.agentId === null
          ? await query(`UPDATE store_runs SET ${sets} WHERE id = $1 AND status = 'running'`, [run.id, ...values])
          : await query(`UPDATE runs SET ${sets} WHERE agent_id = $${values.length + 2} AND id = $1 AND status = 'running'`, [run.id, ...values, run.agentId]);
      return result.rowCount === 1;
    },
    async setSnapshotPath(id, path, agentId) {
      if (agentId !== undefined && agentId !== null) {
        await query('UPDATE runs SET snapshot_path = $3 WHERE agent_id = $1 AND id = $2', [agentId, id, path]);
        return;
      }
      const result = await query('UPDATE store_runs SET snapshot_path = $2 WHERE id = $1', [id, path]);
      // all agents: a run whose agent the caller does not know (a run over every agent is found above first).
      if (result.rowCount === 0 && agentId === undefined) await query('UPDATE runs SET snapshot_path = $2 WHERE id = $1', [id, path]);
    },
    async get(id, agentId) {
      const { rows: own } = await query(`SELECT ${STORE_RUN_AS_RUN} FROM store_runs WHERE id = $1`, [id]);
      if (own[0]) return toRun(own[0]);
      const { rows } =
        agentId === undefined
          ? // all agents: `rem runs show <id>` for every agent looks a run up by its id alone.
            await query(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = $1`, [id])
          : await query(`SELECT ${RUN_COLUMNS} FROM runs WHERE agent_id = $1 AND id = $2`, [agentId, id]);
      return rows[0] ? toRun(rows[0]) : undefined;
    },
    async list({ limit, agentId }) {
      // Without an agent: all agents (`rem runs --all-agents`).
      const { rows } = await query(
        `SELECT * FROM (
           SELECT ${RUN_COLUMNS} FROM runs ${agentId === undefined ? '' : 'WHERE agent_id = $2'}
           UNION ALL
           SELECT ${STORE_RUN_AS_RUN} FROM store_runs
         ) r ORDER BY started_at DESC, id COLLATE "C" DESC LIMIT $1`,
        agentId === undefined ? [limit] : [limit, agentId],
      );
      return rows.map(toRun);
    },
    async count({ agentId }) {
      // Without an agent: all agents (`rem runs --all-agents`), as `list`.
      const agents =
        agentId === undefined
          ? // all agents: `rem runs --all-agents`, as list.
            await query<{ n: number }>('SELECT count(*)::int AS n FROM runs')
          : await query<{ n: number }>('SELECT count(*)::int AS n FROM runs WHERE agent_id = $1', [agentId]);
      // The runs over every agent are listed for every agent, as list.
      const everyAgent = await query<{ n: number }>('SELECT count(*)::int AS n FROM store_runs');
      return agents.rows[0]!.n + everyAgent.rows[0]!.n;
    },
    async interruptAbandoned(runId, now) {
      const set = `status = 'interrupted', finished_at = $2, errors = '["interrupted"]',
                duration_ms = greatest(0, round(extract(epoch FROM ($2::timestamptz - started_at)) * 1000))::bigint`;
      const own = await query(`UPDATE store_runs SET ${set} WHERE status = 'running' AND id = $1`, [runId, now]);
      // all agents: a dead lock holder's run and its children (a nightly's child runs span the agents).
      const agents = await query(`UPDATE runs SET ${set} WHERE status = 'running' AND (id = $1 OR parent_run_id = $1)`, [runId, now]);
      return (own.rowCount ?? 0) + (agents.rowCount ?? 0);
    },
    async kindOf(id) {
      // all agents: a snapshot names its run by id alone (`db snapshots`, an operator's listing).
      const { rows } = await query<{ kind: RunKind }>('SELECT kind FROM store_runs WHERE id = $1 UNION ALL SELECT kind FROM runs WHERE id = $1 LIMIT 1', [id]);
      return rows[0]?.kind;
    },
    async prune(before, options = {}) {
      // all agents: the audit log's prune is a store-wide operation.
      if (options.dryRun) {
        const { rows } = await query<{ n: number }>(
          `SELECT (SELECT count(*) FROM runs WHERE started_at < $1 AND status <> 'running')::int
                + (SELECT count(*) FROM store_runs WHERE started_at < $1 AND status <> 'running')::int AS n`,
          [before],
        );
        return rows[0]!.n;
      }
      const agents = await query("DELETE FROM runs WHERE started_at < $1 AND status <> 'running'", [before]);
      const own = await query("DELETE FROM store_runs WHERE started_at < $1 AND status <> 'running'", [before]);
      return (agents.rowCount ?? 0) + (own.rowCount ?? 0);
    },
  };
}

const HANDOFF_COLUMNS = columnList(HANDOFF_TABLE.columns);

export function handoffRepo(session: Session, bound?: TxState): HandoffRepo {
  const query = <R extends Record<string, unknown> = Record<string, unknown>>(text: string, values: readonly unknown[] = []) =>
    session.query<R>(text, values, bound);
  return {
    async insert(handoff) {
      const values = toParams(HANDOFF_TABLE, handoff);
      await query(`INSERT INTO handoffs (${HANDOFF_COLUMNS}) VALUES (${placeholders(values.length)})`, values);
    },
    async get(agentId, id) {
      const { rows } = await query(`SELECT ${HANDOFF_COLUMNS} FROM handoffs WHERE id = $1 AND agent_id = $2`, [id, agentId]);
      return rows[0] ? fromRow<HandoffRecord>(HANDOFF_TABLE, rows[0]) : undefined;
    },
    async markIngested(agentId, id, at, runId) {
      const result = await query(
        'UPDATE handoffs SET ingested_at = $3, ingest_run_id = $4, placeholders = NULL WHERE id = $1 AND agent_id = $2 AND ingested_at IS NULL',
        [id, agentId, at, runId],
      );
      return result.rowCount === 1;
    },
  };
}

export function settingsRepo(session: Session, bound?: TxState): SettingsRepo {
  const query = <R extends Record<string, unknown> = Record<string, unknown>>(text: string, values: readonly unknown[] = []) =>
    session.query<R>(text, values, bound);
  return {
    async get(key) {
      const { rows } = await query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key]);
      return rows[0]?.value;
    },
    async setIfAbsent(key, value) {
      const result = await query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, value]);
      return result.rowCount === 1;
    },
    async set(key, value) {
      await query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
    },
    async delete(key, value) {
      const result = await query('DELETE FROM settings WHERE key = $1 AND ($2::text IS NULL OR value = $2)', [key, value ?? null]);
      return result.rowCount === 1;
    },
  };
}

function specOf(table: StoreTable): TableSpec {
  if (!(STORE_TABLES as readonly string[]).includes(table)) {
    throw new UsageError('bad_table', `there is no table "${String(table)}" in a hippo store`, { details: { table } });
  }
  return TABLE_SPECS[table];
}

/**
 * The rows of a table in scope: one agent's (`agent_id = $1`; settings belong to no agent, so none), or all. Returns
 * undefined for "nothing can match" (settings of an agent).
 */
function scopeOf(spec: TableSpec, agentId: string | null, alias?: string): { where: string; values: unknown[] } | undefined {
  if (agentId === null) return { where: 'TRUE', values: [] };
  if (spec.owner === 'store') return undefined;
  return { where: `${alias ? `${alias}.` : ''}agent_id = $1`, values: [agentId] };
}

/**
 * Dump SQL of a table in scope, in key order (`COLLATE "C"`: byte order, as SQLite's). The runs of every agent are
 * both run tables' rows (a run over every agent with a NULL agent).
 */
export function dumpSql(spec: TableSpec, agentId: string | null): { text: string; values: unknown[] } | undefined {
  const scope = scopeOf(spec, agentId);
  if (!scope) return undefined;
  if (spec === RUN_TABLE && agentId === null) {
    return {
      text: `SELECT * FROM (SELECT ${RUN_COLUMNS} FROM runs UNION ALL SELECT ${STORE_RUN_AS_RUN} FROM store_runs) r ORDER BY ${keyOrder(spec)}`,
      values: [],
    };
  }
  return { text: `SELECT ${columnList(spec.columns)} FROM ${spec.name} WHERE ${scope.where} ORDER BY ${keyOrder(spec)}`, values: scope.values };
}

/** The physical tables of a table in scope: the runs of every agent are in both run tables. */
function tablesOf(spec: TableSpec, agentId: string | null): string[] {
  return spec === RUN_TABLE && agentId === null ? [spec.name, STORE_RUN_TABLE.name] : [spec.name];
}

export function rowsRepo(session: Session, bound?: TxState): RowsRepo {
  return {
    dump<T extends StoreTable>(table: T, agentId: string | null): AsyncIterable<TableRows[T]> {
      const spec = specOf(table);
      const sql = dumpSql(spec, agentId);
      return (async function* () {
        if (!sql) return;
        for await (const row of cursorRows(session, bound, sql.text, sql.values)) yield fromRow<TableRows[T]>(spec, row);
      })();
    },
    dumpByThread() {
      const columns = columnList(MEMORY_TABLE.columns);
      return (async function* () {
        // all agents: `db copy` reads every memory, the live threaded ones thread after thread in thread order.
        for (const text of [
          `SELECT ${columns} FROM memories WHERE thread IS NOT NULL AND archived_at IS NULL ORDER BY agent_id, thread, created_at, seq`,
          `SELECT ${columns} FROM memories WHERE thread IS NULL OR archived_at IS NOT NULL ORDER BY id COLLATE "C"`,
        ]) {
          for await (const row of cursorRows(session, bound, text)) yield fromRow<Memory>(MEMORY_TABLE, row);
        }
      })();
    },
    async load(table, rows) {
      const spec = specOf(table);
      if (rows.length === 0) return 0;
      // Every value is checked (NUL, types) before the transaction starts: a bad row refuses the whole call.
      for (const row of rows) toParams(spec, row);
      const run = async (tx: TxState) => {
        if (spec === RUN_TABLE) {
          // A run over every agent (agentId null) goes to store_runs.
          const runs = rows as readonly Run[];
          const ofAgents = runs.filter((row) => row.agentId !== null);
          const ofStore = runs.filter((row) => row.agentId === null);
          return (
            (ofAgents.length > 0 ? await insertRows(session, tx, RUN_TABLE, ofAgents) : 0) +
            (ofStore.length > 0 ? await insertRows(session, tx, STORE_RUN_TABLE, ofStore) : 0)
          );
        }
        // Memories are written with their search context (memories.ts `insertThreaded`): in `dumpByThread` order, each
        // row once; rows landing inside a thread the store holds are re-indexed where they land.
        if (table === 'memories') return insertThreaded(session, tx, rows as readonly TableRows['memories'][]);
        return insertRows(session, tx, spec, rows);
      };
      const tx = bound ?? session.current();
      return tx ? run(tx) : session.transaction(run);
    },
    async deleteAll(table, agentId) {
      const spec = specOf(table);
      const scope = scopeOf(spec, agentId);
      if (!scope) return 0;
      let deleted = 0;
      for (const name of tablesOf(spec, agentId))
        deleted += (await session.query(`DELETE FROM ${name} WHERE ${scope.where}`, scope.values, bound)).rowCount ?? 0;
      return deleted;
    },
    async count(table, agentId) {
      const spec = specOf(table);
      const scope = scopeOf(spec, agentId);
      if (!scope) return 0;
      let count = 0;
      for (const name of tablesOf(spec, agentId)) {
        count += (await session.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${name} WHERE ${scope.where}`, scope.values, bound)).rows[0]!.n;
      }
      return count;
    },
  };
}
