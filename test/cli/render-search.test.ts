/**
 * Search highlighting cannot be forged by stored text: the markers a search is given are fresh for that search, so a
 * memory holding the private-use characters hippo once used as fixed markers shows them as they are, and only the real
 * match turns bold yellow (or `**` without colour). A real SQLite store and the real search.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { styleText } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Painter } from '../../src/views/output.js';
import { hintBuilder } from '../../src/views/hints.js';
import { searchView, snippetMarks } from '../../src/views/render-search.js';
import { addMemory } from '../../src/core/memory/memory.js';
import { searchWithFacts } from '../../src/core/search-facts.js';
import { openStore, type Store } from '../../src/core/store/store.js';

/** What stored text could hold to fake a highlight: the private-use characters hippo once used as fixed markers. */
const FORGED = 'zebra \uE001\uE000 tail \uE000bold\uE001';

let dir: string;
let store: Store;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hippo-render-search-'));
  store = await openStore({ path: join(dir, 'hippo.db') });
  await addMemory(store, { agentId: 'ops', content: FORGED });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function painterWith(enabled: boolean): Painter {
  const paint = ((style, text) => (enabled ? styleText(style, text) : text)) as Painter;
  paint.enabled = enabled;
  return paint;
}

async function rendered(enabled: boolean): Promise<string> {
  const marks = snippetMarks();
  const report = await searchWithFacts(store, {
    agentId: 'ops',
    query: 'zebra',
    highlight: marks,
    facts: { ai: false, model: () => Promise.resolve(undefined) },
  });
  return String(
    searchView('zebra', marks).text!(report, {
      paint: painterWith(enabled),
      width: 160,
      terminal: false,
      time: (isoTime) => isoTime,
      zone: () => 'UTC',
      hint: hintBuilder({}),
    }),
  );
}

describe('search highlighting', () => {
  it('colour: only the match is bold yellow, and the colour is reset after it', async () => {
    const text = await rendered(true);
    expect(text.split('\u001b[1;33m')).toHaveLength(2);
    expect(text.split('\u001b[22;39m')).toHaveLength(2);
    expect(text).toContain('\u001b[1;33mzebra\u001b[22;39m \uE001\uE000 tail \uE000bold\uE001');
  });

  it('no colour: only the match is marked **', async () => {
    expect(await rendered(false)).toMatch(/\n {2}\*\*zebra\*\* \uE001\uE000 tail \uE000bold\uE001$/);
  });

  it('fresh markers for every search', () => {
    const [first, second] = [snippetMarks(), snippetMarks()];
    expect(first.open).not.toBe(second.open);
    expect(first.close).not.toBe(first.open);
  });
});
