import { render } from 'ink';
import { onExit } from 'signal-exit';
import { summaryText } from './summary.js';
import { ReviewApp } from './review-app.js';
import type { Store } from '../../core/store/port.js';
import { ReviewController, type ReviewControllerOptions } from './controller.js';
import type { ReviewOutcome, ReviewSummary } from './types.js';

// The alternate screen, as `less` and editors use: the review gets the whole terminal, and the reviewer's scrollback
// comes back untouched when it closes (the summary is printed after, so it stays).
const ENTER_ALTERNATE_SCREEN = '\u001B[?1049h';
const LEAVE_ALTERNATE_SCREEN = '\u001B[?1049l';

export interface ReviewStreams {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

/**
 * Runs the review screen on a terminal until the reviewer quits (or `signal` fires: SIGTERM, SIGHUP) and returns what
 * was decided. Call it only when stdin and stdout are a TTY: ink needs raw mode. Returns undefined when nothing is
 * pending (no screen is opened).
 */
export async function runReview(
  controller: ReviewController,
  options: { signal?: AbortSignal; streams?: ReviewStreams } = {},
): Promise<ReviewOutcome | undefined> {
  const streams = options.streams ?? process;
  const items = await controller.loadPending();
  if (items.length === 0) return undefined;
  let latest: ReviewSummary = { decisions: [], skipped: [], remaining: items.length, interrupted: false };
  let finished: ReviewSummary | undefined;
  let onAlternateScreen = true;
  const leave = () => {
    if (!onAlternateScreen) return;
    onAlternateScreen = false;
    streams.stdout.write(LEAVE_ALTERNATE_SCREEN);
  };
  // However the process ends (a crash, a signal nobody handles…), the reviewer's terminal is given back; killed by a
  // signal, the summary of what was decided is printed too, since the command will not get to print it. (After ink's
  // own handler, which unmounts the screen and restores the terminal mode.) A signal the command handles aborts
  // `signal` instead: the screen closes and the command prints the summary.
  const removeExitHandler = onExit(
    (_code, signal) => {
      const wasOn = onAlternateScreen;
      leave();
      if (signal !== null && wasOn) streams.stdout.write(`${summaryText({ ...latest, interrupted: true })}\n`);
    },
    { alwaysLast: true },
  );
  streams.stdout.write(ENTER_ALTERNATE_SCREEN);
  try {
    const instance = render(
      <ReviewApp
        items={items}
        actions={controller}
        settings={controller.settings}
        now={() => controller.now()}
        onUpdate={(summary) => (latest = summary)}
        onExit={(summary) => (finished = summary)}
      />,
      { stdin: streams.stdin, stdout: streams.stdout, stderr: streams.stderr, exitOnCtrlC: false },
    );
    const close = () => instance.unmount();
    options.signal?.addEventListener('abort', close, { once: true });
    if (options.signal?.aborted) close();
    try {
      await instance.waitUntilExit();
    } finally {
      options.signal?.removeEventListener('abort', close);
    }
    return { summary: finished ?? { ...latest, interrupted: true } };
  } catch (error) {
    return { summary: { ...latest, interrupted: true }, error };
  } finally {
    leave();
    removeExitHandler();
  }
}

/** `rem candidates` on a terminal: the review screen over the agent's pending candidates (undefined: none pending). */
export async function reviewCandidates(store: Store, options: ReviewControllerOptions, signal?: AbortSignal): Promise<ReviewOutcome | undefined> {
  return runReview(new ReviewController(store, options), { signal });
}
