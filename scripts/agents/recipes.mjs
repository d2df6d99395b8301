// The recording recipe of every terminal agent, by its id (the id of its descriptor in
// src/agents/<agent>/index.ts): each lives in its agent's test twin, test/agents/<agent>/recording.mjs
// (under the name of its folder of src/agents/), beside its recordings (recordings/<scenario>/), and is
// gathered here. An agent not in the table is an error, never another agent's layout.
// Copilot (VS Code's chat) is recorded by scripts/record-copilot-chats.mjs, not here.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * @typedef {object} Recipe
 * @property {string} id The agent's id.
 * @property {string} package Its npm package.
 * @property {string} pin Its package's version (`npm run generate` writes it into scripts/agents/package.json; the lock file, package-lock.json, is npm's: `npm install --package-lock-only` there).
 * @property {string} bin Its command in node_modules/.bin.
 * @property {Array<{ name: string, prompt: string, env: object, script: object }>} scenarios Its scenarios, in order (scripts/agents/scenarios.mjs gathers them; the vocabulary of their scripts is in scripts/agents/steps.mjs): a name, the prompt, more environment, the scripted model's turns, and what the runner and its recipe read besides (args, tty, server, …).
 * @property {'anthropic' | 'responses' | 'gemini' | 'chat'} server The scripted model server it talks to (scripts/agents/servers/).
 * @property {(scenario: object, shared: { chatModel: string }) => string} model The model it is told to use.
 * @property {(dirs: object) => string} folder Its own folder in a run (or a recording).
 * @property {(scenario: object, dirs: object, url: string, tools: object) => { command: string, args: string[], env: object } | Promise<{ command: string, args: string[], env: object }>} prepare Its configuration, command line and environment for one run (a scenario that asks for Agent Plan's MCP server is connected to it first: scripts/agents/mcp.mjs).
 * @property {(dirs: object, listFiles: (dir: string) => string[]) => Record<string, string[]>} files The files of a run this project reads, by role.
 * @property {(dirs: object) => string[]} [extraFiles] More files a recording keeps.
 * @property {string} [binPath] Its command's path under node_modules, when node_modules/.bin cannot tell (two packages with one command name).
 * @property {Record<string, { package: string, pin: string, bin: string }>} [morePackages] More packages it is recorded with (another generation, say), by a name of its own: the name pinned in scripts/agents/package.json, its pin there (`npm:<package>@<version>`, an alias) and its command's path under node_modules.
 * @property {(scenario: object) => string} [packageOf] Which package a scenario runs: its id or a name of `morePackages` (its version is the recording's).
 * @property {(scenario: object, dirs: object) => string | undefined} [snapshots] A folder whose files it rewrites whole: copied as it is at each model request (run/task-snapshots/<NN>/).
 * @property {(sessionFile: string, filesUnder: Function) => string[]} [subagentFiles] A session's subagent transcripts (the terminal-agent tests).
 * @property {(rel: string[], file: string) => boolean} isSessionFile Whether a file of its folder (its path's parts relative to the folder) is a session file.
 * @property {(dirs: object, filesUnder: Function) => string[]} sessionFiles Its session files in a run (the terminal-agent tests).
 * @property {(file: string, lib: object) => Array<{ name: string, input: unknown }>} calls The tool calls a session file records, in order.
 * @property {(file: string, dirs: object, lib: object) => string[]} workspaces The workspace a session file says it ran in.
 */
// Each agent's recipe by its folder's name, in the registry's order (written by `npm run generate`,
// scripts/generate.mjs, for each agent whose test twin has a recording.mjs).
// <!-- generated:recipes -->
import { recipe as claudeCode } from '../../test/agents/claudeCode/recording.mjs';
import { recipe as codex } from '../../test/agents/codex/recording.mjs';
import { recipe as geminiCli } from '../../test/agents/geminiCli/recording.mjs';
import { recipe as opencode } from '../../test/agents/opencode/recording.mjs';
import { recipe as kilo } from '../../test/agents/kilo/recording.mjs';
import { recipe as qwenCode } from '../../test/agents/qwenCode/recording.mjs';
import { recipe as copilotCli } from '../../test/agents/copilotCli/recording.mjs';
import { recipe as cline } from '../../test/agents/cline/recording.mjs';
const GATHERED = { claudeCode, codex, geminiCli, opencode, kilo, qwenCode, copilotCli, cline };
// <!-- /generated -->

/** @type {Readonly<Record<string, Recipe>>} */
export const RECIPES = Object.freeze(Object.fromEntries(Object.values(GATHERED).map((recipe) => [recipe.id, recipe])));

/** Each recipe's folder name (its agent's, in src/agents/ and test/agents/), by the agent's id. */
const FOLDERS = Object.freeze(Object.fromEntries(Object.entries(GATHERED).map(([folder, recipe]) => [recipe.id, folder])));

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The recipe of the agent `id`; throws for an agent without one. */
export function recipeOf(id) {
  const recipe = Object.hasOwn(RECIPES, id) ? RECIPES[id] : undefined;
  if (recipe === undefined) throw new Error(`no recording recipe for the agent "${id}" (the recipes: ${Object.keys(RECIPES).join(', ')}; scripts/agents/recipes.mjs)`);
  return recipe;
}

/** Where the recordings of the agent `id` are, one folder per scenario: test/agents/<its folder>/recordings/. Throws for an agent without a recipe. */
export function recordingsOf(id) {
  recipeOf(id);
  return path.join(repoRoot, 'test', 'agents', FOLDERS[id], 'recordings');
}
