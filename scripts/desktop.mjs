// `npm run test:desktop`: the same integration suite under desktop VS Code, for
// machines with internet access (@vscode/test-electron downloads VS Code). The
// DOM bridge attaches to the Electron renderer over the Chrome DevTools Protocol.
// This launcher cannot run on an offline machine; `npm test` uses the offline one.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from './lib/setup.mjs';
import { serveBridge } from './lib/bridge.mjs';
import testOrder from './lib/testOrder.cjs';

const VSCODE_VERSION = process.env.AGENT_PLAN_VSCODE_VERSION ?? '1.139.1';

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function attachBridge(port, dir) {
  const { chromium } = await import('playwright-core');
  for (let attempt = 0; attempt < 120; attempt++) {
    try {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
      const page = browser.contexts().flatMap((c) => c.pages()).find((p) => p.url().includes('workbench'));
      if (page) return serveBridge(dir, page);
      await browser.close();
    } catch {
      // the window is not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('could not attach to the VS Code window over CDP');
}

async function runPhase(phase, runDir, workspace, userDataDir) {
  const { runTests } = await import('@vscode/test-electron');
  fs.writeFileSync(path.join(runDir, 'phase.txt'), phase + '\n');
  // The main phase's files run in the order of the run's seed (test/integration/order.ts).
  fs.writeFileSync(path.join(runDir, 'seed.txt'), `${testOrder.testSeed()}\n`);
  const port = await freePort();
  const bridge = attachBridge(port, path.join(runDir, 'bridge'));
  try {
    await runTests({
      version: VSCODE_VERSION,
      extensionDevelopmentPath: [repoRoot, path.join(repoRoot, 'test', 'fixtures', 'extension'), path.join(repoRoot, 'demo', 'extension')],
      extensionTestsPath: path.join(repoRoot, 'out', 'test', 'integration', 'index.js'),
      launchArgs: [workspace, '--user-data-dir', userDataDir, '--disable-extensions', '--disable-workspace-trust', `--remote-debugging-port=${port}`],
    });
  } catch {
    // the results file says what failed
  }
  (await bridge.catch(() => () => {}))();
  const results = path.join(runDir, `results-${phase}.json`);
  return fs.existsSync(results) ? JSON.parse(fs.readFileSync(results, 'utf8')) : { passed: 0, failed: 1 };
}

const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-plan-desktop-'));
fs.mkdirSync(path.join(runDir, 'logs'), { recursive: true });
const workspace = path.join(runDir, 'workspace');
fs.cpSync(path.join(repoRoot, 'test', 'fixtures', 'workspace'), workspace, { recursive: true });
const userDataDir = path.join(runDir, 'user-data');
let passed = 0;
let failed = 0;
for (const phase of ['main', 'restart']) {
  const result = await runPhase(phase, runDir, workspace, userDataDir);
  const log = path.join(runDir, 'logs', `mocha-${phase}.log`);
  if (fs.existsSync(log)) process.stdout.write(fs.readFileSync(log, 'utf8'));
  passed += result.passed;
  failed += result.failed;
}
console.log(`desktop: ${passed} passed, ${failed} failed (run folder ${runDir})`);
process.exit(failed === 0 ? 0 : 1);
