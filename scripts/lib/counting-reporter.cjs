// Mocha's spec reporter, plus the pass/fail counts written to the file named by
// AGENT_PLAN_COUNTS, so the test launcher can add both test levels up.
'use strict';
const fs = require('node:fs');
const Mocha = require('mocha');

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.AGENT_PLAN_COUNTS;
      if (file) {
        fs.writeFileSync(file, JSON.stringify({ passed: this.stats.passes, failed: this.stats.failures }) + '\n');
      }
    });
  }
}

module.exports = CountingReporter;
