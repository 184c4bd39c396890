import { describe, expect, test } from 'vitest';
import { checkModel, resolveModelConfig, type ModelConfig } from '../../../src/core/model/index.js';
import { reply, useModelServer } from '../../helpers/model-server.js';

const server = useModelServer();

describe('checkModel', () => {
  test.each([
    ['ollama', 'ollama:llama3.2', {}],
    ['openai', 'openai:local-model', {}],
    ['anthropic', 'anthropic:claude-sonnet-4-5', { ANTHROPIC_API_KEY: 'sk-ant-api03-0123456789wxyz' }],
  ] as const)('%s: one tiny structured call, latency and the reported model', async (format, spec, keys) => {
    // The server holds its answer for 40 ms: the latency reported covers that wait and not more than the whole check.
    server.respondWith(reply.json({ ok: true }, { model: 'served-id', delayMs: 40 }));
    const config = resolveModelConfig({ env: { HIPPO_MODEL: spec, HIPPO_BASE_URL: server.baseUrl(format), ...keys }, configFile: '/nonexistent/hippo.json' });
    const started = performance.now();
    const result = await checkModel(config);
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ configured: true, ok: true, provider: format, reportedModel: 'served-id', leavesMachine: false, source: 'HIPPO_MODEL' });
    if (!result.configured) throw new Error('unreachable');
    expect(result.latencyMs).toBeGreaterThanOrEqual(39);
    expect(result.latencyMs).toBeLessThanOrEqual(elapsed + 1);
    expect(result.baseUrl).toBe(server.baseUrl(format));
    if (format === 'anthropic') expect(result.key).toBe('sk-…wxyz');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.rawBody).toContain('"ok"');
  });

  test('not configured → model_not_configured with the Ollama recipe, naming no CLI flag (exit 5)', async () => {
    const result = await checkModel(undefined);
    expect(result).toMatchObject({ configured: false, ok: false, error: { code: 'model_not_configured', exitCode: 5 } });
    expect(result.error?.fix).toContain('ollama pull llama3.2');
    expect(result.error?.fix).toContain('export HIPPO_MODEL=ollama:llama3.2');
    expect(`${result.error?.message} ${result.error?.fix}`).not.toMatch(/--[a-z]/);
  });

  test('a failing server → ok: false with the typed error and its fix; never throws', async () => {
    server.respondWith(reply.status(404, 'model "llama3.2" not found, try pulling it first'));
    const config: ModelConfig = { provider: 'ollama', model: 'llama3.2', baseUrl: server.url, timeoutMs: 5_000, maxBytes: 1 << 20, source: 'flag' };
    const result = await checkModel(config);
    expect(result.ok).toBe(false);
    expect(result.error).toMatchObject({ code: 'http_status_404', exitCode: 5 });
    expect(result.error?.fix).toContain('ollama pull llama3.2');
    expect(result.error?.message).not.toContain('not found, try pulling');
  });

  test('a slow server → model_timeout within the check deadline', async () => {
    server.respondWith(reply.hang());
    const config: ModelConfig = { provider: 'ollama', model: 'm', baseUrl: server.url, timeoutMs: 5_000, maxBytes: 1 << 20, source: 'flag' };
    const result = await checkModel(config, { timeoutMs: 200 });
    expect(result.error?.code).toBe('model_timeout');
    expect(await server.requests[0]!.closed).toBe(true);
  });

  test("the caller's abort is thrown, not reported", async () => {
    server.respondWith(reply.hang());
    const config: ModelConfig = { provider: 'ollama', model: 'm', baseUrl: server.url, timeoutMs: 5_000, maxBytes: 1 << 20, source: 'flag' };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(checkModel(config, { signal: controller.signal })).rejects.toMatchObject({ code: 'interrupted', exitCode: 130 });
  });

  test('a hosted base URL is reported as leaving the machine, and call: false sends nothing', async () => {
    // Tests never send traffic off this machine: the hosted address is only described, never called.
    const config: ModelConfig = {
      provider: 'openai',
      model: 'gpt-4o',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-proj-0123456789abcd',
      timeoutMs: 300,
      maxBytes: 1 << 20,
      source: 'flag',
    };
    const result = await checkModel(config, { call: false });
    expect(result).toMatchObject({ leavesMachine: true, key: 'sk-…abcd', ok: true, called: false, latencyMs: 0 });
    if (!result.configured) throw new Error('unreachable');
    expect(result.egress).toMatch(/LEAVES THIS MACHINE: it goes to api.openai.com/);
  });

  test('call: false on the stand-in server sends no request', async () => {
    const before = server.requests.length;
    const config: ModelConfig = { provider: 'ollama', model: 'm', baseUrl: server.url, timeoutMs: 5_000, maxBytes: 1 << 20, source: 'flag' };
    expect(await checkModel(config, { call: false })).toMatchObject({ ok: true, called: false, leavesMachine: false });
    expect(server.requests.length).toBe(before);
  });

  test('command provider: runs the command', async () => {
    const config: ModelConfig = {
      provider: 'command',
      model: `cat > /dev/null; echo '{"ok": true}'`,
      timeoutMs: 5_000,
      maxBytes: 1 << 20,
      source: 'config file',
    };
    const result = await checkModel(config);
    expect(result).toMatchObject({ ok: true, provider: 'command', leavesMachine: false });
    if (!result.configured) throw new Error('unreachable');
    expect(result.egress).toMatch(/depends on that command/);
  });
});
