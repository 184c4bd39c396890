import { defineConfig } from 'vitest/config';

/** The pure facts core's unit tests only: the test set of the facts mutation run (stryker.facts.config.mjs). */
export default defineConfig({
  test: {
    include: ['test/core/facts/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
