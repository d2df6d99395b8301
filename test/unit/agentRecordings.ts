// The recorded sessions of the real terminal agents (test/fixtures/agents, made by
// scripts/agents/record.mjs): where their files are and what each run was told.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const RECORDINGS = path.join(__dirname, '..', 'fixtures', 'agents');

export interface Recording {
  /** The scenario's folder. */
  dir: string;
  /** The workspace path the agent ran in, as recorded in its files. */
  workspace: string;
  /** The agent's own folder inside the recording: `.claude`, the Codex home, or `.gemini`. */
  agentDir: string;
  /** The recorded session files (absolute, sorted). */
  sessionFiles: string[];
  /** The prompt the run was given on its command line (meta.json's `command`): the session's first request. */
  prompt: string;
}

const AGENT_DIRS: Record<string, string> = {
  claude: 'home/.claude',
  codex: 'codex-home',
  gemini: 'home/.gemini',
  opencode: 'home/.local/share/opencode',
  kilo: 'home/.local/share/kilo',
  qwen: 'home/.qwen',
  copilot: 'home/.copilot',
};

/** One recorded scenario; a missing one fails the test that asks for it, loudly. */
export function recording(agent: 'claude' | 'codex' | 'gemini' | 'opencode' | 'kilo' | 'qwen' | 'copilot', scenario: string): Recording {
  const dir = path.join(RECORDINGS, agent, scenario);
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as { workspace: string; command: string[] };
  const agentDir = path.join(dir, AGENT_DIRS[agent] ?? '');
  const sessionFiles = walk(agentDir).filter((file) => {
    const rel = path.relative(agentDir, file).split(path.sep);
    if (agent === 'claude') return rel[0] === 'projects' && file.endsWith('.jsonl');
    if (agent === 'codex') return rel[0] === 'sessions' && file.endsWith('.jsonl');
    if (agent === 'opencode' || agent === 'kilo') return file.endsWith('.db');
    if (agent === 'qwen') return rel[0] === 'projects' && file.endsWith('.jsonl');
    if (agent === 'copilot') return rel[0] === 'session-state' && path.basename(file) === 'events.jsonl';
    return rel.includes('chats') && file.endsWith('.jsonl');
  });
  if (sessionFiles.length === 0) throw new Error(`no recorded session file in ${dir}`);
  // The prompt is the one argument with a space in it (the others are options and their values).
  const prompts = meta.command.filter((arg) => /\s/.test(arg));
  if (prompts.length !== 1) throw new Error(`no single prompt in the command of ${dir}`);
  return { dir, workspace: meta.workspace, agentDir, sessionFiles, prompt: prompts[0]! };
}

/** The one session file of a recording, as lines (the last newline gives no extra line). */
export function recordedLines(rec: Recording): string[] {
  const [file] = rec.sessionFiles;
  if (rec.sessionFiles.length !== 1 || file === undefined) throw new Error(`expected one session file in ${rec.dir}`);
  const text = fs.readFileSync(file, 'utf8');
  return text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
}

/** Index of the first line whose JSON satisfies `test`; throws when none does. */
export function findLine(lines: readonly string[], test: (value: Record<string, unknown>) => boolean): number {
  const index = lines.findIndex((line) => {
    try {
      return test(JSON.parse(line) as Record<string, unknown>);
    } catch {
      return false;
    }
  });
  if (index < 0) throw new Error('no recorded line matches');
  return index;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (entry.isFile()) out.push(full);
  }
  return out.sort();
}
