// Where Claude Code keeps its transcripts, as pure functions over paths: its project folders for a workspace.
import * as path from 'node:path';
import { normalizeFolder } from '../locations';

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
