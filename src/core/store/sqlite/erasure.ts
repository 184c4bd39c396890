/**
 * Erasing on SQLite (port.ts `ErasureRepo`): the memories of an `EraseSpec` and every trace of their text in the rows
 * that cite or hold it, as the core's rewriter says. The same statements run on the live store and on a copy of a
 * snapshot being rewritten (snapshots.ts), so both erase exactly the same rows.
 *
 * The text leaves the file, not only the tables: secure_delete is on for every connection (open.ts), so a deleted or
 * rewritten row is overwritten with zeros, and the memories are deleted with FTS5's secure-delete on, so their terms
 * leave the full-text index at once instead of waiting behind delete markers for a merge; their thread neighbours are
 * re-indexed the same way, so no neighbour's search context keeps their text. What is still in the WAL
 * goes at the checkpoint `reclaim()` runs after the transaction.
 */
import type { CandidateRecord, EraseReport, EraseRewriter, EraseSpec, ErasureRepo, HandoffRecord } from '../port.js';
import type { Connection } from './connection.js';
import { MEMORY_COLUMNS, memoryFromRow } from './codec.js';
import { forgetRows } from './memories.js';
import {
  CANDIDATE_RECORD_COLUMNS,
  candidateParams,
  candidateRecordFromRow,
  HANDOFF_COLUMNS,
  handoffFromRow,
  handoffParams,
  INSERT_CANDIDATE,
  INSERT_HANDOFF,
} from './repos.js';

/** A memory the spec names: by id, or (with a match) by its content, subject or a tag holding the text. */
const NAMED = `(id IN (SELECT value FROM json_each(@ids))
  OR (@match IS NOT NULL AND (instr(content, @match) > 0 OR instr(coalesce(subject, ''), @match) > 0
      OR EXISTS (SELECT 1 FROM json_each(memories.tags) WHERE instr(value, @match) > 0))))`;

/** Runs an erase on `c` (call it inside a transaction of `c`): selects, rewrites, and unless `dryRun` writes. */
export function eraseRows(c: Connection, spec: EraseSpec, rewriter: EraseRewriter, dryRun: boolean): EraseReport {
  const params = { agentId: spec.agentId, ids: JSON.stringify([...new Set(spec.memoryIds)]), match: spec.match ?? null };
  // The named memories, and every older version of one of them (or of an id given that is gone already).
  const memories = (
    c
      .statement(
        `SELECT ${MEMORY_COLUMNS} FROM memories WHERE agent_id = @agentId AND (${NAMED}
           OR version_of IN (SELECT value FROM json_each(@ids))
           OR version_of IN (SELECT id FROM memories WHERE agent_id = @agentId AND ${NAMED}))
         ORDER BY created_at, id`,
      )
      .all(params) as Record<string, unknown>[]
  ).map(memoryFromRow);
  const rewrite = rewriter(memories);
  const erased = JSON.stringify(memories.map((memory) => memory.id));
  const needles = JSON.stringify([...new Set(rewrite.needles)].filter((needle) => needle !== ''));
  const report: EraseReport = { memories, candidatesChanged: [], candidatesDeleted: [], handoffsChanged: [] };

  const candidates = (
    c
      .statement(
        `SELECT ${CANDIDATE_RECORD_COLUMNS} FROM candidates WHERE agent_id = @agentId AND (
           EXISTS (SELECT 1 FROM json_each(candidates.source_memory_ids) s WHERE s.value IN (SELECT value FROM json_each(@erased)))
           OR promoted_memory_id IN (SELECT value FROM json_each(@erased))
           OR EXISTS (SELECT 1 FROM json_each(@needles) n
                      WHERE instr(candidates.claim, n.value) > 0 OR instr(coalesce(candidates.edited_claim, ''), n.value) > 0
                         OR instr(candidates.prompt, n.value) > 0
                         OR EXISTS (SELECT 1 FROM json_each(candidates.tags) t WHERE instr(t.value, n.value) > 0)))
         ORDER BY id`,
      )
      .all({ agentId: spec.agentId, erased, needles }) as Record<string, unknown>[]
  ).map(candidateRecordFromRow);
  const rewrittenCandidates: CandidateRecord[] = [];
  for (const candidate of candidates) {
    const next = rewrite.candidate(candidate);
    if (next === null) report.candidatesDeleted.push(candidate.id);
    else if (next !== candidate) {
      report.candidatesChanged.push(candidate.id);
      rewrittenCandidates.push(next);
    }
  }

  const handoffs = (
    c
      .statement(
        `SELECT ${HANDOFF_COLUMNS} FROM handoffs WHERE agent_id = @agentId AND (
           EXISTS (SELECT 1 FROM json_each(handoffs.refs) r WHERE r.value IN (SELECT value FROM json_each(@erased)))
           OR EXISTS (SELECT 1 FROM json_each(@needles) n WHERE instr(handoffs.prompt, n.value) > 0))
         ORDER BY id`,
      )
      .all({ agentId: spec.agentId, erased, needles }) as Record<string, unknown>[]
  ).map(handoffFromRow);
  const rewrittenHandoffs: HandoffRecord[] = [];
  for (const handoff of handoffs) {
    const next = rewrite.handoff(handoff);
    if (next !== handoff) {
      report.handoffsChanged.push(handoff.id);
      rewrittenHandoffs.push(next);
    }
  }
  if (dryRun) return report;

  // A rewritten row replaces the old one whole (secure_delete zeroes what the old row held).
  const deleteCandidate = c.statement('DELETE FROM candidates WHERE id = ? AND agent_id = ?');
  for (const id of report.candidatesDeleted) deleteCandidate.run(id, spec.agentId);
  for (const candidate of rewrittenCandidates) {
    deleteCandidate.run(candidate.id, spec.agentId);
    c.statement(INSERT_CANDIDATE).run(...candidateParams({ ...candidate, id: candidate.id, agentId: spec.agentId }));
  }
  const deleteHandoff = c.statement('DELETE FROM handoffs WHERE id = ? AND agent_id = ?');
  for (const handoff of rewrittenHandoffs) {
    deleteHandoff.run(handoff.id, spec.agentId);
    c.statement(INSERT_HANDOFF).run(...handoffParams({ ...handoff, id: handoff.id, agentId: spec.agentId }));
  }
  // Deleted with FTS5's secure-delete, and their thread neighbours re-indexed so no neighbour's context keeps the text.
  if (memories.length > 0) {
    forgetRows(
      c,
      spec.agentId,
      memories.map((memory) => memory.id),
    );
  }
  return report;
}

export class SqliteErasure implements ErasureRepo {
  constructor(private readonly c: Connection) {}

  async erase(spec: EraseSpec, rewriter: EraseRewriter, options: { dryRun?: boolean } = {}): Promise<EraseReport> {
    return this.c.transaction(async () => this.c.mapped(() => eraseRows(this.c, spec, rewriter, options.dryRun === true)));
  }

  async contextsHolding(agentId: string, needles: readonly string[]): Promise<string[]> {
    const usable = [...new Set(needles)].filter((needle) => needle !== '');
    if (usable.length === 0) return [];
    return this.c.use(() =>
      (
        this.c
          .statement(
            // The contexts as the search index holds them: computed by the view its full-text table reads (migration 13).
            `SELECT m.id FROM memories m JOIN memories_search e ON e.rowid = m.rowid WHERE m.agent_id = ? AND EXISTS (SELECT 1 FROM json_each(?) n
               WHERE instr(e.context_before, n.value) > 0 OR instr(e.context_after, n.value) > 0) ORDER BY m.id`,
          )
          .all(agentId, JSON.stringify(usable)) as { id: string }[]
      ).map((row) => row.id),
    );
  }
}
