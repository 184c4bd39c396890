/** A progress bar on stderr, or nothing: cli-progress is loaded only when a terminal will show it. */
export interface Progress {
  start(total: number): void;
  update(done: number): void;
  stop(): void;
}

const NONE: Progress = { start: () => undefined, update: () => undefined, stop: () => undefined };

/** A bar counting `unit` on stderr when stderr is a terminal and `shown`; otherwise a progress that draws nothing. */
export async function progressBar(unit: string, shown: boolean, verb = 'importing'): Promise<Progress> {
  if (!shown || !process.stderr.isTTY) return NONE;
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar({ stream: process.stderr, format: `${verb} [{bar}] {value}/{total} ${unit}`, clearOnComplete: true }, Presets.shades_classic);
  return { start: (total) => bar.start(total, 0), update: (done) => bar.update(done), stop: () => bar.stop() };
}

/** Below this many memories an upgrade of the search index is quick: nothing is drawn. */
const UPGRADE_SHOWN_FROM = 5_000;

/**
 * The progress of a store upgrade that rebuilds the search index (`openStore`'s `onProgress`), drawn on one line of
 * stderr when it is a terminal and `shown`. Synchronous: SQLite's upgrade runs in one transaction without yielding.
 */
export function upgradeProgress(shown: boolean): (step: 'search-index', done: number, total: number) => void {
  if (!shown || !process.stderr.isTTY) return () => undefined;
  return (_step, done, total) => {
    if (total < UPGRADE_SHOWN_FROM) return;
    process.stderr.write(`\rupgrading the search index (threads, context, dates): ${Math.floor((done / total) * 100)}% of ${total} memories`);
    if (done >= total) process.stderr.write('\r\u001b[K');
  };
}
