import { addMemory } from '../../src/core/memory/memory.js';
import type { Candidate } from '../../src/core/rem/candidates.js';
import { createHandoff, ingest } from '../../src/core/rem/handoff.js';
import type { Store } from '../../src/core/store/store.js';

export const NOTES = [
  'Deploy of api v2.14 failed on Friday: the migration held a lock on the payments table.',
  'Second Friday in a row the deploy stalled on a migration lock; rolled back at 17:40.',
  'Decided: migrations run on Tuesday mornings, never in the Friday release train.',
];

/**
 * Stages candidates through the real handoff path (no model): memories for agent `ops`, a prompt-only handoff over
 * all of them, and an answer ingested against it. `m1` is the newest memory. Returns candidates newest first.
 */
export async function stageCandidates(
  store: Store,
  answer: { claim: string; sources: string[]; tags?: string[] }[],
  notes = NOTES,
): Promise<{ memoryIds: string[]; candidates: Candidate[] }> {
  const base = store.clock().getTime();
  // Oldest first, so m1 (the newest) is notes[last].
  const memoryIds: string[] = [];
  for (const [index, content] of notes.entries()) {
    memoryIds.push(
      (await addMemory(store, { agentId: 'ops', content, createdAt: new Date(base - (notes.length - index) * 3_600_000).toISOString() })).memory.id,
    );
  }
  const { handoff } = await createHandoff(store, { agentId: 'ops', scope: 'all' });
  const result = await ingest(store, { agentId: 'ops', handoffId: handoff.id, answer: JSON.stringify({ candidates: answer }), generatedBy: 'qwen2.5:7b' });
  return { memoryIds, candidates: [...result.candidates].reverse() };
}
