// Mocha's spec reporter, plus the pass/fail counts and each test's duration written to the
// file named by AGENT_PLAN_COUNTS, so the test launcher can add the levels up and name the
// slowest tests of the run.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const tests = [];
    const seen = (test) => tests.push({ title: test.fullTitle(), file: test.file ? path.relative(process.cwd(), test.file) : undefined, ms: test.duration ?? 0 });
    runner.on(Mocha.Runner.constants.EVENT_TEST_PASS, seen);
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, seen);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.AGENT_PLAN_COUNTS;
      if (file) {
        fs.writeFileSync(file, JSON.stringify({ passed: this.stats.passes, failed: this.stats.failures, tests }) + '\n');
      }
    });
  }
}

module.exports = CountingReporter;
