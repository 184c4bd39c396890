/**
 * Erasing on PostgreSQL (port.ts `ErasureRepo`): the memories of an `EraseSpec` and every trace of their text in the
 * rows that cite or hold it, as the core's rewriter says, in one transaction. The rows are deleted (their thread
 * neighbours re-indexed, so no neighbour's search context keeps their text); what the server
 * keeps of them afterwards (dead tuples until VACUUM, which `reclaim()` runs; its WAL, archives, replicas and backups)
 * is docs/postgres.md's "Forget". The same rules, written in JavaScript, rewrite a logical snapshot (snapshots.ts):
 * `namedBy`, `citesOrHolds` and `refersToOrHolds` below are the SQL's conditions clause for clause.
 */
import type { CandidateRecord, EraseReport, EraseRewriter, EraseSpec, ErasureRepo, HandoffRecord } from '../port.js';
import type { Memory } from '../../records.js';
import { memoryRepo } from './memories.js';
import type { Session, TxState } from './session.js';
import { CANDIDATE_TABLE, columnList, HANDOFF_TABLE, MEMORY_TABLE } from '../tables.js';
import { fromRow, placeholders, toParams } from './codec.js';

/** Whether the spec names a memory itself (by id, or by its content, subject or a tag holding the text). */
export function namedBy(spec: EraseSpec, memory: Memory, ids: ReadonlySet<string>): boolean {
  if (memory.agentId !== spec.agentId) return false;
  if (ids.has(memory.id)) return true;
  const match = spec.match;
  return match !== undefined && (memory.content.includes(match) || (memory.subject ?? '').includes(match) || memory.tags.some((tag) => tag.includes(match)));
}

/**
 * Whether a candidate of the agent cites an erased memory, was promoted to one, or holds a needle (in its claim, edited
 * claim, a tag, its prompt).
 */
export function citesOrHolds(candidate: CandidateRecord, erased: ReadonlySet<string>, needles: readonly string[]): boolean {
  return (
    candidate.sourceMemoryIds.some((id) => erased.has(id)) ||
    (candidate.promotedMemoryId !== null && erased.has(candidate.promotedMemoryId)) ||
    needles.some(
      (needle) =>
        candidate.claim.includes(needle) ||
        (candidate.editedClaim ?? '').includes(needle) ||
        candidate.prompt.includes(needle) ||
        candidate.tags.some((tag) => tag.includes(needle)),
    )
  );
}

/** Whether a handoff of the agent refers to an erased memory or holds a needle in its prompt. */
export function refersToOrHolds(handoff: HandoffRecord, erased: ReadonlySet<string>, needles: readonly string[]): boolean {
  return Object.values(handoff.refs).some((id) => erased.has(id)) || needles.some((needle) => handoff.prompt.includes(needle));
}

/** The needles worth looking for: distinct and not empty. */
export function usableNeedles(needles: readonly string[]): string[] {
  return [...new Set(needles)].filter((needle) => needle !== '');
}

const MEMORY_COLUMNS = columnList(MEMORY_TABLE.columns);
const CANDIDATE_COLUMNS = columnList(CANDIDATE_TABLE.columns);
const HANDOFF_COLUMNS = columnList(HANDOFF_TABLE.columns);

/** A memory the spec names, over `memories` ($1 agent, $2 ids, $3 match). */
const NAMED = `(id = ANY($2::text[]) OR ($3::text IS NOT NULL AND (strpos(content, $3) > 0 OR strpos(coalesce(subject, ''), $3) > 0
  OR EXISTS (SELECT 1 FROM unnest(tags) AS t (tag) WHERE strpos(t.tag, $3) > 0))))`;

async function eraseIn(session: Session, tx: TxState, spec: EraseSpec, rewriter: EraseRewriter, dryRun: boolean): Promise<EraseReport> {
  const query = <R extends Record<string, unknown> = Record<string, unknown>>(text: string, values: readonly unknown[] = []) =>
    session.query<R>(text, values, tx);
  const ids = [...new Set(spec.memoryIds)];
  // Locked (unless a dry run): an edit of one of them in another transaction waits, then finds it gone.
  const { rows: memoryRows } = await query(
    `SELECT ${MEMORY_COLUMNS} FROM memories WHERE agent_id = $1 AND (${NAMED}
       OR version_of = ANY($2::text[])
       OR version_of IN (SELECT id FROM memories WHERE agent_id = $1 AND ${NAMED}))
     ORDER BY created_at, id COLLATE "C"${dryRun ? '' : ' FOR UPDATE'}`,
    [spec.agentId, ids, spec.match ?? null],
  );
  const memories = memoryRows.map((row) => fromRow<Memory>(MEMORY_TABLE, row));
  const rewrite = rewriter(memories);
  const erased = memories.map((memory) => memory.id);
  const needles = usableNeedles(rewrite.needles);
  const report: EraseReport = { memories, candidatesChanged: [], candidatesDeleted: [], handoffsChanged: [] };

  const { rows: candidateRows } = await query(
    `SELECT ${CANDIDATE_COLUMNS} FROM candidates c WHERE agent_id = $1 AND (
       source_memory_ids && $2::text[]
       OR promoted_memory_id = ANY($2::text[])
       OR EXISTS (SELECT 1 FROM unnest($3::text[]) AS n (needle)
                  WHERE strpos(c.claim, n.needle) > 0 OR strpos(coalesce(c.edited_claim, ''), n.needle) > 0 OR strpos(c.prompt, n.needle) > 0
                     OR EXISTS (SELECT 1 FROM unnest(c.tags) AS t (tag) WHERE strpos(t.tag, n.needle) > 0)))
     ORDER BY id COLLATE "C"${dryRun ? '' : ' FOR UPDATE'}`,
    [spec.agentId, erased, needles],
  );
  const rewrittenCandidates: CandidateRecord[] = [];
  for (const row of candidateRows) {
    const candidate = fromRow<CandidateRecord>(CANDIDATE_TABLE, row);
    const next = rewrite.candidate(candidate);
    if (next === null) report.candidatesDeleted.push(candidate.id);
    else if (next !== candidate) {
      report.candidatesChanged.push(candidate.id);
      rewrittenCandidates.push(next);
    }
  }

  const { rows: handoffRows } = await query(
    `SELECT ${HANDOFF_COLUMNS} FROM handoffs h WHERE agent_id = $1 AND (
       EXISTS (SELECT 1 FROM json_each_text(h.refs) AS r WHERE r.value = ANY($2::text[]))
       OR EXISTS (SELECT 1 FROM unnest($3::text[]) AS n (needle) WHERE strpos(h.prompt, n.needle) > 0))
     ORDER BY id COLLATE "C"${dryRun ? '' : ' FOR UPDATE'}`,
    [spec.agentId, erased, needles],
  );
  const rewrittenHandoffs: HandoffRecord[] = [];
  for (const row of handoffRows) {
    const handoff = fromRow<HandoffRecord>(HANDOFF_TABLE, row);
    const next = rewrite.handoff(handoff);
    if (next !== handoff) {
      report.handoffsChanged.push(handoff.id);
      rewrittenHandoffs.push(next);
    }
  }
  if (dryRun) return report;

  const gone = [...report.candidatesDeleted, ...rewrittenCandidates.map((candidate) => candidate.id)];
  if (gone.length > 0) await query('DELETE FROM candidates WHERE agent_id = $1 AND id = ANY($2::text[])', [spec.agentId, gone]);
  for (const candidate of rewrittenCandidates) {
    const values = toParams(CANDIDATE_TABLE, { ...candidate, agentId: spec.agentId });
    await query(`INSERT INTO candidates (${CANDIDATE_COLUMNS}) VALUES (${placeholders(values.length)})`, values);
  }
  if (rewrittenHandoffs.length > 0) {
    await query('DELETE FROM handoffs WHERE agent_id = $1 AND id = ANY($2::text[])', [spec.agentId, rewrittenHandoffs.map((handoff) => handoff.id)]);
  }
  for (const handoff of rewrittenHandoffs) {
    const values = toParams(HANDOFF_TABLE, { ...handoff, agentId: spec.agentId });
    await query(`INSERT INTO handoffs (${HANDOFF_COLUMNS}) VALUES (${placeholders(values.length)})`, values);
  }
  // Deleted by MemoryRepo.forget, which re-indexes their thread neighbours: no neighbour's search context keeps the text.
  if (erased.length > 0) await memoryRepo(session, tx).forget(spec.agentId, erased);
  return report;
}

export function erasureRepo(session: Session, bound?: TxState): ErasureRepo {
  return {
    async erase(spec, rewriter, options = {}) {
      const run = (tx: TxState) => eraseIn(session, tx, spec, rewriter, options.dryRun === true);
      const tx = bound ?? session.current();
      return tx ? run(tx) : session.transaction(run);
    },
    async contextsHolding(agentId, needles) {
      const usable = usableNeedles(needles);
      if (usable.length === 0) return [];
      const { rows } = await session.query<{ id: string }>(
        `SELECT id FROM memories m WHERE agent_id = $1 AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS n (needle)
           WHERE strpos(m.context_before, n.needle) > 0 OR strpos(m.context_after, n.needle) > 0) ORDER BY id COLLATE "C"`,
        [agentId, usable],
        bound,
      );
      return rows.map((row) => row.id);
    },
  };
}
