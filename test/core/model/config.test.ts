import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_TIMEOUT_MS,
  describeModelConfig,
  isLoopbackUrl,
  maskKey,
  resolveModelConfig,
  type ModelConfig,
} from '../../../src/core/model/index.js';
import { parseBaseUrl } from '../../../src/core/config-values.js';

let dir: string;
let missing: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hippo-model-config-'));
  missing = join(dir, 'none.json');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(content: unknown): string {
  const path = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const keyOf = (cfg: ModelConfig | undefined): string | undefined => (cfg && cfg.provider !== 'command' ? cfg.apiKey : undefined);

const resolve = (env: NodeJS.ProcessEnv, extra: { flag?: string; flagName?: string; configFile?: string } = {}) =>
  resolveModelConfig({ env, configFile: missing, ...extra });

function usageError(fn: () => unknown): { code: string; exitCode: number; message: string } {
  try {
    fn();
  } catch (error) {
    return error as { code: string; exitCode: number; message: string };
  }
  throw new Error('expected a UsageError');
}

describe('resolveModelConfig', () => {
  test('nothing set → undefined', () => {
    expect(resolve({})).toBeUndefined();
    expect(resolve({ HIPPO_MODEL: '' })).toBeUndefined();
  });

  test('ollama defaults', () => {
    expect(resolve({ HIPPO_MODEL: 'ollama:llama3.2' })).toEqual({
      provider: 'ollama',
      model: 'llama3.2',
      baseUrl: 'http://127.0.0.1:11434',
      timeoutMs: DEFAULT_TIMEOUT_MS,
      maxBytes: DEFAULT_MAX_BYTES,
      source: 'HIPPO_MODEL',
    });
    expect(DEFAULT_TIMEOUT_MS).toBe(120_000);
    expect(DEFAULT_MAX_BYTES).toBe(1024 * 1024);
  });

  test('model ids may contain colons (ollama tags)', () => {
    expect(resolve({ HIPPO_MODEL: 'ollama:qwen2.5:7b-instruct' })?.model).toBe('qwen2.5:7b-instruct');
  });

  test('precedence: --model > HIPPO_MODEL > config file', () => {
    const configFile = file({ model: 'ollama:from-file' });
    const env = { HIPPO_MODEL: 'ollama:from-env' };
    expect(resolve(env, { flag: 'ollama:from-flag', configFile })).toMatchObject({ model: 'from-flag', source: 'flag' });
    expect(resolve(env, { configFile })).toMatchObject({ model: 'from-env', source: 'HIPPO_MODEL' });
    expect(resolve({}, { configFile })).toMatchObject({ model: 'from-file', source: 'config file' });
  });

  test('the default config file is <XDG_CONFIG_HOME>/hippo/config.json', () => {
    const xdg = join(dir, 'xdg');
    mkdirSync(join(xdg, 'hippo'), { recursive: true });
    writeFileSync(join(xdg, 'hippo', 'config.json'), JSON.stringify({ model: 'ollama:xdg-model', timeoutMs: 5000 }));
    expect(resolveModelConfig({ env: { XDG_CONFIG_HOME: xdg } })).toMatchObject({ model: 'xdg-model', timeoutMs: 5000 });
  });

  test('config file fields; env beats file for base URL, timeout and max bytes', () => {
    const configFile = file({ model: 'ollama:m', baseUrl: 'http://gpu-box.lan:11434/', timeoutMs: 30000, maxBytes: 2048 });
    expect(resolve({}, { configFile })).toMatchObject({ baseUrl: 'http://gpu-box.lan:11434', timeoutMs: 30000, maxBytes: 2048 });
    expect(resolve({ HIPPO_BASE_URL: 'http://127.0.0.1:9999', HIPPO_MODEL_TIMEOUT_MS: '1000', HIPPO_MODEL_MAX_BYTES: '4096' }, { configFile })).toMatchObject({
      baseUrl: 'http://127.0.0.1:9999',
      timeoutMs: 1000,
      maxBytes: 4096,
    });
  });

  test("the file's baseUrl is not used for another provider chosen by flag or env", () => {
    const configFile = file({ model: 'ollama:m', baseUrl: 'http://gpu-box.lan:11434' });
    expect(resolve({ OPENAI_API_KEY: 'sk-x-0123456789' }, { flag: 'openai:gpt-4o-mini', configFile })).toMatchObject({
      baseUrl: 'https://api.openai.com/v1',
    });
    expect(resolve({}, { flag: 'ollama:other', configFile })).toMatchObject({ baseUrl: 'http://gpu-box.lan:11434' });
  });

  test('openai: default base URL and key from OPENAI_API_KEY; HIPPO_API_KEY wins', () => {
    expect(resolve({ HIPPO_MODEL: 'openai:gpt-4o-mini', OPENAI_API_KEY: 'sk-openai-0123456789' })).toMatchObject({
      provider: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-openai-0123456789',
    });
    expect(keyOf(resolve({ HIPPO_MODEL: 'openai:x', OPENAI_API_KEY: 'sk-a-0123456789', HIPPO_API_KEY: 'sk-h-0123456789' }))).toBe('sk-h-0123456789');
  });

  test('openai against a loopback server needs no key (llama.cpp, LM Studio, vLLM)', () => {
    for (const url of ['http://127.0.0.1:8080/v1', 'http://localhost:1234/v1', 'http://[::1]:8000/v1']) {
      const cfg = resolve({ HIPPO_MODEL: 'openai:local', HIPPO_BASE_URL: url });
      expect(cfg).toMatchObject({ provider: 'openai', model: 'local' });
      expect(cfg && 'apiKey' in cfg).toBe(false);
    }
  });

  test('anthropic: key from ANTHROPIC_API_KEY, default base URL', () => {
    expect(resolve({ HIPPO_MODEL: 'anthropic:claude-sonnet-4-5', ANTHROPIC_API_KEY: 'sk-ant-0123456789' })).toMatchObject({
      provider: 'anthropic',
      baseUrl: 'https://api.anthropic.com/v1',
      apiKey: 'sk-ant-0123456789',
    });
  });

  test('a key of a provider that is not selected changes nothing', () => {
    const withKeys = { OPENAI_API_KEY: 'sk-openai-0123456789', ANTHROPIC_API_KEY: 'sk-ant-0123456789' };
    expect(resolve({ HIPPO_MODEL: 'ollama:m', ...withKeys })).toEqual(resolve({ HIPPO_MODEL: 'ollama:m' }));
    expect(keyOf(resolve({ HIPPO_MODEL: 'openai:m', ...withKeys }))).toBe('sk-openai-0123456789');
    expect(keyOf(resolve({ HIPPO_MODEL: 'anthropic:m', ...withKeys }))).toBe('sk-ant-0123456789');
    // And its absence does not break an unrelated provider either.
    expect(() => resolve({ HIPPO_MODEL: 'ollama:m', OPENAI_API_KEY: '' })).not.toThrow();
  });

  test('command: the rest of the value is the shell command', () => {
    expect(resolve({ HIPPO_MODEL: "command:llm -m mistral 'x:y'" })).toEqual({
      provider: 'command',
      model: "llm -m mistral 'x:y'",
      timeoutMs: DEFAULT_TIMEOUT_MS,
      maxBytes: DEFAULT_MAX_BYTES,
      source: 'HIPPO_MODEL',
    });
  });

  test.each([
    ['unknown provider', { HIPPO_MODEL: 'gemini:pro' }, /HIPPO_MODEL: unknown provider "gemini"/],
    ['no provider', { HIPPO_MODEL: 'llama3.2' }, /HIPPO_MODEL: "llama3.2" is not provider:model/],
    ['empty model', { HIPPO_MODEL: 'ollama:' }, /HIPPO_MODEL: the ollama model name is empty/],
    ['empty command', { HIPPO_MODEL: 'command:  ' }, /HIPPO_MODEL: the command model name is empty/],
    ['anthropic without key', { HIPPO_MODEL: 'anthropic:claude-sonnet-4-5' }, /HIPPO_API_KEY or ANTHROPIC_API_KEY/],
    ['openai (hosted) without key', { HIPPO_MODEL: 'openai:gpt-4o' }, /HIPPO_API_KEY or OPENAI_API_KEY/],
    ['openai on a LAN host without key', { HIPPO_MODEL: 'openai:m', HIPPO_BASE_URL: 'http://192.168.1.5:8000/v1' }, /HIPPO_BASE_URL .*needs an API key/],
    ['non-URL base', { HIPPO_MODEL: 'ollama:m', HIPPO_BASE_URL: 'localhost:11434x' }, /HIPPO_BASE_URL/],
    ['non-http base', { HIPPO_MODEL: 'ollama:m', HIPPO_BASE_URL: 'ftp://127.0.0.1/' }, /HIPPO_BASE_URL: the base URL must be http/],
    ['non-numeric timeout', { HIPPO_MODEL: 'ollama:m', HIPPO_MODEL_TIMEOUT_MS: '2m' }, /HIPPO_MODEL_TIMEOUT_MS/],
    ['zero timeout', { HIPPO_MODEL: 'ollama:m', HIPPO_MODEL_TIMEOUT_MS: '0' }, /HIPPO_MODEL_TIMEOUT_MS/],
    ['negative max bytes', { HIPPO_MODEL: 'ollama:m', HIPPO_MODEL_MAX_BYTES: '-5' }, /HIPPO_MODEL_MAX_BYTES/],
    ['fractional max bytes', { HIPPO_MODEL: 'ollama:m', HIPPO_MODEL_MAX_BYTES: '1.5' }, /HIPPO_MODEL_MAX_BYTES/],
    ['malformed timeout even with no model set', { HIPPO_MODEL_TIMEOUT_MS: 'soon' }, /HIPPO_MODEL_TIMEOUT_MS/],
  ])('%s → UsageError naming the variable', (_label, env, pattern) => {
    const error = usageError(() => resolve(env));
    expect(error.code).toBe('bad_model_config');
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(pattern);
  });

  test('a malformed explicit model is named as the caller asks (the CLI: --model), else as "model"', () => {
    expect(usageError(() => resolve({}, { flag: 'nope:', flagName: '--model' })).message).toMatch(/^--model: unknown provider/);
    expect(usageError(() => resolve({}, { flag: '', flagName: '--via' })).message).toMatch(/^--via:/);
    expect(usageError(() => resolve({}, { flag: 'nope:' })).message).toMatch(/^model: unknown provider/);
  });

  test.each([
    // Mistakes in the model's keys keep their code; the file itself is the config reader's (bad_config).
    ['not JSON', '{model: ollama}', /not valid JSON/, 'bad_config'],
    ['not an object', '["ollama:m"]', /must hold a JSON object/, 'bad_config'],
    ['model not a string', { model: 42 }, /"model" must be a string/, 'bad_model_config'],
    ['bad model', { model: 'ollama' }, /"model": "ollama" is not provider:model/, 'bad_model_config'],
    ['bad baseUrl', { model: 'ollama:m', baseUrl: 'not a url' }, /"baseUrl"/, 'bad_model_config'],
    ['timeout as string', { model: 'ollama:m', timeoutMs: '100' }, /"timeoutMs" must be a whole number/, 'bad_model_config'],
    ['negative maxBytes', { model: 'ollama:m', maxBytes: -1 }, /"maxBytes"/, 'bad_model_config'],
    ['an API key in the file', { model: 'openai:m', apiKey: 'sk-secret-0123456789' }, /set HIPPO_API_KEY .* in the environment/, 'bad_config'],
    // A key the schema does not know is refused, naming the key meant: a typo is never silently ignored.
    ['a misspelt key', { modle: 'ollama:m' }, /"modle" is not a config key; did you mean "model"\?/, 'unknown_config_key'],
  ])('config file: %s → UsageError naming the file', (_label, content, pattern, code) => {
    const configFile = file(content);
    const error = usageError(() => resolve({}, { configFile }));
    expect(error.code).toBe(code);
    expect(error.message).toContain(configFile);
    expect(error.message).toMatch(pattern);
    expect(error.message).not.toContain('sk-secret');
  });

  test('a malformed config file is reported even when the flag sets the model (no silent fallback)', () => {
    const configFile = file('{');
    expect(usageError(() => resolve({}, { flag: 'ollama:m', configFile })).message).toContain(configFile);
  });

  test('no error message repeats a key', () => {
    const key = 'sk-SECRET-abcdefghijkl';
    const cases: NodeJS.ProcessEnv[] = [
      { HIPPO_MODEL: 'openai:m', HIPPO_BASE_URL: 'nope', HIPPO_API_KEY: key },
      { HIPPO_MODEL: 'bogus:m', OPENAI_API_KEY: key },
      { HIPPO_MODEL: 'openai:m', HIPPO_MODEL_TIMEOUT_MS: 'x', OPENAI_API_KEY: key },
    ];
    for (const env of cases) expect(usageError(() => resolve(env)).message).not.toContain('SECRET');
  });
});

describe('describeModelConfig', () => {
  const base = { timeoutMs: 1000, maxBytes: 1000, source: 'HIPPO_MODEL' as const };

  test('hosted provider: masked key, leaves the machine, said plainly', () => {
    const d = describeModelConfig({
      ...base,
      provider: 'openai',
      model: 'gpt-4o',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-proj-abcdefghijklmnopabcd',
    });
    expect(d).toMatchObject({ provider: 'openai', model: 'gpt-4o', baseUrl: 'https://api.openai.com/v1', key: 'sk-…abcd', leavesMachine: true });
    expect(d.egress).toMatch(/LEAVES THIS MACHINE.*api\.openai\.com/);
    expect(JSON.stringify(d)).not.toContain('proj-abcdefghijklmnop');
  });

  test('loopback: stays on this machine; no key shown when none is set', () => {
    const d = describeModelConfig({ ...base, provider: 'ollama', model: 'llama3.2', baseUrl: 'http://127.0.0.1:11434' });
    expect(d.leavesMachine).toBe(false);
    expect(d.key).toBeUndefined();
    expect(d.egress).toMatch(/stays on this machine/);
  });

  test('command: treated as local, with the caveat', () => {
    const d = describeModelConfig({ ...base, provider: 'command', model: 'llm -m x' });
    expect(d.leavesMachine).toBe(false);
    expect(d.egress).toMatch(/depends on that command/);
    expect(d.baseUrl).toBeUndefined();
  });

  test('a base URL with a user name or password is refused wherever it comes from, never echoed (issue 27)', () => {
    for (const baseUrl of ['http://user:hunter2@gpu-box.lan:11434', 'https://sk-hunter2@api.example.com/v1', 'http://:hunter2@127.0.0.1:11434']) {
      const fromEnv = () => resolve({ HIPPO_MODEL: 'ollama:m', HIPPO_BASE_URL: baseUrl });
      const fromFile = () => resolve({}, { configFile: file({ model: 'ollama:m', baseUrl }) });
      for (const attempt of [fromEnv, fromFile, () => parseBaseUrl(baseUrl, 'config "baseUrl"')]) {
        let caught: unknown;
        try {
          attempt();
        } catch (error) {
          caught = error;
        }
        expect(caught, baseUrl).toMatchObject({ code: 'bad_model_config', exitCode: 2 });
        expect((caught as Error).message).toContain('holds a user name or password');
        expect((caught as Error).message).not.toContain('hunter2');
      }
    }
    // Not a URL at all: the message quotes it with its password masked.
    expect(() => parseBaseUrl('http://u:hunter2@[bad', 'HIPPO_BASE_URL')).toThrow(/http:\/\/\*\*\*@\[bad/);
  });

  test('credentials in a base URL are not displayed', () => {
    const cfg: ModelConfig = { ...base, provider: 'ollama', model: 'm', baseUrl: 'https://user:hunter2@ollama.example.com' };
    expect(JSON.stringify(describeModelConfig(cfg))).not.toContain('hunter2');
  });

  test('maskKey: first 3 + … + last 4; short keys fully masked', () => {
    expect(maskKey('sk-ant-api03-xyzabcd')).toBe('sk-…abcd');
    expect(maskKey('short-key')).toBe('…');
    expect(maskKey(undefined)).toBeUndefined();
  });

  test.each([
    ['http://127.0.0.1:11434', true],
    ['http://127.8.9.10', true],
    ['http://localhost:1234/v1', true],
    ['http://[::1]:8080', true],
    ['http://[::ffff:127.0.0.1]:8080', true],
    ['http://128.0.0.1', false],
    ['http://192.168.1.2:11434', false],
    ['https://api.openai.com/v1', false],
    ['http://localhost.evil.com', false],
    ['http://[::2]', false],
  ])('isLoopbackUrl(%s) = %s', (url, expected) => {
    expect(isLoopbackUrl(url)).toBe(expected);
  });
});
