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
