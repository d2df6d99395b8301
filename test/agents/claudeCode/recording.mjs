// How Claude Code is recorded (scripts/agents/, gathered by scripts/agents/recipes.mjs): its npm
// package and command, how it runs offline against the scripted Anthropic server, where its files
// land in a run, and how the terminal-agent tests read its calls back. Plain ESM: the scripts
// import it without a build.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectMcp } from '../../../scripts/agents/mcp.mjs';
import { scenarios } from './scenarios.mjs';

export const CLAUDE_MODEL = 'claude-sonnet-4-6';

/**
 * Claude Code's own record of a user who finished its onboarding, trusted the workspace and
 * approved the (scripted) API key, so an interactive run goes straight to the prompt.
 */
function claudeFirstRunDone(dirs, key) {
  fs.mkdirSync(dirs.home, { recursive: true });
  const state = {
    hasCompletedOnboarding: true,
    theme: 'dark',
    customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] },
    projects: { [dirs.workspace]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
  };
  fs.writeFileSync(path.join(dirs.home, '.claude.json'), JSON.stringify(state, null, 2) + '\n');
}

/** @type {import('../../../scripts/agents/recipes.mjs').Recipe} */
export const recipe = {
  id: 'claude-code',
  scenarios,
  package: '@anthropic-ai/claude-code',
  pin: '2.1.332',
  bin: 'claude',
  server: 'anthropic',
  // A scenario with `defaultModel` runs without `--model`: the model Claude Code picks itself.
  model: (scenario) => (scenario.defaultModel ? null : CLAUDE_MODEL),
  folder: (dirs) => path.join(dirs.home, '.claude'),
  async prepare(scenario, dirs, url, { bin, baseEnv, key }) {
    // Interactive (a pseudo-terminal): its first-run screens answered as a user who went through them.
    if (scenario.tty) claudeFirstRunDone(dirs, key);
    // Agent Plan's MCP server, for a scenario that plans through it.
    if (scenario.mcp) await connectMcp('claude-code', dirs, scenario.mcp);
    const mode = scenario.tty ? [scenario.prompt] : ['-p', scenario.prompt, '--output-format', 'stream-json', '--verbose'];
    return {
      command: bin,
      args: [...mode, ...(scenario.defaultModel ? [] : ['--model', CLAUDE_MODEL]), ...(scenario.args ?? [])],
      env: baseEnv(dirs, {
        ANTHROPIC_BASE_URL: url,
        ANTHROPIC_API_KEY: key,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
        ...scenario.env,
      }),
    };
  },
  files(dirs, listFiles) {
    const claude = path.join(dirs.home, '.claude');
    return {
      transcripts: listFiles(path.join(claude, 'projects')).filter((f) => f.endsWith('.jsonl')),
      // Every file of the task folders, dot files (.lock, .highwatermark) too.
      tasks: listFiles(path.join(claude, 'tasks')),
      todos: listFiles(path.join(claude, 'todos')),
    };
  },
  // Its task files are replaced whole on each update (a deleted task's file removed).
  snapshots: (_scenario, dirs) => path.join(dirs.home, '.claude', 'tasks'),
  isSessionFile: (rel, file) => rel[0] === 'projects' && file.endsWith('.jsonl'),
  // A subagent's transcript (`<session>/subagents/agent-*.jsonl`) is not a session of its own here.
  sessionFiles: ({ home }, filesUnder) => filesUnder(path.join(home, '.claude', 'projects'), (n) => n.endsWith('.jsonl') && !n.startsWith('agent-')),
  subagentFiles: (sessionFile, filesUnder) => filesUnder(path.join(sessionFile.slice(0, -'.jsonl'.length), 'subagents'), (n) => n.startsWith('agent-') && n.endsWith('.jsonl')),
  calls: (file, { jsonLines }) =>
    jsonLines(file)
      .filter((l) => l.type === 'assistant' && Array.isArray(l.message?.content))
      .flatMap((l) => l.message.content.filter((b) => b.type === 'tool_use').map((b) => ({ name: b.name, input: b.input }))),
  workspaces: (file, _dirs, { jsonLines }) => [...new Set(jsonLines(file).filter((l) => typeof l.cwd === 'string').map((l) => l.cwd))],
};
