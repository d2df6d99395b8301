// Copilot: its manage_todo_list plans from VS Code's chat session files of this workspace,
// read-only. Its pure parser is parser.ts; src/node/copilotChats.ts finds and follows the files.
import { COPILOT_PARSER_VERSION, startCopilotChatSource } from '../../node/copilotChats';
import type { AgentDescriptor } from '../agent';

export * from './parser';

/** No folder setting: its files are in this workspace's storage. */
export const copilot: AgentDescriptor = {
  id: 'copilot',
  name: 'Copilot',
  icon: 'copilot',
  settingKey: 'copilot',
  parserVersion: COPILOT_PARSER_VERSION,
  start: (options) =>
    options.workspaceStorageFolder === undefined
      ? undefined
      : startCopilotChatSource({
          workspaceStorageFolder: options.workspaceStorageFolder,
          storageDir: options.storageDir,
          sink: options.sink,
          onUnknownShape: options.onUnknownShape,
          onError: options.onError,
          onPolling: options.onPolling,
        }),
};
