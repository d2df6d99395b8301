// Where Copilot's chat session files of this workspace are: `chatSessions/*.jsonl` in the
// workspace's storage folder, the parent of the extension's `context.storageUri`. Read-only.
import type { SessionFileLocator } from './follower';
import { jsonlFilesIn } from './sessionLocators';
import { copilotChatFolder, isCopilotChatFileName } from '../sources/copilotChat';

export function locateCopilotChats(workspaceStorageFolder: string): SessionFileLocator {
  const folder = copilotChatFolder(workspaceStorageFolder);
  return {
    list: () => jsonlFilesIn(folder, isCopilotChatFileName),
    watchFolders: () => [folder],
  };
}
