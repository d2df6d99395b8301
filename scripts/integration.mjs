// Runs the integration suite inside a real VS Code extension host, offline:
// code-server (VS Code 1.139) on Node 24, driven by Debian's headless chromium.
// This script owns the whole life of the run: it starts every process in its own
// process group and kills the groups on every exit path (pass, fail, timeout,
// signal). Phases: `main` runs test/integration/*.test.ts; `restart` starts a new
// server over the same user-data folder and workspace and runs
// test/integration/restart/*.test.ts, to see what survives a restart.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  copyWorkspace,
  ensureHost,
  installExtension,
  packageExtension,
  killGroup,
  launchBrowser,
  linkExtensions,
  log,
  makeRunDir,
  pruneRuns,
  repoRoot,
  startCodeServer,
  workbenchUrl,
  cleanupStack,
} from './lib/host.mjs';
import { serveBridge } from './lib/bridge.mjs';
import { startScriptedAgent } from '../test/agent/launch.mjs';

// AGENT_PLAN_TEST_GREP runs only the matching tests of the first phase, for quick iteration.
const GREP = process.env.AGENT_PLAN_TEST_GREP;
// AGENT_PLAN_PHASES picks other phases (the screenshot script runs `screenshot`);
// AGENT_PLAN_LOCALE starts VS Code in another display language (e.g. zh-cn).
const PHASES = process.env.AGENT_PLAN_PHASES?.split(',') ?? (GREP ? ['main'] : ['main', 'restart']);
const LOCALE = process.env.AGENT_PLAN_LOCALE;
const PHASE_TIMEOUT_MS = Number(process.env.AGENT_PLAN_PHASE_TIMEOUT_MS ?? 10 * 60_000);

const cleanups = cleanupStack();
const cleanup = cleanups.run;

/** Prints new lines of a growing file as they arrive. */
function tail(file, print) {
  let offset = 0;
  const timer = setInterval(() => flush(), 250);
  function flush() {
    if (!fs.existsSync(file)) return;
    const size = fs.statSync(file).size;
    if (size <= offset) return;
    const fd = fs.openSync(file, 'r');
    const buffer = Buffer.alloc(size - offset);
    fs.readSync(fd, buffer, 0, buffer.length, offset);
    fs.closeSync(fd);
    offset = size;
    print(buffer.toString('utf8'));
  }
  return () => {
    clearInterval(timer);
    flush();
  };
}

async function runPhase({ port, runDir, phase, workspace, devExtensions, userDataDir, extensionsDir, browser }) {
  fs.writeFileSync(path.join(runDir, 'phase.txt'), phase + '\n');
  if (GREP) fs.writeFileSync(path.join(runDir, 'grep.txt'), GREP);
  const server = await startCodeServer({ name: `code-server-${phase}`, port, runDir, userDataDir, extensionsDir, locale: LOCALE });
  const stopServer = cleanups.push(() => killGroup(server.pid));
  log(`phase ${phase}: VS Code host on ${server.url}`);

  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
  const closeContext = cleanups.push(() => context.close().catch(() => {}));
  const page = await context.newPage();
  let exitCode;
  const exited = new Promise((resolve) => {
    void page.exposeFunction('codeAutomationExit', (code, logFiles) => {
      exitCode = code;
      for (const file of logFiles ?? []) {
        if (file && typeof file.relativePath === 'string' && file.contents) {
          const target = path.join(runDir, 'logs', `workbench-${phase}`, file.relativePath.replace(/\.\.+/g, '_'));
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.writeFileSync(target, Buffer.from(file.contents));
        }
      }
      resolve();
    });
  });
  await page.exposeFunction('codeAutomationLog', (level, args) => {
    fs.appendFileSync(path.join(runDir, 'logs', `workbench-${phase}.log`), `[${level}] ${JSON.stringify(args)}\n`);
  });
  const stopBridge = cleanups.push(serveBridge(path.join(runDir, 'bridge'), page));

  const stopTail = tail(path.join(runDir, 'logs', `mocha-${phase}.log`), (text) => process.stdout.write(text));
  const url = workbenchUrl({
    port: server.port,
    folder: workspace,
    extensionDevelopmentPath: devExtensions,
    extensionTestsPath: path.join(repoRoot, 'out', 'test', 'integration', 'index.js'),
  });
  await page.goto(url);
  let timer;
  const timedOut = new Promise((resolve) => {
    timer = setTimeout(() => resolve('timeout'), PHASE_TIMEOUT_MS);
  });
  const outcome = await Promise.race([exited.then(() => 'exited'), timedOut]);
  clearTimeout(timer);
  stopTail();
  await stopBridge();
  await closeContext();
  await stopServer();

  const resultsFile = path.join(runDir, `results-${phase}.json`);
  if (outcome === 'timeout') {
    log(`phase ${phase}: timed out after ${PHASE_TIMEOUT_MS / 1000} s`);
  }
  if (!fs.existsSync(resultsFile)) {
    log(`phase ${phase}: no results file (workbench exit code ${exitCode ?? 'none'}); logs in ${runDir}`);
    return { passed: 0, failed: 1, missing: true, port: server.port };
  }
  const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
  return { passed: results.passed, failed: results.failed, port: server.port };
}

async function main() {
  await ensureHost({ cjkFont: LOCALE?.startsWith('zh') ?? false });
  pruneRuns('integration', 3);
  const runDir = makeRunDir('integration');
  const workspace = copyWorkspace(runDir, path.join(repoRoot, 'test', 'fixtures', 'workspace'));
  const devExtensions = linkExtensions(runDir, {
    'agent-plan': repoRoot,
    'agent-plan-fixture': path.join(repoRoot, 'test', 'fixtures', 'extension'),
    'agent-plan-demo': path.join(repoRoot, 'demo', 'extension'),
  });
  const userDataDir = path.join(runDir, 'user-data');
  const extensionsDir = path.join(runDir, 'extensions');
  if (LOCALE) {
    // VS Code resolves a display language only when a language pack declares it.
    const pack = path.join(repoRoot, 'test', 'fixtures', `language-pack-${LOCALE}`);
    if (fs.existsSync(pack)) {
      const vsix = packageExtension(pack, path.join(runDir, `language-pack-${LOCALE}.vsix`));
      installExtension({ runDir, userDataDir, extensionsDir, vsix });
      // The server reads its language-pack index at page load but writes it only
      // when the language is picked in the UI, so the launcher writes it here.
      const manifest = JSON.parse(fs.readFileSync(path.join(pack, 'package.json'), 'utf8'));
      const id = `${manifest.publisher}.${manifest.name}`;
      const installed = path.join(extensionsDir, `${id}-${manifest.version}`);
      const localization = manifest.contributes.localizations[0];
      fs.writeFileSync(
        path.join(userDataDir, 'languagepacks.json'),
        JSON.stringify({
          [LOCALE]: {
            hash: `${manifest.version}-${Date.now()}`,
            extensions: [{ extensionIdentifier: { id }, version: manifest.version }],
            translations: { vscode: path.join(installed, localization.translations[0].path) },
            label: localization.localizedLanguageName,
          },
        }),
      );
    }
  }
  // The real Copilot agent talks to a scripted model on 127.0.0.1 for the whole run.
  const agent = await startScriptedAgent({ runDir, userDataDir, script: path.join(repoRoot, 'test', 'agent', 'scripts', 'integration.json'), log });
  cleanups.push(() => agent.close());
  const browser = await launchBrowser(runDir, { locale: LOCALE });
  cleanups.push(() => browser.close());

  let passed = 0;
  let failed = 0;
  // The restart phase reuses the first server's port: a remote window's workspace
  // storage is keyed by its URI, authority included, as it is for a real user.
  let port = 0;
  for (const phase of PHASES) {
    const result = await runPhase({ port, runDir, phase, workspace, devExtensions, userDataDir, extensionsDir, browser });
    passed += result.passed;
    failed += result.failed;
    port = result.port;
  }
  await cleanup();
  fs.writeFileSync(path.join(runDir, 'summary.json'), JSON.stringify({ passed, failed }) + '\n');
  if (failed === 0) {
    fs.rmSync(path.join(runDir, 'user-data'), { recursive: true, force: true });
  } else {
    log(`run folder kept with its logs: ${runDir}`);
  }
  const countsFile = process.env.AGENT_PLAN_COUNTS;
  if (countsFile) fs.writeFileSync(countsFile, JSON.stringify({ passed, failed }) + '\n');
  console.log(`integration: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  async (error) => {
    log(error?.stack ?? String(error));
    await cleanup();
    process.exit(1);
  },
);
