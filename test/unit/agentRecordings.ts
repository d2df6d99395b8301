// The recorded sessions of the real terminal agents (test/agents/<agent>/recordings/, made by
// scripts/agents/record.mjs): where their files are and what each run was told.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentId } from '../../src/core/foreign';

export interface Recording {
  /** The scenario's folder. */
  dir: string;
  /** The workspace path the agent ran in, as recorded in its files. */
  workspace: string;
  /** The agent's own folder inside the recording (its recipe's `folder`): `.claude`, the Codex home, `.gemini`, … */
  agentDir: string;
  /** The recorded session files (absolute, sorted). */
  sessionFiles: string[];
  /** The prompt the run was given on its command line (meta.json's `command`): the session's first request. */
  prompt: string;
}

interface RecordingRecipe {
  folder(dirs: { home: string; codexHome: string; xdgData: string }): string;
  isSessionFile(rel: string[], file: string): boolean;
}

/** Each terminal agent's recording recipe, by id (test/agents/<agent>/recording.mjs, gathered by scripts/agents/recipes.mjs), and the folder of its recordings. */
// A plain ESM file, loaded synchronously (tsx and esbuild turn it into CommonJS).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const recipes = require('../../scripts/agents/recipes.mjs') as { recipeOf(id: string): RecordingRecipe; recordingsOf(id: string): string };
const { recipeOf } = recipes;

/** The folder of the recordings of a terminal agent (test/agents/<its folder>/recordings/), one folder per scenario. */
export const recordingsOf = (agent: RecordedAgent): string => recipes.recordingsOf(agent);

/** The id of a terminal agent that has recordings (one without fails the test that asks, loudly). */
export type RecordedAgent = AgentId;

/** One recorded scenario (test/agents/<its folder>/recordings/<scenario>); a missing one fails the test that asks for it, loudly. */
export function recording(agent: RecordedAgent, scenario: string): Recording {
  const dir = path.join(recordingsOf(agent), scenario);
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as { workspace: string; command: string[] };
  const recipe = recipeOf(agent);
  // A recording keeps the run's files under the same relative paths as its scratch folders.
  const agentDir = recipe.folder({ home: path.join(dir, 'home'), codexHome: path.join(dir, 'codex-home'), xdgData: path.join(dir, 'home', '.local', 'share') });
  const sessionFiles = walk(agentDir).filter((file) => recipe.isSessionFile(path.relative(agentDir, file).split(path.sep), file));
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
