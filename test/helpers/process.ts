import { existsSync, readFileSync } from 'node:fs';

/**
 * Resolves true once `pid` is dead (polls up to `ms`). A zombie counts as dead: an orphan is reaped by PID 1, which in
 * some containers takes seconds.
 */
export async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      process.kill(pid, 0);
      if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) return true;
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

/** The pid a shell command wrote to `path` (`echo $! > path`), once the file holds one (polls up to `ms`). */
export async function pidFrom(path: string, ms = 10_000): Promise<number> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const text = existsSync(path) ? readFileSync(path, 'utf8').trim() : '';
    if (/^\d+$/.test(text)) return Number(text);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no pid was written to ${path}`);
}
