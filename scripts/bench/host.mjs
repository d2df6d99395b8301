// The in-host part of the benchmark: starts code-server (VS Code 1.139) and headless
// chromium through the workbench runner the integration tests use, loads a
// snapshot of the production bundle plus the test fixture extension, and runs
// test/bench/host.ts as `extensionTestsPath` once per phase (one page load each, so
// one fresh extension host each). Every process group it starts is killed on every
// exit path: the caller passes a `cleanups` stack and runs it.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { hostNode, log, repoRoot } from '../lib/host.mjs';
import { openWorkbench } from '../lib/workbench.mjs';

/** The files the packaged extension holds (.vscodeignore's allow-list), minus the bundle. */
const EXTENSION_FILES = ['package.json', 'package.nls.json', 'l10n', 'media', 'schemas'];

function snapshotExtension(runDir, bundleFile, name = 'ext-agent-plan') {
  const dir = path.join(runDir, name);
  for (const name of fs.readdirSync(repoRoot)) {
    if (EXTENSION_FILES.includes(name) || /^package\.nls\..+\.json$/.test(name)) {
      fs.cpSync(path.join(repoRoot, name), path.join(dir, name), { recursive: true });
    }
  }
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  fs.copyFileSync(bundleFile, path.join(dir, 'dist', 'extension.js'));
  return dir;
}

/**
 * Finds the unique item's row inside the Plan view (not the chat list, whose request
 * row holds the same text), or a control's (a status-bar item's text, a bare tree view's row), and reports the wall-clock time it entered the DOM, and the
 * next animation frame after that. Runs in the page.
 */
function armObserver({ index, text, where }) {
  const inPlanView = () => {
    if (where === 'statusbar') {
      for (const item of document.querySelectorAll('.part.statusbar .statusbar-item')) {
        if (item.textContent.includes(text)) return true;
      }
      return false;
    }
    if (where === 'bare') {
      // The bare tree view's pane, below Agent Plan's own in the same side bar; its text is unique.
      for (const row of document.querySelectorAll('.part.sidebar .pane .monaco-list-row')) {
        if (row.textContent.includes(text)) return true;
      }
      return false;
    }
    // The Plan view is the first pane of the Agent Plan side bar (found by position, not by
    // its localized title).
    const pane = document.querySelector('.part.sidebar .pane');
    if (!pane) return false;
    for (const row of pane.querySelectorAll('.monaco-list-row')) {
      if (row.textContent.includes(text)) return true;
    }
    return false;
  };
  if (inPlanView()) {
    window.benchSeen(index, { error: 'row already present before the write' });
    return;
  }
  const observer = new MutationObserver(() => {
    if (!inPlanView()) return;
    const dom = Date.now();
    observer.disconnect();
    clearTimeout(timer);
    requestAnimationFrame(() => window.benchSeen(index, { dom, frame: Date.now() }));
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  const timer = setTimeout(() => {
    observer.disconnect();
    const panes = [...document.querySelectorAll('.part.sidebar .pane')].map((pane) => ({
      title: pane.querySelector('.pane-header .title')?.textContent ?? '',
      rows: [...pane.querySelectorAll('.monaco-list-row')].map((row) => row.textContent).slice(0, 4),
    }));
    window.benchSeen(index, { error: `not seen within 10 s`, panes });
  }, 10_000);
}

/** Answers the in-host side's `arm-<i>.json` with an armed observer and, later, `seen-<i>.json`. */
function serveLatency(dir, page) {
  fs.mkdirSync(dir, { recursive: true });
  const handled = new Set();
  let stopped = false;
  const timer = setInterval(() => {
    if (stopped) return;
    for (const name of fs.readdirSync(dir)) {
      const match = /^arm-(\w+)\.json$/.exec(name);
      if (!match || handled.has(match[1])) continue;
      handled.add(match[1]);
      const index = match[1];
      const { text, where } = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
      void page.evaluate(armObserver, { index, text, where }).then(
        () => writeAtomic(path.join(dir, `armed-${index}.json`), '{}'),
        (error) => writeAtomic(path.join(dir, `seen-${index}.json`), JSON.stringify({ error: String(error?.message ?? error) })),
      );
    }
  }, 10);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/** A free loopback port, for the extension host's inspector. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Answers the in-host side's `heap-ready-<phase>.json`: forces garbage collections and reads the
 * heap through the extension host's inspector (scripts/bench/inspectHeap.mjs, on the host's Node,
 * which has a WebSocket client), with a heap snapshot when the phase asks, then writes
 * `heap-done-<phase>.json` for the in-host side to return.
 */
function serveHeap(runDir, phase, port) {
  const dir = path.join(runDir, 'heap');
  fs.mkdirSync(dir, { recursive: true });
  const ready = path.join(dir, `heap-ready-${phase.name}.json`);
  const done = path.join(dir, `heap-done-${phase.name}.json`);
  let child;
  let stopped = false;
  const timer = setInterval(() => {
    if (stopped || child || !fs.existsSync(ready)) return;
    const resultFile = path.join(dir, `inspect-${phase.name}.json`);
    const args = [path.join(repoRoot, 'scripts', 'bench', 'inspectHeap.mjs'), String(port), resultFile];
    if (phase.snapshot) args.push(path.join(dir, `${phase.name}.heapsnapshot`));
    let stderr = '';
    child = spawn(hostNode, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => {
      const result = code === 0 && fs.existsSync(resultFile) ? JSON.parse(fs.readFileSync(resultFile, 'utf8')) : { heapError: `inspector read failed (${code}): ${stderr.slice(-2000)}` };
      delete result.scripts;
      writeAtomic(done, JSON.stringify(result));
    });
  }, 100);
  return () => {
    stopped = true;
    clearInterval(timer);
    if (child && child.exitCode === null) child.kill();
  };
}

function writeAtomic(file, text) {
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
}

/**
 * Runs the phases in one code-server; `between(phase, result, runDir)` runs after each.
 * Returns { runDir, results: { [phase.name]: result } }.
 */
export async function runHostBench({ bundleFile, namedBundleFile, phases, cleanups, between, phaseTimeoutMs = 180_000 }) {
  const workbench = await openWorkbench({
    kind: 'bench',
    keep: 2,
    cleanups,
    workspace: { from: path.join(repoRoot, 'test', 'fixtures', 'workspace') },
    extensions: {
      'agent-plan': (runDir) => snapshotExtension(runDir, bundleFile),
      'agent-plan-fixture': path.join(repoRoot, 'test', 'fixtures', 'extension'),
      // The latency phase's second control; the other phases load without it.
      'agent-plan-bench-tree': path.join(repoRoot, 'test', 'bench', 'bare-tree'),
      // The same extension with its names kept (not minified), for heap snapshots that name what they hold.
      ...(namedBundleFile ? { 'agent-plan-named': (runDir) => snapshotExtension(runDir, namedBundleFile, 'ext-agent-plan-named') } : {}),
    },
  });
  const { runDir } = workbench;
  await esbuild.build({
    entryPoints: [path.join(repoRoot, 'test', 'bench', 'host.ts')],
    outfile: path.join(runDir, 'bench-module', 'host.js'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
  });
  await workbench.startServer();

  const results = {};
  for (const phase of phases) {
    fs.writeFileSync(path.join(runDir, 'bench-phase.json'), JSON.stringify(phase));
    const latencyDir = path.join(runDir, 'latency');
    let shots = 0;
    let page;
    const started = Date.now();
    const port = phase.kind === 'heap' ? await freePort() : undefined;
    // One Agent Plan per page: the shipped bundle, or (for a phase that asks) the one with names.
    const agentPlan = phase.withoutAgentPlan ? ['agent-plan', 'agent-plan-named'] : phase.named ? ['agent-plan'] : ['agent-plan-named'];
    const { outcome, exitCode } = await workbench.runTests({
      phase: phase.name,
      testsPath: path.join(runDir, 'bench-module', 'host.js'),
      timeoutMs: phase.timeoutMs ?? phaseTimeoutMs,
      // VS Code without Agent Plan: this page loads the development extensions but ours.
      without: [...agentPlan.filter((name) => name === 'agent-plan' || namedBundleFile), ...(phase.kind === 'latency' ? [] : ['agent-plan-bench-tree'])],
      // The heap phases' extension host listens on an inspector port (VS Code's --inspect-extensions).
      payload: port ? [['inspect-extensions', String(port)]] : [],
      viewport: { width: 1400, height: 1000 },
      expose: {
        benchSeen: (index, seen) => {
          writeAtomic(path.join(latencyDir, `seen-${index}.json`), JSON.stringify(seen));
          // A miss is worth a picture: what did the workbench show instead?
          if (seen.error && shots++ < 2) void page?.screenshot({ path: path.join(runDir, 'logs', `latency-miss-${index}.png`) }).catch(() => {});
        },
      },
      onPage: (p) => {
        page = p;
        return phase.kind === 'latency' ? serveLatency(latencyDir, p) : phase.kind === 'heap' ? serveHeap(runDir, phase, port) : undefined;
      },
    });
    const resultFile = path.join(runDir, `bench-result-${phase.name}.json`);
    if (!fs.existsSync(resultFile)) {
      throw new Error(`host phase ${phase.name}: no result (${outcome}, workbench exit code ${exitCode ?? 'none'}); logs in ${runDir}`);
    }
    const result = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
    if (result.error) throw new Error(`host phase ${phase.name} failed in the extension host: ${result.error}`);
    log(`host phase ${phase.name}: ${Math.round((Date.now() - started) / 100) / 10} s`);
    results[phase.name] = result;
    await between?.(phase, result, runDir);
  }
  const browserVersion = workbench.browserVersion();
  await workbench.close();
  return { runDir, results, browserVersion };
}
