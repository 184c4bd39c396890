import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Engine, Store } from '../../src/core/store/port.js';
import { openSqliteStore, type SqliteStore } from '../../src/core/store/sqlite/adapter.js';
import { openStore } from '../../src/core/store/store.js';
import type { Clock } from '../../src/core/time.js';

/**
 * The engines the engine-neutral tests run against (test/core/store/contract.test.ts): adding one is adding its name
 * here and a branch in `openTestStore`.
 */
export const ENGINES: readonly Engine[] = ['sqlite', 'postgres'];

export type TestStore = Store & {
  /** Another store on the same data (another connection, as another process would have); closed by `done()`. */
  reopen(): Promise<Store>;
  done(): Promise<void>;
};

/** A fresh, empty store of `engine` through `openStore` (as the CLI opens one); `done()` closes and removes it. */
export async function openTestStore(engine: Engine, clock?: Clock): Promise<TestStore> {
  const others: Store[] = [];
  const closeOthers = async () => {
    for (const other of others.splice(0)) await other.close();
  };
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'hippo-store-'));
    const path = join(dir, 'hippo.db');
    const store = await openStore({ path, clock });
    return Object.assign(store, {
      reopen: async () => {
        const other = await openStore({ path, clock });
        others.push(other);
        return other;
      },
      done: async () => {
        await closeOthers();
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    });
  }
  // Loaded only here: SQLite-only test files never load pg. Opened with the adapter itself until openStore dispatches
  // postgres:// URLs to it; its logical snapshots go to a temp XDG data dir, never the user's.
  const [{ freshDatabase }, { openPostgresStore }, { parsePostgresUrl }] = await Promise.all([
    import('./postgres.js'),
    import('../../src/core/store/postgres/adapter.js'),
    import('../../src/core/store/postgres/connect.js'),
  ]);
  const database = await freshDatabase();
  const dataHome = mkdtempSync(join(tmpdir(), 'hippo-pg-data-'));
  const open = () => openPostgresStore(parsePostgresUrl(database.url, {}), { clock, env: { ...process.env, XDG_DATA_HOME: dataHome } });
  const store = await open().catch(async (error: unknown) => {
    await database.drop();
    rmSync(dataHome, { recursive: true, force: true });
    throw error;
  });
  return Object.assign(store, {
    reopen: async () => {
      const other = await open();
      others.push(other);
      return other;
    },
    done: async () => {
      await closeOthers();
      await store.close();
      await database.drop();
      rmSync(dataHome, { recursive: true, force: true });
    },
  });
}

/** A real SQLite file in a fresh temp dir, with the adapter's own handle (`db`) for SQLite-specific checks. */
export async function tempStore(clock?: Clock): Promise<SqliteStore & { dir: string; path: string; done(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'hippo-store-'));
  const path = join(dir, 'hippo.db');
  const store = await openSqliteStore({ path, clock });
  return Object.assign(store, {
    dir,
    path,
    done: async () => {
      await store.close();
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

/** Every item of an async iterable, in order (Array.fromAsync needs Node 22). */
export async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}
