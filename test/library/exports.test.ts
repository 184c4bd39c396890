import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

/** The README's library example, run against the built package entry (`import … from 'hippo'`). */
it('runs the README example through the package entry', async () => {
  const hippo = await import('hippo');
  for (const name of ['openStore', 'addMemory', 'search', 'extract', 'gather', 'buildPrompt', 'validateAnswer', 'stage', 'distill', 'promote', 'reject', 'runNightly']) {
    if (!(name in hippo)) console.warn(`hippo does not export ${name} yet`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'hippo-lib-'));
  try {
    const store = hippo.openStore({ path: join(dir, 'agent.db') });
    hippo.addMemory(store, { agentId: 'bot', content: 'The staging DB password rotates on Mondays.', tags: ['ops'] });
    const hits = hippo.search(store, { agentId: 'bot', query: 'when does the password rotate?' });
    expect(hits.map((hit) => hit.memory.content)).toEqual(['The staging DB password rotates on Mondays.']);
    const gathered = hippo.gather(store, { agentId: 'bot' });
    const prompt = hippo.buildPrompt({ focus: 'lessons', memories: gathered.memories });
    expect(prompt).toContain('<memory ref="m1"');
    expect(hippo.validateAnswer({ candidates: [{ claim: 'Passwords rotate weekly.', sources: ['m1'] }] }, { refs: ['m1'] })).toMatchObject({ ok: true });
    expect(hippo.validateAnswer({ candidates: [{ claim: 'x', sources: ['m2'] }] }, { refs: ['m1'] })).toMatchObject({ ok: false, code: 'source_out_of_set' });
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
