// Mutation testing of REM's pure core: validation, prompt building, and the gather clip (SPEC §4.2–§4.4).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.config.ts', dir: 'test/core/rem' },
  mutate: ['src/core/rem/validate.ts', 'src/core/rem/prompt.ts', 'src/core/rem/gather.ts'],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/rem.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 80, break: null },
};
