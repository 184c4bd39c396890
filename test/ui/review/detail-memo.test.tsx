import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as layout from '../../../src/ui/review/layout.js';
import { KEY, renderReview, stageCandidates, type ReviewHarness } from '../../helpers/review.js';
import { fixedClock, tempStore } from '../../helpers/store.js';

// Counts how often the detail pane's evidence is wrapped (every importer of layout.js sees the counting version).
vi.mock('../../../src/ui/review/layout.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/ui/review/layout.js')>();
  return { ...original, detailLines: vi.fn(original.detailLines) };
});

const clock = fixedClock('2026-11-02T12:00:00.000Z');
let store: Awaited<ReturnType<typeof tempStore>>;
let ui: ReviewHarness | undefined;

beforeEach(async () => {
  store = await tempStore(clock);
  await stageCandidates(store, [
    { claim: 'Keep a rollback runbook next to every migration.', sources: ['m3'] },
    { claim: 'Run database migrations outside the Friday release train.', sources: ['m3', 'm2', 'm1'] },
  ]);
});

afterEach(async () => {
  ui?.unmount();
  ui = undefined;
  await store.done();
});

describe('the detail pane', () => {
  it('wraps the evidence once per candidate and pane width, not on every key press', async () => {
    ui = await renderReview(store);
    const wraps = vi.mocked(layout.detailLines);
    wraps.mockClear();
    await ui.press('p');
    await ui.type('typing a rationale');
    expect(wraps).not.toHaveBeenCalled();
    await ui.press(KEY.escape, 'j');
    expect(wraps).toHaveBeenCalledTimes(1); // another candidate
    await ui.resize(80, 30);
    expect(wraps).toHaveBeenCalledTimes(2); // another width
  });
});
