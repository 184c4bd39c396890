import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { InterruptedError } from '../../../src/core/errors.js';
import { createModelClient, ModelCallAbortedError, type HttpModelConfig, type ModelClient } from '../../../src/core/model/index.js';
import { reply, useModelServer, type WireFormat } from '../../helpers/model-server.js';

const SCHEMA = z.object({
  candidates: z.array(z.object({ claim: z.string(), sources: z.array(z.enum(['m1', 'm2'])).min(1) })),
});
const GOOD = { candidates: [{ claim: 'Deploys go out on Tuesdays', sources: ['m1'] }] };
const JSON_SCHEMA = {
  type: 'object',
  properties: {
    candidates: {
      type: 'array',
      items: {
        type: 'object',
        properties: { claim: { type: 'string' }, sources: { minItems: 1, type: 'array', items: { type: 'string', enum: ['m1', 'm2'] } } },
        required: ['claim', 'sources'],
        additionalProperties: false,
      },
    },
  },
  required: ['candidates'],
  additionalProperties: false,
};

// An Anthropic model without native structured output: the SDK forces its `json` tool (the other path, output_config,
// is tested below with claude-sonnet-4-5).
const MODELS: Record<WireFormat, string> = { ollama: 'llama3.2', openai: 'gpt-4o-mini', anthropic: 'claude-3-haiku-20240307' };

/** The JSON schema the request carried, wherever the wire format puts it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function sentSchema(format: WireFormat, body: any): unknown {
  if (format === 'ollama') return body.format;
  if (format === 'openai') return body.response_format?.json_schema?.schema;
  return body.output_config?.format?.schema ?? body.tools?.find((t: { name: string }) => t.name === 'json')?.input_schema;
}

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; exitCode: number; details?: Record<string, unknown>; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; exitCode: number; details?: Record<string, unknown>; message: string };
  }
  throw new Error('expected the call to fail');
}

const call = (client: ModelClient, extra: Partial<Parameters<ModelClient['generateObject']>[0]> = {}) =>
  client.generateObject({ system: 'You distill memories.', prompt: 'Memories: m1, m2', schema: SCHEMA, maxOutputTokens: 500, temperature: 0.2, ...extra });

describe.each(['ollama', 'openai', 'anthropic'] as const)('%s provider against the stand-in server', (format) => {
  const server = useModelServer();
  let config: HttpModelConfig;
  let client: ModelClient;

  beforeEach(() => {
    config = {
      provider: format,
      model: MODELS[format],
      baseUrl: server.baseUrl(format),
      apiKey: 'sk-test-key-0123456789',
      timeoutMs: 5_000,
      maxBytes: 1024 * 1024,
      source: 'flag',
    };
    client = createModelClient(config);
  });

  test('sends the model id, prompt and JSON schema once; returns the validated value and the reported model', async () => {
    // The server holds its answer for 40 ms: the latency reported covers that wait and not more than the whole call.
    server.respondWith(reply.json(GOOD, { model: `${MODELS[format]}-served`, delayMs: 40 }));
    const started = performance.now();
    const result = await call(client);
    const elapsed = performance.now() - started;
    expect(result.value).toEqual(GOOD);
    expect(result.model).toBe(`${MODELS[format]}-served`);
    expect(result.provider).toBe(format);
    expect(result.rawText).toBe(JSON.stringify(GOOD));
    expect(result.usage).toEqual({ inputTokens: 11, outputTokens: 7 });
    expect(result.latencyMs).toBeGreaterThanOrEqual(39);
    expect(result.latencyMs).toBeLessThanOrEqual(elapsed + 1);

    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.format).toBe(format);
    expect(req.body.model).toBe(MODELS[format]);
    expect(req.rawBody).toContain('Memories: m1, m2');
    expect(req.rawBody).toContain('You distill memories.');
    if (format === 'anthropic') {
      // The Anthropic SDK moves keywords the API does not support (minItems) into descriptions; the shape stays.
      expect(sentSchema(format, req.body)).toMatchObject({
        type: 'object',
        required: ['candidates'],
        properties: { candidates: { type: 'array', items: { required: ['claim', 'sources'], properties: { sources: { items: { enum: ['m1', 'm2'] } } } } } },
      });
    } else {
      expect(sentSchema(format, req.body)).toEqual(JSON_SCHEMA);
    }
    if (format === 'openai') {
      expect(req.body.response_format.type).toBe('json_schema');
      expect(req.body.response_format.json_schema.strict).toBe(true);
      expect(req.headers.authorization).toBe('Bearer sk-test-key-0123456789');
    }
    if (format === 'ollama') {
      expect(req.body.stream).toBe(false);
      expect(req.body.options).toEqual({ temperature: 0.2, num_predict: 500 });
    }
    if (format === 'anthropic') {
      expect(req.body.tool_choice).toMatchObject({ type: 'any' });
      expect(req.headers['x-api-key']).toBe('sk-test-key-0123456789');
    }
  });

  test('an explicit jsonSchema is sent instead of the derived one', async () => {
    server.respondWith(reply.json({ ok: true }));
    const jsonSchema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false };
    await client.generateObject({ prompt: 'p', schema: z.object({ ok: z.boolean() }), jsonSchema, maxOutputTokens: 50, temperature: 0 });
    expect(sentSchema(format, server.requests[0]!.body)).toEqual(jsonSchema);
  });

  test("mode 'json' asks for plain JSON without the schema", async () => {
    server.respondWith(reply.json(GOOD));
    const result = await call(client, { mode: 'json' });
    expect(result.value).toEqual(GOOD);
    const body = server.requests[0]!.body;
    if (format === 'ollama') expect(body.format).toBe('json');
    if (format === 'openai') expect(body.response_format).toEqual({ type: 'json_object' });
    if (format === 'anthropic') {
      expect(body.tools).toBeUndefined();
      expect(body.output_config).toBeUndefined();
    }
  });

  test.each([500, 429, 401, 404])('HTTP %i → http_status_<n>, exit 5, exactly one request (no retries)', async (status) => {
    server.respondWith(reply.status(status, 'upstream says no', { headers: { 'retry-after': '0' } }));
    const error = await codeOf(call(client));
    expect(error.code).toBe(`http_status_${status}`);
    expect(error.exitCode).toBe(5);
    expect(error.details).toEqual({ status });
    if (status === 404 && format === 'ollama') expect(error.message).toContain('ollama pull llama3.2');
    await new Promise((r) => setTimeout(r, 100)); // a retry would have arrived by now
    expect(server.requests).toHaveLength(1);
  });

  test('deadline → model_timeout; the server sees the connection close', async () => {
    server.respondWith(reply.hang());
    const started = Date.now();
    const error = await codeOf(call(client, { timeoutMs: 300 }));
    expect(error.code).toBe('model_timeout');
    expect(error.exitCode).toBe(5);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await server.requests[0]!.closed).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  test('a slow answer within the deadline is fine; past it, it is cancelled', async () => {
    server.queue(reply.slow(100, reply.json(GOOD)), reply.slow(2_000, reply.json(GOOD)));
    expect((await call(client, { timeoutMs: 1_000 })).value).toEqual(GOOD);
    expect((await codeOf(call(client, { timeoutMs: 300 }))).code).toBe('model_timeout');
    expect(await server.requests[1]!.closed).toBe(true);
  });

  test("the caller's abort → interrupted (exit 130); the server sees the connection close", async () => {
    server.respondWith(reply.hang());
    const controller = new AbortController();
    const pending = codeOf(call(client, { signal: controller.signal }));
    await server.waitForRequests(1);
    controller.abort();
    const error = await pending;
    expect(error.code).toBe('interrupted');
    expect(error.exitCode).toBe(130);
    expect(error).toBeInstanceOf(InterruptedError);
    expect(error).toBeInstanceOf(ModelCallAbortedError);
    expect(await server.requests[0]!.closed).toBe(true);
  });

  test('an already-aborted signal sends nothing', async () => {
    const error = await codeOf(call(client, { signal: AbortSignal.abort() }));
    expect(error.code).toBe('interrupted');
    expect(server.requests).toHaveLength(0);
  });

  test('a 10 MB body → model_output_invalid (response_too_large, exit 6); the download is abandoned', async () => {
    server.respondWith(reply.huge(10 * 1024 * 1024));
    const error = await codeOf(call(client));
    expect(error.code).toBe('model_output_invalid');
    expect(error.details).toMatchObject({ reason: 'response_too_large', maxBytes: config.maxBytes });
    expect(error.exitCode).toBe(6);
    expect(await server.requests[0]!.closed).toBe(true);
  });

  test('the cap is exact: a body of maxBytes passes, one byte less of cap fails', async () => {
    server.respondWith(reply.json(GOOD));
    await call(client);
    const size = server.requests[0]!.response!.bytes;
    expect((await call(createModelClient({ ...config, maxBytes: size }))).value).toEqual(GOOD);
    expect((await codeOf(call(createModelClient({ ...config, maxBytes: size - 1 })))).details?.reason).toBe('response_too_large');
  });

  test('HTML with status 200 → model_bad_response (exit 6)', async () => {
    server.respondWith(reply.html());
    const error = await codeOf(call(client));
    expect(error.code).toBe('model_bad_response');
    expect(error.exitCode).toBe(6);
    expect(error.message).toContain('HTML');
  });

  test('an empty body → model_bad_response', async () => {
    server.respondWith(reply.empty());
    const error = await codeOf(call(client));
    expect(error.code).toBe('model_bad_response');
    expect(error.message).toContain('empty');
  });

  test('a dropped connection → model_unreachable (exit 5), before or during the body', async () => {
    server.queue(reply.drop(), reply.drop('{"model": "m", "message": {"content": "{\\"cand'));
    for (let i = 0; i < 2; i++) {
      const error = await codeOf(call(client));
      expect(error.code).toBe('model_unreachable');
      expect(error.exitCode).toBe(5);
    }
    expect(server.requests).toHaveLength(2);
  });

  test('<think> blocks (with decoy JSON inside) are stripped before parsing', async () => {
    server.respondWith(reply.think(GOOD, 'Hmm. Maybe {"candidates": []}? No.'));
    // A forced Anthropic tool call has no text channel for thinking; the text path is json mode there.
    const result = await call(client, { mode: format === 'anthropic' ? 'json' : 'schema' });
    expect(result.value).toEqual(GOOD);
    expect(result.rawText).toContain('<think>');
  });

  test('reasoning fields are not part of the answer', async () => {
    server.respondWith(reply.json(GOOD, { reasoning: 'draft: {"candidates": []}' }));
    expect((await call(client)).value).toEqual(GOOD);
  });

  test('prose and a code fence around the one JSON object are tolerated', async () => {
    // Anthropic's forced tool always answers with a tool call; prose is a text-channel phenomenon, so use json mode.
    server.respondWith(reply.fenced(GOOD));
    expect((await call(client, { mode: 'json' })).value).toEqual(GOOD);
  });

  test('extra fields in the answer are dropped by the schema, not an error', async () => {
    server.respondWith(reply.json({ ...GOOD, note: 'extra' }));
    expect((await call(client)).value).toEqual(GOOD);
  });

  test('without a zod schema: the JSON schema given is sent, and the object comes back as found, for the caller to check', async () => {
    const jsonSchema = { type: 'object', properties: { pointers: { type: 'array' } }, required: ['pointers'], additionalProperties: false };
    server.respondWith(reply.json({ pointers: 'not an array', note: 'extra' }));
    const result = await client.generateObject({ prompt: 'p', jsonSchema, schemaName: 'pointers', maxOutputTokens: 50, temperature: 0 });
    expect(result.value).toEqual({ pointers: 'not an array', note: 'extra' });
    expect(JSON.stringify(server.requests[0]!.body)).toContain('"pointers":{"type":"array"}');
  });

  test.each([
    ['no JSON at all', 'invalid_json', 'it contained no JSON object', reply.text('I cannot help with that.')],
    ['two JSON objects', 'invalid_json', 'it contained more than one JSON object', reply.text('{"candidates": []} or {"candidates": []}')],
    ['broken JSON', 'invalid_json', 'its JSON did not parse', reply.text('{"candidates": [}')],
    ['wrong shape', 'shape_mismatch', 'its JSON did not match the expected shape', reply.text('{"candidates": [{"claim": "x", "sources": ["m9"]}]}')],
    [
      'cut off at the token limit',
      'invalid_json',
      'it was cut off at the output token limit',
      reply.text('{"candidates": [{"claim": "x"', { truncated: true }),
    ],
  ])('%s → model_output_invalid (%s)', async (_label, reason, words, answer) => {
    server.respondWith(answer);
    const error = await codeOf(call(client, { mode: 'json' }));
    expect(error.code).toBe('model_output_invalid');
    expect(error.exitCode).toBe(6);
    expect(error.details?.reason).toBe(reason);
    expect(error.message).toContain(`the model's answer was rejected (${reason}): ${words}`);
    if (reason === 'shape_mismatch') expect(error.details?.where).toBe('candidates.0.sources.0: invalid_value');
    expect(server.requests).toHaveLength(1);
  });
});

describe('provider specifics', () => {
  const server = useModelServer();

  test('Anthropic models with native structured output get output_config.format', async () => {
    server.respondWith(reply.json(GOOD));
    const client = createModelClient({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      baseUrl: server.baseUrl('anthropic'),
      apiKey: 'sk-ant-0123456789',
      timeoutMs: 5_000,
      maxBytes: 1 << 20,
      source: 'HIPPO_MODEL',
    });
    expect((await call(client)).value).toEqual(GOOD);
    const body = server.requests[0]!.body;
    expect(body.output_config.format).toMatchObject({ type: 'json_schema' });
    // The schema itself (Anthropic's structured output drops minItems; the enum of refs and the required fields stay).
    expect(body.output_config.format.schema).toMatchObject({
      properties: { candidates: { type: 'array', items: { properties: { sources: { items: { enum: ['m1', 'm2'] } } }, required: ['claim', 'sources'] } } },
      required: ['candidates'],
    });
    expect(body.tools).toBeUndefined();
  });

  test('OpenAI strict mode is only requested for strict-compatible schemas (optional fields are not)', async () => {
    server.respondWith(reply.json({ a: 'x' }));
    const client = createModelClient({
      provider: 'openai',
      model: 'local',
      baseUrl: server.baseUrl('openai'),
      timeoutMs: 5_000,
      maxBytes: 1 << 20,
      source: 'flag',
    });
    await client.generateObject({ prompt: 'p', schema: z.object({ a: z.string(), b: z.string().optional() }), maxOutputTokens: 50, temperature: 0 });
    expect(server.requests[0]!.body.response_format.json_schema.strict).toBe(false);
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  test('Ollama base URL given with /api works the same', async () => {
    server.respondWith(reply.json({ ok: true }));
    const client = createModelClient({
      provider: 'ollama',
      model: 'llama3.2',
      baseUrl: `${server.url}/api`,
      timeoutMs: 5_000,
      maxBytes: 1 << 20,
      source: 'flag',
    });
    await client.generateObject({ prompt: 'p', schema: z.object({ ok: z.boolean() }), maxOutputTokens: 50, temperature: 0 });
    expect(server.requests[0]!.path).toBe('/api/chat');
  });

  test('connection refused → model_unreachable with the Ollama recipe, naming no CLI flag', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    await new Promise((r) => closed.close(r));
    const client = createModelClient({
      provider: 'ollama',
      model: 'llama3.2',
      baseUrl: `http://127.0.0.1:${port}`,
      timeoutMs: 5_000,
      maxBytes: 1 << 20,
      source: 'flag',
    });
    const error = await codeOf(client.generateObject({ prompt: 'p', schema: z.object({ ok: z.boolean() }), maxOutputTokens: 50, temperature: 0 }));
    expect(error.code).toBe('model_unreachable');
    expect(error.exitCode).toBe(5);
    expect(error.message).toContain('ollama pull llama3.2');
    // A model is configured: the fix is the server, never how to choose a model.
    expect(error.message).not.toContain('export HIPPO_MODEL');
    expect(error.message).not.toMatch(/--[a-z]/);
    expect(error.message).toContain(`127.0.0.1:${port}`);
  });

  test('the AI SDK prints nothing to stdout (its warning logger is off)', async () => {
    server.respondWith(reply.json({ ok: true }));
    // This model rejects sampling parameters: the SDK drops `temperature` with a warning, which it would log.
    const client = createModelClient({
      provider: 'anthropic',
      model: 'claude-opus-5',
      baseUrl: server.baseUrl('anthropic'),
      apiKey: 'sk-ant-0123456789',
      timeoutMs: 5_000,
      maxBytes: 1 << 20,
      source: 'flag',
    });
    const written: string[] = [];
    const original = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    };
    try {
      await client.generateObject({ prompt: 'p', schema: z.object({ ok: z.boolean() }), maxOutputTokens: 50, temperature: 0.2 });
    } finally {
      process.stdout.write = original;
    }
    expect(written.join('')).toBe('');
  });
});
