import { defineConfig } from 'vitest/config';

/**
 * The pure facts core's unit tests only: the test set of the facts mutation run (stryker.facts.config.mjs). The
 * regions dev set (a measurement of ~800 passages, seconds per run) is left out: it runs with every `npm test`, and
 * re-running it for each of 2 500 mutants would take hours on two cores.
 */
export default defineConfig({
  test: {
    include: ['test/core/facts/**/*.test.ts'],
    exclude: ['test/core/facts/regions-devset.test.ts'],
    testTimeout: 30_000,
  },
});
