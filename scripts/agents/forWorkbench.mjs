// The real terminal agents inside a workbench run: their HOME is the run's own HOME
// (<runDir>/home) and their XDG data folder the host's (<runDir>/xdg-data), so Agent Plan,
// running in that workbench, finds their files where a user's would be (~/.claude, ~/.codex,
// ~/.gemini, ~/.qwen, $XDG_DATA_HOME/opencode and /kilo) with its default settings. A test
// asks the launcher, through the DOM bridge's `runAgent` op, to run one scenario in the
// workspace the workbench has open. Where the agents cannot run, it says why, once.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureAgents, VERSIONS } from './install.mjs';
import { cannotRunReason, runScenario } from './run.mjs';
import { findScenario } from './scenarios.mjs';

/** Prepares the agents for `workbench`; returns the bridge ops and writes <runDir>/agents.json for the tests. */
export async function agentsForWorkbench(workbench, log) {
  const statusFile = path.join(workbench.runDir, 'agents.json');
  const reason = cannotRunReason();
  if (reason) {
    log(`terminal agents: SKIPPED, the real CLIs cannot run here: ${reason}`);
    fs.writeFileSync(statusFile, JSON.stringify({ skipped: reason }) + '\n');
    return {};
  }
  await ensureAgents();
  const home = path.join(workbench.runDir, 'home');
  fs.writeFileSync(statusFile, JSON.stringify({ versions: VERSIONS, home }) + '\n');
  return {
    runAgent: async (request) => {
      // A test may drive the terminal otherwise (`tty`: its own keys, or none: the prompt left to
      // Agent Plan's answer), and keep what Connect wrote into the agent's settings (`connected`).
      const scenario =
        request.tty !== undefined || request.connected === true
          ? { ...findScenario(request.scenario), ...(request.tty !== undefined ? { tty: request.tty } : {}), ...(request.connected === true ? { connected: true } : {}) }
          : request.scenario;
      const run = await runScenario(scenario, {
        root: path.join(workbench.runDir, 'agents'),
        home,
        codexHome: path.join(home, '.codex'),
        // The XDG data folder the host runs with, as a terminal of that window would have it.
        xdgDataHome: path.join(workbench.runDir, 'xdg-data'),
        // A test may run the agent in another folder of the window (a git worktree beside the workspace).
        workspace: typeof request.workspace === 'string' ? request.workspace : workbench.workspace,
        delayMs: request.delayMs ?? 0,
      });
      return { code: run.result.code, timedOut: run.result.timedOut, requests: run.result.requests, files: run.files };
    },
  };
}
