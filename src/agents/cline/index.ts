// Cline: its plans from its own files, read-only, both generations. 2.x (and the VS Code
// extension, the same core): each task's focus chain from its `ui_messages.json`
// (focusChain.ts). 3.x: each session's team task board, edits and usage from its messages file
// (teamBoard.ts), subagents under their parent. Every one of these files is rewritten whole at
// each step: the shared follower reads each version as one snapshot (follow/snapshotFiles.ts).
import * as path from 'node:path';
import { followerReports, type AgentDescriptor } from '../agent';
import { Follower } from '../follow/follower';
import { snapshotFileReader } from '../follow/snapshotFiles';
import { createClineTaskParser } from './focusChain';
import { clineDataFolder, clineExtensionFolder } from './locations';
import { clineLocator } from './locator';
import { createClineSessionParser } from './teamBoard';

export * from './focusChain';
export * from './teamBoard';
export { clineLocator } from './locator';
export { clineDataFolder, clineExtensionFolder } from './locations';

export const cline: AgentDescriptor = {
  id: 'cline',
  name: 'Cline',
  icon: 'checklist',
  settingKey: 'cline',
  parserVersion: 'cline/1',
  defaultFolder: (env, home) => clineDataFolder(env, home),
  start(options) {
    const folders = options.workspaceFolders;
    if (folders.length === 0) return undefined;
    const roots = [options.folder, ...(options.workspaceStorageFolder !== undefined ? [clineExtensionFolder(options.workspaceStorageFolder)] : [])];
    const locator = clineLocator(roots, folders);
    const follower = new Follower({
      locator,
      reader: snapshotFileReader(),
      createParser: (file, state) => {
        const found = locator.describe(file);
        if (found?.kind === 'task') return createClineTaskParser({ task: found.task, cwd: found.cwd }, state);
        return createClineSessionParser(found === undefined ? {} : { cwd: found.cwd }, state);
      },
      parserVersion: cline.parserVersion,
      sink: options.sink,
      cursorDir: path.join(options.storageDir, 'sources', 'cline', 'cursors'),
      ...followerReports(options),
    });
    follower.start();
    return follower;
  },
};
