// How an opencode-style agent is recorded (opencode and Kilo CLI, built on it): one recipe maker
// and one set of scenarios for the agents that share opencode's command line, configuration,
// database and tools. Each such agent's own recipe (test/agents/<agent>/recording.mjs) gives its
// package, command, variables and the number of model requests before its first tool call.
// Plain ESM: no build.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { answer, ANSWER_SETTLE_MS, askPrompt, editPlan, editPrompt, fixPrompt, NEW_LINE, OLD_LINE, TOKENS, WAIT_TTY, waitPrompt, WORKSPACE } from './steps.mjs';

/** What the approval scenarios wait to see on the screen before they answer or end: its permission panel's title. */
const PROMPT = 'Permission required';

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
 * The recipe of an opencode-style agent: `npmPackage` and `pin` are its package and version;
 * `name` is its command, its data folder's and its database's name; `prefix` its environment
 * variables' prefix; `env` more of them; `asked` the model request that holds the bash call of
 * its approval scenarios (opencodeStyleScenarios).
 * @returns {import('./recipes.mjs').Recipe}
 */
export function opencodeStyleRecipe({ id, npmPackage, pin, name, prefix, env = {}, asked }) {
  return {
    id,
    package: npmPackage,
    pin,
    bin: name,
    scenarios: opencodeStyleScenarios({ asked }),
    server: 'chat',
    model: (_scenario, { chatModel }) => chatModel,
    folder: (dirs) => path.join(dirs.xdgData, name),
    prepare(scenario, dirs, url, { bin, baseEnv, key, chatModel }) {
      if (scenario.tty) {
        // Its interface's own setting "Disable animations" (kept in its state folder's kv.json):
        // the screen is drawn when it changes, not many times a second while a spinner turns.
        const state = path.join(dirs.home, '.local', 'state', name);
        const kv = path.join(state, 'kv.json');
        if (!fs.existsSync(kv)) {
          fs.mkdirSync(state, { recursive: true });
          fs.writeFileSync(kv, JSON.stringify({ animations_enabled: false }) + '\n');
        }
      }
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


// Their scenarios: `todowrite`, whole list each call, with a priority per item and a fourth
// status, cancelled. Their read tool is `read` (absolute path); their edits write then edit
// (`filePath`, `oldString`, `newString`), with an edit that fails first (its text is not in the file).
const opencodeRead = { calls: [{ name: 'read', input: { filePath: `${WORKSPACE}/src/parser.ts` } }] };
const opencodeTodosOf = (items) => ({ calls: [{ name: 'todowrite', input: { todos: items.map(([content, status]) => ({ content, status, priority: 'high' })) } }] });
const opencodeTodos = [
  {
    calls: [
      {
        name: 'todowrite',
        input: {
          todos: [
            { content: 'Read the parser', status: 'in_progress', priority: 'high' },
            { content: 'Fix the off-by-one', status: 'pending', priority: 'high' },
            { content: 'Write a regression test', status: 'pending', priority: 'medium' },
            { content: 'Update the changelog', status: 'pending', priority: 'low' },
          ],
        },
      },
    ],
  },
  opencodeRead,
  {
    calls: [
      {
        name: 'todowrite',
        input: {
          todos: [
            { content: 'Read the parser', status: 'completed', priority: 'high' },
            { content: 'Fix the off-by-one', status: 'in_progress', priority: 'high' },
            { content: 'Write a regression test', status: 'pending', priority: 'medium' },
            { content: 'Update the changelog', status: 'cancelled', priority: 'low' },
          ],
        },
      },
    ],
  },
  { text: 'Working on the off-by-one; the changelog is not needed.' },
];
const opencodeEdits = [
  opencodeTodosOf(editPlan('in_progress', 'pending')),
  { calls: [{ name: 'write', input: { filePath: `${WORKSPACE}/src/tokens.ts`, content: TOKENS } }] },
  opencodeTodosOf(editPlan('completed', 'in_progress')),
  opencodeRead,
  { calls: [{ name: 'edit', input: { filePath: `${WORKSPACE}/src/parser.ts`, oldString: 'no such text', newString: 'nothing' } }] },
  { calls: [{ name: 'edit', input: { filePath: `${WORKSPACE}/src/parser.ts`, oldString: OLD_LINE, newString: NEW_LINE } }] },
  opencodeTodosOf(editPlan('completed', 'completed')),
  { text: 'The parser uses the separator constant now.' },
];
// Waiting on a tool call: their full-screen interface (TUI) with the prompt given at start, bash
// set to ask (`permission`), a screen of WAIT_TTY. The left run is ended with SIGKILL, so it
// writes nothing on its way out.
const opencodeBash = { calls: [{ name: 'bash', input: { command: 'touch approved.txt', description: 'Create approved.txt' } }] };
const opencodeWait = [opencodeTodosOf([['Create approved.txt', 'in_progress']]), opencodeBash, { text: 'Created approved.txt.' }];
const opencodeAsk = { '*': 'allow', bash: 'ask' };

/**
 * The scenarios of an opencode-style agent, in order. `asked` is the model request that holds its
 * bash call: the 3rd for opencode (after its title request), the 2nd for Kilo CLI (which asks for no title).
 */
export function opencodeStyleScenarios({ asked }) {
  return [
    { name: 'todowrite', prompt: fixPrompt, env: {}, script: opencodeTodos },
    { name: 'no-plan', prompt: askPrompt, env: {}, script: [opencodeRead, answer] },
    { name: 'edits', prompt: editPrompt, env: {}, script: opencodeEdits },
    { name: 'approval-left', prompt: waitPrompt, env: {}, permission: opencodeAsk, script: opencodeWait, tty: { ...WAIT_TTY, keys: [{ afterRequests: asked, screen: PROMPT }], endMs: 0, endSignal: 'SIGKILL' } },
    { name: 'approval-given', prompt: waitPrompt, env: {}, permission: opencodeAsk, script: opencodeWait, tty: { ...WAIT_TTY, keys: [{ afterRequests: asked, screen: PROMPT, text: '\r' }], untilAnswered: true, endMs: ANSWER_SETTLE_MS } },
  ];
}
