// `npm test`: installs what is missing, builds, runs the unit tests and the
// reliability suite and the real terminal agents in plain Node, and the integration tests inside a real VS Code
// extension host, and ends with one line that adds them up: `N passed, N failed`.
// Only Node built-ins here: this runs before the npm dependencies exist.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureDependencies, runNode } from './lib/setup.mjs';

ensureDependencies();

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

for (const [name, args] of [
  ['unit tests (plain Node)', ['node_modules/mocha/bin/mocha.js', '--config', '.mocharc.unit.json', '--reporter', 'scripts/lib/counting-reporter.cjs']],
  ['reliability suite (plain Node)', ['scripts/reliability.mjs']],
  // The pinned Claude Code, Codex and Gemini CLI against scripted models, offline (root only; says so otherwise).
  ['terminal agents (real CLIs, plain Node)', ['node_modules/mocha/bin/mocha.js', '--config', 'test/terminal-agents/mocharc.json', '--reporter', 'scripts/lib/counting-reporter.cjs']],
  ['integration tests (VS Code extension host)', ['scripts/integration.mjs']],
]) {
  const file = path.join(tmp, `${name.split(' ')[0]}.json`);
  const stepOk = step(name, args, { AGENT_PLAN_COUNTS: file });
  const result = counts(file);
  if (result) {
    passed += result.passed;
    failed += result.failed;
  }
  if (!stepOk && (!result || result.failed === 0)) failed += 1; // a run that died without reporting a failure
  ok = ok && stepOk;
}
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
