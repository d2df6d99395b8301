// Reads back, from an agent's recorded files, the tool calls it made, in order, as
// { name, input } — just enough to check a recording against the script it played.
// (The product's parsers live in src/agents; this is the test's own short reading, in each
// agent's recipe, test/agents/<agent>/recording.mjs.)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { recipeOf } from '../../scripts/agents/recipes.mjs';
import { resolveScript } from '../../scripts/agents/scenarios.mjs';
import { queryRows } from '../../scripts/agents/sqlite.mjs';

function jsonLines(file) {
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

function filesUnder(dir, test) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && test(e.name))
    .map((e) => path.join(e.parentPath ?? e.path, e.name))
    .sort();
}

const lib = { jsonLines, queryRows };

/** The session files of `agent` (its id) under a home folder (and CODEX_HOME for Codex). */
export function sessionFiles(agent, dirs) {
  return recipeOf(agent).sessionFiles(dirs, filesUnder);
}

/** Tool calls of one session file, in order. */
export function recordedCalls(agent, file) {
  return recipeOf(agent).calls(file, lib);
}

/** The workspace each file says it belongs to (one entry per place it says so). */
export function recordedWorkspaces(agent, file, dirs) {
  return recipeOf(agent).workspaces(file, dirs, lib);
}

/** The calls a scenario's script makes in `workspace`, flattened in order. */
export function scriptedCalls(script, workspace) {
  // A script with a subagent: the main session makes the main script's calls.
  const turns = Array.isArray(script) ? script : script.main;
  return resolveScript(turns, workspace).flatMap((turn) => turn.calls ?? []);
}

/** A session's subagent transcripts, as its agent's recipe finds them (none when it says nothing). */
export function subagentFiles(agent, sessionFile) {
  return recipeOf(agent).subagentFiles?.(sessionFile, filesUnder) ?? [];
}
