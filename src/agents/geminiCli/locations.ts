// Where Gemini CLI keeps its chats, as pure functions over paths and projects.json.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { isRecord } from '../../core/json';
import { normalizeFolder } from '../locations';

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
