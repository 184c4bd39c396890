/** Candidates, runs, handoffs and settings on SQLite: rows in and out, and the guarded updates. */
import type { Candidate, CandidateStatus, Run, RunKind } from '../../records.js';
import type { CandidateDecision, CandidateRecord, CandidateRepo, DecidedClaim, HandoffRecord, HandoffRepo, RunRepo, SettingsRepo } from '../port.js';
import { CANDIDATE_PUBLIC_COLUMNS, CANDIDATE_TABLE, columnList, HANDOFF_TABLE, RUN_FINISH_COLUMNS, RUN_TABLE, setList, STORE_RUN_TABLE } from '../tables.js';
import { fromRow, insertSql, toParams } from './codec.js';
import type { Connection } from './connection.js';

// ---- candidates -------------------------------------------------------------------------------------------------

const CANDIDATE_COLUMNS = columnList(CANDIDATE_PUBLIC_COLUMNS);
export const CANDIDATE_RECORD_COLUMNS = columnList(CANDIDATE_TABLE.columns);

export const candidateFromRow = (row: Record<string, unknown>): Candidate => fromRow<Candidate>(CANDIDATE_TABLE, row, CANDIDATE_PUBLIC_COLUMNS);
export const candidateRecordFromRow = (row: Record<string, unknown>): CandidateRecord => fromRow<CandidateRecord>(CANDIDATE_TABLE, row);
/** The parameters of INSERT_CANDIDATE. */
export const candidateParams = (candidate: CandidateRecord): unknown[] => toParams(candidate, CANDIDATE_TABLE.columns);
export const INSERT_CANDIDATE = insertSql(CANDIDATE_TABLE);

export class SqliteCandidates implements CandidateRepo {
  constructor(private readonly c: Connection) {}

  async get(agentId: string, id: string): Promise<Candidate | undefined> {
    return this.c.use(() => {
      const row = this.c.statement(`SELECT ${CANDIDATE_COLUMNS} FROM candidates WHERE id = ? AND agent_id = ?`).get(id, agentId) as
        Record<string, unknown> | undefined;
      return row ? candidateFromRow(row) : undefined;
    });
  }

  async prompt(agentId: string, id: string): Promise<string | undefined> {
    return this.c.use(() => this.c.statement('SELECT prompt FROM candidates WHERE id = ? AND agent_id = ?').pluck().get(id, agentId) as string | undefined);
  }

  async list(options: { agentId: string; status: CandidateStatus | 'all'; limit: number }): Promise<Candidate[]> {
    return this.c.use(() =>
      (
        this.c
          .statement(
            `SELECT ${CANDIDATE_COLUMNS} FROM candidates WHERE agent_id = @agentId ${options.status === 'all' ? '' : 'AND status = @status'}
             ORDER BY generated_at DESC, id DESC LIMIT @limit`,
          )
          .all({ agentId: options.agentId, status: options.status, limit: options.limit }) as Record<string, unknown>[]
      ).map(candidateFromRow),
    );
  }

  async count(options: { agentId: string; status: CandidateStatus | 'all' }): Promise<number> {
    return this.c.use(
      () =>
        this.c
          .statement(`SELECT count(*) FROM candidates WHERE agent_id = @agentId ${options.status === 'all' ? '' : 'AND status = @status'}`)
          .pluck()
          .get({ agentId: options.agentId, status: options.status }) as number,
    );
  }

  async claimStatus(agentId: string, claimNorm: string): Promise<{ live: boolean; rejected: boolean }> {
    return this.c.use(() => {
      const found = this.c
        .statement(
          "SELECT max(status IN ('pending','promoted')) AS live, max(status = 'rejected') AS rejected FROM candidates WHERE agent_id = ? AND claim_norm = ?",
        )
        .get(agentId, claimNorm) as { live: number | null; rejected: number | null };
      return { live: found.live === 1, rejected: found.rejected === 1 };
    });
  }

  async decided(agentId: string, options: { kind: 'rejected' | 'edited'; limit: number; claimNorm?: string }): Promise<DecidedClaim[]> {
    return this.c.use(() =>
      (
        this.c
          .statement(
            `SELECT id, claim, edited_claim, review_rationale, decided_at, promoted_memory_id, forgotten_sources != '[]' AS forgotten FROM candidates
             WHERE agent_id = @agentId AND status = @status ${options.kind === 'edited' ? 'AND edited_claim IS NOT NULL' : ''}
               ${options.claimNorm === undefined ? '' : 'AND claim_norm = @claimNorm'}
             ORDER BY decided_at DESC, id DESC LIMIT @limit`,
          )
          .all({
            agentId,
            status: options.kind === 'edited' ? 'promoted' : 'rejected',
            limit: options.limit,
            ...(options.claimNorm === undefined ? {} : { claimNorm: options.claimNorm }),
          }) as {
          id: string;
          claim: string;
          edited_claim: string | null;
          review_rationale: string | null;
          decided_at: string | null;
          promoted_memory_id: string | null;
          forgotten: number;
        }[]
      ).map((row) => ({
        id: row.id,
        claim: row.claim,
        editedClaim: row.edited_claim,
        rationale: row.review_rationale ?? '',
        decidedAt: row.decided_at ?? '',
        sourcesForgotten: row.forgotten === 1,
        promotedMemoryId: row.promoted_memory_id,
      })),
    );
  }

  async insert(candidate: CandidateRecord): Promise<void> {
    await this.c.use(() => this.c.statement(INSERT_CANDIDATE).run(...candidateParams(candidate)));
  }

  async decide(agentId: string, id: string, decision: CandidateDecision): Promise<boolean> {
    return this.c.use(
      () =>
        this.c
          .statement(
            `UPDATE candidates SET status = ?, reviewer = ?, review_rationale = ?, decided_at = ?, promoted_memory_id = ?, edited_claim = ?
             WHERE id = ? AND agent_id = ? AND status = 'pending'`,
          )
          .run(
            decision.status,
            decision.reviewer,
            decision.rationale,
            decision.decidedAt,
            decision.promotedMemoryId ?? null,
            decision.editedClaim ?? null,
            id,
            agentId,
          ).changes === 1,
    );
  }

  async reopen(agentId: string, id: string, reopening: { by: string; reason: string; at: string }): Promise<boolean> {
    return this.c.use(
      () =>
        this.c
          .statement(
            `UPDATE candidates SET status = 'pending', reviewer = NULL, review_rationale = NULL, decided_at = NULL,
                    reopened_by = ?, reopened_at = ?, reopen_reason = ?
             WHERE id = ? AND agent_id = ? AND status = 'rejected'`,
          )
          .run(reopening.by, reopening.at, reopening.reason, id, agentId).changes === 1,
    );
  }

  async pendingCounts(): Promise<{ agentId: string; pending: number }[]> {
    return this.c.use(
      () =>
        this.c
          .statement("SELECT agent_id AS agentId, count(*) AS pending FROM candidates WHERE status = 'pending' GROUP BY agent_id ORDER BY agent_id")
          .all() as { agentId: string; pending: number }[],
    );
  }

  async agentsOf(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    return this.c.use(() => {
      // all agents: which agent owns each candidate an import line names (issue 27, promotedFrom).
      const rows = this.c.statement('SELECT id, agent_id AS agentId FROM candidates WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as {
        id: string;
        agentId: string;
      }[];
      return new Map(rows.map((row) => [row.id, row.agentId]));
    });
  }
}

// ---- runs -------------------------------------------------------------------------------------------------------

export const RUN_COLUMNS = columnList(RUN_TABLE.columns);
/** A store-wide run's row read with the agent's runs' columns (its agent_id NULL). */
export const STORE_RUN_AS_RUN = RUN_TABLE.columns.map((column) => (column.name === 'agent_id' ? 'NULL AS agent_id' : column.name)).join(', ');
/** Both run tables as one audit log (agent_id NULL for a run over every agent). */
export const ALL_RUNS = `(SELECT ${RUN_COLUMNS} FROM runs UNION ALL SELECT ${STORE_RUN_AS_RUN} FROM store_runs)`;
export const runFromRow = (row: Record<string, unknown>): Run => fromRow<Run>(RUN_TABLE, row);
/** A run's INSERT and its parameters: an agent's run into `runs`, a run over every agent into `store_runs`. */
export const insertRun = (run: Run): { sql: string; params: unknown[] } =>
  run.agentId === null
    ? { sql: insertSql(STORE_RUN_TABLE), params: toParams(run, STORE_RUN_TABLE.columns) }
    : { sql: insertSql(RUN_TABLE), params: toParams(run, RUN_TABLE.columns) };
const FINISH_SET = setList(RUN_FINISH_COLUMNS, () => '?');

/**
 * The audit log in two tables (tables.ts): an agent's runs in `runs`, the runs over every agent in `store_runs`; the
 * run's agent routes every write, and a read by id alone looks in both.
 */
export class SqliteRuns implements RunRepo {
  constructor(private readonly c: Connection) {}

  async insert(run: Run): Promise<void> {
    const { sql, params } = insertRun(run);
    await this.c.use(() => this.c.statement(sql).run(...params));
  }

  async finish(run: Run): Promise<boolean> {
    return this.c.use(() =>
      run.agentId === null
        ? this.c.statement(`UPDATE store_runs SET ${FINISH_SET} WHERE id = ? AND status = 'running'`).run(...toParams(run, RUN_FINISH_COLUMNS), run.id)
            .changes === 1
        : this.c
            .statement(`UPDATE runs SET ${FINISH_SET} WHERE agent_id = ? AND id = ? AND status = 'running'`)
            .run(...toParams(run, RUN_FINISH_COLUMNS), run.agentId, run.id).changes === 1,
    );
  }

  async setSnapshotPath(id: string, path: string, agentId?: string | null): Promise<void> {
    await this.c.use(() => {
      if (agentId !== undefined && agentId !== null) {
        this.c.statement('UPDATE runs SET snapshot_path = ? WHERE agent_id = ? AND id = ?').run(path, agentId, id);
        return;
      }
      const changed = this.c.statement('UPDATE store_runs SET snapshot_path = ? WHERE id = ?').run(path, id).changes;
      // all agents: a run whose agent the caller does not know.
      if (changed === 0 && agentId === undefined) this.c.statement('UPDATE runs SET snapshot_path = ? WHERE id = ?').run(path, id);
    });
  }

  async get(id: string, agentId?: string): Promise<Run | undefined> {
    return this.c.use(() => {
      const row = (this.c.statement(`SELECT ${STORE_RUN_AS_RUN} FROM store_runs WHERE id = ?`).get(id) ??
        (agentId === undefined
          ? this.c.statement(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`).get(id)
          : this.c.statement(`SELECT ${RUN_COLUMNS} FROM runs WHERE agent_id = ? AND id = ?`).get(agentId, id))) as Record<string, unknown> | undefined;
      return row ? runFromRow(row) : undefined;
    });
  }

  async list(options: { limit: number; agentId?: string }): Promise<Run[]> {
    return this.c.use(() =>
      (
        this.c
          .statement(
            `SELECT * FROM (SELECT ${RUN_COLUMNS} FROM runs ${options.agentId === undefined ? '' : 'WHERE agent_id = @agentId'}
             UNION ALL SELECT ${STORE_RUN_AS_RUN} FROM store_runs) ORDER BY started_at DESC, id DESC LIMIT @limit`,
          )
          .all(options.agentId === undefined ? { limit: options.limit } : { agentId: options.agentId, limit: options.limit }) as Record<string, unknown>[]
      ).map(runFromRow),
    );
  }

  async count(options: { agentId?: string }): Promise<number> {
    // Without an agent: all agents (`rem runs --all-agents`), as `list`.
    return this.c.use(
      () =>
        this.c
          .statement(
            `SELECT (SELECT count(*) FROM runs ${options.agentId === undefined ? '' : 'WHERE agent_id = @agentId'}) + (SELECT count(*) FROM store_runs)`,
          )
          .pluck()
          .get({ agentId: options.agentId ?? null }) as number,
    );
  }

  async interruptAbandoned(runId: string, now: string): Promise<number> {
    const set = `status = 'interrupted', finished_at = @now, errors = '["interrupted"]',
               duration_ms = max(0, CAST(round((julianday(@now) - julianday(started_at)) * 86400000) AS INTEGER))`;
    return this.c.use(
      () =>
        this.c.statement(`UPDATE store_runs SET ${set} WHERE status = 'running' AND id = @runId`).run({ now, runId }).changes +
        // all agents: a dead lock holder's run and its children (a nightly's child runs span the agents).
        this.c.statement(`UPDATE runs SET ${set} WHERE status = 'running' AND (id = @runId OR parent_run_id = @runId)`).run({ now, runId }).changes,
    );
  }

  async kindOf(id: string): Promise<RunKind | undefined> {
    return this.c.use(
      () =>
        this.c.statement('SELECT kind FROM store_runs WHERE id = ? UNION ALL SELECT kind FROM runs WHERE id = ? LIMIT 1').pluck().get(id, id) as
          RunKind | undefined,
    );
  }

  async prune(before: string, options: { dryRun?: boolean } = {}): Promise<number> {
    // all agents: the audit log's prune is a store-wide operation.
    return this.c.use(() =>
      ['runs', 'store_runs'].reduce(
        (sum, table) =>
          sum +
          (options.dryRun
            ? (this.c.statement(`SELECT count(*) FROM ${table} WHERE started_at < ? AND status <> 'running'`).pluck().get(before) as number)
            : this.c.statement(`DELETE FROM ${table} WHERE started_at < ? AND status <> 'running'`).run(before).changes),
        0,
      ),
    );
  }
}

// ---- handoffs ---------------------------------------------------------------------------------------------------

export const HANDOFF_COLUMNS = columnList(HANDOFF_TABLE.columns);
export const handoffFromRow = (row: Record<string, unknown>): HandoffRecord => fromRow<HandoffRecord>(HANDOFF_TABLE, row);
/** The parameters of INSERT_HANDOFF. */
export const handoffParams = (handoff: HandoffRecord): unknown[] => toParams(handoff, HANDOFF_TABLE.columns);
export const INSERT_HANDOFF = insertSql(HANDOFF_TABLE);

export class SqliteHandoffs implements HandoffRepo {
  constructor(private readonly c: Connection) {}

  async insert(handoff: HandoffRecord): Promise<void> {
    await this.c.use(() => this.c.statement(INSERT_HANDOFF).run(...handoffParams(handoff)));
  }

  async get(agentId: string, id: string): Promise<HandoffRecord | undefined> {
    return this.c.use(() => {
      const row = this.c.statement(`SELECT ${HANDOFF_COLUMNS} FROM handoffs WHERE id = ? AND agent_id = ?`).get(id, agentId) as
        Record<string, unknown> | undefined;
      return row ? handoffFromRow(row) : undefined;
    });
  }

  async markIngested(agentId: string, id: string, at: string, runId: string): Promise<boolean> {
    return this.c.use(
      () =>
        this.c
          .statement('UPDATE handoffs SET ingested_at = ?, ingest_run_id = ?, placeholders = NULL WHERE id = ? AND agent_id = ? AND ingested_at IS NULL')
          .run(at, runId, id, agentId).changes === 1,
    );
  }
}

// ---- settings ---------------------------------------------------------------------------------------------------

export class SqliteSettings implements SettingsRepo {
  constructor(private readonly c: Connection) {}

  async get(key: string): Promise<string | undefined> {
    return this.c.use(() => this.c.statement('SELECT value FROM settings WHERE key = ?').pluck().get(key) as string | undefined);
  }

  async setIfAbsent(key: string, value: string): Promise<boolean> {
    return this.c.use(() => this.c.statement('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING').run(key, value).changes === 1);
  }

  async set(key: string, value: string): Promise<void> {
    await this.c.use(() =>
      this.c.statement('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value),
    );
  }

  async delete(key: string, value?: string): Promise<boolean> {
    return this.c.use(
      () =>
        (value === undefined
          ? this.c.statement('DELETE FROM settings WHERE key = ?').run(key)
          : this.c.statement('DELETE FROM settings WHERE key = ? AND value = ?').run(key, value)
        ).changes === 1,
    );
  }
}
