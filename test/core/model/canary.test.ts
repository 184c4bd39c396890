/**
 * docs/design.md §8: nothing from a prompt or a response, and no key, ever reaches an error (message, code, details, cause
 * chain, stack) or stdout/stderr. Every failure path runs with canaries in the prompt, the response and the key.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inspect, promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { checkModel, createModelClient, type ModelConfig } from '../../../src/core/model/index.js';
import { reply, startModelServer, useModelServer, type Reply, type WireFormat } from '../../helpers/model-server.js';

const PROMPT_CANARY = 'CANARY-PROMPT-7f3a9';
const RESPONSE_CANARY = 'CANARY-RESPONSE-b41c2';
const KEY_CANARY = 'sk-CANARY-KEY-99e1d0abcd';
const ANY_CANARY = /CANARY/;
// The masked key (`sk-…abcd`) may be shown by `model check`; the key's middle never.
const KEY_MIDDLE = /CANARY-KEY/;

const SCHEMA = z.object({ candidates: z.array(z.object({ claim: z.string(), sources: z.array(z.enum(['m1', 'm2'])).min(1) })) });

/** Everything an error exposes, as text: inspect() walks the cause chain and non-enumerable fields. */
function everything(error: unknown): string {
  const parts = [inspect(error, { showHidden: true, depth: Infinity }), String(error)];
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    parts.push(e.message, e.stack ?? '', JSON.stringify(e), JSON.stringify(Object.entries(e)));
  }
  return parts.join('\n');
}

/** Captures what is written to stdout/stderr (and console) while `fn` runs. */
async function captureOutput<T>(fn: () => Promise<T>): Promise<{ result: T; output: string }> {
  const written: string[] = [];
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const grab = ((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  process.stdout.write = grab;
  process.stderr.write = grab;
  try {
    return { result: await fn(), output: written.join('') };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

async function caught(promise: Promise<unknown>): Promise<{ code: string } & Error> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string } & Error;
  }
  throw new Error('expected a failure');
}

const R = RESPONSE_CANARY;
const FAILURES: Array<[string, Reply, string, { timeoutMs?: number; mode?: 'json'; abortAfterMs?: number }?]> = [
  ['HTTP 500 with the canary in the error body', reply.status(500, `boom ${R}`), 'http_status_500'],
  ['HTTP 429', reply.status(429, `slow down ${R}`, { headers: { 'retry-after': '0' } }), 'http_status_429'],
  ['HTTP 401', reply.status(401, `bad key ${KEY_CANARY} ${R}`), 'http_status_401'],
  ['HTTP 400', reply.status(400, `your prompt ${PROMPT_CANARY} was bad ${R}`), 'http_status_400'],
  ['HTML page', reply.html(R), 'model_bad_response'],
  ['non-JSON 200 body', reply.raw(200, 'application/json', `${R} is not json`), 'model_bad_response'],
  ['JSON of the wrong envelope', reply.raw(200, 'application/json', JSON.stringify({ unexpected: R })), 'model_bad_response'],
  ['connection dropped mid-body', reply.drop(`{"model": "${R}", "message": {"content": "${R}`), 'model_unreachable'],
  ['no JSON in the answer', reply.text(`I refuse. ${R}`), 'model_output_invalid', { mode: 'json' }],
  ['broken JSON', reply.text(`{"candidates": [{"claim": "${R}",}]}`), 'model_output_invalid', { mode: 'json' }],
  ['two objects', reply.text(`{"a": "${R}"} {"b": "${R}"}`), 'model_output_invalid', { mode: 'json' }],
  ['wrong shape, canary in values', reply.json({ candidates: [{ claim: R, sources: [R] }] }), 'model_output_invalid'],
  ['wrong type, canary in values', reply.json({ candidates: [{ claim: 5, sources: ['m1'], note: R }] }), 'model_output_invalid'],
  ['truncated', reply.text(`{"candidates": [{"claim": "${R}`, { truncated: true }), 'model_output_invalid', { mode: 'json' }],
  ['only thinking', reply.text(`<think>${R} {"candidates": []}</think>`), 'model_output_invalid', { mode: 'json' }],
  ['10 MB of canary', reply.huge(10 * 1024 * 1024, { fill: R }), 'model_output_invalid'],
  ['timeout', reply.hang(), 'model_timeout', { timeoutMs: 200 }],
  ['caller abort', reply.hang(), 'interrupted', { abortAfterMs: 100 }],
];

describe.each(['ollama', 'openai', 'anthropic'] as const)('%s: no canary escapes', (format: WireFormat) => {
  const server = useModelServer();
  let config: ModelConfig;
  beforeEach(() => {
    config = {
      provider: format,
      model: format === 'anthropic' ? 'claude-sonnet-4-5' : 'test-model',
      baseUrl: server.baseUrl(format),
      apiKey: KEY_CANARY,
      timeoutMs: 5_000,
      maxBytes: 1024 * 1024,
      source: 'flag',
    };
  });

  test.each(FAILURES)('%s', async (_label, answer, code, options = {}) => {
    server.respondWith(answer);
    const controller = new AbortController();
    if (options.abortAfterMs) setTimeout(() => controller.abort(), options.abortAfterMs);
    const { result: error, output } = await captureOutput(() =>
      caught(
        createModelClient(config).generateObject({
          system: `system ${PROMPT_CANARY}`,
          prompt: `memories ${PROMPT_CANARY}`,
          schema: SCHEMA,
          maxOutputTokens: 100,
          temperature: 0.2,
          signal: controller.signal,
          ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
          ...(options.mode ? { mode: options.mode } : {}),
        }),
      ),
    );
    expect(error.code).toBe(code);
    expect(everything(error)).not.toMatch(ANY_CANARY);
    expect(output).not.toMatch(ANY_CANARY);
    // Not vacuous: the prompt and the key did reach the server.
    expect(server.requests[0]!.rawBody).toContain(PROMPT_CANARY);
    expect(JSON.stringify(server.requests[0]!.headers)).toContain(KEY_CANARY);
  });

  test('a strict schema with canary keys and a record keyed by the canary', async () => {
    server.queue(reply.text(`{"ok": true, "${R}": 1}`), reply.text(`{"scores": {"${R}": "high"}}`));
    const strict = createModelClient(config).generateObject({
      prompt: PROMPT_CANARY,
      schema: z.strictObject({ ok: z.boolean() }),
      maxOutputTokens: 50,
      temperature: 0,
      mode: 'json',
    });
    const record = createModelClient(config).generateObject({
      prompt: PROMPT_CANARY,
      schema: z.object({ scores: z.record(z.string(), z.number()) }),
      maxOutputTokens: 50,
      temperature: 0,
      mode: 'json',
    });
    for (const error of [await caught(strict), await caught(record)]) {
      expect(error.code).toBe('model_output_invalid');
      expect(everything(error)).not.toMatch(ANY_CANARY);
    }
  });

  test('model check on a failing server shows the masked key only', async () => {
    server.respondWith(reply.status(500, R));
    const { result, output } = await captureOutput(() => checkModel(config));
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toMatch(KEY_MIDDLE);
    expect(JSON.stringify(result)).not.toContain(R);
    expect('key' in result && result.key).toBe('sk-…abcd');
    expect(output).toBe('');
  });
});

test('connection refused: no key, no prompt', async () => {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  const config: ModelConfig = {
    provider: 'openai',
    model: 'm',
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey: KEY_CANARY,
    timeoutMs: 5_000,
    maxBytes: 1 << 20,
    source: 'flag',
  };
  const error = await caught(createModelClient(config).generateObject({ prompt: PROMPT_CANARY, schema: SCHEMA, maxOutputTokens: 50, temperature: 0 }));
  expect(error.code).toBe('model_unreachable');
  expect(everything(error)).not.toMatch(ANY_CANARY);
});

describe('command provider: no canary escapes', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hippo-canary-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const script = (name: string, body: string): string => {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return path;
  };

  test.each([
    ['non-zero exit after echoing the prompt', `cat\necho "${R}" >&2\nexit 3`, 'model_unreachable', 5_000],
    ['garbage on stdout', `cat > /dev/null\necho "${R} not json"`, 'model_output_invalid', 5_000],
    ['wrong shape', `cat > /dev/null\necho '{"candidates": [{"claim": "${R}", "sources": ["${R}"]}]}'`, 'model_output_invalid', 5_000],
    ['too large', `cat > /dev/null\nyes "${R}" | head -c 3000000`, 'model_output_invalid', 5_000],
    ['timeout after partial output', `cat\necho "${R}"\nsleep 30`, 'model_timeout', 300],
  ])('%s', async (_label, body, code, timeoutMs) => {
    const cmd = script(`${code}-${timeoutMs}.sh`, body);
    const config: ModelConfig = { provider: 'command', model: cmd, timeoutMs, maxBytes: 1024 * 1024, source: 'flag' };
    const { result: error, output } = await captureOutput(() =>
      caught(createModelClient(config).generateObject({ system: PROMPT_CANARY, prompt: PROMPT_CANARY, schema: SCHEMA, maxOutputTokens: 50, temperature: 0 })),
    );
    expect(error.code).toBe(code);
    expect(everything(error)).not.toMatch(ANY_CANARY);
    expect(output).not.toMatch(ANY_CANARY);
  });
});

test('end to end in a separate process: nothing with a canary reaches its stdout or stderr', async () => {
  const server = await startModelServer();
  const dir = mkdtempSync(join(tmpdir(), 'hippo-canary-proc-'));
  try {
    server.queue(reply.status(500, R), reply.html(R), reply.text(`nope ${R}`), reply.huge(2 * 1024 * 1024, { fill: R }));
    const noisy = join(dir, 'noisy.sh');
    // Writes the prompt and a canary to stderr: stderr must not be echoed.
    writeFileSync(noisy, `#!/bin/sh\ncat >&2\necho "${R}" >&2\necho '${R}'\nexit 4\n`, { mode: 0o755 });
    const configs: ModelConfig[] = [
      ...Array.from({ length: 4 }, (): ModelConfig => ({
        provider: 'openai',
        model: 'm',
        baseUrl: server.baseUrl('openai'),
        apiKey: KEY_CANARY,
        timeoutMs: 5_000,
        maxBytes: 1 << 20,
        source: 'flag',
      })),
      { provider: 'command', model: noisy, timeoutMs: 5_000, maxBytes: 1 << 20, source: 'flag' },
    ];
    const runner = resolve('test/core/model/fixtures/canary-runner.ts');
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', runner, JSON.stringify({ configs, prompt: PROMPT_CANARY })]);
    expect(stdout).toContain(JSON.stringify(['http_status_500', 'model_bad_response', 'model_output_invalid', 'model_output_invalid', 'model_unreachable']));
    expect(stdout).not.toMatch(ANY_CANARY);
    expect(stderr).not.toMatch(ANY_CANARY);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
