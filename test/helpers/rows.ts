/**
 * The run and handoff rows the store tests insert, with every field set (a round trip compares them field for field):
 * one builder each, used by the contract test, the PostgreSQL adapter's helpers and the lock-holder fixture.
 */
import { newId } from '../../src/core/ids.js';
import type { Run } from '../../src/core/records.js';
import type { HandoffRecord } from '../../src/core/store/port.js';

const WEEK = 7 * 24 * 3_600_000;

/** A running run of `agentId` (null: a run over every agent) started at `now` unless `fields` say otherwise. */
export function runRow(agentId: string | null, now: string, fields: Partial<Run> = {}): Run {
  const startedAt = fields.startedAt ?? now;
  return {
    id: newId('run', Date.parse(startedAt)),
    kind: 'rem rapid',
    agentId,
    startedAt,
    finishedAt: null,
    status: 'running',
    snapshotPath: null,
    counts: {},
    candidateIds: [],
    model: null,
    errors: [],
    durationMs: null,
    parentRunId: null,
    steps: {},
    memoryIds: [],
    ...fields,
  };
}

/** A handoff of `agentId` made at `now` unless `fields` say otherwise, not ingested, expiring a week later. */
export function handoffRow(agentId: string, now: string, fields: Partial<HandoffRecord> = {}): HandoffRecord {
  const createdAt = fields.createdAt ?? now;
  return {
    id: newId('hof', Date.parse(createdAt)),
    agentId,
    createdAt,
    focus: 'lessons',
    refs: { m1: newId('mem'), m2: newId('mem') },
    promptSha256: 'b'.repeat(64),
    expiresAt: new Date(Date.parse(createdAt) + WEEK).toISOString(),
    maxCandidates: 5,
    ingestedAt: null,
    ingestRunId: null,
    prompt: '<the prompt shown>',
    placeholders: null,
    ...fields,
  };
}

const RUN_SQL_COLUMNS = 'started_at, finished_at, status, snapshot_path, counts, candidate_ids, model, errors, duration_ms, parent_run_id, steps, memory_ids';

/**
 * Every run row of a SQLite store as one table, for tests that read the audit log in SQL: an agent's runs (`runs`) and
 * the runs over every agent (`store_runs`, agent_id NULL; issue 25). Use as `SELECT … FROM ${ALL_RUNS} …`.
 */
export const ALL_RUNS = `(SELECT id, kind, agent_id, ${RUN_SQL_COLUMNS} FROM runs UNION ALL SELECT id, kind, NULL AS agent_id, ${RUN_SQL_COLUMNS} FROM store_runs) AS runs`;
