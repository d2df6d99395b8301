// The terminal-agent level's mocha settings; its files run in the order of the run's seed
// (scripts/lib/testOrder.cjs: AGENT_PLAN_TEST_SEED replays an order).
'use strict';
const path = require('node:path');
const { filesInOrder, testSeed } = require('../../scripts/lib/testOrder.cjs');

module.exports = {
  spec: filesInOrder(path.join(__dirname, '..', '..'), 'test/terminal-agents', '.agents.test.mjs', testSeed()),
  timeout: 300000,
  reporter: 'spec',
  'forbid-only': true,
  'forbid-pending': true,
};
