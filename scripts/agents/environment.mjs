// How each agent is set up and started against a scripted model server at `url`:
// its scratch configuration, command line and environment, and its server.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BINARIES, cleanEnv } from './install.mjs';
import { startAnthropicServer } from './servers/anthropic.mjs';
import { startGeminiServer } from './servers/gemini.mjs';
import { startChatServer } from './servers/chat.mjs';
import { startResponsesServer } from './servers/openai.mjs';

export const CLAUDE_MODEL = 'claude-sonnet-4-6';
export const GEMINI_MODEL = 'gemini-2.5-pro';
const FAKE_KEY = 'scripted-model-key';

/** The model opencode, Kilo CLI and Qwen Code are told to use, served by the scripted chat server. */
export const CHAT_MODEL = 'm';

export const SERVERS = {
  claude: startAnthropicServer,
  codex: startResponsesServer,
  gemini: startGeminiServer,
  opencode: startChatServer,
  kilo: startChatServer,
  qwen: startChatServer,
  copilot: startChatServer,
  cline: startChatServer,
};

/**
 * opencode's (and Kilo CLI's) whole configuration, given in the environment: one
 * OpenAI-compatible provider (its SDK is bundled in the binary) at the scripted server,
 * nothing shared, no update check. Every permission is allowed unless the scenario says
 * otherwise (`permission`, e.g. `{"*": "allow", "bash": "ask"}` to be asked before a command).
 */
function opencodeConfig(url, permission = { '*': 'allow' }) {
  return JSON.stringify({
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Scripted model',
        options: { baseURL: `${url}/v1`, apiKey: FAKE_KEY },
        models: { [CHAT_MODEL]: { name: 'Scripted', tool_call: true, limit: { context: 128000, output: 8192 } } },
      },
    },
    model: `fake/${CHAT_MODEL}`,
    small_model: `fake/${CHAT_MODEL}`,
    autoupdate: false,
    share: 'disabled',
    permission,
  });
}

function baseEnv(dirs, extra) {
  return cleanEnv({
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    XDG_CONFIG_HOME: path.join(dirs.home, '.config'),
    XDG_CACHE_HOME: path.join(dirs.home, '.cache'),
    XDG_DATA_HOME: dirs.xdgData ?? path.join(dirs.home, '.local', 'share'),
    XDG_STATE_HOME: path.join(dirs.home, '.local', 'state'),
    NO_COLOR: '1',
    // opencode and Kilo CLI take their directory from PWD, not from the process's cwd.
    PWD: dirs.workspace,
    ...extra,
  });
}

/**
 * The model Codex is told it runs: its own catalog decides which tools it offers, and only a
 * model listed there with an apply_patch type gets apply_patch (gpt-5-codex is not listed).
 */
export function codexModel(scenario) {
  return scenario.codexModel ?? 'gpt-5-codex';
}

/**
 * Claude Code's own record of a user who finished its onboarding, trusted the workspace and
 * approved the (scripted) API key, so an interactive run goes straight to the prompt.
 */
function claudeFirstRunDone(dirs) {
  fs.mkdirSync(dirs.home, { recursive: true });
  const state = {
    hasCompletedOnboarding: true,
    theme: 'dark',
    customApiKeyResponses: { approved: [FAKE_KEY.slice(-20)], rejected: [] },
    projects: { [dirs.workspace]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
  };
  fs.writeFileSync(path.join(dirs.home, '.claude.json'), JSON.stringify(state, null, 2) + '\n');
}

/** Returns { command, args, env } for one run of `scenario` with its dirs prepared. */
export function prepare(scenario, dirs, url) {
  if (scenario.agent === 'claude') {
    // Interactive (a pseudo-terminal): its first-run screens answered as a user who went through them.
    if (scenario.tty) claudeFirstRunDone(dirs);
    const mode = scenario.tty ? [scenario.prompt] : ['-p', scenario.prompt, '--output-format', 'stream-json', '--verbose'];
    return {
      command: BINARIES.claude,
      args: [...mode, '--model', CLAUDE_MODEL, ...(scenario.args ?? [])],
      env: baseEnv(dirs, {
        ANTHROPIC_BASE_URL: url,
        ANTHROPIC_API_KEY: FAKE_KEY,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
        ...scenario.env,
      }),
    };
  }
  if (scenario.agent === 'codex') {
    fs.mkdirSync(dirs.codexHome, { recursive: true });
    fs.writeFileSync(
      path.join(dirs.codexHome, 'config.toml'),
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
      ].join('\n'),
    );
    return {
      command: BINARIES.codex,
      args: scenario.tty ? [...(scenario.args ?? []), scenario.prompt] : ['exec', '--skip-git-repo-check', ...(scenario.args ?? []), scenario.prompt],
      env: baseEnv(dirs, { CODEX_HOME: dirs.codexHome, SCRIPTED_MODEL_KEY: FAKE_KEY, ...scenario.env }),
    };
  }
  if (scenario.agent === 'gemini') {
    const settingsDir = path.join(dirs.home, '.gemini');
    fs.mkdirSync(settingsDir, { recursive: true });
    fs.writeFileSync(
      path.join(settingsDir, 'settings.json'),
      JSON.stringify(
        {
          security: { auth: { selectedType: 'gemini-api-key' } },
          telemetry: { enabled: false },
          privacy: { usageStatisticsEnabled: false },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
        },
        null,
        2,
      ) + '\n',
    );
    return {
      command: BINARIES.gemini,
      args: ['-m', GEMINI_MODEL, '--approval-mode', 'yolo', '-p', scenario.prompt],
      env: baseEnv(dirs, {
        GOOGLE_GEMINI_BASE_URL: url,
        GEMINI_API_KEY: FAKE_KEY,
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        ...scenario.env,
      }),
    };
  }
  if (scenario.agent === 'opencode' || scenario.agent === 'kilo') {
    const prefix = scenario.agent === 'opencode' ? 'OPENCODE' : 'KILO';
    return {
      command: BINARIES[scenario.agent],
      // Interactive: its full-screen interface (TUI), the prompt given to it and sent at start.
      args: scenario.tty ? ['-m', `fake/${CHAT_MODEL}`, '--prompt', scenario.prompt] : ['run', '-m', `fake/${CHAT_MODEL}`, scenario.prompt],
      env: baseEnv(dirs, {
        [`${prefix}_CONFIG_CONTENT`]: opencodeConfig(url, scenario.permission),
        [`${prefix}_DISABLE_MODELS_FETCH`]: '1',
        [`${prefix}_DISABLE_AUTOUPDATE`]: '1',
        [`${prefix}_DISABLE_SHARE`]: '1',
        [`${prefix}_DISABLE_LSP_DOWNLOAD`]: '1',
        [`${prefix}_DISABLE_DEFAULT_PLUGINS`]: '1',
        ...(scenario.agent === 'kilo' ? { KILO_TELEMETRY_LEVEL: 'off', KILO_DISABLE_SESSION_INGEST: '1', KILO_DISABLE_CODEBASE_INDEXING: '1', KILO_DISABLE_PRESENCE: '1' } : {}),
        ...scenario.env,
      }),
    };
  }
  if (scenario.agent === 'qwen') {
    const settingsDir = path.join(dirs.home, '.qwen');
    fs.mkdirSync(settingsDir, { recursive: true });
    fs.writeFileSync(
      path.join(settingsDir, 'settings.json'),
      JSON.stringify(
        {
          // todo_write is off by default in 0.24: without this the call is refused.
          tools: { todoWrite: { enabled: true } },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
        },
        null,
        2,
      ) + '\n',
    );
    // Interactive: the workspace trusted, as a user who answered its trust screen (without it the
    // run stops at that screen and never reaches the prompt).
    if (scenario.tty) fs.writeFileSync(path.join(settingsDir, 'trustedFolders.json'), JSON.stringify({ [dirs.workspace]: 'TRUST_FOLDER' }, null, 2) + '\n');
    return {
      command: BINARIES.qwen,
      // Interactive: no --yolo (the scenario's args say the approval mode), the prompt run first (-i).
      args: scenario.tty ? ['--auth-type', 'openai', ...(scenario.args ?? []), '-i', scenario.prompt] : ['--auth-type', 'openai', '--yolo', '-p', scenario.prompt],
      env: baseEnv(dirs, {
        OPENAI_API_KEY: FAKE_KEY,
        OPENAI_BASE_URL: `${url}/v1`,
        OPENAI_MODEL: CHAT_MODEL,
        QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
        ...scenario.env,
      }),
    };
  }
  if (scenario.agent === 'copilot') {
    // Copilot CLI with its own model provider: no GitHub sign-in, nothing but the scripted server.
    // Interactive: the workspace trusted, as a user who answered its trust screen "Yes, and
    // remember this folder" (which writes `trustedFolders` into ~/.copilot/config.json); without
    // it the run stops at that screen and never reaches the prompt.
    if (scenario.tty) {
      fs.mkdirSync(path.join(dirs.home, '.copilot'), { recursive: true });
      fs.writeFileSync(path.join(dirs.home, '.copilot', 'config.json'), JSON.stringify({ trustedFolders: [dirs.workspace] }, null, 2) + '\n');
    }
    // Interactive: no --allow-all-tools, so a shell command asks for leave; the prompt run first (-i).
    return {
      command: BINARIES.copilot,
      args: scenario.tty ? ['-i', scenario.prompt, ...(scenario.args ?? []), '--no-color'] : ['-p', scenario.prompt, '--allow-all-tools', '--no-color'],
      env: baseEnv(dirs, {
        COPILOT_OFFLINE: 'true',
        COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
        COPILOT_PROVIDER_TYPE: 'openai',
        COPILOT_PROVIDER_API_KEY: FAKE_KEY,
        COPILOT_MODEL: CHAT_MODEL,
        COPILOT_AUTO_UPDATE: 'false',
        ...scenario.env,
      }),
    };
  }
  if (scenario.agent === 'cline') return clineRun(scenario, dirs, url);
  throw new Error(`unknown agent ${scenario.agent}`);
}

/**
 * Cline, either generation (`scenario.generation`, 3 by default), with an OpenAI-compatible
 * provider at the scripted server, set by its own `cline auth` command just before the run (one
 * shell: the server answers while both run). 3.x: telemetry and updates off in its global
 * settings, `CLINE_SESSION_BACKEND_MODE=local` (otherwise a run that is not `--yolo` leaves a
 * background hub daemon behind); its team board tool is offered only without `--yolo`. 2.x: `-y`
 * approves every tool; the model answers with XML tool calls in its text (no `tools` in the
 * request: see `textTurns` of the chat server).
 */
function clineRun(scenario, dirs, url) {
  const quote = (word) => `'${String(word).split("'").join("'\\''")}'`;
  const env = baseEnv(dirs, { CLINE_NO_AUTO_UPDATE: '1', CLINE_TELEMETRY_DISABLED: '1', ...scenario.env });
  if (scenario.generation === 2) {
    const auth = [BINARIES.cline2, 'auth', '-p', 'openai', '-k', FAKE_KEY, '-m', CHAT_MODEL, '-b', `${url}/v1`];
    const run = [BINARIES.cline2, ...(scenario.args ?? ['-y']), scenario.prompt];
    return { command: 'sh', args: ['-c', `${auth.map(quote).join(' ')} >/dev/null </dev/null && exec ${run.map(quote).join(' ')} </dev/null`], env };
  }
  const settings = path.join(dirs.home, '.cline', 'data', 'settings');
  fs.mkdirSync(settings, { recursive: true });
  fs.writeFileSync(path.join(settings, 'global-settings.json'), JSON.stringify({ telemetryOptOut: true, autoUpdateEnabled: false }, null, 2) + '\n');
  const auth = [BINARIES.cline, 'auth', '--provider', 'openai-compatible', '--apikey', FAKE_KEY, '--modelid', CHAT_MODEL, '--baseurl', `${url}/v1`];
  const run = [BINARIES.cline, ...(scenario.args ?? []), scenario.prompt];
  return {
    command: 'sh',
    args: ['-c', `${auth.map(quote).join(' ')} >/dev/null </dev/null && exec ${run.map(quote).join(' ')} </dev/null`],
    env: { ...env, CLINE_SESSION_BACKEND_MODE: 'local' },
  };
}
