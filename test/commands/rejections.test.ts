/**
 * Rejections that teach (issue 29 §3, docs/governance.md, "Rejections that teach"), through the built CLI and over MCP, on both engines, with a
 * real HTTP server on 127.0.0.1 standing in for the model: a rejected claim reworded by the model is skipped with the
 * rejected candidate's id, a genuinely different one (a negation, a changed number) is staged; the prompt tells the
 * model what was rejected and why (redacted like the memories) and which wordings reviewers preferred; `rem reopen`
 * takes a rejection out of both.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { addMemory } from '../../src/core/memory/memory.js';
import { promote } from '../../src/core/rem/review.js';
import { openStore } from '../../src/core/store/store.js';
import { engineSandbox, json, type EngineSandbox, type SandboxEngine } from '../helpers/cli.js';
import { call, stdioClient, type Json } from '../helpers/mcp.js';
import { reply, useModelServer } from '../helpers/model-server.js';

const server = useModelServer({ per: 'suite' });
const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const boxes: EngineSandbox[] = [];
afterEach(async () => {
  for (const box of boxes.splice(0)) await box.dispose();
});

const REJECTED = 'Deploys on Friday afternoons often fail; page ana@example.com first.';
const REASON = 'One bad Friday is not a pattern; ana@example.com is not on call.';
const REWORDED = 'Friday afternoon deployments frequently fail; page ana@example.com first.';
const NEGATED = 'Deploys on Friday afternoons do not often fail; page ana@example.com first.';
const RENUMBERED = 'Deploys on Friday afternoons fail 3 times in 4; page ana@example.com first.';
const PROPOSED = 'Migrations should run on Tuesday.';
const KEPT = 'Run schema migrations on Tuesday mornings, never in the Friday release train.';

async function box(engine: SandboxEngine): Promise<EngineSandbox> {
  const sandbox = await engineSandbox(engine);
  boxes.push(sandbox);
  const store = await openStore({ path: sandbox.db });
  try {
    await addMemory(store, { agentId: 'ops', content: 'Friday deploy of api v2.14 failed; ana@example.com rolled it back.', createdAt: ago(3 * HOUR) });
    await addMemory(store, { agentId: 'ops', content: 'Decided: migrations run on Tuesday mornings.', createdAt: ago(2 * HOUR) });
    await addMemory(store, { agentId: 'other', content: 'Invoice run for Acme Foods goes out on the 3rd.', createdAt: ago(HOUR) });
  } finally {
    await store.close();
  }
  return sandbox;
}

const env = () => ({ HIPPO_MODEL: 'ollama:test-model', HIPPO_BASE_URL: server.baseUrl('ollama'), HIPPO_AGENT: 'ops', HIPPO_REVIEWER: 'ana' });

/** The text hippo sent the model in request `index`. */
function sent(index: number): string {
  return (server.requests[index]!.body.messages as { content: string }[]).map((message) => message.content).join('\n');
}

interface Distilled {
  candidates: { id: string; claim: string }[];
  counts: Record<string, number>;
  rejectedMatches: { rejectedId: string; match: string }[];
  run: { id: string; counts: Record<string, number> };
}

/** A first distillation, one candidate rejected with a reason and one promoted with an edited wording (the library: the CLI edits in the review screen). */
async function decided(sandbox: EngineSandbox): Promise<{ rejectedId: string; editedId: string; insightId: string }> {
  server.queue(
    reply.json({
      candidates: [
        { claim: REJECTED, sources: ['m2'] },
        { claim: PROPOSED, sources: ['m1'] },
      ],
    }),
  );
  const first = json<Distilled>(await sandbox.hippo(['rem', 'rapid', '--json'], { env: env() }));
  expect(first.counts.staged).toBe(2);
  const rejectedId = first.candidates.find((candidate) => candidate.claim === REJECTED)!.id;
  const editedId = first.candidates.find((candidate) => candidate.claim === PROPOSED)!.id;
  const rejected = await sandbox.hippo(['rem', 'reject', rejectedId, '--reason', REASON], { env: env() });
  expect(rejected.exitCode).toBe(0);
  const store = await openStore({ path: sandbox.db });
  try {
    const [promoted] = await promote(store, { agentId: 'ops', ids: [editedId], rationale: 'right, said better', editedClaims: new Map([[editedId, KEPT]]) });
    return { rejectedId, editedId, insightId: promoted!.memory.id };
  } finally {
    await store.close();
  }
}

describe.each(['sqlite', 'postgres'] as const)('rejections that teach through the built CLI (%s)', (engine) => {
  it('skips a reworded rejected claim with its id, stages a negated or renumbered one, and the prompt lists the rejection with its reason, redacted', async () => {
    server.reset();
    const sandbox = await box(engine);
    const { rejectedId, editedId } = await decided(sandbox);

    server.queue(
      reply.json({
        candidates: [
          { claim: REWORDED, sources: ['m2'] },
          { claim: NEGATED, sources: ['m2'] },
          { claim: RENUMBERED, sources: ['m2'] },
        ],
      }),
    );
    const second = await sandbox.hippo(['rem', 'rapid', '--json', '--redact', '--scope', 'all'], { env: env() });
    expect(second.exitCode, String(second.stderr)).toBe(0);
    const result = json<Distilled>(second);
    expect(result.counts).toMatchObject({ staged: 2, skippedRejected: 1, skippedDuplicates: 0, lessonsRejected: 1, lessonsEdited: 1 });
    expect(result.rejectedMatches).toEqual([{ rejectedId, match: 'reworded' }]);
    expect(result.candidates.map((candidate) => candidate.claim).sort()).toEqual([NEGATED, RENUMBERED].sort());
    expect(result.run.counts).toMatchObject({ skippedRejected: 1, lessonsRejected: 1 });

    // The prompt told the model what was rejected and why, and the wording a reviewer kept — with the email redacted.
    const prompt = sent(server.requests.length - 1);
    expect(prompt).toContain('<rejection><claim>Deploys on Friday afternoons often fail; page ⟦email 1⟧ first.</claim>');
    expect(prompt).toContain('<reason>One bad Friday is not a pattern; ⟦email 1⟧ is not on call.</reason>');
    expect(prompt).toContain(`<rewording><proposed>${PROPOSED}</proposed><kept>${KEPT}</kept></rewording>`);
    expect(prompt).not.toContain('ana@example.com');
    // Nothing of the claims, the reason or the prompt reaches the terminal's stderr.
    expect(String(second.stderr)).not.toContain('Friday');

    // The text output names the rejection a skipped claim repeated.
    server.queue(reply.json({ candidates: [{ claim: 'Friday afternoon deploys often fail; page ana@example.com first.', sources: ['m2'] }] }));
    const text = await sandbox.hippo(['rem', 'rapid', '--scope', 'all'], { env: env() });
    expect(String(text.stdout)).toContain(`skipped 0 duplicate, 1 previously rejected (${rejectedId} reworded)`);

    // --dry-run and --prompt-only show the lessons: by id in the dry run, in the prompt itself for a handoff.
    const dry = json<{ lessons: { rejected: string[]; edited: string[] } }>(await sandbox.hippo(['rem', 'rapid', '--dry-run', '--json'], { env: env() }));
    expect(dry.lessons).toMatchObject({ rejected: [rejectedId], edited: [editedId] });
    const dryText = await sandbox.hippo(['rem', 'rapid', '--dry-run'], { env: env() });
    expect(String(dryText.stdout)).toContain(`teaches 1 rejected claim (${rejectedId}), 1 reworded insight (${editedId})`);
    const handoff = await sandbox.hippo(['rem', 'rapid', '--prompt-only', '--scope', 'all'], { env: env() });
    expect(String(handoff.stdout)).toContain('<reason>One bad Friday is not a pattern; ⟦email 1⟧ is not on call.</reason>');
    expect(String(handoff.stdout)).toContain(`<kept>${KEPT}</kept>`);
    expect(String(handoff.stderr)).toContain(`teaches 1 rejected claim (${rejectedId})`);

    // Another agent's prompt learns nothing from this agent's reviewers.
    const other = json<{ lessons: { rejected: string[]; edited: string[] } }>(
      await sandbox.hippo(['rem', 'rapid', '--dry-run', '--json', '--agent', 'other'], { env: env() }),
    );
    expect(other.lessons).toMatchObject({ rejected: [], edited: [] });
  });

  it('rem reopen takes a rejection out of the prompt and out of the skip', async () => {
    server.reset();
    const sandbox = await box(engine);
    const { rejectedId } = await decided(sandbox);
    const reopened = await sandbox.hippo(['rem', 'reopen', rejectedId, '--reason', 'a second Friday failed'], { env: env() });
    expect(reopened.exitCode, String(reopened.stderr)).toBe(0);
    // Reopened, it is pending again: a rewording of it is staged (only rejections are matched by meaning).
    const dry = json<{ lessons: { rejected: string[] } }>(await sandbox.hippo(['rem', 'rapid', '--dry-run', '--json'], { env: env() }));
    expect(dry.lessons.rejected).toEqual([]);
    server.queue(reply.json({ candidates: [{ claim: REWORDED, sources: ['m2'] }] }));
    const again = json<Distilled>(await sandbox.hippo(['rem', 'rapid', '--json', '--scope', 'all'], { env: env() }));
    expect(again.counts).toMatchObject({ staged: 1, skippedRejected: 0 });
    expect(again.rejectedMatches).toEqual([]);
    expect(sent(server.requests.length - 1)).not.toContain('<rejected>');
  });
});

describe.each(['sqlite', 'postgres'] as const)('rejections that teach over MCP (%s)', (engine) => {
  it('rem_prompt shows the rejections with their reasons; rem_ingest skips a rewording with the rejected id and stages a changed number', async () => {
    server.reset();
    const sandbox = await box(engine);
    const { rejectedId } = await decided(sandbox);
    const session = await stdioClient(sandbox, ['--agent', 'ops']);
    try {
      const prompt = await session.client.callTool({ name: 'rem_prompt', arguments: { scope: 'all' } });
      const text = (prompt.content as { type: string; text: string }[])[0]!.text;
      // A handoff is redacted under auto: a person or another model may see it.
      expect(text).toContain('<reason>One bad Friday is not a pattern; ⟦email 1⟧ is not on call.</reason>');
      expect(text).not.toContain('ana@example.com');
      const handoff = (prompt.structuredContent as Json).handoff.id as string;
      const answer = {
        candidates: [
          { claim: 'Friday afternoon deployments frequently fail; page ⟦email 1⟧ first.', sources: ['m2'] },
          { claim: 'Deploys on Friday afternoons fail 3 times in 4; page ⟦email 1⟧ first.', sources: ['m2'] },
        ],
      };
      const ingested = await call<Json>(session.client, 'rem_ingest', { handoff, answer });
      expect(ingested.counts).toMatchObject({ staged: 1, skippedRejected: 1 });
      expect(ingested.rejectedMatches).toEqual([{ rejectedId, match: 'reworded' }]);
      expect(ingested.candidates[0].claim).toBe(RENUMBERED);
    } finally {
      await session.close();
    }
  });

  it('rem_prompt records in the read audit the insight whose kept wording it teaches, besides the memories it gathered (review of issue 29)', async () => {
    server.reset();
    const sandbox = await box(engine);
    const { insightId } = await decided(sandbox);
    const session = await stdioClient(sandbox, ['--agent', 'ops']);
    let refs: string[];
    try {
      const shown = await session.client.callTool({ name: 'rem_prompt', arguments: { scope: 'all' } });
      const text = (shown.content as { type: string; text: string }[])[0]!.text;
      // The kept wording is the insight memory's text, handed over as much as memory_get would hand it.
      expect(text).toContain(`<kept>${KEPT}</kept>`);
      refs = Object.values((shown.structuredContent as Json).handoff.refs as Record<string, string>);
      expect(refs).not.toContain(insightId);
    } finally {
      await session.close();
    }
    const reads = json<{ reads: Json[] }>(await sandbox.hippo(['audit', 'reads', '--agent', 'ops', '--json'])).reads;
    const prompts = reads.filter((read) => read.operation === 'rem_prompt');
    expect(prompts).toHaveLength(1);
    expect([...prompts[0].memoryIds].sort()).toEqual([...refs, insightId].sort());
    const byInsight = json<{ reads: Json[] }>(await sandbox.hippo(['audit', 'reads', '--agent', 'ops', '--memory', insightId, '--json'])).reads;
    expect(byInsight.map((read) => read.operation)).toEqual(['rem_prompt']);
  });
});
