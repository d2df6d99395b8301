// Which Claude Code transcripts belong to this workspace, read with node:fs. Read-only: nothing here
// creates or changes anything in Claude Code's folder.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { SessionFileLocator } from '../follow/follower';
import { jsonlFilesIn } from '../follow/jsonlFiles';
import { claudeLongFolderPrefix, claudeProjectFolders } from './locations';

/** Claude Code: `<claudeDir>/projects/<workspace path, "-" for separators>/*.jsonl`. */
export function claudeCodeLocator(claudeDir: string, workspaceFolders: readonly string[]): SessionFileLocator {
  const projects = path.join(claudeDir, 'projects');
  const fixed = [...new Set(workspaceFolders.flatMap((folder) => claudeProjectFolders(claudeDir, folder)))];
  const prefixes = workspaceFolders.map(claudeLongFolderPrefix).filter((p): p is string => p !== undefined);
  let folders = fixed;
  let subagentFolders: string[] = [];
  return {
    async list() {
      folders = fixed;
      if (prefixes.length > 0) {
        // A shortened name ends in Claude Code's own hash of the path: match on the start.
        const names = await fsp.readdir(projects).catch(() => [] as string[]);
        const long = names.filter((name) => prefixes.some((prefix) => name.startsWith(prefix)));
        folders = [...fixed, ...long.map((name) => path.join(projects, name))];
      }
      const sessions = (await Promise.all(folders.map((folder) => jsonlFilesIn(folder)))).flat();
      // Each session's subagents write their own transcripts in `<session id>/subagents/`, before
      // the parent's transcript says so: each such folder is watched, a missing one through its
      // nearest existing parent (the project folder, already watched, for a session that has no
      // folder of its own), so a session costs a watcher only once it has a folder.
      subagentFolders = sessions.map((file) => path.join(file.slice(0, -'.jsonl'.length), 'subagents'));
      const listed = await Promise.all(subagentFolders.map((folder) => jsonlFilesIn(folder, (name) => name.startsWith('agent-'))));
      return [...sessions, ...listed.flat()];
    },
    watchFolders: () => [...(prefixes.length > 0 ? [projects, ...folders] : folders), ...subagentFolders],
  };
}
