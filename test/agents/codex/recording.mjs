// How Codex is recorded (scripts/agents/, gathered by scripts/agents/recipes.mjs): its npm package
// and command, how it runs offline against the scripted Responses server, where its files land in
// a run, and how the terminal-agent tests read its calls back. Plain ESM: no build.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectMcp } from '../../../scripts/agents/mcp.mjs';
import { scenarios } from './scenarios.mjs';

/**
 * The model Codex is told it runs: its own catalog decides which tools it offers, and only a
 * model listed there with an apply_patch type gets apply_patch (gpt-5-codex is not listed).
 */
export function codexModel(scenario) {
  return scenario.codexModel ?? 'gpt-5-codex';
}

/** Agent Plan's block of a config.toml (from its first line to its last, with a line end), or ''. */
function agentPlanBlock(text) {
  const begin = text.indexOf('# >>> Agent Plan');
  const end = text.indexOf('# <<< Agent Plan', begin);
  return begin < 0 || end < 0 ? '' : `\n${text.slice(begin, text.indexOf('\n', end) < 0 ? text.length : text.indexOf('\n', end) + 1)}`;
}

/** @type {import('../../../scripts/agents/recipes.mjs').Recipe} */
export const recipe = {
  id: 'codex',
  scenarios,
  package: '@openai/codex',
  pin: '0.171.0',
  bin: 'codex',
  server: 'responses',
  model: codexModel,
  folder: (dirs) => dirs.codexHome,
  async prepare(scenario, dirs, url, { bin, baseEnv, key }) {
    fs.mkdirSync(dirs.codexHome, { recursive: true });
    const config = path.join(dirs.codexHome, 'config.toml');
    // A scenario run `connected` keeps Agent Plan's block, as Connect wrote it into the file before.
    const connected = scenario.connected === true && fs.existsSync(config) ? agentPlanBlock(fs.readFileSync(config, 'utf8')) : '';
    fs.writeFileSync(
      config,
      [
        `model = "${codexModel(scenario)}"`,
        'model_provider = "fake"',
        'check_for_update_on_startup = false',
        '',
        '[model_providers.fake]',
        'name = "Scripted model"',
        `base_url = "${url}/v1"`,
        'env_key = "SCRIPTED_MODEL_KEY"',
        'wire_api = "responses"',
        '',
        '[analytics]',
        'enabled = false',
        '',
        '[feedback]',
        'enabled = false',
        '',
        '[features]',
        'plugins = false',
        '',
        '[tools.update_plan]',
        'enabled = true',
        '',
        // Interactive: the workspace trusted, as a user who answered its first-run screen.
        ...(scenario.tty ? [`[projects."${dirs.workspace}"]`, 'trust_level = "trusted"', ''] : []),
      ].join('\n') + connected,
    );
    // Agent Plan's MCP server, for a scenario that plans through it.
    if (scenario.mcp) await connectMcp('codex', dirs, scenario.mcp);
    return {
      command: bin,
      args: scenario.tty ? [...(scenario.args ?? []), scenario.prompt] : ['exec', '--skip-git-repo-check', ...(scenario.args ?? []), scenario.prompt],
      env: baseEnv(dirs, { CODEX_HOME: dirs.codexHome, SCRIPTED_MODEL_KEY: key, ...scenario.env }),
    };
  },
  files: (dirs, listFiles) => ({ rollouts: listFiles(path.join(dirs.codexHome, 'sessions')).filter((f) => f.endsWith('.jsonl')) }),
  isSessionFile: (rel, file) => rel[0] === 'sessions' && file.endsWith('.jsonl'),
  sessionFiles: ({ codexHome }, filesUnder) => filesUnder(path.join(codexHome, 'sessions'), (n) => n.endsWith('.jsonl')),
  calls: (file, { jsonLines }) =>
    jsonLines(file)
      .filter((l) => l.type === 'response_item' && (l.payload?.type === 'function_call' || l.payload?.type === 'custom_tool_call'))
      // A freeform tool's (apply_patch's) input is its text.
      // An MCP server's tool is named in its namespace (`mcp__<server>`).
      .map((l) => ({ name: l.payload.name, ...(l.payload.namespace !== undefined ? { namespace: l.payload.namespace } : {}), input: l.payload.type === 'custom_tool_call' ? l.payload.input : JSON.parse(l.payload.arguments) })),
  workspaces: (file, _dirs, { jsonLines }) => jsonLines(file).filter((l) => l.type === 'session_meta').map((l) => l.payload.cwd),
};
