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

ensureDependencies();
// One seed orders every level's files (each level's mocha configuration reads it from the environment).
const seed = testOrder.testSeed();
console.log(`test order seed: ${seed} (replay with AGENT_PLAN_TEST_SEED=${seed})`);
const started = Date.now();

function step(name, args, env = {}) {
  process.stdout.write(`\n== ${name}\n`);
  return runNode(args, { env });
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
// The VS Code host first: its Node (node:sqlite) serves the unit and agent levels too. Without
// it those tests say SKIPPED and the integration level fails; the other levels still run.
const hostInstalled = step('VS Code host', ['scripts/lib/install-host.mjs']);
if (!hostInstalled) {
  ok = false;
  failed += 1;
}
const built = step('build', ['scripts/build.mjs']) && step('type check', ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.']) && step('type check of core alone (no vscode types, nothing of the agents)', ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.core.json']) && step('lint', ['node_modules/eslint/bin/eslint.js', 'src']);
if (!built) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const slow = [];
const levels = [];

/** One level's result: its counts and slow tests added to the run's, its time to `levels`. */
function account(name, file, stepOk, ms) {
  levels.push(`${name}: ${Math.round(ms / 1000)} s`);
  const result = counts(file);
  if (result) {
    passed += result.passed;
    failed += result.failed;
    for (const test of result.tests ?? []) slow.push({ ...test, level: name.split(' ')[0] });
  }
  if (!stepOk && (!result || result.failed === 0)) failed += 1; // a run that died without reporting a failure
  ok = ok && stepOk;
}

for (const [name, args] of [
  // Checks of what the build made: the bundles and the package.
  ['build checks (plain Node)', ['node_modules/mocha/bin/mocha.js', '--config', '.mocharc.build.cjs', '--reporter', 'scripts/lib/counting-reporter.cjs']],
  ['unit tests (plain Node)', ['node_modules/mocha/bin/mocha.js', '--config', '.mocharc.unit.cjs', '--reporter', 'scripts/lib/counting-reporter.cjs']],
  ['reliability suite (plain Node)', ['scripts/reliability.mjs']],
]) {
  const file = path.join(tmp, `${name.split(' ')[0]}.json`);
  const levelStarted = Date.now();
  const stepOk = step(name, args, { AGENT_PLAN_COUNTS: file });
  account(name, file, stepOk, Date.now() - levelStarted);
}

// The real terminal agents and the VS Code host both spend most of their time waiting on
// real programs' clocks (a prompt drawn, an answer typed, a process ending, a chat's turn),
// so they run side by side, after the plain-Node levels, which keep the cores busy (the
// several-window scenarios load every core on purpose). The agents' output is printed as
// one block when they end. One extension host still runs at a time.
const TERMINAL = 'terminal agents (real CLIs, plain Node, beside the integration tests)';
const terminalCounts = path.join(tmp, 'terminal.json');
const terminalOutput = path.join(tmp, 'terminal.log');
const terminalStarted = Date.now();
const terminalFd = fs.openSync(terminalOutput, 'w');
const terminal = spawn(process.execPath, ['node_modules/mocha/bin/mocha.js', '--config', 'test/terminal-agents/mocharc.cjs', '--reporter', 'scripts/lib/counting-reporter.cjs'], {
  cwd: repoRoot,
  stdio: ['ignore', terminalFd, terminalFd],
  env: cleanEnv({ AGENT_PLAN_COUNTS: terminalCounts }),
});
fs.closeSync(terminalFd);
const terminalEnded = new Promise((resolve) => {
  terminal.on('error', () => resolve(false));
  terminal.on('exit', (code) => resolve(code === 0));
});

{
  const name = 'integration tests (VS Code extension host)';
  const file = path.join(tmp, 'integration.json');
  const levelStarted = Date.now();
  const stepOk = step(name, ['scripts/integration.mjs'], { AGENT_PLAN_COUNTS: file });
  account(name, file, stepOk, Date.now() - levelStarted);
}
// The pinned agents' CLIs against scripted models, offline (root only; says so otherwise).
const terminalOk = await terminalEnded;
process.stdout.write(`\n== ${TERMINAL}\n${fs.readFileSync(terminalOutput, 'utf8')}`);
account(TERMINAL, terminalCounts, terminalOk, Date.now() - terminalStarted);
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`\n== where the time went (${Math.round((Date.now() - started) / 1000)} s in all, test order seed ${seed})`);
for (const line of levels) console.log(`  ${line}`);
console.log('  the ten slowest tests:');
for (const test of slow.sort((a, b) => b.ms - a.ms).slice(0, 10)) console.log(`  ${String(Math.round(test.ms)).padStart(7)} ms  ${test.level}  ${test.file ? `${test.file}: ` : ''}${test.title}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
