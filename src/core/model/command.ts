/**
 * The `command:` provider: any CLI LLM (`llm -m …`, `ollama run …`, `claude -p`) as a model. The prompt goes to
 * stdin, stdout is the answer, stderr is ignored (never echoed: it may repeat the prompt).
 *
 * The command runs through a shell in its own process group (`detached`), and cancellation kills the whole group:
 * killing only the shell would leave e.g. `sleep` or the real LLM CLI running with our stdout pipe open, and the
 * call would hang until it finished. stdout is read as a stream and counted, so going past the byte cap kills the
 * group at once instead of buffering megabytes (execa's own maxBuffer waits for the process to end).
 */
import type { CommandModelConfig } from './config.js';
import { responseTooLarge } from './answer-problem.js';
import { modelUnreachable } from './errors.js';

const FORCE_KILL_AFTER_MS = 1000;

export interface CommandOutcome {
  /** The command's stdout, decoded as UTF-8. */
  text: string;
}

/** Throws only our typed errors; `signal` is the combined caller + deadline signal (the client classifies aborts). */
export async function runCommandModel(config: CommandModelConfig, input: string, signal: AbortSignal): Promise<CommandOutcome> {
  signal.throwIfAborted();
  const { execa } = await import('execa');
  const child = execa(config.model, {
    shell: true,
    detached: true,
    input,
    stdout: 'pipe',
    stderr: 'ignore',
    buffer: false,
    reject: false,
    // execa's `cancelSignal` would only kill the shell; we kill the group ourselves below.
  });

  let killTimer: NodeJS.Timeout | undefined;
  const killGroup = (): void => {
    if (child.pid === undefined || child.exitCode !== null) return;
    signalGroup(child.pid, 'SIGTERM');
    killTimer ??= setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), FORCE_KILL_AFTER_MS);
    killTimer.unref();
  };
  signal.addEventListener('abort', killGroup, { once: true });

  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  try {
    try {
      for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
        size += chunk.byteLength;
        if (size > config.maxBytes) {
          tooLarge = true;
          killGroup();
          break;
        }
        chunks.push(chunk);
      }
    } catch {
      // The pipe broke because we killed the group; the outcome below says why.
    }
    const result = await child;
    if (signal.aborted) throw signal.reason;
    if (tooLarge) throw responseTooLarge(config.maxBytes);
    if (result.exitCode !== 0) {
      // Exit code (or signal) only: the command's output may echo the prompt.
      const why = result.exitCode === undefined ? `it was killed by ${result.signal ?? 'a signal'}` : `it exited with code ${result.exitCode}`;
      throw modelUnreachable('the model command', why, { command: true, details: { exitCode: result.exitCode ?? null } });
    }
    return { text: Buffer.concat(chunks).toString('utf8') };
  } finally {
    signal.removeEventListener('abort', killGroup);
    // A pending SIGKILL timer is left to fire (it is unref'd): a grandchild that ignored SIGTERM still dies.
  }
}

function signalGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    // Already gone.
  }
}
