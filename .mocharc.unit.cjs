// The unit level's mocha settings: test/unit/ and each agent's test twin (test/agents/<agent>/);
// its files run in the order of the run's seed (scripts/lib/testOrder.cjs: AGENT_PLAN_TEST_SEED
// replays an order).
'use strict';
const { filesInOrder, testSeed } = require('./scripts/lib/testOrder.cjs');

module.exports = {
  require: ['tsx/cjs'],
  extension: ['ts'],
  spec: filesInOrder(__dirname, ['test/unit', 'test/agents'], '.unit.test.ts', testSeed()),
  timeout: 20000,
  // Two workers: the files are independent (any order, any file alone), and the level runs
  // beside the host's install, one compiler at a time, or alone on two cores.
  parallel: true,
  jobs: 2,
  reporter: 'spec',
  'forbid-only': true,
  'forbid-pending': true,
};
