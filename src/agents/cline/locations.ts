// Where Cline keeps its files, as pure paths. Its CLI (both generations) keeps them in
// `~/.cline/data` (`$CLINE_DIR/data` when set). The VS Code extension runs the same core as the
// 2.x CLI, which keeps its task folders and task history under the host's global storage
// (`<globalStorage>/tasks/<id>/`, `<globalStorage>/state/taskHistory.json`); in VS Code that is
// the extension's own global storage folder, `<user data>/User/globalStorage/saoudrizwan.claude-dev`.
import * as path from 'node:path';

/** The VS Code extension's id (its global storage folder's name). */
export const CLINE_EXTENSION_ID = 'saoudrizwan.claude-dev';

/** `$CLINE_DIR/data`, or `~/.cline/data`. */
export function clineDataFolder(env: NodeJS.ProcessEnv, home: string): string {
  const own = env['CLINE_DIR'];
  return path.join(own !== undefined && own !== '' && path.isAbsolute(own) ? own : path.join(home, '.cline'), 'data');
}

/**
 * The extension's global storage folder, next to this workspace's storage folder
 * (`<user data>/User/workspaceStorage/<hash>` → `<user data>/User/globalStorage/saoudrizwan.claude-dev`).
 */
export function clineExtensionFolder(workspaceStorageFolder: string): string {
  return path.join(path.dirname(path.dirname(workspaceStorageFolder)), 'globalStorage', CLINE_EXTENSION_ID);
}

/** A task folder's name (a time in ms) or a 3.x session folder's (`<ms>_<suffix>`): anything else is never made into a path. */
export const CLINE_ID = /^[0-9]{6,20}(_[A-Za-z0-9]{1,32})?$/;
/** A 3.x subagent's messages file in its root session's folder. */
export const CLINE_SUBAGENT_FILE = /^agent_[A-Za-z0-9_]{1,64}\.messages\.json$/;
