import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inTransaction, openStore } from '../../../src/core/store/store.js';
import { errorOf } from '../../helpers/errors.js';

let dir: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hippo-open-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('openStore: the one door to the adapters', () => {
  it('opens a SQLite store for a path, and keeps the old inTransaction name working', async () => {
    const store = await openStore({ path: join(dir, 'hippo.db') });
    try {
      expect([store.engine, store.location]).toEqual(['sqlite', join(dir, 'hippo.db')]);
      await inTransaction(store, (tx) => tx.settings.set('k', 'v'));
      expect(await store.settings.get('k')).toBe('v');
    } finally {
      await store.close();
    }
  });

  it('refuses a postgres URL until the PostgreSQL adapter is wired in, and a URL of any other scheme, with exit 2', async () => {
    for (const options of [{ url: 'postgres://ana@db.example.com/hippo' }, { path: 'postgresql://db/hippo' }]) {
      expect(await errorOf(() => openStore(options))).toMatchObject({ code: 'unsupported_database', exitCode: 2 });
    }
    expect(await errorOf(() => openStore({ url: 'mysql://db/hippo' }))).toMatchObject({ code: 'unsupported_database', exitCode: 2 });
    expect(await errorOf(() => openStore({}))).toMatchObject({ code: 'no_database', exitCode: 2 });
  });
});
