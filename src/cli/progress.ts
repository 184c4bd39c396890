import { formatBytes } from '../core/text.js';

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
