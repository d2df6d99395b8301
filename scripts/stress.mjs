// `npm run test:stress`: finds flakes instead of waiting for them. Runs the integration level
// three times, each with a seed of its own, while two busy-loop processes keep both cores
// busy, and reports each failure with the seed that replays it
// (`AGENT_PLAN_TEST_SEED=<seed> npm run test:integration`). Build first (`npm run build`).
// AGENT_PLAN_STRESS_RUNS changes the number of runs; extra arguments are seeds to use.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cleanEnv, runNode } from './lib/setup.mjs';

const runs = Number(process.env.AGENT_PLAN_STRESS_RUNS ?? 3);
const given = process.argv.slice(2);
const seeds = Array.from({ length: runs }, (_, i) => given[i] ?? String(Math.floor(Math.random() * 2 ** 32)));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-plan-stress-'));

/** Two processes that spin until they are ended: the load a busy CI machine puts on the host. */
function busyLoops() {
  return [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

const report = [];
let failures = 0;
for (const [i, seed] of seeds.entries()) {
  const countsFile = path.join(tmp, `run-${i + 1}.json`);
  const loops = busyLoops();
  const started = Date.now();
  let ok;
  try {
    console.log(`\n== stress run ${i + 1} of ${seeds.length}: test order seed ${seed}, two busy loops`);
    ok = runNode(['scripts/integration.mjs'], { env: cleanEnv({ AGENT_PLAN_TEST_SEED: seed, AGENT_PLAN_COUNTS: countsFile }) });
  } finally {
    for (const loop of loops) loop.kill('SIGKILL');
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  let counts;
  try {
    counts = JSON.parse(fs.readFileSync(countsFile, 'utf8'));
  } catch {
    counts = { passed: 0, failed: 1, tests: [{ title: 'the integration run reported nothing', state: 'failed' }] };
  }
  const failed = (counts.tests ?? []).filter((test) => test.state === 'failed');
  if (!ok && counts.failed === 0) failed.push({ title: 'the integration run failed without a failing test', state: 'failed' });
  failures += failed.length;
  report.push(`  seed ${seed}: ${counts.passed} passed, ${failed.length} failed, ${seconds} s`);
  for (const test of failed) report.push(`    failed (seed ${seed}): ${test.file ? `${test.file}: ` : ''}${test.title}${test.error ? `\n      ${String(test.error).split('\n')[0]}` : ''}`);
}
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`\n== stress: ${seeds.length} integration runs under two busy loops`);
for (const line of report) console.log(line);
console.log(failures === 0 ? 'stress: no failure' : `stress: ${failures} failure(s); replay one with AGENT_PLAN_TEST_SEED=<seed> npm run test:integration`);
process.exit(failures === 0 ? 0 : 1);
