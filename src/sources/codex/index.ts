// Codex: its update_plan plans from its rollouts, read-only. Its pure parser is parser.ts; its files are found by
// src/node/sessionLocators.ts and followed by the shared follower (src/node/terminalSources.ts).
import { defaultAgentFolders, PARSER_VERSIONS, startTerminalAgent } from '../../node/terminalSources';
import type { AgentDescriptor } from '../agent';

export * from './parser';

export const codex: AgentDescriptor = {
  id: 'codex',
  name: 'Codex',
  icon: 'terminal',
  settingKey: 'codex',
  parserVersion: PARSER_VERSIONS['codex'],
  defaultFolder: (env, home) => defaultAgentFolders(env, home)['codex'],
  start: startTerminalAgent('codex'),
};
