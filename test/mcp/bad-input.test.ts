/**
 * Bad input to `hippo mcp` (docs/mcp.md, "Bad input"): each a clear tool or protocol error, the server keeps serving,
 * nothing half-written. Raw JSON-RPC lines go to the built CLI's stdin where no SDK would send them.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { execa, type ResultPromise } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listMemories } from '../../src/core/memory/memory.js';
import { openStore } from '../../src/core/store/store.js';
import { BIN, sandbox, type Sandbox } from '../helpers/cli.js';
import { call, callError, CLIENT_INFO, stdioClient, type StdioSession, type Json } from '../helpers/mcp.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';

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

/** `hippo mcp` with a raw pipe on stdin: send lines, read the JSON-RPC messages it answers with. */
function rawServer(env: Record<string, string> = {}) {
  const child: ResultPromise = execa('node', [BIN, 'mcp', '--agent', 'me'], { reject: false, env: { ...box.env, ...env }, extendEnv: true, buffer: false });
  const messages: Json[] = [];
  let pending = '';
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    pending += chunk.toString('utf8');
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      messages.push(JSON.parse(pending.slice(0, newline)));
      pending = pending.slice(newline + 1);
    }
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const send = (line: string) => child.stdin!.write(`${line}\n`);
  const waitFor = async (predicate: (message: Json) => boolean, what: string) => {
    for (let waited = 0; waited < 20_000; waited += 20) {
      const found = messages.find(predicate);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no ${what} in ${JSON.stringify(messages)}\n${stderr}`);
  };
  const initialize = async () => {
    send(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: CLIENT_INFO } }));
    await waitFor((message) => message.id === 0, 'initialize result');
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  };
  return { child, messages, send, waitFor, initialize, stdout: () => stdout, stderr: () => stderr };
}

const toolCall = (id: number, name: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('hippo mcp: bad input', () => {
  it('answers malformed JSON-RPC with the JSON-RPC error it is, and keeps serving', async () => {
    const server = rawServer();
    await server.initialize();
    server.send('this is not json');
    server.send('{"jsonrpc":"2.0","id":7,"method":42}');
    server.send('[1, 2, 3]');
    server.send('{"jsonrpc":"2.0","id":8,"method":"no/such/method"}');
    await server.waitFor((message) => message.error?.code === -32700, 'parse error');
    await server.waitFor((message) => message.id === 7 && message.error?.code === -32600, 'invalid request with its id');
    await server.waitFor((message) => message.id === 8 && message.error?.code === -32601, 'method not found');
    expect(server.messages.filter((message) => message.error?.code === -32600)).toHaveLength(2);
    server.send(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }));
    const listed = await server.waitFor((message) => message.id === 9, 'tools/list result');
    expect(listed.result.tools.length).toBeGreaterThan(5);
    server.child.stdin!.end();
    expect((await server.child).exitCode).toBe(0);
    // Protocol frames only on stdout: every line parsed as JSON-RPC above.
    expect(
      server
        .stdout()
        .trim()
        .split('\n')
        .every((line) => JSON.parse(line).jsonrpc === '2.0'),
    ).toBe(true);
  });

  it('answers arguments that are not an object with -32602 (invalid params) naming them, not an internal error, and keeps serving', async () => {
    const server = rawServer();
    await server.initialize();
    const call = (id: number, args: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'memory_add', arguments: args } });
    const cases: [number, unknown, RegExp][] = [
      [21, 'remember this', /arguments.*expected record, received string/s],
      [22, ['remember this'], /arguments.*expected record, received array/s],
      [23, 42, /arguments.*expected record, received number/s],
    ];
    for (const [id, args] of cases) server.send(call(id, args));
    for (const [id, , message] of cases) {
      const answer = await server.waitFor((reply) => reply.id === id, `the answer to ${id}`);
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toMatch(message);
    }
    server.send(toolCall(24, 'memory_add', { content: 'still here' }));
    expect((await server.waitFor((reply) => reply.id === 24, 'memory_add result')).result.structuredContent.memory.content).toBe('still here');
    server.child.stdin!.end();
    expect((await server.child).exitCode).toBe(0);
  });

  it('answers any request whose params are malformed otherwise (a name, uri or cursor not a string, no params) with -32602 too', async () => {
    const server = rawServer();
    await server.initialize();
    const request = (id: number, method: string, params: unknown) =>
      JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    const cases: [number, string, unknown, RegExp][] = [
      [31, 'tools/call', { name: 5, arguments: {} }, /name.*expected string, received number/s],
      [32, 'tools/call', { arguments: { content: 'x' } }, /name.*expected string, received undefined/s],
      [33, 'tools/call', undefined, /params.*expected object, received undefined/s],
      [35, 'prompts/get', { name: 5 }, /name.*expected string, received number/s],
      [36, 'prompts/get', { name: 'distill', arguments: [] }, /arguments.*expected record, received array/s],
      [37, 'resources/read', undefined, /params.*expected object, received undefined/s],
      [38, 'resources/read', { uri: 5 }, /uri.*expected string, received number/s],
      [39, 'tools/list', { cursor: 5 }, /cursor.*expected string, received number/s],
      [40, 'resources/list', { cursor: 5 }, /cursor.*expected string, received number/s],
    ];
    for (const [id, method, params] of cases) server.send(request(id, method, params));
    for (const [id, , , message] of cases) {
      const answer = await server.waitFor((reply) => reply.id === id, `the answer to ${id}`);
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toMatch(message);
    }
    server.send(toolCall(34, 'memory_add', { content: 'still here' }));
    expect((await server.waitFor((reply) => reply.id === 34, 'memory_add result')).result.structuredContent.memory.content).toBe('still here');
    server.child.stdin!.end();
    expect((await server.child).exitCode).toBe(0);
  });

  it('skips a message over the size cap with an error and keeps serving', async () => {
    const server = rawServer();
    await server.initialize();
    server.send(toolCall(1, 'memory_add', { content: 'x'.repeat(17 * 1024 * 1024) }));
    await server.waitFor((message) => message.error?.code === -32600 && /too large/.test(message.error.message), 'too large error');
    server.send(toolCall(2, 'memory_add', { content: 'still here' }));
    const added = await server.waitFor((message) => message.id === 2, 'memory_add result');
    expect(added.result.structuredContent.memory.content).toBe('still here');
    server.child.stdin!.end();
    expect((await server.child).exitCode).toBe(0);
  });

  it('refuses unknown tools, schema-invalid and 10 MB arguments clearly; nothing is written, and it keeps serving', async () => {
    session = await stdioClient(box, ['--agent', 'me']);
    const unknown = await session.client.callTool({ name: 'memory_delete_everything', arguments: {} }).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(-32602);
    expect((unknown as McpError).message).toMatch(/unknown tool "memory_delete_everything"; the tools are memory_add/);

    const wrongType = await callError(session.client, 'memory_add', { content: 42, tags: 'ops' });
    expect(wrongType.code).toBe('usage');
    expect(wrongType.message).toMatch(/content: .*expected string.*; tags: .*expected array/);
    expect((await callError(session.client, 'memory_add', {})).message).toMatch(/content/);
    expect((await callError(session.client, 'memory_search', { query: 'x', limit: 0 })).message).toMatch(/limit/);
    expect((await callError(session.client, 'memory_add', { content: '   ' })).code).toBe('empty_content');
    expect((await callError(session.client, 'memory_add', { content: 'soon', durability: 'permanent', expires: '1d' })).code).toBe('expires_on_durable');

    const huge = 'y'.repeat(10 * 1024 * 1024);
    const tooBig = await callError(session.client, 'memory_add', { content: huge });
    expect(tooBig.code).toBe('usage');
    expect(tooBig.message).toMatch(/content: Too big/);
    expect(tooBig.message.length).toBeLessThan(500);
    expect((await callError(session.client, 'facts_extract', { kinds: ['email'], text: huge })).code).toBe('usage');
    expect((await callError(session.client, 'rem_ingest', { handoff: 'hof_x', answer: huge })).code).toBe('usage');

    expect(await call(session.client, 'memory_list')).toEqual({ memories: [], total: 0, truncated: false, warnings: [] });
    expect((await call(session.client, 'memory_add', { content: 'after all that' })).memory.content).toBe('after all that');
  });

  it('refuses a handoff that is unknown or expired by its code, and stages nothing', async () => {
    session = await stdioClient(box, ['--agent', 'me']);
    expect((await callError(session.client, 'rem_ingest', { handoff: 'hof_01JD3Z8N6Q2W4E5R7T9Y1U3I5O', answer: { candidates: [] } })).code).toBe(
      'handoff_not_found',
    );
    const empty = await callError(session.client, 'rem_prompt');
    expect(empty.code).toBe('nothing_to_distill');
    expect(await call(session.client, 'candidates_list', { status: 'all' })).toEqual({ candidates: [], total: 0, truncated: false });
  });

  describe('a client that disconnects mid-call', () => {
    let model: ModelServer;
    beforeEach(async () => {
      model = await startModelServer();
    });
    afterEach(async () => {
      await model.close();
    });

    it('cancels the call it left (its model request is aborted) and the server exits cleanly', async () => {
      model.respondWith({ kind: 'hang' });
      const server = rawServer({ HIPPO_MODEL: 'ollama:test-model', HIPPO_BASE_URL: model.baseUrl('ollama') });
      await server.initialize();
      server.send(toolCall(1, 'facts_extract', { kinds: ['address'], text: 'Our office: 1 Harbour Road, somewhere by the sea, with a blue door.' }));
      for (let waited = 0; model.requests.length === 0 && waited < 20_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(model.requests).toHaveLength(1);
      server.child.stdin!.end();
      const result = await server.child;
      expect(result.exitCode).toBe(0);
      expect(await model.requests[0]!.closed).toBe(true);
      expect(server.stderr()).not.toMatch(/Harbour/);
    });

    it('finishes the writes it had started, whole, and exits 0', async () => {
      const server = rawServer();
      await server.initialize();
      const contents = Array.from({ length: 20 }, (_, index) => `note ${index}: ${'words '.repeat(50)}`);
      contents.forEach((content, index) => server.send(toolCall(index + 1, 'memory_add', { content })));
      server.child.stdin!.end();
      expect((await server.child).exitCode).toBe(0);
      const store = await openStore({ path: box.db });
      try {
        const stored = await listMemories(store, { agentId: 'me', limit: 100 });
        // The calls it had read were finished before the store closed, each a whole memory.
        expect(stored.map((memory) => memory.content).sort()).toEqual([...contents].sort());
      } finally {
        await store.close();
      }
    });
  });

  it('keeps stdout for protocol frames: a startup error goes to stderr, and --json is not a flag of hippo mcp', async () => {
    const bad = await box.hippo(['mcp', '--agent', 'bad\u202eagent']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/bad_agent|agent id/);
    const json = await box.hippo(['mcp', '--json']);
    expect(json.exitCode).toBe(2);
    expect(json.stdout).toBe('');
    expect(json.stderr).toMatch(/--json/);
  });
});
