/** Candidates, runs, handoffs and settings on SQLite: rows in and out, and the guarded updates. */
import type { Candidate, CandidateStatus, Focus, Run, RunKind, RunStatus } from '../../records.js';
import type { CandidateRecord, CandidateRepo, HandoffRecord, HandoffRepo, RunRepo, SettingsRepo } from '../port.js';
import type { Connection } from './connection.js';

// ---- candidates -------------------------------------------------------------------------------------------------

export interface CandidateRow {
  id: string;
  agent_id: string;
  claim: string;
  claim_norm: string;
  edited_claim: string | null;
  status: CandidateStatus;
  source_memory_ids: string;
  tags: string;
  generated_by: string;
  provider: string;
  generated_at: string;
  run_id: string;
  prompt_sha256: string;
  prompt: string;
  reviewer: string | null;
  review_rationale: string | null;
  decided_at: string | null;
  promoted_memory_id: string | null;
  forgotten_sources: string;
  reopened_by: string | null;
  reopened_at: string | null;
  reopen_reason: string | null;
}

const CANDIDATE_COLUMNS =
  'id, agent_id, claim, edited_claim, status, source_memory_ids, tags, generated_by, provider, generated_at, run_id, prompt_sha256, reviewer, review_rationale, decided_at, promoted_memory_id, forgotten_sources, reopened_by, reopened_at, reopen_reason';
export const CANDIDATE_RECORD_COLUMNS = `${CANDIDATE_COLUMNS}, claim_norm, prompt`;

export function candidateFromRow(row: Omit<CandidateRow, 'claim_norm' | 'prompt'>): Candidate {
  return {
    id: row.id,
    agentId: row.agent_id,
    claim: row.claim,
    editedClaim: row.edited_claim,
    status: row.status,
    sourceMemoryIds: JSON.parse(row.source_memory_ids) as string[],
    tags: JSON.parse(row.tags) as string[],
    generatedBy: row.generated_by,
    provider: row.provider,
    generatedAt: row.generated_at,
    runId: row.run_id,
    promptSha256: row.prompt_sha256,
    reviewer: row.reviewer,
    reviewRationale: row.review_rationale,
    decidedAt: row.decided_at,
    promotedMemoryId: row.promoted_memory_id,
    forgottenSourceIds: JSON.parse(row.forgotten_sources) as string[],
    reopenedBy: row.reopened_by,
    reopenedAt: row.reopened_at,
    reopenReason: row.reopen_reason,
  };
}

export function candidateRecordFromRow(row: CandidateRow): CandidateRecord {
  return { ...candidateFromRow(row), claimNorm: row.claim_norm, prompt: row.prompt };
}

/** The parameters of an INSERT over CANDIDATE_RECORD_COLUMNS. */
export function candidateParams(candidate: CandidateRecord): unknown[] {
  return [
    candidate.id,
    candidate.agentId,
    candidate.claim,
    candidate.editedClaim,
    candidate.status,
    JSON.stringify(candidate.sourceMemoryIds),
    JSON.stringify(candidate.tags),
    candidate.generatedBy,
    candidate.provider,
    candidate.generatedAt,
    candidate.runId,
    candidate.promptSha256,
    candidate.reviewer,
    candidate.reviewRationale,
    candidate.decidedAt,
    candidate.promotedMemoryId,
    JSON.stringify(candidate.forgottenSourceIds),
    candidate.reopenedBy,
    candidate.reopenedAt,
    candidate.reopenReason,
    candidate.claimNorm,
    candidate.prompt,
  ];
}

export const INSERT_CANDIDATE = `INSERT INTO candidates (${CANDIDATE_RECORD_COLUMNS}) VALUES (${Array(22).fill('?').join(', ')}) ON CONFLICT (id) DO NOTHING`;

export class SqliteCandidates implements CandidateRepo {
  constructor(private readonly c: Connection) {}

  async get(agentId: string, id: string): Promise<Candidate | undefined> {
    return this.c.use(() => {
      const row = this.c.statement(`SELECT ${CANDIDATE_COLUMNS} FROM candidates WHERE id = ? AND agent_id = ?`).get(id, agentId) as CandidateRow | undefined;
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
          .all({ agentId: options.agentId, status: options.status, limit: options.limit }) as CandidateRow[]
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

  async decide(
    agentId: string,
    id: string,
    decision: {
      status: 'promoted' | 'rejected';
      reviewer: string;
      rationale: string;
      decidedAt: string;
      promotedMemoryId?: string | null;
      editedClaim?: string | null;
    },
  ): Promise<boolean> {
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
}

// ---- runs -------------------------------------------------------------------------------------------------------

export interface RunRow {
  id: string;
  kind: RunKind;
  agent_id: string | null;
  started_at: string;
  finished_at: string | null;
  status: RunStatus;
  snapshot_path: string | null;
  counts: string;
  candidate_ids: string;
  model: string | null;
  errors: string;
  duration_ms: number | null;
  parent_run_id: string | null;
  steps: string;
  memory_ids: string;
}

export const RUN_COLUMNS =
  'id, kind, agent_id, started_at, finished_at, status, snapshot_path, counts, candidate_ids, model, errors, duration_ms, parent_run_id, steps, memory_ids';

export function runFromRow(row: RunRow): Run {
  return {
    id: row.id,
    kind: row.kind,
    agentId: row.agent_id,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    status: row.status,
    snapshotPath: row.snapshot_path,
    counts: JSON.parse(row.counts) as Run['counts'],
    candidateIds: JSON.parse(row.candidate_ids) as string[],
    model: row.model,
    errors: JSON.parse(row.errors) as string[],
    durationMs: row.duration_ms,
    parentRunId: row.parent_run_id,
    steps: JSON.parse(row.steps) as Record<string, string>,
    memoryIds: JSON.parse(row.memory_ids) as string[],
  };
}

export function runParams(run: Run): unknown[] {
  return [
    run.id,
    run.kind,
    run.agentId,
    run.startedAt,
    run.finishedAt,
    run.status,
    run.snapshotPath,
    JSON.stringify(run.counts),
    JSON.stringify(run.candidateIds),
    run.model,
    JSON.stringify(run.errors),
    run.durationMs,
    run.parentRunId,
    JSON.stringify(run.steps),
    JSON.stringify(run.memoryIds),
  ];
}

export const INSERT_RUN = `INSERT INTO runs (${RUN_COLUMNS}) VALUES (${Array(15).fill('?').join(', ')}) ON CONFLICT (id) DO NOTHING`;

export class SqliteRuns implements RunRepo {
  constructor(private readonly c: Connection) {}

  async insert(run: Run): Promise<void> {
    await this.c.use(() => this.c.statement(INSERT_RUN).run(...runParams(run)));
  }

  async finish(run: Run): Promise<boolean> {
    return this.c.use(
      () =>
        this.c
          .statement(
            `UPDATE runs SET finished_at = ?, status = ?, counts = ?, candidate_ids = ?, model = ?, errors = ?, snapshot_path = ?, steps = ?, duration_ms = ?,
                    memory_ids = ?
             WHERE id = ? AND status = 'running'`,
          )
          .run(
            run.finishedAt,
            run.status,
            JSON.stringify(run.counts),
            JSON.stringify(run.candidateIds),
            run.model,
            JSON.stringify(run.errors),
            run.snapshotPath,
            JSON.stringify(run.steps),
            run.durationMs,
            JSON.stringify(run.memoryIds),
            run.id,
          ).changes === 1,
    );
  }

  async setSnapshotPath(id: string, path: string): Promise<void> {
    await this.c.use(() => this.c.statement('UPDATE runs SET snapshot_path = ? WHERE id = ?').run(path, id));
  }

  async get(id: string, agentId?: string): Promise<Run | undefined> {
    return this.c.use(() => {
      const row = this.c
        .statement(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = @id AND (@agentId IS NULL OR agent_id = @agentId OR agent_id IS NULL)`)
        .get({ id, agentId: agentId ?? null }) as RunRow | undefined;
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
          .all({ agentId: options.agentId ?? null, limit: options.limit }) as RunRow[]
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

export interface HandoffRow {
  id: string;
  agent_id: string;
  created_at: string;
  focus: Focus;
  refs: string;
  prompt_sha256: string;
  prompt: string;
  max_candidates: number;
  expires_at: string;
  ingested_at: string | null;
  ingest_run_id: string | null;
  placeholders: string | null;
}

export const HANDOFF_COLUMNS =
  'id, agent_id, created_at, focus, refs, prompt_sha256, prompt, max_candidates, expires_at, ingested_at, ingest_run_id, placeholders';

export function handoffFromRow(row: HandoffRow): HandoffRecord {
  return {
    id: row.id,
    agentId: row.agent_id,
    createdAt: row.created_at,
    focus: row.focus,
    refs: JSON.parse(row.refs) as Record<string, string>,
    promptSha256: row.prompt_sha256,
    prompt: row.prompt,
    maxCandidates: row.max_candidates,
    expiresAt: row.expires_at,
    ingestedAt: row.ingested_at,
    ingestRunId: row.ingest_run_id,
    placeholders: row.placeholders === null ? null : (JSON.parse(row.placeholders) as Record<string, string>),
  };
}

export function handoffParams(handoff: HandoffRecord): unknown[] {
  return [
    handoff.id,
    handoff.agentId,
    handoff.createdAt,
    handoff.focus,
    JSON.stringify(handoff.refs),
    handoff.promptSha256,
    handoff.prompt,
    handoff.maxCandidates,
    handoff.expiresAt,
    handoff.ingestedAt,
    handoff.ingestRunId,
    handoff.placeholders === null || handoff.placeholders === undefined ? null : JSON.stringify(handoff.placeholders),
  ];
}

export const INSERT_HANDOFF = `INSERT INTO handoffs (${HANDOFF_COLUMNS}) VALUES (${Array(12).fill('?').join(', ')}) ON CONFLICT (id) DO NOTHING`;

export class SqliteHandoffs implements HandoffRepo {
  constructor(private readonly c: Connection) {}

  async insert(handoff: HandoffRecord): Promise<void> {
    await this.c.use(() => this.c.statement(INSERT_HANDOFF).run(...handoffParams(handoff)));
  }

  async get(agentId: string, id: string): Promise<HandoffRecord | undefined> {
    return this.c.use(() => {
      const row = this.c.statement(`SELECT ${HANDOFF_COLUMNS} FROM handoffs WHERE id = ? AND agent_id = ?`).get(id, agentId) as HandoffRow | undefined;
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
