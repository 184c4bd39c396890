import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

/** The README's library example, run against the built package entry (`import … from 'hippo'`). */
it('runs the README example through the package entry', async () => {
  // The built package entry by its name (as a user imports it), typed from the sources: typecheck runs before a build.
  const entry = 'hippo';
  const hippo = (await import(entry)) as typeof import('../../src/index.js');
  // docs/design.md §9's list, exactly.
  for (const name of [
    'openStore',
    'addMemory',
    'search',
    'extract',
    'gather',
    'buildPrompt',
    'validateAnswer',
    'stage',
    'distill',
    'promote',
    'reject',
    'runNightly',
  ]) {
    expect(typeof (hippo as Record<string, unknown>)[name], name).toBe('function');
  }
  const dir = mkdtempSync(join(tmpdir(), 'hippo-lib-'));
  try {
    const store = await hippo.openStore({ path: join(dir, 'agent.db') });
    await hippo.addMemory(store, { agentId: 'bot', content: 'The staging DB password rotates on Mondays.', tags: ['ops'] });
    const hits = await hippo.search(store, { agentId: 'bot', query: 'when does the password rotate?' });
    expect(hits.map((hit) => hit.memory.content)).toEqual(['The staging DB password rotates on Mondays.']);
    const gathered = await hippo.gather(store, { agentId: 'bot' });
    const prompt = hippo.buildPrompt({ focus: 'lessons', memories: gathered.memories });
    expect(prompt).toContain('<memory ref="m1"');
    expect(hippo.validateAnswer({ candidates: [{ claim: 'Passwords rotate weekly.', sources: ['m1'] }] }, { refs: ['m1'] })).toMatchObject({ ok: true });
    expect(hippo.validateAnswer({ candidates: [{ claim: 'x', sources: ['m2'] }] }, { refs: ['m1'] })).toMatchObject({ ok: false, reason: 'source_out_of_set' });
    const facts = await hippo.extract([{ source: 'note', text: 'Office: +353 1 234 5678' }], { kinds: ['phone'], region: 'IE' });
    expect(facts.map((fact) => [fact.normalized, fact.label])).toEqual([['+35312345678', 'Office']]);
    // The schema version is the store's own (describe()); no engine's internals are part of the library.
    expect(await store.describe()).toMatchObject({ engine: 'sqlite', schemaVersion: expect.any(Number) });
    for (const internal of ['SCHEMA_VERSION', 'buildMatchExpression']) expect(internal in hippo, internal).toBe(false);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
