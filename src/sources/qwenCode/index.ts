// Qwen Code (`@qwen-code/qwen-code`): its plans from its chat files, read-only.
import * as path from 'node:path';
import { Follower } from '../../node/follower';
import { jsonlFilesIn } from '../../node/sessionLocators';
import { normalizeFolder } from '../locations';
import type { AgentDescriptor } from '../agent';
import { createQwenCodeParser, qwenProjectFolderName } from './parser';

/** `<qwenDir>/projects/<workspace path, every non-alphanumeric "-">/chats`: one folder per workspace folder. */
export function qwenChatFolders(qwenDir: string, workspaceFolders: readonly string[]): string[] {
  return [...new Set(workspaceFolders.map((folder) => path.join(qwenDir, 'projects', qwenProjectFolderName(normalizeFolder(folder)), 'chats')))];
}

export const qwenCode: AgentDescriptor = {
  id: 'qwen-code',
  name: 'Qwen Code',
  icon: 'hubot',
  settingKey: 'qwenCode',
  parserVersion: 'qwen-code/1',
  defaultFolder: (env, home) => {
    const own = env['QWEN_HOME'];
    return own !== undefined && own !== '' && path.isAbsolute(own) ? own : path.join(home, '.qwen');
  },
  start(options) {
    const folders = options.workspaceFolders;
    if (folders.length === 0) return undefined;
    const chats = qwenChatFolders(options.folder, folders);
    const follower = new Follower({
      locator: {
        list: async () => (await Promise.all(chats.map((folder) => jsonlFilesIn(folder)))).flat(),
        watchFolders: () => chats,
      },
      createParser: (_file, state) => createQwenCodeParser({ workspaceFolders: folders }, state),
      parserVersion: qwenCode.parserVersion,
      sink: options.sink,
      cursorDir: path.join(options.storageDir, 'sources', 'qwen-code', 'cursors'),
      onUnknownShape: options.onUnknownShape,
      onError: options.onError,
      onPolling: options.onPolling,
      ...(options.throttleMs !== undefined ? { throttleMs: options.throttleMs } : {}),
      ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
    });
    follower.start();
    return follower;
  },
};
