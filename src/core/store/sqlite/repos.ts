/** Candidates, runs, handoffs and settings on SQLite: rows in and out, and the guarded updates. */
import type { Candidate, CandidateStatus, Run, RunKind } from '../../records.js';
import type { CandidateDecision, CandidateRecord, CandidateRepo, HandoffRecord, HandoffRepo, RunRepo, SettingsRepo } from '../port.js';
import { CANDIDATE_PUBLIC_COLUMNS, CANDIDATE_TABLE, columnList, HANDOFF_TABLE, RUN_FINISH_COLUMNS, RUN_TABLE, setList } from '../tables.js';
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
export const runFromRow = (row: Record<string, unknown>): Run => fromRow<Run>(RUN_TABLE, row);
/** The parameters of INSERT_RUN. */
export const runParams = (run: Run): unknown[] => toParams(run, RUN_TABLE.columns);
export const INSERT_RUN = insertSql(RUN_TABLE);
const FINISH_RUN = `UPDATE runs SET ${setList(RUN_FINISH_COLUMNS, () => '?')} WHERE id = ? AND status = 'running'`;

export class SqliteRuns implements RunRepo {
  constructor(private readonly c: Connection) {}

  async insert(run: Run): Promise<void> {
    await this.c.use(() => this.c.statement(INSERT_RUN).run(...runParams(run)));
  }

  async finish(run: Run): Promise<boolean> {
    return this.c.use(() => this.c.statement(FINISH_RUN).run(...toParams(run, RUN_FINISH_COLUMNS), run.id).changes === 1);
  }

  async setSnapshotPath(id: string, path: string): Promise<void> {
    await this.c.use(() => this.c.statement('UPDATE runs SET snapshot_path = ? WHERE id = ?').run(path, id));
  }

  async get(id: string, agentId?: string): Promise<Run | undefined> {
    return this.c.use(() => {
      const row = this.c
        .statement(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = @id AND (@agentId IS NULL OR agent_id = @agentId OR agent_id IS NULL)`)
        .get({ id, agentId: agentId ?? null }) as Record<string, unknown> | undefined;
      return row ? runFromRow(row) : undefined;
    });
  }

  async list(options: { limit: number; agentId?: string }): Promise<Run[]> {
    return this.c.use(() =>
      (
        this.c
          .statement(
            `SELECT ${RUN_COLUMNS} FROM runs ${options.agentId === undefined ? '' : 'WHERE agent_id = @agentId OR agent_id IS NULL'} ORDER BY started_at DESC, id DESC LIMIT @limit`,
          )
          .all({ agentId: options.agentId ?? null, limit: options.limit }) as Record<string, unknown>[]
      ).map(runFromRow),
    );
  }

  async interruptAbandoned(runId: string, now: string): Promise<number> {
    return this.c.use(
      () =>
        this.c
          .statement(
            `UPDATE runs SET status = 'interrupted', finished_at = @now, errors = '["interrupted"]',
               duration_ms = max(0, CAST(round((julianday(@now) - julianday(started_at)) * 86400000) AS INTEGER))
             WHERE status = 'running' AND (id = @runId OR parent_run_id = @runId)`,
          )
          .run({ now, runId }).changes,
    );
  }

  async kindOf(id: string): Promise<RunKind | undefined> {
    return this.c.use(() => this.c.statement('SELECT kind FROM runs WHERE id = ?').pluck().get(id) as RunKind | undefined);
  }

  async prune(before: string, options: { dryRun?: boolean } = {}): Promise<number> {
    return this.c.use(() =>
      options.dryRun
        ? (this.c.statement("SELECT count(*) FROM runs WHERE started_at < ? AND status <> 'running'").pluck().get(before) as number)
        : this.c.statement("DELETE FROM runs WHERE started_at < ? AND status <> 'running'").run(before).changes,
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
