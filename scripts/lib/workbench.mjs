// The one workbench runner behind every launcher (integration phases, the bench's host
// part, screenshots, `npm start`): a run folder with its own home, the development
// extensions, a workspace, extra user-data files and loopback services, then
// code-server and (for tests) headless chromium. Every process it starts is put on the
// caller's clean-up stack, so every exit path (pass, fail, timeout, signal) stops it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CHROMIUM, codeServerEntry, ensureHost, hostNode, isolatedEnv, killGroup, log, repoRoot, startCodeServer } from './host.mjs';
import { cleanEnv } from './setup.mjs';
import { serveBridge } from './bridge.mjs';

// Unix socket paths (chromium's singleton, VS Code's IPC) must stay under 108
// bytes, so runs live in a short folder rather than inside the checkout.
const runsRoot = process.env.AGENT_PLAN_RUNS ?? path.join(os.tmpdir(), 'agent-plan-runs');
const RUN_SUBFOLDERS = ['home', 'tmp', 'xdg-config', 'xdg-cache', 'xdg-data', 'xdg-state', 'logs'];

/**
 * A fresh run folder: `runDir` (emptied) or a new `<runs>/<kind>-XXXXXX`. Of the older ones,
 * the newest `keep` are kept, and none younger than an hour (another run may be using it).
 */
function makeRunDir({ kind, runDir, keep }) {
  if (runDir) {
    fs.rmSync(runDir, { recursive: true, force: true });
  } else {
    fs.mkdirSync(runsRoot, { recursive: true });
    const old = fs
      .readdirSync(runsRoot)
      .filter((name) => name.startsWith(`${kind}-`))
      .map((name) => ({ name, mtime: fs.statSync(path.join(runsRoot, name)).mtimeMs }))
      .sort((a, b) => a.mtime - b.mtime);
    for (const { name, mtime } of old.slice(0, Math.max(0, old.length - (keep - 1)))) {
      if (Date.now() - mtime > 3600_000) fs.rmSync(path.join(runsRoot, name), { recursive: true, force: true });
    }
    runDir = fs.mkdtempSync(path.join(runsRoot, `${kind}-`));
  }
  for (const sub of RUN_SUBFOLDERS) fs.mkdirSync(path.join(runDir, sub), { recursive: true });
  return runDir;
}

/** Runs a command to its end; throws with its output when it fails. */
function mustRun(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.status !== 0) throw new Error(`${path.basename(args[0])} ${args.slice(1).join(' ')} failed: ${result.stderr || result.stdout}`);
}

/**
 * VS Code resolves a display language only when a language pack declares it: package the
 * fixture pack with vsce, install it with the host's own CLI as a user would, and write its index.
 */
function installLanguagePack({ runDir, userDataDir, extensionsDir, locale }) {
  const pack = path.join(repoRoot, 'test', 'fixtures', `language-pack-${locale}`);
  if (!fs.existsSync(pack)) return;
  const vsix = path.join(runDir, `language-pack-${locale}.vsix`);
  const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  mustRun(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix], { cwd: pack, env: cleanEnv() });
  mustRun(hostNode, [codeServerEntry, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix], { cwd: runDir, env: isolatedEnv(runDir) });
  // The server reads its language-pack index at page load but writes it only when the
  // language is picked in the UI, so the runner writes it here.
  const manifest = JSON.parse(fs.readFileSync(path.join(pack, 'package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}`;
  const localization = manifest.contributes.localizations[0];
  const translations = path.join(extensionsDir, `${id}-${manifest.version}`, localization.translations[0].path);
  const index = { hash: `${manifest.version}-${Date.now()}`, extensions: [{ extensionIdentifier: { id }, version: manifest.version }], translations: { vscode: translations }, label: localization.localizedLanguageName };
  fs.writeFileSync(path.join(userDataDir, 'languagepacks.json'), JSON.stringify({ [locale]: index }));
}

/** Prints new text of a growing file as it arrives; returns a stop function (which flushes). */
function tail(file, print) {
  let offset = 0;
  const flush = () => {
    const size = fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    if (size <= offset) return;
    const buffer = Buffer.alloc(size - offset);
    const fd = fs.openSync(file, 'r');
    fs.readSync(fd, buffer, 0, buffer.length, offset);
    fs.closeSync(fd);
    offset = size;
    print(buffer.toString('utf8'));
  };
  const timer = setInterval(flush, 250);
  return () => {
    clearInterval(timer);
    flush();
  };
}

/**
 * Opens a workbench run. Options:
 *   kind, keep        run folder `<runs>/<kind>-XXXXXX`, the newest `keep` kept (default 3)
 *   runDir            a fixed run folder instead (emptied first)
 *   cleanups          the caller's cleanupStack(); every process started is pushed on it
 *   extensions        { name: folder | (runDir) => folder } loaded as development extensions
 *   workspace         { from, to? }: `from` is copied to `to` when `to` is missing, else into <runDir>/workspace
 *   userDataDir, extensionsDir   default <runDir>/user-data and <runDir>/extensions
 *   userFiles         { 'User/settings.json': text | JSON value } written into user data before the first server
 *   services          [async ({ runDir, log }) => ({ env?, stop? })]: loopback helpers started now and
 *                     stopped with the run; their env reaches the server, the extension host and the
 *                     tests, and is also written to <runDir>/services.json
 *   locale            display language (installs the fixture language pack when there is one)
 *   cjkFont           make sure a CJK font is installed (pictures of the Chinese UI)
 */
export async function openWorkbench(options) {
  const { cleanups, extensions, workspace: ws, locale } = options;
  await ensureHost({ cjkFont: options.cjkFont ?? false });
  const runDir = makeRunDir({ kind: options.kind ?? 'run', runDir: options.runDir, keep: options.keep ?? 3 });
  const userDataDir = options.userDataDir ?? path.join(runDir, 'user-data');
  const extensionsDir = options.extensionsDir ?? path.join(runDir, 'extensions');
  for (const dir of [userDataDir, extensionsDir]) fs.mkdirSync(dir, { recursive: true });

  // VS Code honours one extensionDevelopmentPath and loads every subfolder with a package.json.
  const devExtensions = path.join(runDir, 'dev-extensions');
  fs.mkdirSync(devExtensions);
  for (const [name, target] of Object.entries(extensions)) {
    fs.symlinkSync(typeof target === 'function' ? target(runDir) : target, path.join(devExtensions, name));
  }
  const workspace = ws.to ?? path.join(runDir, 'workspace');
  if (!fs.existsSync(workspace)) fs.cpSync(ws.from, workspace, { recursive: true });

  for (const [name, content] of Object.entries(options.userFiles ?? {})) {
    const file = path.join(userDataDir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n');
  }
  if (locale) installLanguagePack({ runDir, userDataDir, extensionsDir, locale });

  const env = {};
  for (const start of options.services ?? []) {
    const service = await start({ runDir, log });
    if (service?.stop) cleanups.push(() => service.stop());
    Object.assign(env, service?.env);
  }
  fs.writeFileSync(path.join(runDir, 'services.json'), JSON.stringify(env, null, 2) + '\n');

  let server;
  let stopServer = async () => {};
  let browser;
  let closeBrowser = async () => {};
  // What the browser kept of the last page (local storage, IndexedDB: where a web workbench
  // keeps its window and extensions' state), handed to the next page as a user's browser would.
  let browserStorage;

  const workbench = {
    runDir,
    workspace,
    userDataDir,
    env,
    get server() {
      return server;
    },
    /** Starts code-server (stopping the one before); resolves with { port, url, pid, logPath, exited }. */
    async startServer({ name = 'code-server', port = 0, idleTimeoutSeconds, workspaceTrust } = {}) {
      await stopServer();
      server = await startCodeServer({ name, port, runDir, userDataDir, extensionsDir, env, locale, idleTimeoutSeconds, workspaceTrust });
      const pid = server.pid;
      stopServer = cleanups.push(() => killGroup(pid));
      return server;
    },
    async stopServer() {
      await stopServer();
      stopServer = async () => {};
    },
    /**
     * The workbench URL on the current server; with `testsPath`, the page runs those tests;
     * `without` names development extensions this page loads without; `payload` adds entries
     * to the workbench's payload (e.g. `[['inspect-extensions', port]]`: the extension host's inspector).
     */
    url({ testsPath, without = [], payload: extra = [] } = {}) {
      const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
      let loaded = devExtensions;
      if (without.length > 0) {
        loaded = path.join(runDir, `dev-extensions-without-${without.join('-')}`);
        fs.mkdirSync(loaded, { recursive: true });
        for (const name of fs.readdirSync(devExtensions)) {
          const link = path.join(loaded, name);
          if (!without.includes(name) && !fs.existsSync(link)) fs.symlinkSync(fs.readlinkSync(path.join(devExtensions, name)), link);
        }
      }
      const payload = [['skipWelcome', 'true'], ['extensionDevelopmentPath', remote(loaded)]];
      if (testsPath) payload.push(['extensionTestsPath', remote(testsPath)]);
      payload.push(...extra);
      return `${server.url}/?${new URLSearchParams({ folder: workspace, payload: JSON.stringify(payload) })}`;
    },
    /**
     * Runs `testsPath` (a module exporting run()) in a fresh page of the current server (one
     * fresh extension host) and waits until the workbench reports its exit or `timeoutMs`
     * passes. `payload` as for url(); `expose` adds page functions, `onPage(page)` may return a stop function,
     * `bridge: true` serves the DOM bridge (an object of `op: (request) => value` functions adds ops), `tailFile` is echoed to stdout meanwhile.
     * Through the bridge, a test may open more windows on the same folder (op `openWindow`:
     * another page of the same browser, with its own extension host, as a second tab is)
     * and close them (`closeWindow`); other ops take `window: n` to act on one.
     * Resolves with { outcome: 'exited' | 'timeout', exitCode }.
     */
    async runTests({ phase, testsPath, timeoutMs, expose = {}, onPage, bridge = false, tailFile, viewport = { width: 1400, height: 900 }, without, payload }) {
      if (!server) await workbench.startServer();
      if (!browser) {
        const launched = await launchBrowser(runDir, locale);
        browser = launched;
        closeBrowser = cleanups.push(() => launched.close());
      }
      const context = await browser.newContext({ viewport, permissions: ['clipboard-read', 'clipboard-write'], storageState: browserStorage });
      const closeContext = cleanups.push(() => context.close().catch(() => {}));
      const page = await context.newPage();
      let exitCode;
      const exited = new Promise((resolve) => {
        void page.exposeFunction('codeAutomationExit', (code, logFiles) => {
          exitCode = code;
          for (const file of logFiles ?? []) {
            if (typeof file?.relativePath !== 'string' || !file.contents) continue;
            const target = path.join(runDir, 'logs', `workbench-${phase}`, file.relativePath.replace(/\.\.+/g, '_'));
            fs.mkdirSync(path.dirname(target), { recursive: true });
            fs.writeFileSync(target, Buffer.from(file.contents));
          }
          resolve('exited');
        });
      });
      await page.exposeFunction('codeAutomationLog', (level, args) => {
        fs.appendFileSync(path.join(runDir, 'logs', `workbench-${phase}.log`), `[${level}] ${JSON.stringify(args)}\n`);
      });
      for (const [name, fn] of Object.entries(expose)) await page.exposeFunction(name, fn);
      const windows = [page];
      const windowOps = {
        openWindow: async () => {
          const other = await context.newPage();
          windows.push(other);
          await other.goto(workbench.url());
          return windows.length - 1;
        },
        closeWindow: async (request) => {
          const other = request.window > 0 ? windows[request.window] : undefined;
          if (!other) throw new Error(`no window ${request.window} to close`);
          windows[request.window] = undefined;
          await other.close();
          return true;
        },
      };
      const served = bridge ? serveBridge(path.join(runDir, 'bridge'), (index) => windows[index], { ...windowOps, ...(bridge === true ? {} : bridge) }) : undefined;
      const stops = [onPage?.(page), served, tailFile ? tail(tailFile, (t) => process.stdout.write(t)) : undefined];
      await page.goto(workbench.url({ testsPath, without, payload }));
      let timer;
      const outcome = await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)))]);
      clearTimeout(timer);
      for (const stop of stops) stop?.();
      browserStorage = (await context.storageState({ indexedDB: true }).catch(() => undefined)) ?? browserStorage;
      await closeContext();
      return { outcome, exitCode };
    },
    browserVersion: () => browser?.version(),
    /** Stops the server and the browser (services stop with the caller's clean-up stack). */
    async close() {
      await workbench.stopServer();
      await closeBrowser();
    },
  };
  return workbench;
}

/**
 * Headless Debian chromium through playwright-core (which downloads no browser). It composites in
 * software, without a GPU process drawing through SwiftShader: the browser's CPU time in an
 * integration run fell by about a sixth (127 s against 150 s over the same three files).
 */
async function launchBrowser(runDir, locale) {
  const { chromium } = await import('playwright-core');
  const args = ['--no-sandbox', '--disable-gpu', '--disable-gpu-compositing', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
  if (locale) args.push(`--lang=${locale}`);
  return chromium.launch({ executablePath: CHROMIUM, args, env: isolatedEnv(runDir), headless: true });
}
