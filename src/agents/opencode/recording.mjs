// How opencode is recorded (scripts/agents/, gathered by scripts/agents/recipes.mjs): its npm
// package and command, how it runs offline against the scripted Chat Completions server, where
// its files land in a run, and how the terminal-agent tests read its calls back. Kilo CLI is
// recorded the same way (opencodeStyleRecipe). Plain ESM: no build.
import * as path from 'node:path';

/**
 * opencode's (and Kilo CLI's) whole configuration, given in the environment: one
 * OpenAI-compatible provider (its SDK is bundled in the binary) at the scripted server,
 * nothing shared, no update check. Every permission is allowed unless the scenario says
 * otherwise (`permission`, e.g. `{"*": "allow", "bash": "ask"}` to be asked before a command).
 */
function opencodeConfig(url, key, model, permission = { '*': 'allow' }) {
  return JSON.stringify({
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Scripted model',
        options: { baseURL: `${url}/v1`, apiKey: key },
        models: { [model]: { name: 'Scripted', tool_call: true, limit: { context: 128000, output: 8192 } } },
      },
    },
    model: `fake/${model}`,
    small_model: `fake/${model}`,
    autoupdate: false,
    share: 'disabled',
    permission,
  });
}

/**
 * The recipe of an opencode-style agent: `name` is its command, its data folder's and its
 * database's name; `prefix` its environment variables' prefix; `env` more of them.
 * @returns {import('../../../scripts/agents/recipes.mjs').Recipe}
 */
export function opencodeStyleRecipe({ id, npmPackage, name, prefix, env = {} }) {
  return {
    id,
    package: npmPackage,
    bin: name,
    server: 'chat',
    model: (_scenario, { chatModel }) => chatModel,
    folder: (dirs) => path.join(dirs.xdgData, name),
    prepare(scenario, dirs, url, { bin, baseEnv, key, chatModel }) {
      return {
        command: bin,
        // Interactive: its full-screen interface (TUI), the prompt given to it and sent at start.
        args: scenario.tty ? ['-m', `fake/${chatModel}`, '--prompt', scenario.prompt] : ['run', '-m', `fake/${chatModel}`, scenario.prompt],
        env: baseEnv(dirs, {
          [`${prefix}_CONFIG_CONTENT`]: opencodeConfig(url, key, chatModel, scenario.permission),
          [`${prefix}_DISABLE_MODELS_FETCH`]: '1',
          [`${prefix}_DISABLE_AUTOUPDATE`]: '1',
          [`${prefix}_DISABLE_SHARE`]: '1',
          [`${prefix}_DISABLE_LSP_DOWNLOAD`]: '1',
          [`${prefix}_DISABLE_DEFAULT_PLUGINS`]: '1',
          ...env,
          ...scenario.env,
        }),
      };
    },
    // The database with its -wal and -shm files, as the run left them.
    files: (dirs, listFiles) => ({ databases: listFiles(path.join(dirs.xdgData, name)).filter((f) => /\.db(-wal|-shm)?$/.test(path.basename(f))) }),
    isSessionFile: (_rel, file) => file.endsWith('.db'),
    // One database holds every session; the test reads its one session.
    sessionFiles: ({ home }, filesUnder) => filesUnder(path.join(home, '.local', 'share', name), (n) => n === `${name}.db`),
    calls(file, { queryRows }) {
      const { parts } = queryRows(file, { parts: 'SELECT data FROM part ORDER BY id' });
      return parts.map((p) => JSON.parse(p.data)).filter((d) => d.type === 'tool').map((d) => ({ name: d.tool, input: d.state.input }));
    },
    workspaces: (file, _dirs, { queryRows }) => queryRows(file, { s: 'SELECT directory FROM session' }).s.map((r) => r.directory),
  };
}

export const recipe = opencodeStyleRecipe({ id: 'opencode', npmPackage: 'opencode-ai', name: 'opencode', prefix: 'OPENCODE' });
