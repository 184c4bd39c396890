// `npm run quickstart` (after the build): load the demo into hippo's demo store — never into your own store, whatever
// HIPPO_DB says — and search it. Safe to run any number of times: a second run finds the demo loaded and writes nothing.
import { spawnSync } from 'node:child_process';
import { demoDbPath } from '../dist/core/paths.js';

const env = { ...process.env };
delete env.HIPPO_DB;
const hippo = (...args) => {
  const { status, signal } = spawnSync(process.execPath, ['bin/run.js', ...args], { stdio: 'inherit', env });
  if (status !== 0) process.exit(status ?? (signal ? 130 : 1));
};

hippo('demo');
hippo('search', 'deploy failed', '--db', demoDbPath(env), '--agent', 'ops-agent', '--limit', '5');
