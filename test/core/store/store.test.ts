import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/core/store/store.js';
import { errorOf } from '../../helpers/errors.js';
import { freshDatabase } from '../../helpers/postgres.js';

let dir: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hippo-open-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('openStore: the one door to the adapters', () => {
  it('opens a SQLite store for a path, whose transaction commits', async () => {
    const store = await openStore({ path: join(dir, 'hippo.db') });
    try {
      expect([store.engine, store.location]).toEqual(['sqlite', join(dir, 'hippo.db')]);
      await store.transaction((tx) => tx.settings.set('k', 'v'));
      expect(await store.settings.get('k')).toBe('v');
    } finally {
      await store.close();
    }
  });

  it('opens a PostgreSQL store for a postgres:// or postgresql:// URL, given as url or as path', async () => {
    const database = await freshDatabase();
    try {
      for (const location of [database.url, database.url.replace(/^postgres:/, 'postgresql:')]) {
        const store = await openStore(location.startsWith('postgresql:') ? { path: location } : { url: location });
        try {
          expect(store.engine).toBe('postgres');
          expect(store.location).toMatch(/^postgres:\/\/[^:]+:\*\*\*@/);
          await store.transaction((tx) => tx.settings.set('k', 'v'));
          expect(await store.settings.get('k')).toBe('v');
        } finally {
          await store.close();
        }
      }
    } finally {
      await database.drop();
    }
  });

  it('refuses a malformed postgres URL and a URL of any other scheme with exit 2, without echoing the password', async () => {
    const bad = await errorOf(() => openStore({ url: 'postgres://ana:s3cret@db.example.com:99999/hippo' }));
    expect(bad).toMatchObject({ code: 'bad_postgres_url', exitCode: 2 });
    expect(JSON.stringify({ message: (bad as Error).message, details: (bad as { details?: unknown }).details })).not.toContain('s3cret');
    expect(await errorOf(() => openStore({ url: 'mysql://db/hippo' }))).toMatchObject({ code: 'unsupported_database', exitCode: 2 });
    expect(await errorOf(() => openStore({}))).toMatchObject({ code: 'no_database', exitCode: 2 });
  });
});
