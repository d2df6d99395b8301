// The reliability level's mocha settings; its files run in the order of the run's seed
// (scripts/lib/testOrder.cjs: AGENT_PLAN_TEST_SEED replays an order).
//
// AGENT_PLAN_RELIABILITY_PART picks a part of the level (all of it when unset):
// - `quiet`: the files that bound the event loop's gaps or a watcher's latency. They need a
//   machine with nothing else going, so `npm test` runs them before the levels that load it.
// - `beside`: the others (fuzzing, crashes, concurrent writers, disk faults, keys, corrupted logs,
//   scale, several windows). `npm test` runs them beside the integration tests, whose load stands
//   in for the busy loops the several-window races start when run alone.
'use strict';
const { filesInOrder, testSeed } = require('./scripts/lib/testOrder.cjs');

const QUIET = ['watcher', 'copilot-cli-sql', 'hostile-files', 'hostile-lock', 'hostile-sqlite', 'hostile-text'].map((name) => `test/reliability/${name}.reliability.test.ts`);
const part = process.env.AGENT_PLAN_RELIABILITY_PART;
if (part !== undefined && part !== 'quiet' && part !== 'beside') throw new Error(`AGENT_PLAN_RELIABILITY_PART is quiet or beside, not ${part}`);
const files = filesInOrder(__dirname, 'test/reliability', '.reliability.test.ts', testSeed());
for (const file of QUIET) if (!files.includes(file)) throw new Error(`${file}, named in .mocharc.reliability.cjs, is not there`);

module.exports = {
  require: ['tsx/cjs'],
  extension: ['ts'],
  spec: part === undefined ? files : files.filter((file) => QUIET.includes(file) === (part === 'quiet')),
  timeout: 300000,
  reporter: 'spec',
  'forbid-only': true,
  'forbid-pending': true,
};
