import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';
import { reply, useModelServer, type WireFormat } from '../helpers/model-server.js';

let box: Sandbox;
const server = useModelServer({ per: 'suite' });
beforeEach(() => {
  box = sandbox();
  server.respondWith(reply.json({ ok: true }, { model: 'reported-model-id' }));
});
afterEach(() => box.cleanup());

const KEY = 'sk-test-0123456789wxyz';

describe('hippo model check (built CLI, stand-in server)', () => {
  it.each<[WireFormat, Record<string, string>]>([
    ['ollama', {}],
    ['openai', { HIPPO_API_KEY: KEY }],
    ['anthropic', { ANTHROPIC_API_KEY: KEY }],
  ])('%s: one structured call, the reported model and latency, the key masked and never printed', async (provider, keys) => {
    const env = { HIPPO_MODEL: `${provider}:test-model`, HIPPO_BASE_URL: server.baseUrl(provider), ...keys };
    // The server holds its answer for 40 ms: the latency reported covers that wait and not more than the whole process.
    server.respondWith(reply.json({ ok: true }, { model: 'reported-model-id', delayMs: 40 }));
    const started = performance.now();
    const result = await box.hippo(['model', 'check', '--json'], { env });
    const elapsed = performance.now() - started;
    expect(result.exitCode).toBe(0);
    const body = json<{ ok: boolean; provider: string; reportedModel: string; leavesMachine: boolean; key?: string; latencyMs: number }>(result);
    expect(body).toMatchObject({ ok: true, provider, reportedModel: 'reported-model-id', leavesMachine: false });
    expect(body.latencyMs).toBeGreaterThanOrEqual(39);
    expect(body.latencyMs).toBeLessThanOrEqual(elapsed);
    if (provider !== 'ollama') expect(body.key).toBe('sk-…wxyz');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.format).toBe(provider);
    const text = await box.hippo(['model', 'check'], { env });
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain('stays on this machine');
    expect(`${String(text.stdout)}${String(text.stderr)}${String(result.stdout)}`).not.toContain(KEY);
  });

  it('runs a command provider', async () => {
    const script = join(box.dir, 'llm.sh');
    writeFileSync(script, 'cat > /dev/null\necho \'{"ok": true}\'\n');
    const result = await box.hippo(['model', 'check', '--model', `command:sh ${script}`, '--json']);
    expect(json(result)).toMatchObject({ ok: true, provider: 'command' });
  });

  it('says where the setting came from: core names the source `flag`, the CLI words it --model', async () => {
    const flag = ['model', 'check', '--offline', '--model', 'ollama:from-flag'];
    expect(json<{ source: string }>(await box.hippo([...flag, '--json'])).source).toBe('flag');
    expect((await box.hippo(flag)).stdout).toMatch(/^provider\s+ollama \(from --model\)$/m);
    const env = { env: { HIPPO_MODEL: 'ollama:from-env' } };
    expect(json<{ source: string }>(await box.hippo(['model', 'check', '--offline', '--json'], env)).source).toBe('HIPPO_MODEL');
    expect((await box.hippo(['model', 'check', '--offline'], env)).stdout).toMatch(/^provider\s+ollama \(from HIPPO_MODEL\)$/m);
  });

  it('warns plainly that content leaves the machine for a hosted provider, sending nothing with --offline', async () => {
    const result = await box.hippo(['model', 'check', '--offline'], { env: { HIPPO_MODEL: 'anthropic:claude-sonnet-4-5', ANTHROPIC_API_KEY: KEY } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('WARNING: memory content sent to the model LEAVES THIS MACHINE: it goes to api.anthropic.com');
    expect(result.stdout).toContain('sk-…wxyz');
    expect(result.stdout).not.toContain(KEY);
    expect(result.stdout).toContain('not called (--offline)');
  });

  it('explains how to configure a model when none is set (exit 5), with the Ollama recipe and --prompt-only', async () => {
    const result = await box.hippo(['model', 'check']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('ollama pull');
    expect(result.stderr).toContain('--prompt-only');
    const withJson = await box.hippo(['model', 'check', '--json']);
    expect(withJson.exitCode).toBe(5);
    expect(json<{ error: { code: string } }>(withJson).error.code).toBe('model_not_configured');
  });

  it('reports an unreachable server (exit 5) and a malformed setting (exit 2) naming the variable', async () => {
    server.respondWith(reply.status(500, 'CANARY-BODY'));
    const down = await box.hippo(['model', 'check', '--json'], { env: { HIPPO_MODEL: 'ollama:m', HIPPO_BASE_URL: server.baseUrl('ollama') } });
    expect(down.exitCode).toBe(5);
    expect(json<{ error: { code: string } }>(down).error.code).toBe('http_status_500');
    expect(down.stdout).not.toContain('CANARY');
    const bad = await box.hippo(['model', 'check'], { env: { HIPPO_MODEL: 'gpt4' } });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('HIPPO_MODEL');
  });
});
