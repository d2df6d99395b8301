// Claude Code: its TodoWrite and Task plans from its transcripts, read-only. Its pure parser is parser.ts; its files are found by
// src/node/sessionLocators.ts and followed by the shared follower (src/node/terminalSources.ts).
import { defaultAgentFolders, PARSER_VERSIONS, startTerminalAgent } from '../../node/terminalSources';
import type { AgentDescriptor } from '../agent';

export * from './parser';

export const claudeCode: AgentDescriptor = {
  id: 'claude-code',
  name: 'Claude Code',
  icon: 'sparkle',
  settingKey: 'claudeCode',
  parserVersion: PARSER_VERSIONS['claude-code'],
  defaultFolder: (env, home) => defaultAgentFolders(env, home)['claude-code'],
  start: startTerminalAgent('claude-code'),
};
