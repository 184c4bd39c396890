// Mutation testing of the pure facts core (docs/design.md §5, src/core/facts) against its own unit tests only:
//   npx stryker run stryker.facts.config.mjs
// Incremental: a re-run only tests mutants in changed code (reports/stryker-incremental-facts.json).

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // related: false — every facts test runs against every mutant it covers (perTest coverage narrows it down).
  vitest: { configFile: 'vitest.facts.config.ts', related: false },
  mutate: ['src/core/facts/**/*.ts'],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 5_000,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental-facts.json',
  ignorePatterns: ['bench/.data', 'dist', 'coverage', 'reports'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/facts.html' },
  jsonReporter: { fileName: 'reports/mutation/facts.json' },
};
