// How each agent is set up and started against a scripted model server at `url`: its recipe
// (test/agents/<agent>/recording.mjs, by id in recipes.mjs) writes its scratch configuration and
// gives its command line and environment; this file gives what they share.
import * as path from 'node:path';
import { BINARIES, cleanEnv, packageOf } from './install.mjs';
import { recipeOf } from './recipes.mjs';
import { startAnthropicServer } from './servers/anthropic.mjs';
import { startGeminiServer } from './servers/gemini.mjs';
import { startChatServer } from './servers/chat.mjs';
import { startResponsesServer } from './servers/openai.mjs';

const FAKE_KEY = 'scripted-model-key';

/** The model the agents on the scripted chat server (their recipe's `server: 'chat'`) are told to use. */
export const CHAT_MODEL = 'm';

/** The scripted model servers, by the name a recipe gives (`server`). */
const SERVER_STARTS = { anthropic: startAnthropicServer, responses: startResponsesServer, gemini: startGeminiServer, chat: startChatServer };

/** The scripted model server the agent `id` talks to. */
export function serverOf(id) {
  return SERVER_STARTS[recipeOf(id).server];
}

/** The model the agent of `scenario` is told to use. */
export function modelOf(scenario) {
  return recipeOf(scenario.agent).model(scenario, { chatModel: CHAT_MODEL });
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

/** Returns { command, args, env } (or a promise of them) for one run of `scenario` with its dirs prepared. */
export function prepare(scenario, dirs, url) {
  const recipe = recipeOf(scenario.agent);
  return recipe.prepare(scenario, dirs, url, { bin: BINARIES[packageOf(scenario)], baseEnv, key: FAKE_KEY, chatModel: CHAT_MODEL });
}
