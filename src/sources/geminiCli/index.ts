// Gemini CLI: its write_todos plans from its chat logs, read-only. Its pure parser is parser.ts; its files are found by
// src/node/sessionLocators.ts and followed by the shared follower (src/node/terminalSources.ts).
import { defaultAgentFolders, PARSER_VERSIONS, startTerminalAgent } from '../../node/terminalSources';
import type { AgentDescriptor } from '../agent';

export * from './parser';

export const geminiCli: AgentDescriptor = {
  id: 'gemini-cli',
  name: 'Gemini CLI',
  icon: 'star-full',
  settingKey: 'geminiCli',
  parserVersion: PARSER_VERSIONS['gemini-cli'],
  defaultFolder: (env, home) => defaultAgentFolders(env, home)['gemini-cli'],
  start: startTerminalAgent('gemini-cli'),
};
