// For launchers (a `services` entry of the workbench runner): starts the scripted
// model server for a run and writes the user data that points the built-in Copilot Chat at it (a `customendpoint` model in
// `User/chatLanguageModels.json`; Copilot's side requests routed to the same
// model). The run folder gets `model/script.json` (what the model will say) and
// `model/requests.jsonl` (every request it received), for tests and benchmarks.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chatLanguageModels, startModelServer } from './modelServer.mjs';

/** User settings the scripted agent needs; merged into any settings already there. */
export const AGENT_SETTINGS = {
  // Titles and progress messages go to the scripted model instead of a Copilot model we do not have.
  'chat.byokUtilityModelDefault': 'mainAgent',
};

function mergeSettings(file, settings) {
  let current = {};
  if (fs.existsSync(file)) {
    try {
      current = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      throw new Error(`${file} is not plain JSON; the launcher cannot add the scripted model's settings to it`);
    }
  }
  fs.writeFileSync(file, `${JSON.stringify({ ...current, ...settings }, null, 2)}\n`);
}

/**
 * Starts the model server and writes its user data. `script` is a path to a JSON
 * script (see modelServer.mjs) or the script itself. Resolves to `{ port, recordFile, scriptFile, close }`.
 */
export async function startScriptedAgent({ runDir, userDataDir, script, maxRequests = 1000, lifetimeMs = 45 * 60_000, log = () => {} }) {
  const modelDir = path.join(runDir, 'model');
  fs.mkdirSync(modelDir, { recursive: true });
  const scriptFile = path.join(modelDir, 'script.json');
  if (typeof script === 'string') fs.copyFileSync(script, scriptFile);
  else fs.writeFileSync(scriptFile, `${JSON.stringify(script, null, 2)}\n`);
  const recordFile = path.join(modelDir, 'requests.jsonl');
  const server = await startModelServer({ script: scriptFile, recordFile, maxRequests, lifetimeMs, log });
  const userDir = path.join(userDataDir, 'User');
  fs.mkdirSync(userDir, { recursive: true });
  fs.writeFileSync(path.join(userDir, 'chatLanguageModels.json'), `${JSON.stringify(chatLanguageModels(server.port), null, 2)}\n`);
  mergeSettings(path.join(userDir, 'settings.json'), AGENT_SETTINGS);
  return { port: server.port, recordFile, scriptFile, close: () => server.close() };
}

/**
 * The same as a workbench-runner service: `services: [scriptedAgentService({ script })]`.
 * Its env (AGENT_PLAN_MODEL_DIR, AGENT_PLAN_MODEL_PORT) reaches the extension host.
 */
export function scriptedAgentService({ script, userDataDir, ...options }) {
  return async ({ runDir, log }) => {
    const agent = await startScriptedAgent({ runDir, userDataDir: userDataDir ?? path.join(runDir, 'user-data'), script, log, ...options });
    log(`scripted model on 127.0.0.1:${agent.port}`);
    return { env: { AGENT_PLAN_MODEL_DIR: path.dirname(agent.recordFile), AGENT_PLAN_MODEL_PORT: String(agent.port) }, stop: () => agent.close() };
  };
}
