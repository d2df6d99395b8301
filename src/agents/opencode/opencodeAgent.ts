// How an agent that keeps its sessions in an opencode-style SQLite database is followed (opencode,
// and Kilo CLI, which is built on it: one schema, one plan tool): its database under the shared
// SqliteFollower, read by opencodeReader.ts, with a cursor of its own in Agent Plan's storage
// (`sources/<agent id>/`). Each agent's index.ts says its data folder's and database's names.
import * as path from 'node:path';
import { followerReports, type AgentStartOptions, type RunningFollower } from '../agent';
import type { OpencodeAgent } from './opencodeParser';
import { opencodeFollower } from './opencodeReader';

/** An opencode-style agent's data folder: `$XDG_DATA_HOME/<name>` or `~/.local/share/<name>` (on every system). */
export function xdgDataFolder(name: string, env: NodeJS.ProcessEnv, home: string): string {
  const xdg = env['XDG_DATA_HOME'];
  return path.join(xdg !== undefined && xdg !== '' && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'share'), name);
}

/**
 * The database in `folder`: `<name>.db`, or the file the agent's `<PREFIX>_DB` variable names
 * (an absolute path as it is, a relative one inside the folder), as the agent itself resolves it.
 */
export function databaseFile(folder: string, name: string, override: string | undefined): string {
  if (override === undefined || override === '') return path.join(folder, `${name}.db`);
  return path.isAbsolute(override) ? override : path.join(folder, override);
}

/** Starts following one opencode-style database: the agent `agent`'s `<dbName>.db`, or the file its `envVar` names. */
export function startOpencodeStyle(agent: OpencodeAgent, dbName: string, envVar: string, parserVersion: string, options: AgentStartOptions): RunningFollower | undefined {
  if (options.workspaceFolders.length === 0) return undefined;
  const follower = opencodeFollower({
    agent,
    dbFile: databaseFile(options.folder, dbName, process.env[envVar]),
    workspaceFolders: options.workspaceFolders,
    parserVersion,
    sink: options.sink,
    cursorFile: path.join(options.storageDir, 'sources', agent, 'cursor.json'),
    ...followerReports(options),
  });
  follower.start();
  return follower;
}
