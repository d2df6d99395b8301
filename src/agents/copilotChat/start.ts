// Where Copilot's chat session files of this workspace are: `chatSessions/*.jsonl` in the
// workspace's storage folder, the parent of the extension's `context.storageUri`. Read-only.
import * as path from 'node:path';
import { Follower, type SessionFileLocator } from '../follow/follower';
import { jsonlFilesIn } from '../follow/jsonlFiles';
import { copilotChatFolder, copilotChatParserFactory, isCopilotChatFileName } from './parser';
import type { PlanSink, UnknownShape } from '../../core/foreign';

export function locateCopilotChats(workspaceStorageFolder: string): SessionFileLocator {
  const folder = copilotChatFolder(workspaceStorageFolder);
  return {
    list: () => jsonlFilesIn(folder, isCopilotChatFileName),
    watchFolders: () => [folder],
  };
}

export interface CopilotChatFollowerOptions {
  /** The workspace's storage folder (the parent of the extension's storageUri). */
  workspaceStorageFolder: string;
  /** Agent Plan's own storage; this follower keeps `sources/copilot/` in it. */
  storageDir: string;
  sink: PlanSink;
  onUnknownShape?(file: string, shape: UnknownShape): void;
  onError?(error: unknown, file?: string): void;
  onPolling?(reason: string): void;
}

/** Bumped when the parser changes what it reads: every chat file is read again once (what each bump read: CHANGELOG.md). */
export const COPILOT_PARSER_VERSION = 'copilot/4';

/** A started follower of this workspace's Copilot chats; dispose it to stop. */
export function startCopilotChatFollower(options: CopilotChatFollowerOptions): Follower {
  const follower = new Follower({
    locator: locateCopilotChats(options.workspaceStorageFolder),
    createParser: copilotChatParserFactory(),
    parserVersion: COPILOT_PARSER_VERSION,
    sink: options.sink,
    cursorDir: path.join(options.storageDir, 'sources', 'copilot', 'cursors'),
    onUnknownShape: (file, shape) => options.onUnknownShape?.(file, shape),
    onError: (error, file) => options.onError?.(error, file),
    onPolling: (reason) => options.onPolling?.(reason),
  });
  follower.start();
  return follower;
}

