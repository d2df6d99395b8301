// Which Gemini CLI chats belong to this workspace, read with node:fs. Read-only.
import * as path from 'node:path';
import { readRegularFileText } from '../../node/regularFile';
import type { SessionFileLocator } from '../follow/follower';
import { jsonlFilesIn } from '../follow/jsonlFiles';
import { normalizeFolder } from '../locations';
import { geminiChatFolders } from './locations';

/** Gemini CLI: `<geminiDir>/projects.json` names the workspace's folder `<geminiDir>/tmp/<name>/chats/*.jsonl`. */
export function geminiCliLocator(geminiDir: string, workspaceFolders: readonly string[]): SessionFileLocator {
  let folders: string[] = [];
  return {
    async list() {
      let projects: string | undefined;
      try {
        projects = await readRegularFileText(path.join(geminiDir, 'projects.json'), 16 * 1024 * 1024);
      } catch {
        projects = undefined;
      }
      folders = [...new Set(workspaceFolders.flatMap((folder) => geminiChatFolders(geminiDir, folder, projects)))];
      return (await Promise.all(folders.map((folder) => jsonlFilesIn(folder)))).flat();
    },
    // The Gemini folder itself for projects.json; the chat folders for their files.
    watchFolders: () => [normalizeFolder(geminiDir), ...folders],
  };
}
