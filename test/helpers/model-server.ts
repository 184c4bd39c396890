/**
 * A stand-in model server for tests: a real HTTP server on 127.0.0.1 that speaks the three wire formats hippo uses
 * (Ollama `/api/chat`, OpenAI `/v1/chat/completions`, Anthropic `/v1/messages`), records every request, and answers
 * as told — well, slowly, badly, or not at all.
 *
 *   const server = await startModelServer();
 *   server.respondWith(reply.json({ ok: true }, { model: 'llama3.2:latest' }));   // default answer
 *   server.queue(reply.text('not json'), reply.json(good));                         // then, in order, before the default
 *   const cfg = { provider: 'ollama', baseUrl: server.baseUrl('ollama'), … };
 *   …
 *   expect(server.requests).toHaveLength(1);
 *   expect(server.requests[0].body.format).toEqual(schema);
 *   expect(await server.requests[0].closed).toBe(true);    // the client hung up before the answer was complete
 *   await server.close();
 *
 * In a test file (or a describe block), `useModelServer()` does the starting and closing with vitest's hooks:
 *
 *   const server = useModelServer();                 // a fresh server for every test
 *   const server = useModelServer({ per: 'suite' }); // one server for the file (or block), reset before every test
 *
 * Replies are wire-format neutral: `reply.json(value)` becomes an Ollama message, an OpenAI choice, or an Anthropic
 * text block (or a `tool_use` block when the request forced hippo's `json` tool), each with the right envelope.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

export type WireFormat = 'ollama' | 'openai' | 'anthropic';

export interface ReplyOptions {
  /** Model id to report in the envelope; default: the requested model id. */
  model?: string;
  /** Wait this long before answering (the connection stays open; a client abort is observed). */
  delayMs?: number;
  /** A reasoning field alongside the content (Ollama `thinking`, OpenAI `reasoning_content`, Anthropic thinking block). */
  reasoning?: string;
  /** Report the answer as cut off at the token limit. */
  truncated?: boolean;
}

export type Reply =
  | ({ kind: 'content'; text: string; value?: unknown } & ReplyOptions)
  | ({ kind: 'status'; status: number; message: string; headers?: Record<string, string> } & ReplyOptions)
  | ({ kind: 'raw'; status: number; contentType: string; body: string } & ReplyOptions)
  | ({ kind: 'huge'; bytes: number; fill?: string } & ReplyOptions)
  | ({ kind: 'drop'; partial?: string } & ReplyOptions)
  | ({ kind: 'hang' } & ReplyOptions);

/** Builders for every answer the server can give. */
export const reply = {
  /** A well-formed answer whose content is `JSON.stringify(value)`. */
  json: (value: unknown, options: ReplyOptions = {}): Reply => ({ kind: 'content', text: JSON.stringify(value), value, ...options }),
  /** Content text exactly as given (prose, broken JSON, …). */
  text: (text: string, options: ReplyOptions = {}): Reply => ({ kind: 'content', text, ...options }),
  /** `<think>…</think>` (with a decoy JSON object inside) before the JSON answer. */
  think: (value: unknown, thought = 'Let me think. Draft: {"draft": true}', options: ReplyOptions = {}): Reply => ({
    kind: 'content',
    text: `<think>${thought}</think>\n${JSON.stringify(value)}`,
    ...options,
  }),
  /** Prose, then the JSON in a ```json fence, then more prose. */
  fenced: (value: unknown, options: ReplyOptions = {}): Reply => ({
    kind: 'content',
    text: `Sure! Here is the answer:\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`\n\nLet me know if you need more.`,
    ...options,
  }),
  /** An HTTP error with the wire format's error envelope carrying `message` (e.g. a canary). */
  status: (status: number, message = 'error', options: ReplyOptions & { headers?: Record<string, string> } = {}): Reply => ({
    kind: 'status',
    status,
    message,
    ...options,
  }),
  /** 200 with an HTML page (a web UI or a captive portal at the base URL). */
  html: (text = 'Welcome', options: ReplyOptions = {}): Reply => ({
    kind: 'raw',
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body: `<!doctype html><html><body><h1>${text}</h1></body></html>`,
    ...options,
  }),
  /** 200 with an empty body. */
  empty: (options: ReplyOptions = {}): Reply => ({ kind: 'raw', status: 200, contentType: 'application/json', body: '', ...options }),
  /** Any status, content type and body, sent as is. */
  raw: (status: number, contentType: string, body: string, options: ReplyOptions = {}): Reply => ({ kind: 'raw', status, contentType, body, ...options }),
  /** A well-formed envelope whose content is `bytes` long (default 10 MB) of `fill` repeated, streamed in chunks. */
  huge: (bytes = 10 * 1024 * 1024, options: ReplyOptions & { fill?: string } = {}): Reply => ({ kind: 'huge', bytes, ...options }),
  /** Destroy the connection: before any response, or after sending 200 headers and `partial` of the body. */
  drop: (partial?: string, options: ReplyOptions = {}): Reply => ({ kind: 'drop', ...(partial !== undefined ? { partial } : {}), ...options }),
  /** Never answer (until the client gives up or the server closes). */
  hang: (options: ReplyOptions = {}): Reply => ({ kind: 'hang', ...options }),
  /** `inner` after `delayMs`. */
  slow: (delayMs: number, inner: Reply): Reply => ({ ...inner, delayMs }),
};

export interface RecordedRequest {
  method: string;
  path: string;
  format: WireFormat | undefined;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** Parsed JSON body (undefined when the body was not JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** Resolves when the exchange ends: true if the client closed the connection before the response was complete. */
  closed: Promise<boolean>;
  /** Status and body size of the complete response the server sent (unset for hang/drop/huge). */
  response?: { status: number; bytes: number };
}

export interface ModelServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The base URL hippo's config wants for a wire format (Ollama: server root; OpenAI and Anthropic: `…/v1`). */
  baseUrl(format: WireFormat): string;
  requests: RecordedRequest[];
  /** The answer for every request not served by the queue (default: `reply.json({ ok: true })`). */
  respondWith(reply: Reply): void;
  /** Answers used once each, in order, before falling back to the default. */
  queue(...replies: Reply[]): void;
  /** Resolves when `count` requests (in total) have arrived. */
  waitForRequests(count: number): Promise<void>;
  /** Forgets the recorded requests and the queue, and answers `reply.json({ ok: true })` again. */
  reset(): void;
  close(): Promise<void>;
}

const PATHS: Record<string, WireFormat> = {
  '/api/chat': 'ollama',
  '/v1/chat/completions': 'openai',
  '/v1/messages': 'anthropic',
};

export async function startModelServer(): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const queued: Reply[] = [];
  let fallback: Reply = reply.json({ ok: true });
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = undefined;
      }
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const format = PATHS[path];
      const closed = new Promise<boolean>((resolve) => {
        res.on('close', () => resolve(!res.writableFinished));
      });
      const record: RecordedRequest = { method: req.method ?? 'GET', path, format, headers: req.headers, rawBody, body, closed };
      requests.push(record);
      for (const w of waiters.filter((w) => requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const answer = queued.shift() ?? fallback;
      const send = (): void => {
        if (res.destroyed) return;
        if (!format) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        respond(format, answer, req, res, body as Record<string, unknown> | undefined, record);
      };
      if (answer.delayMs) {
        const t = setTimeout(() => {
          timers.delete(t);
          send();
        }, answer.delayMs);
        timers.add(t);
        res.on('close', () => clearTimeout(t));
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseUrl: (format) => (format === 'ollama' ? url : `${url}/v1`),
    requests,
    respondWith: (r) => {
      fallback = r;
    },
    queue: (...rs) => {
      queued.push(...rs);
    },
    waitForRequests: (count) => (requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    reset: () => {
      requests.length = 0;
      queued.length = 0;
      fallback = reply.json({ ok: true });
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A stand-in server for the tests of the current file or describe block, started and closed by vitest's hooks:
 * `per: 'test'` (default) starts a fresh one before every test and closes it after; `per: 'suite'` starts one before
 * the first test, resets it (requests, queue, default answer) before every test, and closes it after the last.
 * The handle it returns reaches the live server, so it can be used in tests and hooks (not at collection time).
 */
export function useModelServer(options: { per?: 'test' | 'suite' } = {}): ModelServer {
  let current: ModelServer | undefined;
  const start = async (): Promise<void> => {
    current = await startModelServer();
  };
  const stop = async (): Promise<void> => {
    await current?.close();
    current = undefined;
  };
  if (options.per === 'suite') {
    beforeAll(start);
    beforeEach(() => current?.reset());
    afterAll(stop);
  } else {
    beforeEach(start);
    afterEach(stop);
  }
  const live = (): ModelServer => {
    if (!current) throw new Error('useModelServer(): the server runs only while a test (or its hooks) runs');
    return current;
  };
  return {
    get url() {
      return live().url;
    },
    baseUrl: (format) => live().baseUrl(format),
    get requests() {
      return live().requests;
    },
    respondWith: (answer) => live().respondWith(answer),
    queue: (...answers) => live().queue(...answers),
    waitForRequests: (count) => live().waitForRequests(count),
    reset: () => live().reset(),
    close: () => live().close(),
  };
}

function respond(
  format: WireFormat,
  answer: Reply,
  req: IncomingMessage,
  res: ServerResponse,
  body: Record<string, unknown> | undefined,
  record: RecordedRequest,
): void {
  const end = (status: number, contentType: string, text: string, headers: Record<string, string> = {}): void => {
    record.response = { status, bytes: Buffer.byteLength(text) };
    res.writeHead(status, { 'content-type': contentType, ...headers }).end(text);
  };
  const model = answer.model ?? (typeof body?.model === 'string' ? body.model : 'unknown');
  switch (answer.kind) {
    case 'hang':
      return;
    case 'drop':
      if (answer.partial === undefined) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(answer.partial, () => req.socket.destroy());
      return;
    case 'raw':
      end(answer.status, answer.contentType, answer.body);
      return;
    case 'status':
      end(answer.status, 'application/json', JSON.stringify(errorEnvelope(format, answer.status, answer.message)), answer.headers);
      return;
    case 'content': {
      const forcedTool = format === 'anthropic' && Array.isArray(body?.tools) && (body.tools as Array<{ name?: string }>).some((t) => t.name === 'json');
      end(200, 'application/json', JSON.stringify(envelope(format, model, answer, forcedTool)));
      return;
    }
    case 'huge': {
      // A real envelope around a huge content string, written in chunks so a client can hang up part-way.
      const fill = answer.fill ?? 'x';
      const text = fill.repeat(Math.ceil(answer.bytes / fill.length)).slice(0, answer.bytes);
      const full = JSON.stringify(envelope(format, model, { kind: 'content', text }, false));
      res.writeHead(200, { 'content-type': 'application/json' });
      let offset = 0;
      const pump = (): void => {
        while (offset < full.length && !res.destroyed) {
          const piece = full.slice(offset, offset + 64 * 1024);
          offset += piece.length;
          if (!res.write(piece)) {
            res.once('drain', pump);
            return;
          }
        }
        if (!res.destroyed) res.end();
      };
      pump();
      return;
    }
  }
}

function envelope(format: WireFormat, model: string, answer: Extract<Reply, { kind: 'content' }>, forcedTool: boolean): unknown {
  const usage = { input: 11, output: 7 };
  if (format === 'ollama') {
    return {
      model,
      created_at: new Date().toISOString(),
      message: { role: 'assistant', content: answer.text, ...(answer.reasoning ? { thinking: answer.reasoning } : {}) },
      done: true,
      done_reason: answer.truncated ? 'length' : 'stop',
      prompt_eval_count: usage.input,
      eval_count: usage.output,
    };
  }
  if (format === 'openai') {
    return {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: answer.text, ...(answer.reasoning ? { reasoning_content: answer.reasoning } : {}) },
          finish_reason: answer.truncated ? 'length' : 'stop',
        },
      ],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    };
  }
  const content: unknown[] = [];
  if (answer.reasoning) content.push({ type: 'thinking', thinking: answer.reasoning, signature: 'sig' });
  if (forcedTool && answer.value !== undefined) {
    content.push({ type: 'tool_use', id: 'toolu_1', name: 'json', input: answer.value });
  } else {
    content.push({ type: 'text', text: answer.text });
  }
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: answer.truncated ? 'max_tokens' : forcedTool ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usage.input, output_tokens: usage.output },
  };
}

function errorEnvelope(format: WireFormat, status: number, message: string): unknown {
  if (format === 'ollama') return { error: message };
  if (format === 'openai') return { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null } };
  return { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message } };
}
