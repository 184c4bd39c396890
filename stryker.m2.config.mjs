import base from './stryker.facts.config.mjs';
export default { ...base, concurrency: 2, ignoreStatic: true, mutate: ['src/core/facts/stream.ts'], incrementalFile: 'reports/inc-stream.json', reporters: ['progress', 'json'], jsonReporter: { fileName: 'reports/mutation/m-stream.json' } };
