import { defineConfig } from 'vitest/config';

// REM's pure-core tests only, for mutation testing (stryker.rem.config.mjs).
export default defineConfig({
  test: {
    include: ['test/core/rem/**/*.test.ts'],
    maxWorkers: 2,
    testTimeout: 60_000,
  },
});
