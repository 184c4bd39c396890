import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // CLI tests spawn real processes and build SQLite files; two cores, so keep it to two workers.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    disableConsoleIntercept: true,
    // After the default summary: a line naming every test skipped for a missing program (tmux) or with a note.
    reporters: ['default', './test/helpers/skip-summary.ts'],
    // A test that asserts nothing cannot fail: make it fail instead.
    expect: { requireAssertions: true },
    // A PostgreSQL server for the second storage engine: HIPPO_TEST_PG_URL, else a throwaway cluster started here.
    globalSetup: ['test/helpers/postgres-setup.ts'],
  },
});
