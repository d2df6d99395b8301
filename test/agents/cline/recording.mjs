// How Cline is recorded (scripts/agents/, gathered by scripts/agents/recipes.mjs), both
// generations under its one id: 3.x (`cline`, the current CLI) and 2.x (`cline2`, the npm alias
// `npm:cline@2.x`, built on the VS Code extension's core), installed side by side; a scenario
// with `generation: 2` runs 2.x. Both talk to the scripted Chat Completions server through an
// OpenAI-compatible provider set by their own `cline auth`. Plain ESM: no build.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scenarios } from './scenarios.mjs';

const quote = (word) => `'${String(word).split("'").join("'\\''")}'`;
const data = (home) => path.join(home, '.cline', 'data');
const isGeneration2 = (scenario) => scenario.generation === 2;

/** The recipe's `auth` then the run, in one shell: the server answers while both run. */
function authThenRun(auth, run) {
  return ['-c', `${auth.map(quote).join(' ')} >/dev/null </dev/null && exec ${run.map(quote).join(' ')} </dev/null`];
}

/** @type {import('../../../scripts/agents/recipes.mjs').Recipe} */
export const recipe = {
  id: 'cline',
  scenarios,
  package: 'cline',
  pin: '3.0.65',
  bin: 'cline',
  // Both generations name their command `cline` (and .bin/cline is 3.x's platform binary): each
  // is started from its own package.
  binPath: path.join('cline', 'bin', 'cline'),
  morePackages: { cline2: { package: 'cline2', pin: 'npm:cline@2.18.0', bin: path.join('cline2', 'dist', 'cli.mjs') } },
  packageOf: (scenario) => (isGeneration2(scenario) ? 'cline2' : 'cline'),
  server: 'chat',
  model: (_scenario, { chatModel }) => chatModel,
  folder: (dirs) => data(dirs.home),
  /**
   * 3.x: telemetry and updates off in its global settings, `CLINE_SESSION_BACKEND_MODE=local`
   * (otherwise a run that is not `--yolo` leaves a background hub daemon behind); its team board
   * tool is offered only without `--yolo`. 2.x: telemetry off in its global state; `-y` approves
   * every tool; the model answers with XML tool calls in its text (no `tools` in the request: the
   * scenario's `server.textTurns`).
   */
  prepare(scenario, dirs, url, { bin, baseEnv, key, chatModel }) {
    const env = baseEnv(dirs, { CLINE_NO_AUTO_UPDATE: '1', CLINE_TELEMETRY_DISABLED: '1', ...scenario.env });
    if (isGeneration2(scenario)) {
      // Telemetry off in its global state, as its settings write it: otherwise each of its two
      // commands retries its telemetry at exit, offline, for 9 s.
      fs.mkdirSync(data(dirs.home), { recursive: true });
      fs.writeFileSync(path.join(data(dirs.home), 'globalState.json'), JSON.stringify({ telemetrySetting: 'disabled' }, null, 2) + '\n');
      const auth = [bin, 'auth', '-p', 'openai', '-k', key, '-m', chatModel, '-b', `${url}/v1`];
      return { command: 'sh', args: authThenRun(auth, [bin, ...(scenario.args ?? ['-y']), scenario.prompt]), env };
    }
    const settings = path.join(data(dirs.home), 'settings');
    fs.mkdirSync(settings, { recursive: true });
    fs.writeFileSync(path.join(settings, 'global-settings.json'), JSON.stringify({ telemetryOptOut: true, autoUpdateEnabled: false }, null, 2) + '\n');
    const auth = [bin, 'auth', '--provider', 'openai-compatible', '--apikey', key, '--modelid', chatModel, '--baseurl', `${url}/v1`];
    return { command: 'sh', args: authThenRun(auth, [bin, ...(scenario.args ?? []), scenario.prompt]), env: { ...env, CLINE_SESSION_BACKEND_MODE: 'local' } };
  },
  // Every JSON file is rewritten whole at each step: 2.x's task folders, 3.x's session folders.
  snapshots: (scenario, dirs) => path.join(data(dirs.home), isGeneration2(scenario) ? 'tasks' : 'sessions'),
  files(dirs, listFiles) {
    const root = data(dirs.home);
    return {
      // 3.x: the session folders (manifest, messages, subagents') and the databases with their -wal/-shm.
      sessions: listFiles(path.join(root, 'sessions')).filter((f) => f.endsWith('.json')),
      databases: listFiles(path.join(root, 'db')).filter((f) => /\.db(-wal|-shm)?$/.test(path.basename(f))),
      // 2.x: the task folders (focus chain, ui_messages.json, history, metadata) and which
      // workspace each task ran in (`cwdOnTaskInitialization`).
      tasks: listFiles(path.join(root, 'tasks')).filter((f) => /\.(json|md)$/.test(f)),
      history: listFiles(path.join(root, 'state')).filter((f) => path.basename(f) === 'taskHistory.json'),
    };
  },
  // 3.x: a session's messages file (a subagent's `agent_*.messages.json` is not a session here); 2.x: a task's ui_messages.json.
  isSessionFile: (rel, file) =>
    (rel[0] === 'sessions' && file.endsWith('.messages.json') && !path.basename(file).startsWith('agent_')) || (rel[0] === 'tasks' && path.basename(file) === 'ui_messages.json'),
  sessionFiles: ({ home }, filesUnder) => [
    ...filesUnder(path.join(data(home), 'sessions'), (n) => n.endsWith('.messages.json') && !n.startsWith('agent_')),
    ...filesUnder(path.join(data(home), 'tasks'), (n) => n === 'ui_messages.json'),
  ],
  // 3.x: `agent_<id>.messages.json` beside its parent's messages file.
  subagentFiles: (sessionFile, filesUnder) =>
    sessionFile.endsWith('.messages.json') ? filesUnder(path.dirname(sessionFile), (n) => n.startsWith('agent_') && n.endsWith('.messages.json')) : [],
  calls(file) {
    // 2.x calls its tools in XML inside the model's text (its script's turns are text): no calls.
    if (path.basename(file) === 'ui_messages.json') return [];
    const { messages } = JSON.parse(fs.readFileSync(file, 'utf8'));
    return messages.filter((m) => m.role === 'assistant').flatMap((m) => m.content.filter((b) => b.type === 'tool_use').map((b) => ({ name: b.name, input: b.input })));
  },
  workspaces(file, { home }) {
    if (path.basename(file) === 'ui_messages.json') {
      const history = JSON.parse(fs.readFileSync(path.join(data(home), 'state', 'taskHistory.json'), 'utf8'));
      return history.filter((t) => t.id === path.basename(path.dirname(file))).map((t) => t.cwdOnTaskInitialization);
    }
    const manifest = JSON.parse(fs.readFileSync(file.replace(/\.messages\.json$/, '.json'), 'utf8'));
    return [manifest.cwd];
  },
};
