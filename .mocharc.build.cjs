// The build level's mocha settings: checks of what `scripts/build.mjs` made (the bundles, the
// package); its files run in the order of the run's seed (scripts/lib/testOrder.cjs).
'use strict';
const { filesInOrder, testSeed } = require('./scripts/lib/testOrder.cjs');

module.exports = {
  require: ['tsx/cjs'],
  extension: ['ts'],
  spec: filesInOrder(__dirname, 'test/build', '.build.test.ts', testSeed()),
  timeout: 120000,
  reporter: 'spec',
  'forbid-only': true,
  'forbid-pending': true,
};
