// `npm start`: set-up as for the tests, then the extension in a local VS Code
// (code-server) on 127.0.0.1 with the demo workspace and the demo participant.
// Runs until Ctrl-C and then stops every process it started.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureDependencies, repoRoot, runNode } from './lib/setup.mjs';

ensureDependencies();
if (!runNode(['scripts/build.mjs'])) process.exit(1);

const { ensureHost, killGroup, linkExtensions, log, startCodeServer, workbenchUrl } = await import('./lib/host.mjs');
await ensureHost();

// State lives in .demo/ so plans survive a restart of `npm start`, as they would for a user.
const home = path.join(repoRoot, '.demo');
const runDir = path.join(home, 'run');
fs.rmSync(runDir, { recursive: true, force: true });
for (const sub of ['home', 'tmp', 'xdg-config', 'xdg-cache', 'xdg-data', 'xdg-state', 'logs']) {
  fs.mkdirSync(path.join(runDir, sub), { recursive: true });
}
const workspace = path.join(home, 'workspace');
if (!fs.existsSync(workspace)) fs.cpSync(path.join(repoRoot, 'demo', 'workspace'), workspace, { recursive: true });
const extensions = { 'agent-plan': repoRoot };
const demoExtension = path.join(repoRoot, 'demo', 'extension');
if (fs.existsSync(path.join(demoExtension, 'package.json'))) extensions['agent-plan-demo'] = demoExtension;
const devExtensions = linkExtensions(runDir, extensions);

const port = Number(process.env.AGENT_PLAN_PORT ?? 8737);
let server;
try {
  server = await startCodeServer({
    name: 'code-server',
    port,
    runDir,
    userDataDir: path.join(home, 'user-data'),
    extensionsDir: path.join(home, 'extensions'),
    idleTimeoutSeconds: 24 * 3600,
  });
} catch (error) {
  log(`${error.message}. Is port ${port} in use? Set AGENT_PLAN_PORT to another port.`);
  process.exit(1);
}

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  log('stopping VS Code');
  killGroup(server.pid);
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(0));
process.on('exit', () => killGroup(server.pid));

const url = workbenchUrl({ port: server.port, folder: workspace, extensionDevelopmentPath: devExtensions });
console.log(`
Agent Plan is running in VS Code at:

  ${url}

Open it in a browser. In the Chat view, type:  @demo add a dark mode toggle
Press Ctrl-C to stop.
`);

// Exit with the server if it dies, so nothing is left half running.
const timer = setInterval(() => {
  try {
    process.kill(server.pid, 0);
  } catch {
    clearInterval(timer);
    log(`VS Code stopped; see ${server.logPath}`);
    stop(1);
  }
}, 1000);
