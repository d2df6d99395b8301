// Paths every agent's locator shares, as pure functions: an agent's home folder, a workspace
// folder's normal spelling, and whether a session's folder is in a workspace. Each agent's own
// folder layout is in its folder (src/agents/<agent>/locations.ts).
import * as path from 'node:path';
import { normalizeFolder } from '../core/worktrees/worktrees';

export { normalizeFolder };

/** An agent's own folder: the one its variable names (an absolute path), else `~/<name>`. */
export function agentHomeFolder(env: NodeJS.ProcessEnv, variable: string, home: string, name: string): string {
  const own = env[variable];
  return own !== undefined && own !== '' && path.isAbsolute(own) ? own : path.join(home, name);
}

/** True when `cwd` is `workspace` or a folder inside it. */
export function isInsideWorkspace(cwd: string, workspace: string): boolean {
  const folder = normalizeFolder(workspace);
  const inner = normalizeFolder(cwd);
  return inner === folder || inner.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);
}
