import { render } from 'ink-testing-library';
import type { Store } from '../../src/core/store/port.js';
import { ReviewController, type ReviewControllerOptions } from '../../src/ui/review/controller.js';
import { ReviewApp } from '../../src/ui/review/review-app.js';
import type { ReviewActions, ReviewSummary } from '../../src/ui/review/types.js';

export { NOTES, stageCandidates } from './candidates.js';

/** Key sequences as a terminal sends them. */
export const KEY = {
  enter: '\r',
  escape: '\u001B',
  up: '\u001B[A',
  down: '\u001B[B',
  left: '\u001B[D',
  right: '\u001B[C',
  pageDown: '\u001B[6~',
  pageUp: '\u001B[5~',
  backspace: '\u007F',
  ctrlC: '\u0003',
  ctrlU: '\u0015',
} as const;

/** Waits until `ready()` holds (polling), or fails after `timeoutMs` with `what`. */
async function until(ready: () => boolean, what: string, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

export interface ReviewHarness {
  frame(): string;
  /** Sends each argument as one separate write (one key press, or one pasted string) and waits for the screen. */
  press(...keys: string[]): Promise<string>;
  /** Types text one character at a time, as a person would. */
  type(text: string): Promise<string>;
  resize(columns: number, rows: number): Promise<string>;
  summary(): ReviewSummary | undefined;
  /** The progress last reported while the session runs (what a crash would still print). */
  latest(): ReviewSummary | undefined;
  controller: ReviewController;
  unmount(): void;
}

/**
 * Mounts the review app on `store` with ink-testing-library, sized like a terminal (default 100×30). `actions` may
 * stand between the screen and the controller (a slow store, say).
 */
export async function renderReview(
  store: Store,
  options: Partial<ReviewControllerOptions> = {},
  size = { columns: 100, rows: 30 },
  actions: (controller: ReviewController) => ReviewActions = (controller) => controller,
): Promise<ReviewHarness> {
  const controller = new ReviewController(store, { agentId: 'ops', reviewer: 'tester', ...options });
  let summary: ReviewSummary | undefined;
  let latest: ReviewSummary | undefined;
  const app = render(
    <ReviewApp
      items={await controller.loadPending()}
      actions={actions(controller)}
      settings={controller.settings}
      now={() => controller.now()}
      onUpdate={(result) => (latest = result)}
      onExit={(result) => (summary = result)}
    />,
  );
  const frame = () => app.lastFrame() ?? '';
  /**
   * Waits for the screen to answer `act`: at least one new frame (a key that changes nothing draws none, so that wait
   * is bounded), then no new frame for a moment — ink may draw more than once (a resize redraws before React does).
   */
  const settleAfter = async (act: () => void, what: string) => {
    const before = app.frames.length;
    act();
    await until(() => app.frames.length > before, what, 1_000).catch(() => undefined);
    let seen = app.frames.length;
    for (let quiet = 0; quiet < 10;) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      quiet = app.frames.length === seen ? quiet + 1 : 0;
      seen = app.frames.length;
    }
  };
  const send = (data: string) => settleAfter(() => app.stdin.write(data), `a frame after ${JSON.stringify(data)}`);
  const resize = async (columns: number, rows: number) => {
    Object.defineProperty(app.stdout, 'columns', { value: columns, configurable: true });
    Object.defineProperty(app.stdout, 'rows', { value: rows, configurable: true });
    await settleAfter(() => app.stdout.emit('resize'), 'a frame after the resize');
    return frame();
  };
  // Keys are read only once ink has subscribed to stdin (after the first commit's effects).
  await until(() => app.stdin.listenerCount('readable') > 0, 'ink to read stdin');
  await resize(size.columns, size.rows);
  return {
    frame,
    async press(...keys) {
      for (const key of keys) await send(key);
      return frame();
    },
    async type(text) {
      for (const char of text) await send(char);
      return frame();
    },
    resize,
    summary: () => summary,
    latest: () => latest,
    controller,
    unmount: () => app.unmount(),
  };
}
