// Agent Plan's MCP server (`node dist/mcp.js --inbox <folder>`, built by `node esbuild.mjs`)
// connected to an agent in a run's scratch homes, for the scenarios that write their plan through
// it (a scenario's `mcp: { approve }`): connected by the product's own Connect code
// (src/node/connect/connect.ts and the agents' Connect specs from the registry, bundled here with
// esbuild: `plan` with the agent's spec, then `apply`), which adds the server under the name
// `agentplan` with the agent's pre-approval of its tool (docs/connect.md). The run's server is
// told its inbox (`--inbox`), a folder beside the run's homes.
// `approve: false` then takes that pre-approval out again (Codex: sets the tool to ask), so the
// agent refuses the call (or does not offer the tool). Each agent's recipe awaits `connectMcp` once its own configuration is
// written: Connect edits those files in place.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The name the server is configured under in every scenario. */
export const MCP_SERVER = 'agentplan';

/** The server's script: the checkout's own build. */
export const MCP_SCRIPT = path.join(repoRoot, 'dist', 'mcp.js');

/** The run's inbox folder, where the server writes the plans it is sent: beside the run's homes. */
export function mcpInbox(dirs) {
  return path.join(dirs.base, 'inbox');
}

/** Connect (src/node/connect/connect.ts) and the registry's agents (their `connect` specs), bundled into the run's folder and loaded once per process. */
let connectCode;
async function loadConnect(dirs) {
  if (connectCode === undefined) {
    const esbuild = await import('esbuild');
    // jsonc-parser's UMD build requires its parts at run time: its ES module build bundles whole.
    const outfile = path.join(dirs.run, 'connect.cjs');
    const contents = "export * from './src/node/connect/connect';\nexport { AGENTS } from './src/agents/registry';\n";
    await esbuild.build({ stdin: { contents, resolveDir: repoRoot, sourcefile: 'connect-entry.ts', loader: 'ts' }, bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile, logLevel: 'error', mainFields: ['module', 'main'] });
    const loaded = await import(pathToFileURL(outfile).href);
    connectCode = loaded.default ?? loaded;
  }
  return connectCode;
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function writeJson(file, value) {
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

/**
 * Connects Agent Plan's MCP server to `agent` (its id) in the run's scratch homes (`dirs`) with
 * Connect, as *Agent Plan: Connect Agents…* does for a user (the server, and its pre-approval);
 * without `approve`, the pre-approval is taken out again (see withoutApproval). Returns the
 * files Connect changed.
 */
export async function connectMcp(agent, dirs, { approve }) {
  if (!fs.existsSync(MCP_SCRIPT)) throw new Error(`${MCP_SCRIPT} is not built: run node esbuild.mjs first`);
  const inbox = mcpInbox(dirs);
  fs.mkdirSync(inbox, { recursive: true });
  const { plan, apply, AGENTS } = await loadConnect(dirs);
  const spec = AGENTS.find((known) => known.id === agent)?.connect;
  if (spec === undefined) throw new Error(`Connect has no spec for the agent "${agent}"`);
  const place = { home: dirs.home, env: { CODEX_HOME: dirs.codexHome, XDG_CONFIG_HOME: path.join(dirs.home, '.config') } };
  const planned = await plan(spec, { ...place, node: process.execPath, serverScript: MCP_SCRIPT, inbox, mcp: true, statePath: path.join(dirs.run, 'connect.json') });
  const { files } = await apply(planned);
  if (!approve) withoutApproval(agent, dirs);
  return files;
}

/**
 * Takes out the pre-approval Connect wrote, leaving the server configured: Claude Code's
 * `permissions.allow` entry, Gemini CLI's and Qwen Code's `trust`; Codex's `approval_mode` becomes
 * "prompt".
 */
function withoutApproval(agent, dirs) {
  switch (agent) {
    case 'claude-code': {
      const file = path.join(dirs.home, '.claude', 'settings.json');
      const settings = readJson(file);
      settings.permissions.allow = settings.permissions.allow.filter((rule) => rule !== `mcp__${MCP_SERVER}__todo_write`);
      writeJson(file, settings);
      return;
    }
    case 'codex': {
      const file = path.join(dirs.codexHome, 'config.toml');
      const text = fs.readFileSync(file, 'utf8');
      // Without it, Codex 0.171.0 ran the tool unasked (its annotations say it is neither
      // destructive nor open-world): the tool is set to ask instead, which `codex exec` cannot.
      const approve = `[mcp_servers.${MCP_SERVER}.tools.todo_write]\napproval_mode = "approve"\n`;
      if (!text.includes(approve)) throw new Error(`${file}: no ${approve.trim()} to change`);
      fs.writeFileSync(file, text.replace(approve, `[mcp_servers.${MCP_SERVER}.tools.todo_write]\napproval_mode = "prompt"\n`));
      return;
    }
    case 'gemini-cli':
    case 'qwen-code': {
      const file = path.join(dirs.home, agent === 'gemini-cli' ? '.gemini' : '.qwen', 'settings.json');
      const settings = readJson(file);
      delete settings.mcpServers[MCP_SERVER].trust;
      writeJson(file, settings);
      return;
    }
    default:
      throw new Error(`no refused MCP set-up for the agent "${agent}"`);
  }
}
