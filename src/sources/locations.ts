// Where each terminal agent keeps its session files, as pure functions over paths and
// file contents: which of them belong to a workspace. The reading is done in src/node.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { isRecord } from '../core/json';

/** A workspace path without a trailing separator (the root stays as it is). */
/** An agent's own folder: the one its variable names (an absolute path), else `~/<name>`. */
export function agentHomeFolder(env: NodeJS.ProcessEnv, variable: string, home: string, name: string): string {
  const own = env[variable];
  return own !== undefined && own !== '' && path.isAbsolute(own) ? own : path.join(home, name);
}

export function normalizeFolder(folder: string): string {
  const resolved = path.resolve(folder);
  return resolved.length > 1 && resolved.endsWith(path.sep) ? resolved.slice(0, -1) : resolved;
}

/** True when `cwd` is `workspace` or a folder inside it. */
export function isInsideWorkspace(cwd: string, workspace: string): boolean {
  const folder = normalizeFolder(workspace);
  const inner = normalizeFolder(cwd);
  return inner === folder || inner.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);
}

/** Claude Code shortens project folder names beyond this, adding "-" and a hash of the path. */
export const CLAUDE_FOLDER_NAME_MAX = 200;

/**
 * Claude Code's project folders for a workspace: `<claudeDir>/projects/<path with every
 * character that is not a letter or digit replaced by "-">` (older builds replaced only the
 * separators, so that spelling is tried too); the `cwd` on each line decides in the end.
 * A name longer than CLAUDE_FOLDER_NAME_MAX is cut and gets a hash suffix: see claudeLongFolderPrefix.
 */
export function claudeProjectFolders(claudeDir: string, workspace: string): string[] {
  const folder = normalizeFolder(workspace);
  const names = new Set([folder.replace(/[^a-zA-Z0-9]/g, '-'), folder.replace(/[\\/]/g, '-')]);
  return [...names].filter((name) => name.length <= CLAUDE_FOLDER_NAME_MAX).map((name) => path.join(claudeDir, 'projects', name));
}

/**
 * For a workspace path whose folder name Claude Code shortens: the start every such folder
 * name has (`<first 200 characters>-`), since the hash after it is Claude Code's own.
 * Undefined when the name is not shortened.
 */
export function claudeLongFolderPrefix(workspace: string): string | undefined {
  const name = normalizeFolder(workspace).replace(/[^a-zA-Z0-9]/g, '-');
  return name.length > CLAUDE_FOLDER_NAME_MAX ? `${name.slice(0, CLAUDE_FOLDER_NAME_MAX)}-` : undefined;
}

/** Codex's day folder for a date: `<codexHome>/sessions/YYYY/MM/DD`. */
export function codexDayFolder(codexHome: string, year: number, month: number, day: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return path.join(codexHome, 'sessions', String(year), pad(month), pad(day));
}

/** A Codex rollout file name: `rollout-<start time>-<thread id>.jsonl`. */
export function isCodexRolloutName(name: string): boolean {
  return name.startsWith('rollout-') && name.endsWith('.jsonl');
}

/**
 * The workspace recorded on a Codex rollout's first line (`session_meta.payload.cwd`),
 * or undefined when the line is not a session_meta line.
 */
export function codexRolloutCwd(firstLine: string): string | undefined {
  try {
    const value = JSON.parse(firstLine) as unknown;
    if (!isRecord(value) || value['type'] !== 'session_meta') return undefined;
    const payload = value['payload'];
    if (!isRecord(payload)) return undefined;
    const cwd = payload['cwd'];
    return typeof cwd === 'string' && cwd !== '' ? cwd : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Gemini CLI's chat folders for a workspace: `projects.json` maps the workspace path to a
 * short name (`<geminiDir>/tmp/<name>/chats`); older versions used the SHA-256 of the path.
 * `projectsJson` is the file's text, or undefined when it does not exist.
 */
export function geminiChatFolders(geminiDir: string, workspace: string, projectsJson: string | undefined): string[] {
  const folder = normalizeFolder(workspace);
  const names = new Set<string>();
  const short = geminiProjectName(projectsJson, folder);
  if (short !== undefined) names.add(short);
  names.add(geminiProjectHash(folder));
  return [...names].map((name) => path.join(geminiDir, 'tmp', name, 'chats'));
}

/** The `projectHash` Gemini CLI records for a workspace path. */
export function geminiProjectHash(workspace: string): string {
  return createHash('sha256').update(workspace, 'utf8').digest('hex');
}

/** The short name `projects.json` gives a workspace; only a plain folder name is accepted. */
export function geminiProjectName(projectsJson: string | undefined, workspace: string): string | undefined {
  if (projectsJson === undefined) return undefined;
  try {
    const value = JSON.parse(projectsJson) as unknown;
    if (!isRecord(value) || !isRecord(value['projects'])) return undefined;
    const projects = value['projects'];
    const folder = normalizeFolder(workspace);
    for (const [key, name] of Object.entries(projects)) {
      if (typeof name !== 'string' || !isPlainName(name)) continue;
      if (normalizeFolder(key) === folder) return name;
    }
  } catch {
    // Not JSON (being written, or another shape): no mapping yet.
  }
  return undefined;
}

/** A single path segment: no separators, not "." or "..". */
function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[\\/\0]/.test(name);
}

