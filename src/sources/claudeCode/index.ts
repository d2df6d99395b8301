// Claude Code: its TodoWrite and Task plans from its transcripts, read-only. Its pure parser is parser.ts; its files are found by
// src/node/sessionLocators.ts and followed by the shared follower (src/node/terminalSources.ts).
import { defaultAgentFolders, PARSER_VERSIONS, startTerminalSource } from '../../node/terminalSources';
import type { AgentDescriptor } from '../agent';

export * from './parser';

export const claudeCode: AgentDescriptor = {
  id: 'claude-code',
  name: 'Claude Code',
  icon: 'sparkle',
  settingKey: 'claudeCode',
  parserVersion: PARSER_VERSIONS['claude-code'],
  defaultFolder: (env, home) => defaultAgentFolders(env, home)['claude-code'],
  start: (options) =>
    options.workspaceFolders.length === 0
      ? undefined
      : startTerminalSource({
          agent: 'claude-code',
          folder: options.folder,
          workspaceFolders: options.workspaceFolders,
          storageDir: options.storageDir,
          sink: options.sink,
          onUnknownShape: options.onUnknownShape,
          onError: options.onError,
          onPolling: options.onPolling,
          ...(options.throttleMs !== undefined ? { throttleMs: options.throttleMs } : {}),
          ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
        }),
};
