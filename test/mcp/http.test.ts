/**
 * `hippo mcp --http` through the SDK's Streamable HTTP client and raw requests: tokens (none, wrong, revoked, another
 * agent's), the Host and Origin checks, the body cap, 20 concurrent calls, a client that disconnects mid-call.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';
import { call, callError, httpClient, INITIALIZE, post, startHttpServer, type HttpServer, type Json } from '../helpers/mcp.js';
import { startModelServer } from '../helpers/model-server.js';
import { MAX_SESSIONS_PER_TOKEN } from '../../src/mcp/http.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

let box: Sandbox;
let server: HttpServer | undefined;

beforeEach(() => {
  box = sandbox();
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  box.cleanup();
});

async function token(agent: string, label?: string): Promise<{ id: string; secret: string }> {
  const result = await box.hippo(['mcp', 'token', 'create', '--agent', agent, ...(label ? ['--label', label] : []), '--json']);
  expect(result.exitCode, String(result.stderr)).toBe(0);
  const { token: created, secret } = json<Json>(result);
  return { id: created.id, secret };
}

/** A raw request with any Host header (fetch will not send a forged one). */
function rawPost(url: string, headers: Record<string, string>, body: string): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('hippo mcp --http', () => {
  it('serves the start agent on loopback without a token', async () => {
    server = await startHttpServer(box, ['--agent', 'me']);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server.stderr()).toMatch(/agent me, no token needed on loopback/);
    const client = await httpClient(server.url);
    const added = await call(client, 'memory_add', { content: 'Standup moved to 10:00.' });
    expect(added.memory.agentId).toBe('me');
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('candidate_promote');
    await client.close();
  });

  it('does not ignore a token sent to a loopback server that requires none: served as its agent, a wrong one 401', async () => {
    const bob = await token('bob');
    server = await startHttpServer(box, ['--agent', 'me']);
    const asBob = await httpClient(server.url, bob.secret);
    expect((await call(asBob, 'memory_add', { content: 'Bob owns billing.' })).memory.agentId).toBe('bob');
    for (const authorization of ['Bearer hippo_wrong', `Bearer ${bob.secret}x`, bob.secret]) {
      const response = await post(server.url, INITIALIZE, { authorization });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32001, message: 'bearer token missing or invalid' } });
    }
    const asStart = await httpClient(server.url);
    expect((await call(asStart, 'memory_list')).memories).toEqual([]);
    expect((await call(asStart, 'memory_add', { content: 'Standup moved to 10:00.' })).memory.agentId).toBe('me');
    await asBob.close();
    await asStart.close();
    expect(server.stderr()).not.toContain(bob.secret);
  });

  it('requires a live token and serves each request as its token’s agent: none, wrong, revoked → 401; another agent’s rows are not found', async () => {
    const alice = await token('alice', 'laptop');
    const bob = await token('bob');
    server = await startHttpServer(box, ['--require-token', '--agent', 'ignored']);
    expect(server.stderr()).toMatch(/bearer tokens required/);

    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer hippo_wrong' },
      { authorization: `Bearer ${alice.secret}x` },
      { authorization: alice.secret },
    ]) {
      const response = await post(server.url, INITIALIZE, headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      // One generic JSON body: which of missing, wrong or revoked is not said (issue 30).
      expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32001, message: 'bearer token missing or invalid' } });
    }

    const asAlice = await httpClient(server.url, alice.secret);
    const asBob = await httpClient(server.url, bob.secret);
    const { memory } = await call(asAlice, 'memory_add', { content: 'Alice keeps the deploy keys.' });
    expect(memory.agentId).toBe('alice');
    expect(await call(asBob, 'memory_list')).toEqual({ memories: [], total: 0, truncated: false, warnings: [] });
    expect((await callError(asBob, 'memory_get', { id: memory.id })).code).toBe('memory_not_found');
    expect((await call(asBob, 'memory_add', { content: 'Bob owns billing.' })).memory.agentId).toBe('bob');

    // One access-log line per request on stderr: time, method, status, token id or "none", duration — never a secret or
    // memory text (issue 30).
    const logLines = () =>
      server!
        .stderr()
        .split('\n')
        .filter((line) => /^\d{4}-\d{2}-\d{2}T\S+Z (GET|POST|DELETE|other) \d{3} token=/.test(line));
    await expect.poll(() => logLines().filter((line) => line.includes(`token=${bob.id} `)).length).toBeGreaterThanOrEqual(2);
    const log = logLines();
    expect(log.filter((line) => / POST 401 token=none \d+ms$/.test(line))).toHaveLength(4);
    expect(log.some((line) => line.includes(`POST 200 token=${alice.id} `))).toBe(true);
    expect(log.some((line) => line.includes(`token=${bob.id} `))).toBe(true);
    for (const secret of [alice.secret, bob.secret, 'Alice keeps the deploy keys', 'Bob owns billing', 'hippo_wrong'])
      expect(server.stderr()).not.toContain(secret);

    // Alice's session with Bob's token is no session at all.
    const sessionId = (asAlice.transport as unknown as { sessionId?: string }).sessionId!;
    const crossed = await post(server.url, JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }), {
      authorization: `Bearer ${bob.secret}`,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    });
    expect(crossed.status).toBe(404);

    const revoked = await box.hippo(['mcp', 'token', 'revoke', alice.id, '--json']);
    expect(json<Json>(revoked).revoked).toEqual([expect.objectContaining({ id: alice.id, agentId: 'alice' })]);
    const refused = await asAlice.callTool({ name: 'memory_list', arguments: {} }).catch((error: unknown) => error);
    expect((refused as { code?: number }).code).toBe(401);
    expect(await call(asBob, 'memory_list')).toMatchObject({ memories: [expect.objectContaining({ agentId: 'bob' })] });
    await asBob.close();
    expect(server.stderr()).not.toMatch(/deploy keys|billing/);
  });

  it('requires tokens on any address that is not loopback', async () => {
    server = await startHttpServer(box, ['--host', '0.0.0.0', '--agent', 'me']);
    expect(server.stderr()).toMatch(/bearer tokens required/);
    for (let waited = 0; !/no live tokens/.test(server.stderr()) && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.stderr()).toMatch(/no live tokens yet: create one with hippo mcp token create --agent NAME/);
    const port = new URL(server.url).port;
    const response = await post(`http://127.0.0.1:${port}/mcp`, INITIALIZE);
    expect(response.status).toBe(401);
    const { secret } = await token('me');
    const client = await httpClient(`http://127.0.0.1:${port}/mcp`, secret);
    expect((await call(client, 'memory_list')).memories).toEqual([]);
    await client.close();
  });

  it('checks Host on loopback and Origin always (DNS rebinding), and answers only at /mcp', async () => {
    server = await startHttpServer(box, ['--agent', 'me', '--allow-origin', 'http://localhost:5173']);
    expect(await rawPost(server.url, { host: 'evil.example:80' }, INITIALIZE)).toBe(403);
    expect(await rawPost(server.url, { host: `localhost:${new URL(server.url).port}` }, INITIALIZE)).toBe(200);
    expect((await post(server.url, INITIALIZE, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(server.url, INITIALIZE, { origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await post(server.url.replace('/mcp', '/other'), INITIALIZE)).status).toBe(404);
  });

  it('lets a client still sending an oversized body finish and read the 413, instead of a reset (lingering close)', async () => {
    server = await startHttpServer(box, ['--agent', 'me']);
    const { port } = new URL(server.url);
    const size = 5 * 1024 * 1024;
    let sent = 0;
    const outcome = await new Promise<{ head: string; writeError: string | undefined }>((resolve) => {
      // Half-open, as a client streaming an upload is: the server's FIN does not stop our writing, only a reset does.
      const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
      let received = '';
      let writeError: string | undefined;
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', (error: NodeJS.ErrnoException) => (writeError = error.code ?? error.message));
      socket.on('close', () => resolve({ head: received.split('\r\n')[0] ?? '', writeError }));
      const upload = async (): Promise<void> => {
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
            `Accept: application/json, text/event-stream\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`,
        );
        // Send the body slowly, after the server has had every chance to answer and hang up.
        await new Promise((done) => setTimeout(done, 300));
        const piece = Buffer.alloc(256 * 1024, 0x7a);
        for (; sent < size && !socket.destroyed; sent += piece.length) {
          if (!socket.write(piece)) await new Promise((done) => socket.once('drain', done));
          await new Promise((done) => setTimeout(done, 10));
        }
        socket.end();
      };
      socket.on('connect', () => void upload());
    });
    expect(outcome.writeError).toBeUndefined();
    expect(sent).toBe(size);
    expect(outcome.head).toBe('HTTP/1.1 413 Payload Too Large');
  });

  it('caps request bodies (413), answers malformed JSON with a parse error, and keeps serving', async () => {
    server = await startHttpServer(box, ['--agent', 'me']);
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'memory_add', arguments: { content: 'z'.repeat(5 * 1024 * 1024) } },
    });
    const tooLarge = await post(server.url, big).catch((error: unknown) => error);
    // The server answers 413 before it reads the body (its Content-Length is over the cap).
    expect(tooLarge instanceof Response ? tooLarge.status : String(tooLarge)).toBe(413);
    const broken = await post(server.url, '{"jsonrpc": "2.0", "id": 1,');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: { code: -32700 } });
    const noSession = await post(server.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(noSession.status).toBe(400);
    const client = await httpClient(server.url);
    expect((await call(client, 'memory_add', { content: 'fine' })).memory.content).toBe('fine');
    await client.close();
  });

  it('answers 20 concurrent tool calls, each whole', async () => {
    server = await startHttpServer(box, ['--agent', 'me']);
    const client = await httpClient(server.url);
    const contents = Array.from({ length: 20 }, (_, index) => `concurrent note ${index} about the billing cron`);
    const added = await Promise.all(contents.map((content) => call(client, 'memory_add', { content })));
    expect(added.map((result) => result.memory.content).sort()).toEqual([...contents].sort());
    const searches = await Promise.all(contents.map(() => call(client, 'memory_search', { query: 'billing cron', limit: 50 })));
    for (const found of searches) expect(found.results).toHaveLength(20);
    expect((await call(client, 'memory_list', { limit: 100 })).memories).toHaveLength(20);
    await client.close();
  });

  it('keeps serving when a client disconnects mid-call, and stops cleanly (exit 130) with the call cancelled', async () => {
    const model = await startModelServer();
    try {
      model.respondWith({ kind: 'hang' });
      server = await startHttpServer(box, ['--agent', 'me'], { HIPPO_MODEL: 'ollama:test-model', HIPPO_BASE_URL: model.baseUrl('ollama') });
      const leaving = await httpClient(server.url);
      const abort = new AbortController();
      const pending = leaving
        .callTool({ name: 'facts_extract', arguments: { kinds: ['address'], text: 'Our office: 1 Harbour Road, by the sea, blue door.' } }, undefined, {
          signal: abort.signal,
        })
        .catch((error: unknown) => error);
      for (let waited = 0; model.requests.length === 0 && waited < 20_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(model.requests).toHaveLength(1);
      abort.abort();
      await pending;

      const other = await httpClient(server.url);
      expect((await call(other, 'memory_add', { content: 'still serving' })).memory.content).toBe('still serving');
      await other.close();

      const stopping = server;
      server = undefined;
      stopping.process.kill('SIGTERM');
      const result = await stopping.process;
      expect(result.exitCode).toBe(130);
      expect(await model.requests[0]!.closed).toBe(true);
    } finally {
      await model.close();
    }
  });
});

describe('hippo mcp --http: session limits per token and per agent (issue 27)', () => {
  /** Opens a session with a raw initialize and returns its status and JSON body (no SDK: the refusal is the subject). */
  const initialize = async (url: string, secret: string) => {
    const response = await post(url, INITIALIZE, { authorization: `Bearer ${secret}` });
    const text = await response.text();
    return { status: response.status, retryAfter: response.headers.get('retry-after'), text, body: text === '' ? undefined : JSON.parse(text) };
  };
  const ADDRESS = { kinds: ['address'], text: 'Our office: 1 Harbour Road, by the sea, blue door.' };

  it('one token whose sessions are all busy gets 429 naming the token limit; another token’s client is served', async () => {
    const model = await startModelServer();
    const clients: Client[] = [];
    try {
      model.respondWith({ kind: 'hang' });
      const greedy = await token('greedy');
      const other = await token('other');
      server = await startHttpServer(box, ['--require-token'], { HIPPO_MODEL: 'ollama:test-model', HIPPO_BASE_URL: model.baseUrl('ollama') });
      // Every one of the token's 32 sessions busy with a call that waits on the (hanging) model.
      const pending: Promise<unknown>[] = [];
      for (let index = 0; index < MAX_SESSIONS_PER_TOKEN; index++) {
        const client = await httpClient(server.url, greedy.secret);
        clients.push(client);
        pending.push(client.callTool({ name: 'facts_extract', arguments: ADDRESS }).catch((error: unknown) => error));
      }
      for (let waited = 0; model.requests.length < MAX_SESSIONS_PER_TOKEN && waited < 30_000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(model.requests).toHaveLength(MAX_SESSIONS_PER_TOKEN);

      const refused = await initialize(server.url, greedy.secret);
      expect(refused.status).toBe(429);
      expect(refused.retryAfter).toBe('60');
      expect(refused.body.error).toMatchObject({ code: -32000, data: { limit: 'token', max: MAX_SESSIONS_PER_TOKEN } });
      expect(refused.body.error.message).toMatch(/too many open sessions for this token \(at most 32/);
      expect(refused.text).not.toContain(greedy.secret);

      const served = await httpClient(server.url, other.secret);
      clients.push(served);
      expect((await call(served, 'memory_add', { content: 'still served' })).memory).toMatchObject({ agentId: 'other', content: 'still served' });
      for (const client of clients) await client.close();
      clients.length = 0;
      await Promise.all(pending);
    } finally {
      for (const client of clients) await client.close().catch(() => undefined);
      await server?.stop();
      server = undefined;
      await model.close();
    }
  });

  it('holds one token to its cap under 50 of its clients at once: never more than 32 busy, the rest refused (429) or their idle session closed; another token unaffected', async () => {
    const model = await startModelServer();
    const clients: Client[] = [];
    const calls: { answer: Promise<unknown>; settled: boolean }[] = [];
    try {
      model.respondWith({ kind: 'hang' });
      const greedy = await token('greedy');
      const other = await token('other');
      server = await startHttpServer(box, ['--require-token'], { HIPPO_MODEL: 'ollama:test-model', HIPPO_BASE_URL: model.baseUrl('ollama') });
      const url = server.url;
      const status = (error: unknown): number | undefined => (error as { code?: number }).code;
      /**
       * One client of the token: a session, then a call that waits on the (hanging) model for as long as it lives
       * (busy). Refused at once when its token's sessions are all busy (429); its idle session closed for a newer one
       * of the token before its handshake or its call (404).
       */
      const greedyClient = async (): Promise<'called' | 'refused' | 'closed'> => {
        let client: Client;
        try {
          client = await httpClient(url, greedy.secret);
        } catch (error) {
          if (status(error) === 429) return 'refused';
          expect(status(error), String(error)).toBe(404);
          return 'closed';
        }
        clients.push(client);
        const entry = { answer: Promise.resolve() as Promise<unknown>, settled: false };
        entry.answer = client.callTool({ name: 'facts_extract', arguments: ADDRESS }).then(
          (answer) => ((entry.settled = true), answer),
          (error: unknown) => ((entry.settled = true), String(error)),
        );
        calls.push(entry);
        return 'called';
      };
      const busy = () => calls.filter((entry) => !entry.settled).length;
      /** Waits until every call still waiting is at the model: each one busy session. */
      const steady = async () => {
        for (let waited = 0; model.requests.length !== busy() && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
        expect(model.requests).toHaveLength(busy());
      };
      /** A client of the other token at the same time: served whole. */
      const bystander = async (index: number): Promise<string> => {
        const client = await httpClient(url, other.secret);
        try {
          return (await call(client, 'memory_add', { content: `bystander ${index}` })).memory.agentId;
        } finally {
          await client.close();
        }
      };
      const [outcomes, served] = await Promise.all([
        Promise.all(Array.from({ length: 50 }, () => greedyClient())),
        Promise.all(Array.from({ length: 10 }, (_, index) => bystander(index))),
      ]);
      expect(served).toEqual(Array.from({ length: 10 }, () => 'other'));
      await steady();
      // Never more than the token's cap busy; every other client refused or closed (a closed call says not found).
      expect(busy()).toBeLessThanOrEqual(MAX_SESSIONS_PER_TOKEN);
      for (const entry of calls.filter((call) => call.settled)) expect(await entry.answer).toMatch(/404|session not found/i);
      expect(outcomes.filter((outcome) => outcome !== 'called').length + calls.filter((entry) => entry.settled).length).toBe(50 - busy());

      // Topped up one by one: the token fills its cap exactly, then its next client is refused naming the limit.
      while (busy() < MAX_SESSIONS_PER_TOKEN) {
        expect(await greedyClient()).toBe('called');
        await steady();
      }
      expect(model.requests).toHaveLength(MAX_SESSIONS_PER_TOKEN);
      const refused = await post(url, INITIALIZE, { authorization: `Bearer ${greedy.secret}` });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as Json).error.data).toMatchObject({ limit: 'token', max: MAX_SESSIONS_PER_TOKEN });
      expect(await bystander(10)).toBe('other');
    } finally {
      for (const client of clients) await client.close().catch(() => undefined);
      await Promise.all(calls.map((entry) => entry.answer));
      await server?.stop();
      server = undefined;
      await model.close();
    }
  }, 180_000);

  it('a token opening more sessions than its cap closes its own oldest idle one, never another token’s', async () => {
    const greedy = await token('greedy');
    const other = await token('other');
    server = await startHttpServer(box, ['--require-token']);
    const bystander = await httpClient(server.url, other.secret);
    const first = await httpClient(server.url, greedy.secret);
    await call(first, 'memory_list');
    const later: Client[] = [];
    for (let index = 0; index < MAX_SESSIONS_PER_TOKEN + 8; index++) later.push(await httpClient(server.url, greedy.secret));
    // The oldest idle session of that token was closed to make room: its id is not found any more.
    await expect(first.callTool({ name: 'memory_list', arguments: {} })).rejects.toThrow(/404|session not found/i);
    expect((await call(later.at(-1)!, 'memory_list')).memories).toEqual([]);
    expect((await call(bystander, 'memory_add', { content: 'untouched' })).memory.agentId).toBe('other');
    for (const client of [bystander, ...later]) await client.close();
  });

  it('serves 50 clients of 5 tokens at once, each whole and each as its own agent', async () => {
    const tokens = await Promise.all(['t0', 't1', 't2', 't3', 't4'].map((agent) => token(agent)));
    server = await startHttpServer(box, ['--require-token']);
    const url = server.url;
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, index) => {
        const agent = `t${index % 5}`;
        const client = await httpClient(url, tokens[index % 5]!.secret);
        try {
          const added = await call(client, 'memory_add', { content: `note ${index} from ${agent}` });
          const listed = await call(client, 'memory_list', { limit: 100 });
          return { agent, added: added.memory.agentId, listedAgents: new Set(listed.memories.map((memory: Json) => memory.agentId)) };
        } finally {
          await client.close();
        }
      }),
    );
    for (const result of results) {
      expect(result.added).toBe(result.agent);
      expect([...result.listedAgents]).toEqual([result.agent]);
    }
    for (const [index] of tokens.entries()) {
      const listed = json<Json>(await box.hippo(['memory', 'list', '--agent', `t${index}`, '--json']));
      expect(listed.memories).toHaveLength(10);
    }
  });
});
