// How Qwen Code is recorded (scripts/agents/, gathered by scripts/agents/recipes.mjs): its npm
// package and command, how it runs offline against the scripted Chat Completions server, where its
// files land in a run, and how the terminal-agent tests read its calls back. Plain ESM: no build.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scenarios } from './scenarios.mjs';

/** @type {import('../../../scripts/agents/recipes.mjs').Recipe} */
export const recipe = {
  id: 'qwen-code',
  scenarios,
  package: '@qwen-code/qwen-code',
  pin: '0.24.4',
  bin: 'qwen',
  server: 'chat',
  model: (_scenario, { chatModel }) => chatModel,
  folder: (dirs) => path.join(dirs.home, '.qwen'),
  prepare(scenario, dirs, url, { bin, baseEnv, key, chatModel }) {
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
      command: bin,
      // Interactive: no --yolo (the scenario's args say the approval mode), the prompt run first (-i).
      args: scenario.tty ? ['--auth-type', 'openai', ...(scenario.args ?? []), '-i', scenario.prompt] : ['--auth-type', 'openai', '--yolo', '-p', scenario.prompt],
      env: baseEnv(dirs, {
        OPENAI_API_KEY: key,
        OPENAI_BASE_URL: `${url}/v1`,
        OPENAI_MODEL: chatModel,
        QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
        ...scenario.env,
      }),
    };
  },
  files(dirs, listFiles) {
    const qwen = path.join(dirs.home, '.qwen');
    return {
      chats: listFiles(path.join(qwen, 'projects')).filter((f) => f.endsWith('.jsonl')),
      todos: listFiles(path.join(qwen, 'todos')),
    };
  },
  isSessionFile: (rel, file) => rel[0] === 'projects' && file.endsWith('.jsonl'),
  sessionFiles: ({ home }, filesUnder) => filesUnder(path.join(home, '.qwen', 'projects'), (n) => n.endsWith('.jsonl')),
  calls: (file, { jsonLines }) =>
    jsonLines(file)
      .filter((l) => l.type === 'assistant' && Array.isArray(l.message?.parts))
      .flatMap((l) => l.message.parts.filter((p) => p.functionCall).map((p) => ({ name: p.functionCall.name, input: p.functionCall.args }))),
  workspaces: (file, _dirs, { jsonLines }) => [...new Set(jsonLines(file).filter((l) => typeof l.cwd === 'string').map((l) => l.cwd))],
};
