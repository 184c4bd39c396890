import { formatBytes } from '../core/read-text.js';

/** A progress bar on stderr, or nothing: cli-progress is loaded only when a terminal will show it. */
export interface Progress {
  start(total: number): void;
  update(done: number): void;
  stop(): void;
}

const NONE: Progress = { start: () => undefined, update: () => undefined, stop: () => undefined };

/**
 * A bar on stderr when stderr is a terminal and `shown`; otherwise a progress that draws nothing. It counts `unit`:
 * `bytes` shows them as sizes ("12.5 MiB of 40 MiB"), anything else as plain counts ("3/7 files").
 */
export async function progressBar(unit: string, shown: boolean, label = 'importing'): Promise<Progress> {
  if (!shown || !process.stderr.isTTY) return NONE;
  const { SingleBar, Presets } = await import('cli-progress');
  const bytes = unit === 'bytes';
  const format = bytes ? `${label} [{bar}] {percentage}% | {doneText} of {totalText}` : `${label} [{bar}] {value}/{total} ${unit}`;
  const bar = new SingleBar({ stream: process.stderr, format, clearOnComplete: true }, Presets.shades_classic);
  let total = 0;
  const sizes = (done: number) => (bytes ? { doneText: formatBytes(done), totalText: formatBytes(total) } : {});
  return {
    start: (count) => {
      total = count;
      bar.start(count, 0, sizes(0));
    },
    update: (done) => bar.update(done, sizes(done)),
    stop: () => bar.stop(),
  };
}

/** Below this many memories an upgrade of the search index is quick: nothing is drawn. */
const UPGRADE_SHOWN_FROM = 5_000;

/** What each long step of an upgrade is called on the terminal, and what it counts. */
const UPGRADE_STEPS = {
  'search-index': ['upgrading the search index (threads, context, dates)', 'memories'],
  keys: ['upgrading the tables (keyed by agent)', 'rows'],
} as const;

/**
 * The progress of a store upgrade that rebuilds the search index or the tables (`openStore`'s `onProgress`), drawn on
 * one line of stderr when it is a terminal and `shown`. Synchronous: SQLite's upgrade runs in one transaction without
 * yielding.
 */
export function upgradeProgress(shown: boolean): (step: 'search-index' | 'keys', done: number, total: number) => void {
  if (!shown || !process.stderr.isTTY) return () => undefined;
  return (step, done, total) => {
    if (total < UPGRADE_SHOWN_FROM) return;
    const [label, unit] = UPGRADE_STEPS[step];
    process.stderr.write(`\r${label}: ${Math.floor((done / total) * 100)}% of ${total} ${unit}`);
    if (done >= total) process.stderr.write('\r\u001b[K');
  };
}

/**
 * A byte progress bar for work that is usually over at once (`extract`): drawn on stderr, when it is a terminal, only
 * once the work has run for `afterMs`, so a quick run draws nothing; `update` takes the bytes done and in all.
 */
export async function laterProgressBar(label: string, afterMs = 500): Promise<{ update(done: number, total: number): void; stop(): void }> {
  const bar = await progressBar('bytes', true, label);
  const since = Date.now();
  let started = false;
  return {
    update: (done, total) => {
      if (!started) {
        if (Date.now() - since < afterMs) return;
        started = true;
        bar.start(total);
      }
      bar.update(done);
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}

/**
 * A bar on stderr (a terminal only, and `shown`) for work in named phases (`db copy`: copying, verifying,
 * committing): each phase starts the bar again with its name and its own total; a phase with no total is one line
 * naming it (`committing…`), cleared when the next phase or `stop` comes.
 */
export async function phasedProgressBar(
  unit: string,
  shown: boolean,
): Promise<{ phase(name: string, total: number): void; update(done: number): void; stop(): void }> {
  if (!shown || !process.stderr.isTTY) return { phase: () => undefined, update: () => undefined, stop: () => undefined };
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar({ stream: process.stderr, format: `{phase} [{bar}] {value}/{total} ${unit}`, clearOnComplete: true }, Presets.shades_classic);
  let running = false;
  let line = false;
  const clear = () => {
    if (running) bar.stop();
    if (line) process.stderr.write('\r\u001b[K');
    running = false;
    line = false;
  };
  return {
    phase: (name, total) => {
      clear();
      if (total > 0) {
        bar.start(total, 0, { phase: name });
        running = true;
      } else {
        process.stderr.write(`${name}…`);
        line = true;
      }
    },
    update: (done) => {
      if (running) bar.update(done);
    },
    stop: clear,
  };
}
