// Issue 4 benchmark: the hippo work of a `rem rapid` beyond process start and the model — gather + prompt + validate +
// stage — at 100 k memories, and how compact the prompt is per memory compared with showing database ids.
// In-process through the public library API only (the same functions `rem rapid` calls, as a library user calls them).
import { buildPrompt, gather, openStore, stage, stampReflected, validateAnswer } from 'hippo';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, DATA, fmt, loadAverage, machine, median, medianMs, writeSection, removeSqliteFiles } from './lib.js';

type Phase = 'gather' | 'prompt' | 'validate' | 'stage';

export async function run(): Promise<void> {
  const source = join(DATA, 'hippo-100000.db');
  if (!existsSync(source)) throw new Error('run `npm run bench -- foundation` first: it builds bench/.data/hippo-100000.db');

  // In-process: the same calls `rem rapid` makes, on a fresh copy each round so staging never sees duplicates.
  const phases: Record<Phase, number[]> = { gather: [], prompt: [], validate: [], stage: [] };
  let promptChars = 0;
  let idLayoutChars = 0;
  let gathered = 0;
  for (let round = 0; round < 12; round++) {
    const db = join(DATA, 'rem-bench.db');
    removeSqliteFiles(db);
    copyFileSync(source, db);
    const store = await openStore({ path: db });
    let t = performance.now();
    const lap = (name: Phase) => {
      const now = performance.now();
      if (round > 1) phases[name].push(now - t); // two warm-up rounds
      t = now;
    };
    const result = await gather(store, { agentId: 'bench', scope: 'all' });
    lap('gather');
    const prompt = buildPrompt({ focus: 'lessons', memories: result.memories });
    lap('prompt');
    const refs = result.memories.map((item) => item.ref);
    const answer = JSON.stringify({
      candidates: refs.slice(0, 10).map((ref, index) => ({
        claim: `Lesson ${round}-${index}: check the migration lock before a Friday deploy.`,
        sources: [ref, refs[(index + 1) % refs.length]],
        tags: ['deploy'],
      })),
    });
    const verdict = validateAnswer(answer, { refs });
    if (!verdict.ok) throw new Error(`the canned answer was rejected: ${verdict.reason}`);
    lap('validate');
    const idByRef = new Map(result.memories.map((item) => [item.ref, item.memory.id]));
    await store.transaction(async (tx) => {
      await stage(tx, {
        agentId: 'bench',
        runId: 'run_bench',
        candidates: verdict.candidates.map((candidate) => ({ ...candidate, sourceMemoryIds: candidate.sources.map((ref) => idByRef.get(ref)!) })),
        generatedBy: 'bench',
        provider: 'bench',
        prompt,
        promptSha256: '0'.repeat(64),
      });
      await stampReflected(
        tx,
        'bench',
        result.memories.map((item) => item.memory.id),
      );
    });
    lap('stage');
    await store.close();
    gathered = result.memories.length;
    promptChars = prompt.length;
    // The same prompt with database ids and full timestamps instead of short refs (and ids in the contract's source
    // list instead of refs).
    idLayoutChars =
      prompt.length +
      result.memories.reduce((sum, item) => {
        const ours = `<memory ref="${item.ref}" date="${item.memory.createdAt.slice(0, 10)}">`;
        const theirs = `<memory id="${item.memory.id}" date="${item.memory.createdAt}">`;
        return sum + theirs.length - ours.length;
      }, 0) +
      result.memories.reduce((sum, item) => sum + item.memory.id.length - item.ref.length, 0);
  }
  const total = Object.values(phases).reduce((sum, list) => sum + median(list), 0);

  // Whole process: `rem rapid --via` with a canned 10-candidate answer vs `hippo --version` (process start).
  const db = join(DATA, 'rem-cli.db');
  removeSqliteFiles(db);
  copyFileSync(source, db);
  const answerFile = join(DATA, 'rem-answer.mjs');
  writeFileSync(
    answerFile,
    "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const r=[...s.matchAll(/<memory ref=\"(m\\d+)\"/g)].map(m=>m[1]);console.log(JSON.stringify({candidates:r.slice(0,10).map((x,i)=>({claim:'Lesson '+Date.now()+'-'+i+Math.random(),sources:[x]}))}))});",
  );
  const cli = medianMs('node', [BIN, 'rem', 'rapid', '--db', db, '--agent', 'bench', '--scope', 'all', '--via', `node ${answerFile}`, '--json'], { runs: 9 });
  const nodeScript = medianMs('node', [answerFile], { runs: 9, input: '<memory ref="m1">' });
  const start = medianMs('node', [BIN, '--version'], { runs: 9 });

  writeSection(
    '2-rem',
    `## REM distillation without the model (issue 4)

Machine: ${machine()}; load average at the end ${loadAverage()}.

In-process, the calls \`rem rapid\` makes on a 100 k-memory database (agent with ~90 k memories, \`--scope all\`, ${gathered} memories
gathered, a 10-candidate answer), median of 10 rounds on fresh copies:

| gather | build prompt | validate | stage (10 candidates + reflected stamps, one transaction) | total |
|---|---|---|---|---|
| ${fmt(median(phases.gather), 2)} ms | ${fmt(median(phases.prompt), 2)} ms | ${fmt(median(phases.validate), 2)} ms | ${fmt(median(phases.stage), 2)} ms | **${fmt(total, 2)} ms** (target < 150 ms) |

Whole process: \`hippo rem rapid --via 'node answer.mjs' --json\` ${fmt(cli)} ms, of which process start (\`hippo --version\`)
${fmt(start)} ms and the stand-in "LLM" process ${fmt(nodeScript)} ms: **${fmt(cli - start - nodeScript)} ms of hippo work beyond process start**
(model client load, gather, prompt, command round trip, validate, stage, run rows).

Prompt compactness: ${fmt(promptChars / gathered)} characters per memory with short refs (\`<memory ref="m3" date="2026-11-02">\`)
vs ${fmt(idLayoutChars / gathered)} with database ids and full timestamps (\`<memory id="mem_01J…" date="2026-11-02T09:30:00.000Z">\`,
and ids in the contract's source list): ${fmt((1 - promptChars / idLayoutChars) * 100)} % fewer characters.

Ratios (this run):

- in-process total / 150 ms target: ${fmt(total / 150, 2)}×
- whole \`rem rapid\` / \`hippo --version\`: ${fmt(cli / start, 2)}×
`,
  );
  console.log(
    `rem rapid in-process ${fmt(total, 2)} ms (${fmt(total / 150, 2)}× of the 150 ms target); whole process ${fmt(cli / start, 2)}× of hippo --version`,
  );
}
