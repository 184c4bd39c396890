import { defineConfig } from 'vitest/config';

/**
 * The pure facts core's unit tests only: the test set of the facts mutation run (stryker.facts.config.mjs). The dev
 * sets are measurements, not unit tests, and are left out: the shared one (588 lines, every kind, twice) and the
 * regions one (~2 100 passages, seconds per run), and the phone one of issue 28 (a scored measurement of the same rules the
 * phone unit tests pin down case by case). All three run with every `npm test`; re-running them for each of ~3 000
 * mutants would take hours on two cores, and a mutant only they notice needs a unit test of its own.
 */
export default defineConfig({
  test: {
    include: ['test/core/facts/**/*.test.ts'],
    exclude: ['test/core/facts/regions-devset.test.ts', 'test/core/facts/devset.test.ts', 'test/core/facts/phones-devset.test.ts'],
    // Under Stryker's instrumentation on a loaded machine a stream test runs past 30 s (the initial test run failed so, 2026-12-07).
    testTimeout: 180_000,
  },
});
