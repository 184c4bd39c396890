import { decodeTime } from 'ulidx';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/core/errors.js';
import { addMemory, getMemories, getMemory } from '../../../src/core/memory/memory.js';
import { getCandidate, getCandidatePrompt, listCandidates } from '../../../src/core/rem/candidates.js';
import { createHandoff, ingest } from '../../../src/core/rem/handoff.js';
import { promote, reject } from '../../../src/core/rem/review.js';
import { getRun } from '../../../src/core/runs.js';
import { errorOf } from '../../helpers/errors.js';
import { fixedClock, tempStore } from '../../helpers/store.js';

let store: Awaited<ReturnType<typeof tempStore>>;
const clock = fixedClock('2026-11-02T12:00:00.000Z');
let ids: string[];

beforeEach(async () => {
  clock.set('2026-11-02T12:00:00.000Z');
  store = await tempStore(clock);
  ids = [];
  for (const [index, content] of [
    'Friday deploy failed: migration lock on payments.',
    'Second Friday deploy failed the same way.',
    'Moved migrations out of the release train.',
  ].entries()) {
    ids.push(
      (await addMemory(store, { agentId: 'a', content, createdAt: new Date(Date.parse('2026-11-02T10:00:00.000Z') + index * 60_000).toISOString() })).memory.id,
    );
  }
});
afterEach(() => store.done());

/** A handoff over the three memories (m1 = newest) and an answer ingested against it. */
async function stageVia(candidates: unknown[], options: { restageRejected?: boolean } = {}) {
  const { handoff } = await createHandoff(store, { agentId: 'a' });
  return await ingest(store, { agentId: 'a', handoffId: handoff.id, answer: JSON.stringify({ candidates }), ...options });
}

describe('staging (docs/design.md §4.5)', () => {
  it('stages pending candidates with real source ids, the prompt and its hash, and stamps the gathered memories', async () => {
    const result = await stageVia([{ claim: 'Run migrations outside the Friday train.', sources: ['m3', 'm1'], tags: ['deploy'] }]);
    expect(result.counts).toMatchObject({ gathered: 3, staged: 1, skippedDuplicates: 0, skippedRejected: 0 });
    const [candidate] = result.candidates;
    expect(candidate).toMatchObject({
      status: 'pending',
      sourceMemoryIds: [ids[0], ids[2]],
      tags: ['deploy'],
      generatedBy: 'external',
      provider: 'handoff',
      runId: result.run.id,
    });
    expect(await getCandidatePrompt(store, 'a', candidate!.id)).toContain('<memory ref="m1"');
    // Candidate ids take their time from the store's clock, like every other id.
    expect(decodeTime(candidate!.id.replace(/^cand_/, ''))).toBe(Date.parse('2026-11-02T12:00:00.000Z'));
    expect(await getRun(store, result.run.id)).toMatchObject({ status: 'completed', candidateIds: [candidate!.id], kind: 'rem ingest' });
    for (const id of ids) expect((await getMemory(store, 'a', id)).lastReflectedAt).toBe('2026-11-02T12:00:00.000Z');
  });

  it('skips duplicates of pending and promoted candidates, of memories and within the batch, and rejected claims separately', async () => {
    const first = (
      await stageVia([
        { claim: 'Pending claim.', sources: ['m1'] },
        { claim: 'To be promoted.', sources: ['m1'] },
        { claim: 'To be rejected.', sources: ['m1'] },
      ])
    ).candidates;
    await promote(store, { agentId: 'a', ids: [first[1]!.id], rationale: 'true' });
    await reject(store, { agentId: 'a', ids: [first[2]!.id], reason: 'wrong' });
    const second = await stageVia([
      { claim: '  Pending   claim. ', sources: ['m2'] },
      { claim: 'To be promoted.', sources: ['m2'] },
      { claim: 'Second Friday deploy failed the same way.', sources: ['m2'] },
      { claim: 'New claim.', sources: ['m2'] },
      { claim: 'New  claim.', sources: ['m3'] },
      { claim: 'To be rejected.', sources: ['m2'] },
    ]);
    expect(second.counts).toMatchObject({ staged: 1, skippedDuplicates: 4, skippedRejected: 1 });
    expect(second.candidates.map((candidate) => candidate.claim)).toEqual(['New claim.']);
    const third = await stageVia([{ claim: 'To be rejected.', sources: ['m1'] }], { restageRejected: true });
    expect(third.counts.staged).toBe(1);
  });

  it('stages nothing and stamps nothing when the answer is rejected, and the handoff can be answered again', async () => {
    const { handoff } = await createHandoff(store, { agentId: 'a' });
    const error = await errorOf(() => ingest(store, { agentId: 'a', handoffId: handoff.id, answer: '{"candidates":[{"claim":"x","sources":["m7"]}]}' }));
    expect([error.code, error.exitCode]).toEqual(['model_output_invalid', ExitCode.modelOutputRejected]);
    expect(error.details).toMatchObject({ reason: 'source_out_of_set', index: 0, handoffId: handoff.id });
    // The run scope put its row on the error: failed, recording the reason (not just model_output_invalid).
    expect(await getRun(store, error.details!.runId as string)).toMatchObject({ kind: 'rem ingest', status: 'failed', errors: ['source_out_of_set'] });
    expect(await listCandidates(store, { agentId: 'a', status: 'all' })).toEqual([]);
    expect((await getMemory(store, 'a', ids[0]!)).lastReflectedAt).toBeNull();
    const ok = await ingest(store, { agentId: 'a', handoffId: handoff.id, answer: 'Sure! ```json\n{"candidates":[{"claim":"x","sources":["m1"]}]}\n```' });
    expect(ok.counts.staged).toBe(1);
  });

  it("refuses an unknown (3), expired (3), other agent's (3) or already ingested (4) handoff", async () => {
    const { handoff } = await createHandoff(store, { agentId: 'a' });
    expect((await errorOf(() => ingest(store, { agentId: 'a', handoffId: 'hof_01JD0000000000000000000000', answer: '{}' }))).exitCode).toBe(3);
    expect((await errorOf(() => ingest(store, { agentId: 'b', handoffId: handoff.id, answer: '{"candidates":[]}' }))).exitCode).toBe(3);
    await ingest(store, { agentId: 'a', handoffId: handoff.id, answer: '{"candidates":[]}' });
    expect((await errorOf(() => ingest(store, { agentId: 'a', handoffId: handoff.id, answer: '{"candidates":[]}' }))).code).toBe('handoff_ingested');
    const late = (await createHandoff(store, { agentId: 'a', scope: 'all' })).handoff;
    clock.advance(7 * 86_400_000 + 1);
    expect((await errorOf(() => ingest(store, { agentId: 'a', handoffId: late.id, answer: '{"candidates":[]}' }))).code).toBe('handoff_expired');
  });
});

describe('promote / reject (docs/design.md §4.8)', () => {
  let candidateIds: string[];
  beforeEach(async () => {
    candidateIds = (
      await stageVia([
        { claim: 'Claim one.', sources: ['m1', 'm2'], tags: ['deploy'] },
        { claim: 'Claim two.', sources: ['m3'] },
        { claim: 'Claim three.', sources: ['m2'] },
      ])
    ).candidates.map((candidate) => candidate.id);
  });

  it('creates a persistent memory with lineage and marks the candidate; sources untouched', async () => {
    const before = await getMemories(store, 'a', ids);
    const [promotion] = await promote(store, { agentId: 'a', ids: [candidateIds[0]!], rationale: ' matches the post-mortem ', reviewer: 'ana' });
    expect(promotion!.memory).toMatchObject({
      content: 'Claim one.',
      durability: 'persistent',
      derivedFrom: [ids[2], ids[1]],
      promotedFrom: candidateIds[0],
      tags: ['deploy'],
      source: `promoted:${candidateIds[0]}`,
    });
    expect(await getCandidate(store, 'a', candidateIds[0]!)).toMatchObject({
      status: 'promoted',
      reviewer: 'ana',
      reviewRationale: 'matches the post-mortem',
      decidedAt: '2026-11-02T12:00:00.000Z',
      promotedMemoryId: promotion!.memory.id,
    });
    expect(await getMemories(store, 'a', ids)).toEqual(before);
  });

  it('keeps the original claim on the row when the reviewer edits it', async () => {
    const [promotion] = await promote(store, {
      agentId: 'a',
      ids: [candidateIds[1]!],
      rationale: 'ok',
      editedClaims: new Map([[candidateIds[1]!, 'Claim two, said better.']]),
    });
    expect(promotion!.memory.content).toBe('Claim two, said better.');
    expect(await getCandidate(store, 'a', candidateIds[1]!)).toMatchObject({ claim: 'Claim two.', editedClaim: 'Claim two, said better.' });
  });

  it('promotes permanent only when asked, and refuses a blank rationale or reason (exit 2)', async () => {
    expect((await promote(store, { agentId: 'a', ids: [candidateIds[0]!], rationale: 'x', durability: 'permanent' }))[0]!.memory.durability).toBe('permanent');
    expect((await errorOf(() => promote(store, { agentId: 'a', ids: [candidateIds[1]!], rationale: '   ' }))).exitCode).toBe(2);
    expect((await errorOf(() => promote(store, { agentId: 'a', ids: [candidateIds[1]!], rationale: undefined }))).code).toBe('rationale_required');
    expect((await errorOf(() => reject(store, { agentId: 'a', ids: [candidateIds[1]!], reason: '' }))).code).toBe('reason_required');
  });

  it('follows the state rules: promote decided → 4, reject promoted → 4, reject rejected → 4 naming the first reason', async () => {
    await promote(store, { agentId: 'a', ids: [candidateIds[0]!], rationale: 'x' });
    await reject(store, { agentId: 'a', ids: [candidateIds[1]!], reason: 'no' });
    expect((await errorOf(() => promote(store, { agentId: 'a', ids: [candidateIds[0]!], rationale: 'x' }))).exitCode).toBe(4);
    expect((await errorOf(() => promote(store, { agentId: 'a', ids: [candidateIds[1]!], rationale: 'x' }))).exitCode).toBe(4);
    expect((await errorOf(() => reject(store, { agentId: 'a', ids: [candidateIds[0]!], reason: 'x' }))).exitCode).toBe(4);
    const again = await errorOf(() => reject(store, { agentId: 'a', ids: [candidateIds[1]!], reason: 'different reason' }));
    expect(again).toMatchObject({ exitCode: 4, code: 'candidate_decided', details: { status: 'rejected', reason: 'no' } });
    expect(again.message).toMatch(/already rejected on \d{4}-\d{2}-\d{2} by .* \(reason: no\); nothing changed$/);
    expect((await getCandidate(store, 'a', candidateIds[1]!)).reviewRationale).toBe('no');
  });

  it("is all or nothing across ids, and another agent's candidate is not found (3)", async () => {
    expect((await errorOf(() => promote(store, { agentId: 'a', ids: [candidateIds[0]!, 'cand_01JD0000000000000000000000'], rationale: 'x' }))).exitCode).toBe(
      3,
    );
    expect((await getCandidate(store, 'a', candidateIds[0]!)).status).toBe('pending');
    expect((await errorOf(() => promote(store, { agentId: 'b', ids: [candidateIds[0]!], rationale: 'x' }))).exitCode).toBe(3);
    expect((await errorOf(() => reject(store, { agentId: 'b', ids: [candidateIds[0]!], reason: 'x' }))).exitCode).toBe(3);
  });

  it('refuses to promote when a cited memory was deleted, unless allowed', async () => {
    store.db.prepare('DELETE FROM memories WHERE id = ?').run(ids[1]); // m2, cited by claims one and three
    const error = await errorOf(() => promote(store, { agentId: 'a', ids: [candidateIds[2]!, candidateIds[0]!], rationale: 'x' }));
    expect([error.code, error.exitCode]).toEqual(['source_deleted', 4]);
    expect((await getCandidate(store, 'a', candidateIds[2]!)).status).toBe('pending');
    const [promotion] = await promote(store, { agentId: 'a', ids: [candidateIds[0]!], rationale: 'x', allowMissingSources: true });
    expect(promotion!.memory.derivedFrom).toEqual([ids[2], ids[1]]);
  });
});
