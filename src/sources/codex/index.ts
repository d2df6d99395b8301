// Codex: its update_plan plans from its rollouts, read-only. Its pure parser is parser.ts; its files are found by
// src/node/sessionLocators.ts and followed by the shared follower (src/node/terminalSources.ts).
import { defaultAgentFolders, PARSER_VERSIONS, startTerminalSource } from '../../node/terminalSources';
import type { AgentDescriptor } from '../agent';

export * from './parser';

export const codex: AgentDescriptor = {
  id: 'codex',
  name: 'Codex',
  icon: 'terminal',
  settingKey: 'codex',
  parserVersion: PARSER_VERSIONS['codex'],
  defaultFolder: (env, home) => defaultAgentFolders(env, home)['codex'],
  start: (options) =>
    options.workspaceFolders.length === 0
      ? undefined
      : startTerminalSource({
          agent: 'codex',
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
