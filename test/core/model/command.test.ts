import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createModelClient, type CommandModelConfig } from '../../../src/core/model/index.js';
import { goneWithin } from '../../helpers/process.js';

const SCHEMA = z.object({ ok: z.boolean() });
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hippo-model-cmd-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A small shell script standing in for an LLM CLI. */
function script(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return path;
}

function client(command: string, overrides: Partial<CommandModelConfig> = {}) {
  return createModelClient({ provider: 'command', model: command, timeoutMs: 5_000, maxBytes: 1024 * 1024, source: 'HIPPO_MODEL', ...overrides });
}

async function failure(promise: Promise<unknown>): Promise<{ code: string; exitCode: number; message: string; details?: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; exitCode: number; message: string; details?: Record<string, unknown> };
  }
  throw new Error('expected the call to fail');
}

const ask = (c: ReturnType<typeof client>, extra: { signal?: AbortSignal; timeoutMs?: number; prompt?: string } = {}) =>
  c.generateObject({ system: 'SYSTEM TEXT', prompt: 'PROMPT TEXT', schema: SCHEMA, maxOutputTokens: 100, temperature: 0.2, ...extra });

describe('command provider', () => {
  test('the prompt goes to stdin, stdout is the answer; the model is the command', async () => {
    const stdinFile = join(dir, 'stdin.txt');
    const cmd = script('echo.sh', `cat > '${stdinFile}'\nprintf '{"ok": true}'`);
    const result = await ask(client(cmd));
    expect(result.value).toEqual({ ok: true });
    expect(result.provider).toBe('command');
    expect(result.model).toBe(cmd);
    expect(readFileSync(stdinFile, 'utf8')).toBe('SYSTEM TEXT\n\nPROMPT TEXT');
  });

  test('an inline shell command with a pipe works (shell: true)', async () => {
    const result = await ask(client(`cat > /dev/null; echo '{"ok": false}' | tr -d ' '`));
    expect(result.value).toEqual({ ok: false });
  });

  test('think blocks, prose and fences on stdout are tolerated', async () => {
    const cmd = script(
      'chatty.sh',
      `cat > /dev/null\nprintf '<think>{"ok": false}</think>\\nHere you go:\\n\\x60\\x60\\x60json\\n{"ok": true}\\n\\x60\\x60\\x60\\n'`,
    );
    expect((await ask(client(cmd))).value).toEqual({ ok: true });
  });

  test('a command that does not read stdin still works with a large prompt', async () => {
    const result = await ask(client(`echo '{"ok": true}'`), { prompt: 'p'.repeat(2 * 1024 * 1024) });
    expect(result.value).toEqual({ ok: true });
  });

  test('non-zero exit → model_unreachable with the exit code only; stderr is ignored', async () => {
    const cmd = script('fail.sh', `cat > /dev/null\necho 'stderr noise' >&2\necho '{"ok": true}'\nexit 3`);
    const error = await failure(ask(client(cmd)));
    expect(error.code).toBe('model_unreachable');
    expect(error.exitCode).toBe(5);
    expect(error.message).toContain('exited with code 3');
    expect(error.message).not.toContain('stderr noise');
    expect(error.details).toEqual({ exitCode: 3 });
  });

  test('a missing command → model_unreachable (shell exit 127)', async () => {
    const error = await failure(ask(client('hippo-no-such-llm-cli --json')));
    expect(error.code).toBe('model_unreachable');
    expect(error.message).toContain('code 127');
  });

  test('garbage on stdout → model_output_invalid', async () => {
    const error = await failure(ask(client(`cat > /dev/null; echo 'I am not JSON'`)));
    expect(error.code).toBe('model_output_invalid');
    expect(error.exitCode).toBe(6);
  });

  test('past the deadline → model_timeout, and the command and its children are killed', async () => {
    const pidFile = join(dir, 'sleep.pid');
    // The real "work" runs in a grandchild of the shell: killing only the shell would leave it holding stdout open.
    const cmd = script('slow.sh', `cat > /dev/null\nsleep 30 &\necho $! > '${pidFile}'\nwait`);
    const started = Date.now();
    const error = await failure(ask(client(cmd), { timeoutMs: 500 }));
    expect(error.code).toBe('model_timeout');
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(await goneWithin(Number(readFileSync(pidFile, 'utf8')), 3_000)).toBe(true);
  });

  test('a background child that outlives the shell: model_timeout at the deadline, the orphan killed', async () => {
    const pidFile = join(dir, 'orphan.pid');
    // The shell answers and exits; its background child keeps our stdout pipe open, so no end of file ever comes.
    const cmd = `cat > /dev/null; sleep 30 & echo $! > '${pidFile}'; echo '{"ok": true}'`;
    const started = Date.now();
    const error = await failure(ask(client(cmd), { timeoutMs: 500 }));
    expect(error.code).toBe('model_timeout');
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(await goneWithin(Number(readFileSync(pidFile, 'utf8')), 3_000)).toBe(true);
  });

  test('after a good answer nothing of the command is left running', async () => {
    const pidFile = join(dir, 'leftover.pid');
    // The background child does not hold stdout, so the answer arrives; the child must not outlive the call.
    const cmd = `cat > /dev/null; sleep 30 > /dev/null & echo $! > '${pidFile}'; echo '{"ok": true}'`;
    expect((await ask(client(cmd))).value).toEqual({ ok: true });
    expect(await goneWithin(Number(readFileSync(pidFile, 'utf8')), 3_000)).toBe(true);
  });

  test("the caller's abort after the shell exited → interrupted at once, and its orphan is killed", async () => {
    const pidFile = join(dir, 'orphan-abort.pid');
    const cmd = `cat > /dev/null; sleep 30 & echo $! > '${pidFile}'; echo '{"ok": true}'`;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const error = await failure(ask(client(cmd), { signal: controller.signal }));
    expect(error.code).toBe('interrupted');
    expect(await goneWithin(Number(readFileSync(pidFile, 'utf8')), 3_000)).toBe(true);
  });

  test("the caller's abort → interrupted, and the command is killed", async () => {
    const pidFile = join(dir, 'abort.pid');
    const cmd = script('abortable.sh', `cat > /dev/null\nsleep 30 &\necho $! > '${pidFile}'\nwait`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const error = await failure(ask(client(cmd), { signal: controller.signal }));
    expect(error.code).toBe('interrupted');
    expect(error.exitCode).toBe(130);
    expect(await goneWithin(Number(readFileSync(pidFile, 'utf8')), 3_000)).toBe(true);
  });

  test('a command that ignores SIGTERM is killed with SIGKILL', async () => {
    const pidFile = join(dir, 'stubborn.pid');
    const cmd = script('stubborn.sh', `trap '' TERM\ncat > /dev/null\necho $$ > '${pidFile}'\nwhile true; do sleep 0.1; done`);
    const error = await failure(ask(client(cmd), { timeoutMs: 300 }));
    expect(error.code).toBe('model_timeout');
    expect(await goneWithin(Number(readFileSync(pidFile, 'utf8')), 4_000)).toBe(true);
  });

  test('2 MB on stdout → model_output_invalid (response_too_large) at once, and the command is killed', async () => {
    const pidFile = join(dir, 'big.pid');
    const cmd = script('big.sh', `cat > /dev/null\necho $$ > '${pidFile}'\nhead -c 2000000 /dev/zero | tr '\\0' x\nsleep 30`);
    const started = Date.now();
    const error = await failure(ask(client(cmd)));
    expect([error.code, error.details?.reason]).toEqual(['model_output_invalid', 'response_too_large']);
    expect(error.exitCode).toBe(6);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(await goneWithin(Number(readFileSync(pidFile, 'utf8')), 3_000)).toBe(true);
  });

  test('stdout of exactly maxBytes passes', async () => {
    const body = '{"ok": true}';
    const result = await ask(client(`cat > /dev/null; printf '${body}'`, { maxBytes: body.length }));
    expect(result.value).toEqual({ ok: true });
    const error = await failure(ask(client(`cat > /dev/null; printf '${body}'`, { maxBytes: body.length - 1 })));
    expect(error.details?.reason).toBe('response_too_large');
  });
});
