/**
 * The PostgreSQL adapter under concurrency and failure, against a real server: transactions (commit, rollback,
 * nesting, serialisation, a connection that dies mid-way), best-effort transactions that never wait long, and the
 * nightly lock (a second holder refused at once, a holder killed with SIGKILL freeing it, the dead run taken over).
 */
import { execa, type ResultPromise } from 'execa';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, ExitCode, HippoError, StoreUnavailableError } from '../../../../src/core/errors.js';
import { newId } from '../../../../src/core/ids.js';
import type { HeldLock, Store, StoreOps } from '../../../../src/core/store/port.js';
import { STORE_TABLES } from '../../../../src/core/store/port.js';
import { ROOT } from '../../../helpers/cli.js';
import { withClient } from '../../../helpers/postgres.js';
import { at, candidate, memory, openAdapterStore, rejection, run, type AdapterStore } from '../../../helpers/postgres-store.js';

let t: AdapterStore;
let store: Store;
let other: Store;
beforeAll(async () => {
  t = await openAdapterStore();
  store = t.store;
  other = await t.reopen();
});
afterAll(async () => {
  await t.dispose();
});
beforeEach(async () => {
  await withClient(t.database.url, (client) => client.query(`TRUNCATE ${STORE_TABLES.join(', ')}`));
});

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('transaction()', () => {
  it('commits everything fn wrote when it resolves', async () => {
    const m = memory('alice', 'm');
    const c = candidate('alice', 'c');
    const result = await store.transaction(async (tx) => {
      await tx.memories.insert(m);
      await tx.candidates.insert(c);
      // Not visible to another connection before the commit.
      expect(await other.memories.get('alice', m.id)).toBeUndefined();
      return 42;
    });
    expect(result).toBe(42);
    expect(await other.memories.get('alice', m.id)).toEqual(m);
    expect(await other.candidates.get('alice', c.id)).toBeDefined();
  });

  it('rolls everything back when fn throws, passing the error through unchanged', async () => {
    const thrown = new HippoError('nightly_running', 'stop', ExitCode.conflict);
    const m = memory('alice', 'm');
    const caught = await store
      .transaction(async (tx) => {
        await tx.memories.insertMany([m, memory('alice', 'n')]);
        await tx.settings.set('k', 'v');
        throw thrown;
      })
      .catch((error: unknown) => error);
    expect(caught).toBe(thrown);
    expect(await store.rows.count('memories', null)).toBe(0);
    expect(await store.settings.get('k')).toBeUndefined();
  });

  it('runs the store’s own calls made inside fn in the transaction (they see its writes)', async () => {
    const m = memory('alice', 'm');
    await store.transaction(async (tx) => {
      await tx.memories.insert(m);
      expect(await store.memories.get('alice', m.id)).toEqual(m);
      expect(await store.rows.count('memories', 'alice')).toBe(1);
    });
  });

  it('joins a nested call: its writes are the outer transaction’s, even when it throws and the outer one catches', async () => {
    const [outer, inner, failed] = [memory('alice', 'outer'), memory('alice', 'inner'), memory('alice', 'failed')];
    await store.transaction(async (tx) => {
      await tx.memories.insert(outer);
      await store.transaction(async (nested) => {
        await nested.memories.insert(inner);
      });
      const error = await store
        .transaction(async (nested) => {
          await nested.memories.insert(failed);
          throw new Error('inner failure');
        })
        .catch((caught: Error) => caught);
      expect(error.message).toBe('inner failure');
      // As on SQLite: no savepoint undid it.
      expect(await tx.memories.get('alice', failed.id)).toEqual(failed);
    });
    expect((await store.memories.getMany('alice', [outer.id, inner.id, failed.id])).map((m) => m.content)).toEqual(['outer', 'inner', 'failed']);
  });

  it('a nested call the server refused is undone alone, so the outer transaction can go on', async () => {
    const [outer, duplicate] = [memory('alice', 'outer'), candidate('alice', 'dup')];
    await store.candidates.insert(duplicate);
    await store.transaction(async (tx) => {
      await tx.memories.insert(outer);
      const error = await rejection(store.transaction((nested) => nested.candidates.insert(duplicate)));
      expect(error.code).toBe('unexpected');
      await tx.settings.set('after', 'refusal');
    });
    expect(await store.memories.get('alice', outer.id)).toEqual(outer);
    expect(await store.settings.get('after')).toBe('refusal');
  });

  it('a refused statement whose error fn swallows fails the commit instead of passing for success', async () => {
    const [m, duplicate] = [memory('alice', 'lost'), candidate('alice', 'dup')];
    await store.candidates.insert(duplicate);
    const error = await rejection(
      store.transaction(async (tx) => {
        await tx.memories.insert(m);
        await tx.candidates.insert(duplicate).catch(() => undefined);
      }),
    );
    expect(error.code).toBe('transaction_aborted');
    expect(await store.memories.get('alice', m.id)).toBeUndefined();
  });

  it('serialises the transactions of one store', async () => {
    const events: string[] = [];
    const first = gate();
    const a = store.transaction(async () => {
      events.push('a start');
      await first.promise;
      events.push('a end');
    });
    const b = store.transaction(async () => {
      events.push('b start');
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    first.open();
    await Promise.all([a, b]);
    expect(events).toEqual(['a start', 'a end', 'b start']);
  });

  it('refuses the ops of a transaction used after it ended', async () => {
    let kept: StoreOps | undefined;
    await store.transaction(async (tx) => {
      kept = tx;
    });
    const error = await rejection(kept!.memories.get('alice', 'mem_x'));
    expect(error.code).toBe('transaction_closed');
  });

  it('leaves nothing when its connection dies mid-way (exit 8), and the store keeps working', async () => {
    const m = memory('alice', 'half');
    const error = await rejection(
      store.transaction(async (tx) => {
        await tx.memories.insert(m);
        await tx.candidates.insert(candidate('alice', 'half'));
        await withClient(t.database.url, (client) =>
          client.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction' AND pid <> pg_backend_pid()",
          ),
        );
        await tx.settings.set('after', 'death');
      }),
    );
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.exitCode).toBe(ExitCode.storeUnavailable);
    expect(await store.memories.get('alice', m.id)).toBeUndefined();
    expect(await store.rows.count('candidates', null)).toBe(0);
    expect(await store.settings.get('after')).toBeUndefined();
  });
});

describe('tryTransaction()', () => {
  it('gives up after waitMs on a row another connection holds, without failing', async () => {
    const m = memory('alice', 'locked');
    await store.memories.insert(m);
    const holding = gate();
    const locked = gate();
    const holder = other.transaction(async (tx) => {
      await tx.memories.archive('alice', [m.id], 'held', at(1));
      locked.open();
      await holding.promise;
    });
    await locked.promise;
    const started = Date.now();
    const outcome = await store.tryTransaction((tx) => tx.memories.archive('alice', [m.id], 'mine', at(2)), 200);
    const waited = Date.now() - started;
    // Retrieval counters give up the same way: the search's answer never waits on them.
    expect(await store.tryTransaction(async (tx) => (await tx.memories.recordRetrieval('alice', [m.id], at(2)), 'bumped'), 200)).toBeUndefined();
    holding.open();
    await holder;
    expect(outcome).toBeUndefined();
    expect(waited).toBeLessThan(30_000);
    expect(await store.memories.get('alice', m.id)).toMatchObject({ archivedReason: 'held', retrievalCount: 0 });
    expect(await store.tryTransaction(async (tx) => (await tx.memories.recordRetrieval('alice', [m.id], at(3)), 'bumped'))).toBe('bumped');
    expect((await store.memories.get('alice', m.id))!.retrievalCount).toBe(1);
  });

  it('gives up after waitMs while another transaction of the same store holds the queue', async () => {
    const holding = gate();
    const running = gate();
    const first = store.transaction(async () => {
      running.open();
      await holding.promise;
    });
    await running.promise;
    const outcome = await store.tryTransaction((tx) => tx.settings.set('k', 'v'), 100);
    holding.open();
    await first;
    expect(outcome).toBeUndefined();
    expect(await store.settings.get('k')).toBeUndefined();
  });

  it('returns what fn returns when nothing is in the way, and joins an outer transaction', async () => {
    expect(await store.tryTransaction(async (tx) => (await tx.settings.setIfAbsent('k', 'v')) && 'written')).toBe('written');
    await store.transaction(async () => {
      expect(await store.tryTransaction((tx) => tx.settings.get('k'))).toBe('v');
    });
  });
});

describe('the nightly lock', () => {
  it('refuses a second holder at once (exit 4) naming the holder, and is free again after release', async () => {
    const lock = await store.lock.acquire({ runId: 'run_01JAAAAAAAAAAAAAAAAAAAAAAA', kind: 'rem nightly run-once' });
    expect(lock.takenOver).toBeNull();
    expect(lock.holder).toMatchObject({ pid: process.pid, runId: 'run_01JAAAAAAAAAAAAAAAAAAAAAAA', kind: 'rem nightly run-once' });
    expect(await other.lock.holder()).toEqual(lock.holder);
    const started = Date.now();
    const error = await rejection(other.lock.acquire({ runId: 'run_01JBBBBBBBBBBBBBBBBBBBBBBB', kind: 'rem restore' }));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.code).toBe('nightly_running');
    expect(error.exitCode).toBe(ExitCode.conflict);
    expect(error.details?.holder).toEqual(lock.holder);
    await lock.release();
    await lock.release();
    expect(await other.lock.holder()).toBeNull();
    const next = await other.lock.acquire({ runId: 'run_01JBBBBBBBBBBBBBBBBBBBBBBB', kind: 'rem restore' });
    expect(next.takenOver).toBeNull();
    await next.release();
  });

  it('two acquisitions at once: exactly one holds it', async () => {
    const outcomes = await Promise.allSettled([
      store.lock.acquire({ runId: newId('run'), kind: 'rem nightly run-once' }),
      other.lock.acquire({ runId: newId('run'), kind: 'rem nightly run-once' }),
    ]);
    const held = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    expect(held).toHaveLength(1);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as HippoError).code).toBe('nightly_running');
    await (held[0] as PromiseFulfilledResult<Awaited<ReturnType<Store['lock']['acquire']>>>).value.release();
  });

  it('is freed when its holder is killed (SIGKILL); the next holder takes over and interrupts the dead run', async () => {
    const [runId, childId] = [newId('run'), newId('run')];
    const child: ResultPromise = execa(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'test', 'fixtures', 'pg-store-lock-holder.ts'), t.database.url, runId, childId],
      {
        cwd: ROOT,
        reject: false,
      },
    );
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
      void child.then((result) => reject(new Error(`the holder exited early: ${String(result.stderr)}`)));
    });
    expect(line).toBe(`held ${child.pid}`);
    try {
      expect(await store.lock.holder()).toMatchObject({ pid: child.pid, runId, kind: 'rem nightly run-once' });
      expect((await rejection(store.lock.acquire({ runId: newId('run'), kind: 'rem restore' }))).code).toBe('nightly_running');
    } finally {
      child.kill('SIGKILL');
      await child;
    }
    let lock: HeldLock | undefined;
    for (let tries = 0; tries < 200 && !lock; tries++) {
      lock = await store.lock.acquire({ runId: newId('run'), kind: 'rem restore' }).catch(() => undefined);
      if (!lock) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!lock) throw new Error('the lock was never freed after its holder was killed');
    expect(lock.takenOver).toMatchObject({ pid: child.pid, runId });
    expect(await store.runs.get(runId)).toMatchObject({ status: 'interrupted', errors: ['interrupted'] });
    expect(await store.runs.get(childId)).toMatchObject({ status: 'interrupted' });
    await lock.release();
    expect(await store.lock.holder()).toBeNull();
    expect(await store.settings.get('nightly.lock')).toBeUndefined();
  });

  it('says when the lock was lost with its connection, and names a holder that has not recorded itself', async () => {
    const lock = (await store.lock.acquire({ runId: 'run_01JCCCCCCCCCCCCCCCCCCCCCCC', kind: 'rem restore' })) as Awaited<
      ReturnType<Store['lock']['acquire']>
    > & { lost: AbortSignal };
    expect(lock.lost.aborted).toBe(false);
    // The record gone (as between taking the lock and writing it): the session itself names the holder.
    await store.settings.delete('nightly.lock');
    // Its pid on the client is unknown, and said to be: never a made-up pid 0 or a 1970 start.
    const unrecorded = await other.lock.holder();
    expect(unrecorded).toMatchObject({ pid: null, runId: 'run_01JCCCCCCCCCCCCCCCCCCCCCCC', kind: 'rem restore' });
    expect(Date.parse(unrecorded!.startedAt!)).toBeGreaterThan(Date.parse('2020-01-01'));
    const refused = await rejection(other.lock.acquire({ runId: newId('run'), kind: 'rem nightly run-once' }));
    expect(refused.code).toBe('nightly_running');
    expect(refused.message).toContain('rem restore run_01JCCCCCCCCCCCCCCCCCCCCCCC, pid unknown on ');
    expect(refused.message).not.toMatch(/pid 0\b|1970/);
    await withClient(t.database.url, (client) =>
      client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'hippo rem restore %'"),
    );
    for (let tries = 0; tries < 100 && !lock.lost.aborted; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lock.lost.aborted).toBe(true);
    expect(await other.lock.holder()).toBeNull();
    await lock.release();
  });

  it('is released by close()', async () => {
    const third = await t.reopen();
    await third.lock.acquire({ runId: newId('run'), kind: 'rem nightly run-once' });
    await third.close();
    const lock = await store.lock.acquire({ runId: newId('run'), kind: 'rem nightly run-once' });
    expect(lock.takenOver).toBeNull();
    await lock.release();
  });
});

describe('runs under concurrency', () => {
  it('finish() of one run by two writers at once: exactly one lands', async () => {
    const row = run();
    await store.runs.insert(row);
    const results = await Promise.all([
      store.runs.finish({ ...row, status: 'completed', finishedAt: at(1) }),
      other.runs.finish({ ...row, status: 'failed', finishedAt: at(1) }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
