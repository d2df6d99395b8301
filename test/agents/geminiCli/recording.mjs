// How Gemini CLI is recorded (scripts/agents/, gathered by scripts/agents/recipes.mjs): its npm
// package and command, how it runs offline against the scripted Gemini server, where its files land
// in a run, and how the terminal-agent tests read its calls back. Plain ESM: no build.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectMcp } from '../../../scripts/agents/mcp.mjs';
import { scenarios } from './scenarios.mjs';

export const GEMINI_MODEL = 'gemini-2.5-pro';

/** @type {import('../../../scripts/agents/recipes.mjs').Recipe} */
export const recipe = {
  id: 'gemini-cli',
  scenarios,
  package: '@google/gemini-cli',
  pin: '0.61.0',
  bin: 'gemini',
  server: 'gemini',
  model: () => GEMINI_MODEL,
  folder: (dirs) => path.join(dirs.home, '.gemini'),
  async prepare(scenario, dirs, url, { bin, baseEnv, key }) {
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
    // Agent Plan's MCP server, for a scenario that plans through it.
    if (scenario.mcp) await connectMcp('gemini-cli', dirs, scenario.mcp);
    return {
      command: bin,
      // yolo: write_todos is offered only then (a scenario may say another mode).
      args: ['-m', GEMINI_MODEL, '--approval-mode', scenario.approvalMode ?? 'yolo', '-p', scenario.prompt],
      env: baseEnv(dirs, {
        GOOGLE_GEMINI_BASE_URL: url,
        GEMINI_API_KEY: key,
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        ...scenario.env,
      }),
    };
  },
  files(dirs, listFiles) {
    const gemini = path.join(dirs.home, '.gemini');
    return {
      projects: listFiles(gemini).filter((f) => f === path.join(gemini, 'projects.json')),
      chats: listFiles(path.join(gemini, 'tmp')).filter((f) => f.includes(`${path.sep}chats${path.sep}`)),
    };
  },
  /** Files a recording keeps besides `files`: the project's root marker. */
  extraFiles: (dirs) => [path.join(dirs.home, '.gemini', 'tmp', 'demo', '.project_root')].filter((f) => fs.existsSync(f)),
  isSessionFile: (rel, file) => rel.includes('chats') && file.endsWith('.jsonl'),
  sessionFiles: ({ home }, filesUnder) => filesUnder(path.join(home, '.gemini', 'tmp'), (n) => n.startsWith('session-') && n.endsWith('.jsonl')),
  calls(file, { jsonLines }) {
    // Gemini writes a turn again (same id) once it has its tool calls: keep the last.
    const byId = new Map();
    for (const l of jsonLines(file)) if (typeof l.id === 'string') byId.set(l.id, l);
    return [...byId.values()].flatMap((r) => (r.toolCalls ?? []).map((c) => ({ name: c.name, input: c.args })));
  },
  workspaces(file, { home }, { jsonLines }) {
    const lines = jsonLines(file);
    const projects = JSON.parse(fs.readFileSync(path.join(home, '.gemini', 'projects.json'), 'utf8')).projects;
    const short = path.basename(path.dirname(path.dirname(file)));
    const paths = Object.entries(projects).filter(([, name]) => name === short).map(([p]) => p);
    const hash = lines[0]?.projectHash;
    return paths.filter((p) => crypto.createHash('sha256').update(p).digest('hex') === hash);
  },
};
