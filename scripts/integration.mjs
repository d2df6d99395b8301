// Runs the integration suite inside a real VS Code extension host, offline:
// code-server (VS Code 1.139) on Node 24, driven by Debian's headless chromium,
// through the workbench runner (scripts/lib/workbench.mjs), which stops every
// process it starts on every exit path. Phases: `main` runs
// test/integration/*.test.ts; `restart` starts a new server over the same user-data
// folder and workspace and runs test/integration/restart/*.test.ts, to see what
// survives a restart; `restricted` starts one with workspace trust on and the folder not
// trusted (Restricted Mode) and runs test/integration/restricted/*.test.ts;
// `screenshot` (scripts/screenshot.mjs) takes the README's pictures.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cleanupStack, isolatedEnv, log, repoRoot } from './lib/host.mjs';
import { openWorkbench } from './lib/workbench.mjs';
import testOrder from './lib/testOrder.cjs';
import { agentsForWorkbench } from './agents/forWorkbench.mjs';
import { scriptedAgentService } from '../test/scripted-model/service.mjs';
import { demoAgentScript, demoDarkModeTurn } from '../demo/agentScript.mjs';

// AGENT_PLAN_TEST_GREP runs only the matching tests of the first phase, for quick iteration.
const GREP = process.env.AGENT_PLAN_TEST_GREP;
// AGENT_PLAN_TEST_FILE runs only the named files of the main phase (`worktrees`, or several,
// comma-separated): each file passes alone, as in any order (test/integration/order.ts).
const FILE = process.env.AGENT_PLAN_TEST_FILE;
// The main phase's files run in the order of this seed (AGENT_PLAN_TEST_SEED replays one).
const SEED = testOrder.testSeed();
// AGENT_PLAN_PHASES picks other phases; AGENT_PLAN_LOCALE starts VS Code in another display language (e.g. zh-cn).
const PHASES = process.env.AGENT_PLAN_PHASES?.split(',') ?? (GREP || FILE ? ['main'] : ['main', 'restart', 'restricted']);
const LOCALE = process.env.AGENT_PLAN_LOCALE;
const PHASE_TIMEOUT_MS = Number(process.env.AGENT_PLAN_PHASE_TIMEOUT_MS ?? 25 * 60_000); // a bound for a hung host; a loaded 2-core machine needs well over 10 minutes for the main phase

const cleanups = cleanupStack();

/** The tests' script, and the demo's dark mode turn with its real edits (test/integration/copilot-files.test.ts). */
function integrationScript() {
  const script = JSON.parse(fs.readFileSync(path.join(repoRoot, 'test', 'scripted-model', 'scripts', 'integration.json'), 'utf8'));
  return { ...script, turns: [...script.turns, demoDarkModeTurn({ stepDelayMs: 100, match: '[ap:demo-edits]' })] };
}

/** Sets one user setting in the user data's settings.json (plain JSON: VS Code writes it so). */
function userSetting(userDataDir, key, value) {
  const file = path.join(userDataDir, 'User', 'settings.json');
  let settings = {};
  try {
    settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    // None yet (or not plain JSON): start from an empty one.
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ ...settings, [key]: value }, null, 2) + '\n');
}

/**
 * The headless browser draws every frame in software: settings that stop the workbench's idle
 * animations (a blinking cursor, moving progress bars, the terminal's WebGL canvas).
 */
const QUIET_SCREEN = { 'workbench.reduceMotion': 'on', 'editor.cursorBlinking': 'solid', 'terminal.integrated.gpuAcceleration': 'off' };

async function main() {
  const workbench = await openWorkbench({
    kind: 'integration',
    cleanups,
    locale: LOCALE,
    cjkFont: LOCALE?.startsWith('zh') ?? false,
    workspace: { from: path.join(repoRoot, 'test', 'fixtures', 'workspace') },
    userFiles: { 'User/settings.json': QUIET_SCREEN },
    extensions: {
      'agent-plan': repoRoot,
      'agent-plan-fixture': path.join(repoRoot, 'test', 'fixtures', 'extension'),
      'agent-plan-demo': path.join(repoRoot, 'demo', 'extension'),
    },
    // The real Copilot agent talks to a scripted model on 127.0.0.1 for the whole run.
    // The pictures show the demo's plan played by the real Copilot agent, as `npm start` does.
    services: [scriptedAgentService({ script: PHASES.includes('screenshot') ? demoAgentScript({ stepDelayMs: 1500 }) : integrationScript() })],
  });
  const { runDir } = workbench;
  // Claude Code, Codex and Gemini CLI, run for real by the tests that ask for them.
  const agentOps = await agentsForWorkbench(workbench, log);
  if (GREP) fs.writeFileSync(path.join(runDir, 'grep.txt'), GREP);
  if (FILE) fs.writeFileSync(path.join(runDir, 'file.txt'), FILE);
  // The extension host reads the seed from the run folder, as it reads the grep.
  fs.writeFileSync(path.join(runDir, 'seed.txt'), `${SEED}\n`);
  log(`integration order seed: ${SEED} (replay with AGENT_PLAN_TEST_SEED=${SEED})`);
  let passed = 0;
  let failed = 0;
  /** Each test's duration, for the run's list of the slowest. */
  const tests = [];
  // The restart phase reuses the first server's port: a remote window's workspace
  // storage is keyed by its URI, authority included, as it is for a real user.
  let port = 0;
  for (const phase of PHASES) {
    fs.writeFileSync(path.join(runDir, 'phase.txt'), phase + '\n');
    const restricted = phase === 'restricted';
    // Restricted Mode without the trust prompt, as a user who opens a folder without trusting it.
    if (restricted) userSetting(workbench.userDataDir, 'security.workspace.trust.startupPrompt', 'never');
    // While no window runs: plans written through the extension's MCP server, for the restart phase to find once each.
    if (phase === 'restart') writeWhileClosed(runDir, workbench.workspace);
    const server = await workbench.startServer({ name: `code-server-${phase}`, port, workspaceTrust: restricted });
    port = server.port;
    log(`phase ${phase}: VS Code host on ${server.url}`);
    const { outcome, exitCode } = await workbench.runTests({
      phase,
      testsPath: path.join(repoRoot, 'out', 'test', 'integration', 'index.js'),
      timeoutMs: PHASE_TIMEOUT_MS,
      bridge: agentOps,
      tailFile: path.join(runDir, 'logs', `mocha-${phase}.log`),
    });
    await workbench.stopServer();
    if (outcome === 'timeout') log(`phase ${phase}: timed out after ${PHASE_TIMEOUT_MS / 1000} s`);
    const resultsFile = path.join(runDir, `results-${phase}.json`);
    if (!fs.existsSync(resultsFile)) {
      log(`phase ${phase}: no results file (workbench exit code ${exitCode ?? 'none'}); logs in ${runDir}`);
      failed += 1;
      continue;
    }
    const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
    passed += results.passed;
    failed += results.failed;
    for (const test of results.tests ?? []) tests.push({ title: test.title, file: test.file, ms: test.durationMs, phase, state: test.state, error: test.error });
  }
  await cleanups.run();
  fs.writeFileSync(path.join(runDir, 'summary.json'), JSON.stringify({ passed, failed }) + '\n');
  if (failed === 0) fs.rmSync(workbench.userDataDir, { recursive: true, force: true });
  else log(`run folder kept with its logs: ${runDir}`);
  const countsFile = process.env.AGENT_PLAN_COUNTS;
  if (countsFile) fs.writeFileSync(countsFile, JSON.stringify({ passed, failed, tests }) + '\n');
  console.log(`integration: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

/**
 * A made-up MCP client writes two plans through dist/mcp.js with the host's environment (its
 * inbox) while no host runs; test/integration/restart/persist.test.ts checks them. Its result
 * file says what was written, or why nothing was.
 */
function writeWhileClosed(runDir, workspace) {
  const out = path.join(runDir, 'mcp-while-closed.json');
  const run = spawnSync(process.execPath, [path.join(repoRoot, 'test', 'integration', 'restart', 'writeWhileClosed.mjs'), path.join(repoRoot, 'dist', 'mcp.js'), workspace, out], {
    cwd: repoRoot,
    env: isolatedEnv(runDir),
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (run.status !== 0) {
    log(`the MCP client run while no window was open failed (${run.status ?? run.signal}): ${(run.stderr ?? '').slice(-500)}`);
    fs.writeFileSync(out, JSON.stringify({ failed: `exit ${run.status ?? run.signal}: ${(run.stderr ?? '').slice(-500)}` }) + '\n');
  }
}

main().then(
  (code) => process.exit(code),
  async (error) => {
    log(error?.stack ?? String(error));
    await cleanups.run();
    process.exit(1);
  },
);
