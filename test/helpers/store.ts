import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/core/store/store.js';
import type { Clock } from '../../src/core/time.js';

/** A real SQLite file in a fresh temp dir; `done()` closes it and removes the dir. */
export function tempStore(clock?: Clock): Store & { dir: string; done(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'hippo-store-'));
  const store = openStore({ path: join(dir, 'hippo.db'), clock });
  return Object.assign(store, {
    dir,
    done: () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

/** A settable clock for tests that need a fixed "now". */
export function fixedClock(start: string): Clock & { set(time: string): void; advance(ms: number): void } {
  let now = new Date(start);
  const clock = (() => new Date(now)) as Clock & { set(time: string): void; advance(ms: number): void };
  clock.set = (time) => {
    now = new Date(time);
  };
  clock.advance = (ms) => {
    now = new Date(now.getTime() + ms);
  };
  return clock;
}
