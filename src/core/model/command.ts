/**
 * The `command:` provider: any CLI LLM (`llm -m …`, `ollama run …`, `claude -p`) as a model. The prompt goes to
 * stdin, stdout is the answer, stderr is ignored (never echoed: it may repeat the prompt).
 *
 * The command runs through a shell in its own process group (`detached`), and that group never outlives the call
 * (docs/decisions.md, "A model command's children"):
 * - at the deadline or on an abort the whole group is killed (SIGTERM, SIGKILL a second later), even when the shell
 *   itself has already exited: a background child (`sleep 300 &`, a CLI's helper) lives on in the group and holds our
 *   stdout pipe open, so the read would otherwise wait for an end of file that never comes;
 * - the read stops at the deadline: our end of the pipe is destroyed rather than waiting for that end of file;
 * - after a normal answer, whatever is left in the group is killed too, and when hippo exits (a forced exit after
 *   Ctrl-C included) every group still tracked is sent SIGKILL;
 * - when hippo dies without running any code at all (SIGKILL, the OOM killer), a small supervisor kills the group: the
 *   shell that leads the group keeps a watcher reading a pipe (fd 3) whose other end only hippo holds; the kernel
 *   closes that end when hippo dies, the read ends, and the watcher sends SIGKILL to its own group (`SUPERVISOR`).
 * stdout is read as a stream and counted, so going past the byte cap kills the group at once instead of buffering
 * megabytes (execa's own maxBuffer waits for the process to end).
 */
import type { CommandModelConfig } from './config.js';
import { responseTooLarge } from './answer-problem.js';
import { modelUnreachable } from './errors.js';

const FORCE_KILL_AFTER_MS = 1000;

/**
 * The group's leader (`sh -c SUPERVISOR hippo-model COMMAND`): starts the watcher in the background — it reads fd 3,
 * hippo's lifeline, which nothing ever writes to, so the read ends only when hippo's end closes: then it kills the
 * whole group, itself included — closes its own copy of fd 3 (the command never sees it), runs the command in the
 * foreground with our stdin and stdout, and when the command is done stops the watcher and exits with the command's
 * status. The watcher's own stdin, stdout and stderr are /dev/null, so it never holds our stdout pipe open.
 */
export const SUPERVISOR = [
  '{ read -r _ <&3; kill -KILL 0; } </dev/null >/dev/null 2>&1 &',
  'watcher=$!',
  'exec 3<&-',
  '/bin/sh -c "$1"',
  'status=$?',
  'kill "$watcher" 2>/dev/null',
  'exit "$status"',
].join('\n');

export interface CommandOutcome {
  /** The command's stdout, decoded as UTF-8. */
  text: string;
}

/** Throws only our typed errors; `signal` is the combined caller + deadline signal (the client classifies aborts). */
export async function runCommandModel(config: CommandModelConfig, input: string, signal: AbortSignal): Promise<CommandOutcome> {
  signal.throwIfAborted();
  const { execa } = await import('execa');
  const child = execa('/bin/sh', ['-c', SUPERVISOR, 'hippo-model', config.model], {
    detached: true,
    input,
    // stdin (the prompt), stdout (the answer), no stderr, and fd 3: the lifeline the supervisor watches.
    stdio: ['pipe', 'pipe', 'ignore', 'pipe'],
    buffer: false,
    reject: false,
    // execa's `cancelSignal`, `cleanup` and `forceKillAfterDelay` act on the shell only (and `cleanup` is off for a
    // detached child): the group is ours to kill, below.
  });
  const group = child.pid;
  if (group !== undefined) trackGroup(group);
  const stdout = child.stdout;

  const stop = (): void => {
    if (group !== undefined) killGroup(group);
    // Stop reading now: an orphan may hold the pipe open for as long as it likes.
    stdout.destroy();
  };
  signal.addEventListener('abort', stop, { once: true });

  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  try {
    try {
      for await (const chunk of stdout as AsyncIterable<Buffer>) {
        size += chunk.byteLength;
        if (size > config.maxBytes) {
          tooLarge = true;
          stop();
          break;
        }
        chunks.push(chunk);
      }
    } catch {
      // The pipe broke because we destroyed it or killed the group; the outcome below says why.
    }
    // Never wait for the shell after an abort: it has been signalled, and the caller is owed its answer now.
    if (signal.aborted) throw signal.reason;
    if (tooLarge) throw responseTooLarge(config.maxBytes);
    const result = await Promise.race([child, aborted(signal)]);
    if (signal.aborted || result === undefined) throw signal.reason;
    if (result.exitCode !== 0) {
      // Exit code (or signal) only: the command's output may echo the prompt.
      const why = result.exitCode === undefined ? `it was killed by ${result.signal ?? 'a signal'}` : `it exited with code ${result.exitCode}`;
      throw modelUnreachable('the model command', why, { command: true, details: { exitCode: result.exitCode ?? null } });
    }
    return { text: Buffer.concat(chunks).toString('utf8') };
  } finally {
    signal.removeEventListener('abort', stop);
    // Whatever is still in the group once we have our answer (or gave up on it) is a leftover.
    if (group !== undefined) killGroup(group);
  }
}

/** Resolves (with undefined) when `signal` aborts. */
function aborted(signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(undefined);
    else signal.addEventListener('abort', () => resolve(undefined), { once: true });
  });
}

/** Process groups started here and not yet sent SIGKILL: killed outright when the process exits. */
const liveGroups = new Map<number, NodeJS.Timeout | undefined>();
let exitHookInstalled = false;

function trackGroup(group: number): void {
  liveGroups.set(group, undefined);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // `exit` listeners run synchronously on every exit path of Node, process.exit() included; process.kill is synchronous.
  process.on('exit', () => {
    for (const pending of liveGroups.keys()) signalGroup(pending, 'SIGKILL');
  });
}

/** SIGTERM to the whole group now, SIGKILL a second later (a member that ignores SIGTERM still dies). */
function killGroup(group: number): void {
  if (!liveGroups.has(group) || liveGroups.get(group) !== undefined) return;
  if (!signalGroup(group, 'SIGTERM')) {
    liveGroups.delete(group);
    return;
  }
  const timer = setTimeout(() => {
    signalGroup(group, 'SIGKILL');
    liveGroups.delete(group);
  }, FORCE_KILL_AFTER_MS);
  timer.unref();
  liveGroups.set(group, timer);
}

/** Signals every process of the group; false when the group has no process left. */
function signalGroup(group: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(-group, sig);
    return true;
  } catch {
    return false;
  }
}
