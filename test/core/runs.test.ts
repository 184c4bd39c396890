import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, HippoError, InterruptedError } from '../../src/core/errors.js';
import { answerRejected } from '../../src/core/model/answer-problem.js';
import { getRun, interruptOpenRuns, listRuns, runErrorCode, withRun, type Run } from '../../src/core/runs.js';
import { fixedClock, tempStore } from '../helpers/store.js';

let store: Awaited<ReturnType<typeof tempStore>>;
beforeEach(async () => {
  store = await tempStore(fixedClock('2026-11-02T03:00:00.000Z'));
});
afterEach(() => store.done());

/** What `fn` throws (as a HippoError carrying its run), failing the test if it throws nothing. */
async function thrown(fn: () => unknown): Promise<HippoError> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HippoError);
    return error as HippoError;
  }
  throw new Error('expected an error');
}
const runOf = (error: HippoError) => error.details?.run as Run;

describe('withRun: a run is a scope', () => {
  it('finishes the row completed, with what the work recorded, when the work returns without finishing it', async () => {
    const value = await withRun(store, 'rem rapid', 'ops', async (scope) => {
      expect((await getRun(store, scope.run.id)).status).toBe('running');
      scope.record.counts = { gathered: 3 };
      return 42;
    });
    expect(value).toBe(42);
    const later = await withRun(store, 'rem ingest', 'ops', async (scope) => {
      scope.record.model = 'm';
      return scope.run.id;
    });
    const [second, first] = await listRuns(store);
    expect(first).toMatchObject({ kind: 'rem rapid', status: 'completed', counts: { gathered: 3 }, errors: [] });
    expect(second).toMatchObject({ id: later, kind: 'rem ingest', status: 'completed', model: 'm' });
  });

  it('keeps the outcome the work finished with', async () => {
    const run = await withRun(store, 'rem rapid', 'ops', async (scope) => scope.finish({ status: 'partial', errors: ['x'] }));
    expect(await getRun(store, run.id)).toMatchObject({ status: 'partial', errors: ['x'] });
  });

  it('fails the row with the error code and what was recorded, and puts the run on the same error, class kept', async () => {
    const error = await thrown(() =>
      withRun(store, 'rem nightly run-once', null, async (scope) => {
        scope.record.steps = { snapshot: 'failed' };
        throw new ConflictError('nightly_running', 'no');
      }),
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: 'nightly_running', exitCode: 4 });
    expect(error.details?.runId).toBe(runOf(error).id);
    expect(runOf(error)).toMatchObject({ status: 'failed', errors: ['nightly_running'], steps: { snapshot: 'failed' } });
    expect(await getRun(store, runOf(error).id)).toEqual(runOf(error));
  });

  it('records the answer problem of a rejected answer, not just model_output_invalid', async () => {
    const error = await thrown(() =>
      withRun(store, 'rem rapid', 'ops', () => {
        throw answerRejected({ reason: 'claim_too_long', message: 'candidate 0 is too long', index: 0 });
      }),
    );
    expect(error.code).toBe('model_output_invalid');
    expect(error.details).toMatchObject({ reason: 'claim_too_long', index: 0 });
    expect(runOf(error)).toMatchObject({ status: 'failed', errors: ['claim_too_long'] });
    expect(runErrorCode(error)).toBe('claim_too_long');
  });

  it('finishes the row interrupted on an InterruptedError, and on any error once the signal has fired', async () => {
    const interrupted = await thrown(() =>
      withRun(store, 'rem rapid', 'ops', async () => {
        throw new InterruptedError();
      }),
    );
    expect(interrupted).toBeInstanceOf(InterruptedError);
    expect(runOf(interrupted)).toMatchObject({ status: 'interrupted', errors: ['interrupted'] });

    const controller = new AbortController();
    const afterAbort = await thrown(() =>
      withRun(
        store,
        'rem rapid',
        'ops',
        async () => {
          controller.abort();
          throw new HippoError('snapshot_failed', 'the copy was cut short', 1);
        },
        { signal: controller.signal },
      ),
    );
    expect(runOf(afterAbort)).toMatchObject({ status: 'interrupted', errors: ['interrupted'] });
  });

  it('does not leave a row running when the transaction that finished it rolls back', async () => {
    const error = await thrown(() =>
      withRun(store, 'rem rapid', 'ops', (scope) =>
        store.transaction(async (tx) => {
          await scope.finish({ status: 'completed' }, tx);
          throw new HippoError('disk_full', 'the disk is full', 1);
        }),
      ),
    );
    expect(await getRun(store, runOf(error).id)).toMatchObject({ status: 'failed', errors: ['disk_full'] });
  });

  it('turns anything that is not a HippoError into `unexpected` (exit 1), still carrying the run', async () => {
    const error = await thrown(() =>
      withRun(store, 'rem rapid', 'ops', () => {
        throw new TypeError('boom');
      }),
    );
    expect(error).toMatchObject({ code: 'unexpected', exitCode: 1 });
    expect(runOf(error)).toMatchObject({ status: 'failed', errors: ['unexpected'] });
  });

  it('interruptOpenRuns finishes the rows still open as interrupted (a forced exit), and only those', async () => {
    let release!: () => void;
    const waiting = withRun(store, 'rem rapid', 'ops', async (scope) => {
      scope.record.counts = { gathered: 2 };
      await new Promise<void>((resolve) => (release = resolve));
    });
    const done = await withRun(store, 'rem ingest', 'ops', () => 'done');
    expect(done).toBe('done');
    const closed = await interruptOpenRuns();
    const [open] = (await listRuns(store)).filter((run) => run.kind === 'rem rapid');
    expect(open).toMatchObject({ status: 'interrupted', errors: ['interrupted'], counts: { gathered: 2 } });
    expect(closed).toEqual([open]);
    release();
    await waiting;
    // The work finished later, but the row already said what the process decided: it stays interrupted.
    expect((await getRun(store, open!.id)).status).toBe('interrupted');
  });
});
