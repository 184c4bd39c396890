import { execa, type ResultPromise } from 'execa';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode, StoreUnavailableError } from '../../../../src/core/errors.js';
import { parsePostgresUrl, type PostgresTarget } from '../../../../src/core/store/postgres/connect.js';
import { nightlyLockHolder, tryNightlyLock } from '../../../../src/core/store/postgres/lock.js';
import { ROOT } from '../../../helpers/cli.js';
import { freePort, freshDatabase, withClient, withDatabase, type FreshDatabase } from '../../../helpers/postgres.js';

let database: FreshDatabase;
let target: PostgresTarget;
beforeAll(async () => {
  database = await freshDatabase();
  target = parsePostgresUrl(database.url, {});
});
afterAll(async () => {
  await database.drop();
});

async function holderPid(url = database.url): Promise<number | undefined> {
  return withClient(url, async (client) => (await nightlyLockHolder((sql) => client.query(sql)))?.pid);
}

/** A separate process that takes the lock and keeps it until killed. */
async function startHolder(url: string): Promise<{ child: ResultPromise; pid: number }> {
  const child = execa(process.execPath, ['--import', 'tsx', join(ROOT, 'test', 'fixtures', 'pg-lock-holder.ts'), url], { cwd: ROOT, reject: false });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', () => reject(new Error(`the holder exited early: ${child.stderr ? 'see stderr' : ''}`)));
  });
  const match = /^held (\d+)$/.exec(line);
  if (!match) throw new Error(`the holder did not get the lock: ${line}`);
  return { child, pid: Number(match[1]) };
}

describe('the nightly lock on PostgreSQL', () => {
  it('is refused at once to a second holder, and free again after release', async () => {
    const first = await tryNightlyLock(target, {});
    expect(first).toBeDefined();
    expect(await holderPid()).toBe(first!.pid);
    const started = Date.now();
    expect(await tryNightlyLock(target, {})).toBeUndefined();
    expect(await tryNightlyLock(target, {})).toBeUndefined();
    // "At once": no wait on the holder (a lock wait would last until the test's timeout).
    expect(Date.now() - started).toBeLessThan(5_000);
    await first!.release();
    await first!.release();
    expect(await holderPid()).toBeUndefined();
    const second = await tryNightlyLock(target, {});
    expect(second).toBeDefined();
    await second!.release();
  });

  it('is held by another process until that process is killed (SIGKILL), then freed with its connection', async () => {
    const { child, pid } = await startHolder(database.url);
    try {
      expect(await holderPid()).toBe(pid);
      expect(await tryNightlyLock(target, {})).toBeUndefined();
    } finally {
      child.kill('SIGKILL');
      await child;
    }
    // The kernel closes the dead process's socket; the server ends the session and its locks with it.
    let lock;
    for (let tries = 0; tries < 100 && !lock; tries++) {
      lock = await tryNightlyLock(target, {});
      if (!lock) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(lock).toBeDefined();
    await lock?.release();
  });

  it('says when its connection is lost (the lock went with it)', async () => {
    const lock = await tryNightlyLock(target, {});
    expect(lock!.lost.aborted).toBe(false);
    await withClient(database.url, (client) => client.query('SELECT pg_terminate_backend($1)', [lock!.pid]));
    for (let tries = 0; tries < 100 && !lock!.lost.aborted; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lock!.lost.aborted).toBe(true);
    await lock!.release();
    const again = await tryNightlyLock(target, {});
    expect(again).toBeDefined();
    await again!.release();
  });

  it('is per schema: two hippo schemas in one database do not block each other', async () => {
    await withClient(database.url, (client) => client.query('CREATE SCHEMA IF NOT EXISTS team_b'));
    const other = parsePostgresUrl(`${database.url}?options=${encodeURIComponent('-c search_path=team_b')}`, {});
    const a = await tryNightlyLock(target, {});
    const b = await tryNightlyLock(other, {});
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    await a!.release();
    await b!.release();
  });

  it('maps an unreachable server to exit 8', async () => {
    const port = await freePort();
    const nowhere = parsePostgresUrl(withDatabase(`postgres://u:p@127.0.0.1:${port}/x`, 'x'), {});
    const error = await tryNightlyLock(nowhere, {}).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).exitCode).toBe(ExitCode.storeUnavailable);
  });
});
