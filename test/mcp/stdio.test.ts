/**
 * `hippo mcp` over stdio, through the SDK's own Client and StdioClientTransport spawning the built CLI — what Claude
 * Code, Claude Desktop or Cursor do. Each result must be the command's `--json` document; failures carry its codes.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMemory } from '../../src/core/memory/memory.js';
import { openStore } from '../../src/core/store/store.js';
import { BIN, json, sandbox, type Sandbox } from '../helpers/cli.js';
import { call, callError, CLIENT_INFO, stdioClient, textOf, type StdioSession, type Json } from '../helpers/mcp.js';

let box: Sandbox;
let session: StdioSession | undefined;

beforeEach(() => {
  box = sandbox();
});
afterEach(async () => {
  await session?.close();
  session = undefined;
  box.cleanup();
});

async function seed(agentId: string, contents: string[]): Promise<string[]> {
  const store = await openStore({ path: box.db });
  try {
    const ids: string[] = [];
    for (const content of contents) ids.push((await addMemory(store, { agentId, content, tags: ['ops'] })).memory.id);
    return ids;
  } finally {
    await store.close();
  }
}

const NOTES = [
  'Dublin office: +353 1 234 5678, ask for Ana at reception.',
  'Moved the billing cron to 02:30 UTC to avoid the backup window.',
  'The deploy failed because a migration held a lock on the invoices table.',
];

describe('hippo mcp over stdio (SDK client)', () => {
  it('lists the tools with schemas and descriptions; the review tools are absent and the server says review is a person’s', async () => {
    session = await stdioClient(box, ['--agent', 'me']);
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'memory_add',
      'memory_get',
      'memory_list',
      'memory_search',
      'facts_extract',
      'rem_prompt',
      'rem_ingest',
      'candidates_list',
      'candidate_show',
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description!.length).toBeGreaterThan(40);
    }
    const add = tools.find((tool) => tool.name === 'memory_add')!;
    expect(add.inputSchema.required).toEqual(['content']);
    expect(add.inputSchema.additionalProperties).toBe(false);
    const list = tools.find((tool) => tool.name === 'candidates_list')!;
    expect(list.description).toMatch(/person's decision.*hippo rem candidates/);
    expect(session.client.getInstructions()).toMatch(/person's decision/);
    expect(session.client.getServerVersion()).toMatchObject({ name: 'hippo' });
    expect(session.stderr()).toMatch(/serving agent me on stdio/);
  });

  it('fixes the agent when it starts: --agent, else HIPPO_AGENT, else "default"', async () => {
    const agentOf = async (args: string[], env: Record<string, string>) => {
      const started = await stdioClient(box, args, env);
      try {
        return (await call(started.client, 'memory_add', { content: `who am I? ${args.join(' ')} ${JSON.stringify(env)}` })).memory.agentId;
      } finally {
        await started.close();
      }
    };
    expect(await agentOf(['--agent', 'flagged'], { HIPPO_AGENT: 'from-env' })).toBe('flagged');
    expect(await agentOf([], { HIPPO_AGENT: 'from-env' })).toBe('from-env');
    expect(await agentOf([], {})).toBe('default');
  });

  it('offers candidate_promote and candidate_reject only with --allow-review', async () => {
    session = await stdioClient(box, ['--agent', 'me', '--allow-review']);
    const names = (await session.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('candidate_promote');
    expect(names).toContain('candidate_reject');
    expect(session.client.getInstructions()).not.toMatch(/without --allow-review/);
  });

  it('adds and searches: the results and the fact box are `hippo search --json`’s document', async () => {
    session = await stdioClient(box, ['--agent', 'me']);
    const added = await call(session.client, 'memory_add', { content: NOTES[0], tags: ['contacts'], subject: 'Dublin office' });
    expect(added).toEqual({ memory: expect.objectContaining({ agentId: 'me', content: NOTES[0], tags: ['contacts'], source: 'mcp' }), duplicateOf: [] });
    const again = await session.client.callTool({ name: 'memory_add', arguments: { content: NOTES[0] } });
    expect(again.structuredContent).toMatchObject({ duplicateOf: [added.memory.id] });
    expect(textOf(again as never)).toMatch(/warning: same text as mem_/);

    const found = await call(session.client, 'memory_search', { query: 'phone number of the Dublin office' });
    const cli = json<Json>(await box.hippo(['search', 'phone number of the Dublin office', '--agent', 'me', '--json']));
    expect(Object.keys(found).sort()).toEqual(Object.keys(cli).sort());
    expect(found.facts).toEqual(cli.facts);
    expect(found.facts).toEqual([
      expect.objectContaining({
        kind: 'phone',
        normalized: '+35312345678',
        occurrences: expect.arrayContaining([expect.objectContaining({ text: '+353 1 234 5678' })]),
      }),
    ]);
    expect(found.results.map((result: Json) => result.memory.id)).toEqual(cli.results.map((result: Json) => result.memory.id));
    expect(found.results[0].snippet).toMatch(/\*\*Dublin\*\*/);
    expect(found.warnings).toEqual([]);

    const shown = await session.client.callTool({ name: 'memory_get', arguments: { id: added.memory.id } });
    expect(shown.structuredContent).toEqual({
      memory: json<Json>(await box.hippo(['memory', 'show', added.memory.id, '--agent', 'me', '--json'])).memory,
      forgottenSources: [],
    });
    expect(textOf(shown as never)).toContain(NOTES[0]);
    const listed = await call(session.client, 'memory_list', { limit: 1 });
    expect(listed.memories).toHaveLength(1);
  });

  it('keeps a failure’s code for a client that checks results against the output schemas it listed (as every client lists tools first)', async () => {
    session = await stdioClient(box, ['--agent', 'me']);
    const { tools } = await session.client.listTools();
    const search = tools.find((tool) => tool.name === 'memory_search')!;
    expect(search.outputSchema?.type).toBe('object');
    const missing = await callError(session.client, 'memory_get', { id: 'mem_01JD3Z8N6Q2W4E5R7T9Y1U3I5O' });
    expect(missing.code).toBe('memory_not_found');
    expect((await callError(session.client, 'memory_list', { limit: 'many' })).code).toBe('usage');
    expect((await callError(session.client, 'memory_search', { query: 'x', since: 'whenever-ish' })).code).toBe('bad_duration');
    expect((await call(session.client, 'memory_add', { content: 'still checked on success' })).memory.content).toBe('still checked on success');
    expect((await call(session.client, 'memory_search', { query: 'checked' })).results).toHaveLength(1);
  });

  it('writes bidi and C1 controls of memory text as \\u escapes in its frames, never raw (as --json), and the client reads them back', async () => {
    const content = 'invoice \u202Efdp.exe \u0085 done';
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: CLIENT_INFO } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'memory_add', arguments: { content } } },
    ];
    const run = await execa('node', [BIN, 'mcp', '--agent', 'me'], {
      env: box.env,
      extendEnv: true,
      input: lines.map((line) => JSON.stringify(line)).join('\n') + '\n',
    });
    const stdout = String(run.stdout);
    expect(stdout).not.toMatch(/[\u202E\u0085]/);
    expect(stdout).toContain('\\u202e');
    const added = stdout
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((frame) => frame.id === 2);
    expect(added.result.structuredContent.memory.content).toBe(content);
  });

  it('never names another agent when a result is empty: search, extract over a query and rem_prompt (as memory_list)', async () => {
    await seed('ops-agent', NOTES);
    session = await stdioClient(box, ['--agent', 'me']);
    const result = await session.client.callTool({ name: 'memory_search', arguments: { query: 'deploy' } });
    expect(result.structuredContent).toEqual({ results: [], total: 0, facts: [], warnings: [] });
    expect(textOf(result as never)).toBe('no matches');
    const extracted = await session.client.callTool({ name: 'facts_extract', arguments: { kinds: ['phone'], query: 'Dublin' } });
    expect(extracted.structuredContent).toEqual({ facts: [], warnings: [] });
    const empty = await callError(session.client, 'rem_prompt', { scope: 'all' });
    expect(empty.code).toBe('nothing_to_distill');
    expect(JSON.stringify(empty)).not.toMatch(/ops-agent|other agents/);
  });

  it('extracts facts from a text, from memory ids, or from a query; exactly one of them', async () => {
    const [dublin] = await seed('me', NOTES);
    session = await stdioClient(box, ['--agent', 'me']);
    const text = 'Write to ana@example.com or call +353 1 234 5678.';
    const fromText = await call(session.client, 'facts_extract', { kinds: ['email', 'phone'], text, region: 'IE' });
    expect(fromText.facts.map((fact: Json) => [fact.kind, fact.value])).toEqual([
      ['email', 'ana@example.com'],
      ['phone', '+353 1 234 5678'],
    ]);
    for (const fact of fromText.facts) {
      const [occurrence] = fact.occurrences;
      expect(occurrence.source).toBe('text');
      expect(text.slice(occurrence.start, occurrence.end)).toBe(occurrence.text);
    }
    const fromIds = await call(session.client, 'facts_extract', { kinds: ['phone'], memoryIds: [dublin] });
    expect(fromIds).toEqual({ facts: [expect.objectContaining({ kind: 'phone', occurrences: [expect.objectContaining({ source: dublin })] })], warnings: [] });
    const fromQuery = await call(session.client, 'facts_extract', { kinds: ['phone'], query: 'Dublin' });
    expect(fromQuery.facts).toHaveLength(1);
    expect((await callError(session.client, 'facts_extract', { kinds: ['phone'], text, query: 'Dublin' })).code).toBe('usage');
    expect((await callError(session.client, 'facts_extract', { kinds: ['shoe size'], text })).code).toBe('unknown_kind');
    const address = await call(session.client, 'facts_extract', { kinds: ['address'], text: 'Our office is at the harbour.' });
    expect(address.warnings).toEqual(['address needs a model for what no postcode certifies, and no model is configured: see hippo model check']);
  });

  it('runs the distillation loop: rem_prompt → rem_ingest (generatedBy = the client) → candidates, and a second ingest is refused', async () => {
    const ids = await seed('me', NOTES);
    session = await stdioClient(box, ['--agent', 'me']);
    const prompted = await session.client.callTool({ name: 'rem_prompt', arguments: { focus: 'lessons' } });
    const { handoff, prompt, schema } = prompted.structuredContent as Json;
    const cli = json<Json>(await box.hippo(['rem', 'rapid', '--prompt-only', '--agent', 'me', '--json']));
    expect(prompt).toBe(cli.prompt);
    expect(schema).toEqual(cli.schema);
    expect(Object.values(handoff.refs).sort()).toEqual([...ids].sort());
    expect(textOf(prompted as never)).toContain(`call rem_ingest with handoff "${handoff.id}"`);
    expect(textOf(prompted as never)).toContain('<memory ref="m1"');

    const ref = Object.entries(handoff.refs as Record<string, string>).find(([, id]) => id === ids[2])![0];
    const wrong = await callError(session.client, 'rem_ingest', {
      handoff: handoff.id,
      answer: { candidates: [{ claim: 'Locks break deploys', sources: ['m99'] }] },
    });
    expect(wrong).toMatchObject({ code: 'model_output_invalid', details: { reason: 'source_out_of_set' } });

    const answer = { candidates: [{ claim: 'Check for long-held migration locks before deploying.', sources: [ref], tags: ['deploy'] }] };
    const staged = await call(session.client, 'rem_ingest', { handoff: handoff.id, answer: `Here you go:\n\`\`\`json\n${JSON.stringify(answer)}\n\`\`\`` });
    expect(staged.counts).toMatchObject({ staged: 1 });
    expect(staged.run).toMatchObject({ kind: 'rem ingest', status: 'completed' });
    const [candidate] = staged.candidates;
    expect(candidate).toMatchObject({
      generatedBy: `${CLIENT_INFO.name} ${CLIENT_INFO.version}`,
      provider: 'handoff',
      status: 'pending',
      sourceMemoryIds: [ids[2]],
    });

    const second = await callError(session.client, 'rem_ingest', { handoff: handoff.id, answer });
    expect(second.code).toBe('handoff_ingested');

    const listed = await call(session.client, 'candidates_list');
    expect(listed).toEqual(json(await box.hippo(['rem', 'candidates', '--agent', 'me', '--json'])));
    const shown = await session.client.callTool({ name: 'candidate_show', arguments: { id: candidate.id } });
    expect(shown.structuredContent).toEqual(json(await box.hippo(['rem', 'show', candidate.id, '--agent', 'me', '--json'])));
    expect(textOf(shown as never)).toContain(NOTES[2]);
    const promote = await session.client
      .callTool({ name: 'candidate_promote', arguments: { ids: [candidate.id], rationale: 'yes' } })
      .catch((error: unknown) => error);
    expect(promote).toBeInstanceOf(McpError);
    expect(String((promote as McpError).message)).toMatch(/unknown tool "candidate_promote".*person's decision/);
  });

  it('lets an agent review with --allow-review, recording the client as the reviewer', async () => {
    await seed('me', NOTES);
    session = await stdioClient(box, ['--agent', 'me', '--allow-review']);
    const { handoff } = await call(session.client, 'rem_prompt');
    const answer = {
      candidates: [
        { claim: 'Schedule crons away from backups.', sources: ['m1'] },
        { claim: 'Ana answers the Dublin phone.', sources: ['m2'] },
      ],
    };
    const { candidates } = await call(session.client, 'rem_ingest', { handoff: handoff.id, answer });
    const promoted = await call(session.client, 'candidate_promote', { ids: [candidates[0].id], rationale: 'matches the runbook' });
    expect(promoted.promoted[0]).toMatchObject({
      candidate: { status: 'promoted', reviewer: 'hippo-test-client 1.2.3', reviewRationale: 'matches the runbook' },
      memory: { durability: 'persistent', promotedFrom: candidates[0].id },
    });
    const rejected = await call(session.client, 'candidate_reject', { ids: [candidates[1].id], reason: 'one-off' });
    expect(rejected.rejected[0]).toMatchObject({ status: 'rejected', reviewer: 'hippo-test-client 1.2.3' });
    expect((await callError(session.client, 'candidate_promote', { ids: [candidates[1].id], rationale: 'again' })).code).toBe('candidate_decided');
  });

  it("reaches no other agent's rows: memories, candidates and handoffs of another agent are not found", async () => {
    const [theirs] = await seed('other', NOTES);
    const other = await stdioClient(box, ['--agent', 'other']);
    const { handoff } = await call(other.client, 'rem_prompt');
    const { candidates } = await call(other.client, 'rem_ingest', { handoff: handoff.id, answer: { candidates: [{ claim: 'A claim', sources: ['m1'] }] } });
    const { handoff: open } = await call(other.client, 'rem_prompt', { scope: 'all' });
    await other.close();

    session = await stdioClient(box, ['--agent', 'me']);
    expect((await callError(session.client, 'memory_get', { id: theirs })).code).toBe('memory_not_found');
    expect((await callError(session.client, 'facts_extract', { kinds: ['phone'], memoryIds: [theirs] })).code).toBe('memory_not_found');
    expect((await callError(session.client, 'candidate_show', { id: candidates[0].id })).code).toBe('candidate_not_found');
    expect((await callError(session.client, 'rem_ingest', { handoff: open.id, answer: { candidates: [] } })).code).toBe('handoff_not_found');
    expect(await call(session.client, 'candidates_list', { status: 'all' })).toEqual({ candidates: [], total: 0, truncated: false });
    expect(await call(session.client, 'memory_list')).toEqual({ memories: [], total: 0, truncated: false, warnings: [] });
    const read = await session.client.readResource({ uri: `hippo://memory/${theirs}` }).catch((error: unknown) => error);
    expect(read).toBeInstanceOf(McpError);
    expect((read as McpError).code).toBe(-32002);
  });

  it('serves a memory as a resource and the distill prompt', async () => {
    const [id] = await seed('me', NOTES);
    session = await stdioClient(box, ['--agent', 'me']);
    const { resourceTemplates } = await session.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'hippo://memory/{id}' })]);
    const { resources } = await session.client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain(`hippo://memory/${id}`);
    const read = await session.client.readResource({ uri: `hippo://memory/${id}` });
    const [content] = read.contents;
    expect(content).toMatchObject({ mimeType: 'application/json' });
    expect(JSON.parse((content as { text: string }).text)).toEqual({ memory: expect.objectContaining({ id, content: NOTES[0] }) });

    const { prompts } = await session.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['distill']);
    const prompt = await session.client.getPrompt({ name: 'distill', arguments: { focus: 'decisions', since: '7d' } });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toMatch(/rem_prompt tool with \{"focus":"decisions","scope":"recent","since":"7d"\}/);
    expect(text).toMatch(/rem_ingest/);
    expect(text).toMatch(/hippo rem candidates/);
    const bad = await session.client.getPrompt({ name: 'distill', arguments: { focus: 'gossip' } }).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(McpError);
  });
});
