// How Copilot CLI is recorded (scripts/agents/, gathered by scripts/agents/recipes.mjs): its npm
// package and command, how it runs offline against the scripted Chat Completions server (its own
// model provider: no GitHub sign-in), where its files land in a run, and how the terminal-agent
// tests read its calls back. Plain ESM: no build.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scenarios } from './scenarios.mjs';

/** @type {import('../../../scripts/agents/recipes.mjs').Recipe} */
export const recipe = {
  id: 'copilot-cli',
  scenarios,
  package: '@github/copilot',
  pin: '1.0.102',
  bin: 'copilot',
  server: 'chat',
  model: (_scenario, { chatModel }) => chatModel,
  folder: (dirs) => path.join(dirs.home, '.copilot'),
  prepare(scenario, dirs, url, { bin, baseEnv, key, chatModel }) {
    // Interactive: the workspace trusted, as a user who answered its trust screen "Yes, and
    // remember this folder" (which writes `trustedFolders` into ~/.copilot/config.json); without
    // it the run stops at that screen and never reaches the prompt.
    if (scenario.tty) {
      fs.mkdirSync(path.join(dirs.home, '.copilot'), { recursive: true });
      fs.writeFileSync(path.join(dirs.home, '.copilot', 'config.json'), JSON.stringify({ trustedFolders: [dirs.workspace] }, null, 2) + '\n');
    }
    // Interactive: no --allow-all-tools, so a shell command asks for leave; the prompt run first (-i).
    return {
      command: bin,
      args: scenario.tty ? ['-i', scenario.prompt, ...(scenario.args ?? []), '--no-color'] : ['-p', scenario.prompt, '--allow-all-tools', '--no-color'],
      env: baseEnv(dirs, {
        COPILOT_OFFLINE: 'true',
        COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
        COPILOT_PROVIDER_TYPE: 'openai',
        COPILOT_PROVIDER_API_KEY: key,
        COPILOT_MODEL: chatModel,
        COPILOT_AUTO_UPDATE: 'false',
        ...scenario.env,
      }),
    };
  },
  files(dirs, listFiles) {
    // Each session's folder: events.jsonl, workspace.yaml, plan.md, session.db (with -wal/-shm).
    // (Its lock files, checkpoints and file snapshots are not read.)
    const keep = /^(events\.jsonl|workspace\.yaml|plan\.md|session\.db(-wal|-shm|-journal)?)$/;
    return { sessions: listFiles(path.join(dirs.home, '.copilot', 'session-state')).filter((f) => keep.test(path.basename(f))) };
  },
  isSessionFile: (rel, file) => rel[0] === 'session-state' && path.basename(file) === 'events.jsonl',
  sessionFiles: ({ home }, filesUnder) => filesUnder(path.join(home, '.copilot', 'session-state'), (n) => n === 'events.jsonl'),
  calls: (file, { jsonLines }) => jsonLines(file).filter((l) => l.type === 'tool.execution_start').map((l) => ({ name: l.data.toolName, input: l.data.arguments })),
  workspaces(file, _dirs, { jsonLines }) {
    const lines = jsonLines(file);
    const yaml = fs.readFileSync(path.join(path.dirname(file), 'workspace.yaml'), 'utf8');
    const fromYaml = /^cwd: (.*)$/m.exec(yaml)?.[1];
    return [...new Set([...lines.filter((l) => l.type === 'session.start').map((l) => l.data.context.cwd), fromYaml])];
  },
};
