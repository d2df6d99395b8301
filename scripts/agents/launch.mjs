// How each agent is set up and started against a scripted model server at `url`:
// its scratch configuration, command line and environment, and its server.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BINARIES, cleanEnv } from './install.mjs';
import { startAnthropicServer } from './servers/anthropic.mjs';
import { startGeminiServer } from './servers/gemini.mjs';
import { startResponsesServer } from './servers/openai.mjs';

export const CLAUDE_MODEL = 'claude-sonnet-4-6';
export const GEMINI_MODEL = 'gemini-2.5-pro';
const FAKE_KEY = 'scripted-model-key';

export const SERVERS = { claude: startAnthropicServer, codex: startResponsesServer, gemini: startGeminiServer };

function baseEnv(dirs, extra) {
  return cleanEnv({
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    XDG_CONFIG_HOME: path.join(dirs.home, '.config'),
    XDG_CACHE_HOME: path.join(dirs.home, '.cache'),
    XDG_DATA_HOME: path.join(dirs.home, '.local', 'share'),
    XDG_STATE_HOME: path.join(dirs.home, '.local', 'state'),
    NO_COLOR: '1',
    CI: '1',
    ...extra,
  });
}

/** Returns { command, args, env } for one run of `scenario` with its dirs prepared. */
export function prepare(scenario, dirs, url) {
  if (scenario.agent === 'claude') {
    return {
      command: BINARIES.claude,
      args: ['-p', scenario.prompt, '--output-format', 'stream-json', '--verbose', '--model', CLAUDE_MODEL],
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
        'model = "gpt-5-codex"',
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
      ].join('\n'),
    );
    return {
      command: BINARIES.codex,
      args: ['exec', '--skip-git-repo-check', scenario.prompt],
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
  throw new Error(`unknown agent ${scenario.agent}`);
}
