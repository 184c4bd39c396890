/**
 * Review of issue 26 (rev26b): defects found around a NUL (U+0000) in a memory's text on SQLite, written failing-first
 * (`it.fails` marks each defect; when it is fixed the test fails and `.fails` comes off).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HippoError } from '../../../src/core/errors.js';
import { addMemory } from '../../../src/core/memory/memory.js';
import { search } from '../../../src/core/search.js';
import { fixedClock, tempStore } from '../../helpers/store.js';

let store: Awaited<ReturnType<typeof tempStore>>;
let clock: ReturnType<typeof fixedClock>;
beforeEach(async () => {
  clock = fixedClock('2025-01-01T00:00:00.000Z');
  store = await tempStore(clock);
});
afterEach(async () => store.done());

describe('a NUL (U+0000) in a memory on SQLite (review of issue 26)', () => {
  // SQLite's length() stops at the first NUL, so CHECK (length(content) > 0) rejects a text that starts with one:
  // `hippo memory add` / `memory import` exit 1 "unexpected error: CHECK constraint failed" (PostgreSQL: nul_in_text, exit 2).
  // Fixed: refused as `nul_in_text` (exit 2) in validateContent, on both engines, whatever the entry point.
  it('a text that begins with a NUL is stored, or refused with a usage error, never an unexpected error', async () => {
    const outcome = await addMemory(store, { agentId: 'a', content: '\u0000leading nul text' }).then(
      () => 'stored',
      (error: unknown) => (error instanceof HippoError && error.exitCode !== 1 ? 'refused' : String(error)),
    );
    expect(['stored', 'refused']).toContain(outcome);
  });

  // The matched parts come from highlight() compared with the column (fts.ts partFlags); highlight() of a text holding
  // a NUL does not come back equal to it, so a memory found only through its neighbour is said to match in its own
  // content, and loses the `nearby` that names the neighbour.
  it.fails("a memory holding a NUL, found only through a neighbour's text, matched in its context, not its content", async () => {
    for (const content of ['alpha one', 'visible\u0000 tail words', 'uniqueqq here', 'other stuff']) {
      await addMemory(store, { agentId: 'a', content, thread: 't' });
      clock.advance(60_000);
    }
    const results = await search(store, { agentId: 'a', query: 'uniqueqq', recordRetrieval: false });
    const withNul = results.find((result) => result.memory.content.includes('\u0000'));
    expect(withNul).toBeDefined();
    expect(withNul!.matched).toEqual(['context']);
    expect(withNul!.nearby).not.toBeNull();
  });
});
