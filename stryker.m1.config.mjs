import base from './stryker.facts.config.mjs';
export default { ...base, concurrency: 2, ignoreStatic: true, mutate: ['src/core/facts/recognisers/address.ts', 'src/core/facts/recognisers/ip.ts'], incrementalFile: 'reports/inc-addrip.json', reporters: ['progress', 'json'], jsonReporter: { fileName: 'reports/mutation/m-addrip.json' } };
