// Copilot: its manage_todo_list plans from VS Code's chat session files of this workspace,
// read-only. Its pure parser is parser.ts, the files its edits wrote fileWrites.ts; start.ts
// finds and follows the files.
import type { AgentDescriptor } from '../agent';
import { COPILOT_PARSER_VERSION, startCopilotChatSource } from './start';

export * from './parser';

/** No folder setting: its files are in this workspace's storage. */
export const copilot: AgentDescriptor = {
  id: 'copilot',
  name: 'Copilot',
  icon: 'copilot',
  settingKey: 'copilot',
  parserVersion: COPILOT_PARSER_VERSION,
  vscodeChat: { participant: 'github.copilot-chat' },
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
