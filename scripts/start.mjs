// `npm start`: set-up as for the tests, then the extension in a local VS Code
// (code-server) on 127.0.0.1 with the demo workspace and the demo participant,
// through the workbench runner. Runs until Ctrl-C and then stops every process it started.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureDependencies, repoRoot, runNode } from './lib/setup.mjs';

ensureDependencies();
if (!runNode(['scripts/build.mjs'])) process.exit(1);

const { cleanupStack, log } = await import('./lib/host.mjs');
const { openWorkbench } = await import('./lib/workbench.mjs');
const { scriptedAgentService } = await import('../test/scripted-model/service.mjs');
const { demoAgentScript } = await import('../demo/agentScript.mjs');
const cleanups = cleanupStack();

// State lives in .demo/ so plans survive a restart of `npm start`, as they would for a user.
const home = path.join(repoRoot, '.demo');
// The scripted agent edits the demo workspace: every start begins from a fresh copy of
// demo/workspace (never the repository's own files), in the same folder, so VS Code keeps
// its workspace storage and the plans of earlier runs.
const workspace = path.join(home, 'workspace');
fs.rmSync(workspace, { recursive: true, force: true });
const workbench = await openWorkbench({
  runDir: path.join(home, 'run'),
  cleanups,
  userDataDir: path.join(home, 'user-data'),
  extensionsDir: path.join(home, 'extensions'),
  workspace: { from: path.join(repoRoot, 'demo', 'workspace'), to: workspace },
  extensions: { 'agent-plan': repoRoot, 'agent-plan-demo': path.join(repoRoot, 'demo', 'extension') },
  // The real Copilot agent, offline: a scripted model on 127.0.0.1 plays the demo's plans.
  services: [
    scriptedAgentService({ script: demoAgentScript(), userDataDir: path.join(home, 'user-data'), maxRequests: 10_000, lifetimeMs: 24 * 3600_000 }),
    async () => ({ env: { AGENT_PLAN_DEMO_AGENT: 'copilot' } }),
  ],
});
const port = Number(process.env.AGENT_PLAN_PORT ?? 8737);
const server = await workbench.startServer({ port, idleTimeoutSeconds: 24 * 3600 }).catch(async (error) => {
  log(`${error.message}. Is port ${port} in use? Set AGENT_PLAN_PORT to another port.`);
  await cleanups.run();
  process.exit(1);
});

console.log(`
Agent Plan is running in VS Code at:

  ${workbench.url()}

Open it in a browser. The chat is in agent mode with the scripted local model
and a request typed in: press Enter, and watch GitHub Copilot fill the plan.
(Without Copilot, the offline @demo participant does the same: @demo add a dark mode toggle)
Press Ctrl-C to stop.
`);

// Ctrl-C runs the clean-up stack (cleanupStack's signal handlers); a server that dies
// on its own ends the launcher too, so nothing is left half running.
let signalled = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => (signalled = true));
await server.exited;
if (signalled) await new Promise(() => {}); // the clean-up stack exits
log(`VS Code stopped; see ${server.logPath}`);
await cleanups.run();
process.exit(1);
