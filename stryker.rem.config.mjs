// Mutation testing of REM's pure core — validation, prompt building, gather — against its own tests:
//   npx stryker run stryker.rem.config.mjs
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.rem.config.ts', related: false },
  mutate: ['src/core/rem/validate.ts', 'src/core/rem/prompt.ts', 'src/core/rem/gather.ts'],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 5_000,
  ignorePatterns: ['bench/.data', 'dist', 'coverage', 'reports'],
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/rem.json' },
};
