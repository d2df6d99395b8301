// `npm test`: installs what is missing, builds, runs the unit tests and the
// reliability suite and the real terminal agents in plain Node, and the integration tests inside a real VS Code
// extension host, and ends with one line that adds them up: `N passed, N failed`.
// Only Node built-ins here: this runs before the npm dependencies exist.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { cleanEnv, ensureDependencies, repoRoot, runNode } from './lib/setup.mjs';
import testOrder from './lib/testOrder.cjs';
import cpu from './lib/cpuTimes.cjs';
import { hostCompleteMarker, hostNodeMarker } from './lib/host.mjs';

const cpuAtStart = cpu.cpuTimes();

ensureDependencies();
// One seed orders every level's files (each level's mocha configuration reads it from the environment).
const seed = testOrder.testSeed();
console.log(`test order seed: ${seed} (replay with AGENT_PLAN_TEST_SEED=${seed})`);
const started = Date.now();

/** The file a level's CPU seconds are written to (scripts/lib/withCpu.mjs runs it). */
const cpuFile = (name) => path.join(tmp, `${name.replace(/\W+/g, '-')}.cpu`);

function step(name, args, env = {}) {
  process.stdout.write(`\n== ${name}\n`);
  return runNode(['scripts/lib/withCpu.mjs', ...args], { env: { ...env, AGENT_PLAN_CPU_FILE: cpuFile(name) } });
}

function counts(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

let ok = true;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-plan-test-'));
let passed = 0;
let failed = 0;

/**
 * Runs a Node script of this checkout without blocking this one: the installs beside the build
 * and the plain-Node levels (they wait mostly on the registry and on the host's native build), the
 * integration tests, and the chain of levels beside them. Its output goes to a file, printed as one
 * block under its name when reported, or with `inherit` straight to this run's output.
 */
function launch(name, args, env = {}, { inherit = false } = {}) {
  const output = inherit ? undefined : path.join(tmp, `${name.replace(/\W+/g, '-')}.log`);
  const fd = output === undefined ? undefined : fs.openSync(output, 'w');
  const child = spawn(process.execPath, ['scripts/lib/withCpu.mjs', ...args], { cwd: repoRoot, stdio: fd === undefined ? 'inherit' : ['ignore', fd, fd], env: cleanEnv({ ...env, AGENT_PLAN_CPU_FILE: cpuFile(name) }) });
  if (fd !== undefined) fs.closeSync(fd);
  const started = Date.now();
  let ms = 0;
  const ended = new Promise((resolve) => {
    const end = (passed) => {
      // Its output's last write: the exit event waits while a level runs in the foreground.
      const last = output === undefined ? Date.now() : (fs.statSync(output, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      ms = Math.max(0, last - started);
      resolve(passed);
    };
    child.once('error', () => end(false));
    child.once('exit', (code) => end(code === 0));
  });
  return {
    ended,
    stop: () => child.kill(),
    /** Its wall time once ended. */
    ms: () => ms,
    /** Waits for the end and prints the output under its name. */
    async report() {
      const passed = await ended;
      if (output !== undefined) process.stdout.write(`\n== ${name}\n${fs.readFileSync(output, 'utf8')}`);
      return passed;
    },
  };
}

// The installs start first. The host's Node (node:sqlite) serves the unit and reliability levels
// too: the unit level starts once it is unpacked (host.mjs writes hostNodeMarker), while its native
// modules still build beside it; the reliability suite's quiet part once the host is installed. Without it those tests say SKIPPED and the integration level fails; the other levels still run.
const hostInstall = launch('VS Code host', ['scripts/lib/install-host.mjs']);
const agentsInstall = launch('terminal agents, installed', ['scripts/agents/install.mjs']);
const built = step('build', ['scripts/build.mjs']) && step('type check', ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.']) && step('type check of core alone (no vscode types, nothing of the agents)', ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.core.json']) && step('lint', ['node_modules/eslint/bin/eslint.js', 'src']);
if (!built) {
  hostInstall.stop();
  agentsInstall.stop();
  console.log('0 passed, 1 failed');
  process.exit(1);
}

/** Resolves once the host's Node is unpacked (or the install has ended, however it ended). */
async function hostNodeReady() {
  let done = false;
  hostInstall.ended.then(() => (done = true));
  while (!done && !fs.existsSync(hostNodeMarker) && !fs.existsSync(hostCompleteMarker)) await new Promise((resolve) => setTimeout(resolve, 250));
}

const slow = [];
const levels = [];

/** A level's wall time, and its CPU time where it was measured: "52 s (CPU 81 s)". */
function timeText(name, ms) {
  const cpuSeconds = Number(fs.existsSync(cpuFile(name)) ? fs.readFileSync(cpuFile(name), 'utf8') : NaN);
  return `${Math.round(ms / 1000)} s${Number.isFinite(cpuSeconds) ? ` (CPU ${Math.round(cpuSeconds)} s)` : ''}`;
}

/** One level's result: its counts and slow tests added to the run's, its time to `levels`. */
function account(name, file, stepOk, ms) {
  levels.push(`${name}: ${timeText(name, ms)}`);
  const result = counts(file);
  if (result) {
    passed += result.passed;
    failed += result.failed;
    for (const test of result.tests ?? []) slow.push({ ...test, level: name.split(' ')[0] });
  }
  if (!stepOk && (!result || result.failed === 0)) failed += 1; // a run that died without reporting a failure
  ok = ok && stepOk;
}

const RELIABILITY_QUIET = 'reliability suite, its quiet part (plain Node)';
const RELIABILITY_BESIDE = 'reliability suite, the rest (plain Node, beside the integration tests)';
let hostWaited = false;
for (const [name, args] of [
  // Checks of what the build made: the bundles and the package.
  ['build checks (plain Node)', ['node_modules/mocha/bin/mocha.js', '--config', '.mocharc.build.cjs', '--reporter', 'scripts/lib/counting-reporter.cjs']],
  ['unit tests (plain Node)', ['node_modules/mocha/bin/mocha.js', '--config', '.mocharc.unit.cjs', '--reporter', 'scripts/lib/counting-reporter.cjs']],
  [RELIABILITY_QUIET, ['scripts/reliability.mjs']],
]) {
  if (!hostWaited && name !== 'build checks (plain Node)') {
    await hostNodeReady();
    hostWaited = true;
  }
  // Its quiet part bounds the event loop's gaps: the host's native build ends first.
  if (name === RELIABILITY_QUIET) await hostInstall.ended;
  const file = path.join(tmp, `${name.split(' ')[0]}.json`);
  const levelStarted = Date.now();
  const stepOk = step(name, args, { AGENT_PLAN_COUNTS: file, ...(name === RELIABILITY_QUIET ? { AGENT_PLAN_RELIABILITY_PART: 'quiet' } : {}) });
  account(name, file, stepOk, Date.now() - levelStarted);
}

// Both installs end before the levels that run the host and the agents.
for (const [index, [name, install]] of [['VS Code host install (beside the build and the plain-Node levels)', hostInstall], ['terminal agents install (beside them too)', agentsInstall]].entries()) {
  const installed = await install.report();
  levels.splice(index, 0, `${name}: ${timeText(index === 0 ? 'VS Code host' : 'terminal agents, installed', install.ms())}`);
  if (!installed) {
    ok = false;
    failed += 1;
  }
}

// The VS Code host and the real terminal agents both spend much of their time waiting on real
// programs' clocks (a prompt drawn, an answer typed, a process ending, a chat's turn), so the
// integration tests run beside one chain in the background: the rest of the reliability suite
// (fuzzing, crashes, several windows: the integration tests' load is the other work its races
// need), then the terminal agents. The chain's output is printed as one block per level when the
// integration tests end. One extension host still runs at a time.
const TERMINAL = 'terminal agents (real CLIs, plain Node, beside the integration tests)';

const besideCounts = path.join(tmp, 'reliability-beside.json');
const terminalCounts = path.join(tmp, 'terminal.json');
const chain = (async () => {
  const reliability = launch(RELIABILITY_BESIDE, ['scripts/reliability.mjs'], { AGENT_PLAN_COUNTS: besideCounts, AGENT_PLAN_RELIABILITY_PART: 'beside' });
  await reliability.ended;
  const terminal = launch(TERMINAL, ['node_modules/mocha/bin/mocha.js', '--config', 'test/terminal-agents/mocharc.cjs', '--reporter', 'scripts/lib/counting-reporter.cjs'], { AGENT_PLAN_COUNTS: terminalCounts });
  await terminal.ended;
  return [[RELIABILITY_BESIDE, reliability, besideCounts], [TERMINAL, terminal, terminalCounts]];
})();

{
  const name = 'integration tests (VS Code extension host)';
  const file = path.join(tmp, 'integration.json');
  process.stdout.write(`\n== ${name}\n`);
  const integration = launch(name, ['scripts/integration.mjs'], { AGENT_PLAN_COUNTS: file }, { inherit: true });
  account(name, file, await integration.ended, integration.ms());
}
for (const [name, run, file] of await chain) account(name, file, await run.report(), run.ms());
fs.rmSync(tmp, { recursive: true, force: true });
// How busy the cores were: near 100 % says the run waits on CPU, not on the programs' clocks.
const busy = cpu.busyPercent(cpuAtStart, cpu.cpuTimes());
console.log(`\n== where the time went (${Math.round((Date.now() - started) / 1000)} s in all${busy === undefined ? '' : `, the ${os.availableParallelism()} cores ${busy} % busy`}, test order seed ${seed})`);
for (const line of levels) console.log(`  ${line}`);
console.log('  the ten slowest tests:');
for (const test of slow.sort((a, b) => b.ms - a.ms).slice(0, 10)) console.log(`  ${String(Math.round(test.ms)).padStart(7)} ms  ${test.level}  ${test.file ? `${test.file}: ` : ''}${test.title}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
