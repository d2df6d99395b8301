// Where Agent Plan's MCP server keeps the plans it is handed (its inbox), shared by the server
// (src/mcp/) and the follower: Agent Plan's own folder in the user's data folder, so a plan
// written while no VS Code window runs is there when one opens. Pure: paths only.
import * as path from 'node:path';

/** `$XDG_DATA_HOME/agent-plan/mcp-inbox` (`~/.local/share/…`); on Windows `%LOCALAPPDATA%\agent-plan\mcp-inbox`. */
export function mcpInboxFolder(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return path.join(env['LOCALAPPDATA'] || path.join(home, 'AppData', 'Local'), 'agent-plan', 'mcp-inbox');
  const data = env['XDG_DATA_HOME'];
  return path.join(data && path.isAbsolute(data) ? data : path.join(home, '.local', 'share'), 'agent-plan', 'mcp-inbox');
}

/** An inbox file's name: `<UTC yyyymmddThhmmss>-<pid>-<6 hex>.jsonl`, one file per server process (src/mcp/inboxLine.ts makes it). */
export const INBOX_FILE_PATTERN = /^(\d{8}T\d{6})-(\d{1,10})-[0-9a-f]{6}\.jsonl$/;

/** The type of an inbox line: one accepted todo_write call (its fields: src/mcp/inboxLine.ts, docs/mcp.md). */
export const INBOX_RECORD_TYPE = 'mcp/todo_write';
