// Claude Code: its TodoWrite and Task plans from its transcripts, read-only. Its pure parser is
// parser.ts, its folders locations.ts and locator.ts, the files its tools wrote fileWrites.ts;
// the shared follower (src/agents/follow/) reads the files.
import * as path from 'node:path';
import type { AgentDescriptor } from '../agent';
import { startJsonlAgent } from '../follow/jsonlAgent';
import { claudeCodeLocator } from './locator';
import { createClaudeCodeParser, isClaudeSubagentFile } from './parser';

export * from './parser';

export const claudeCode: AgentDescriptor = {
  id: 'claude-code',
  name: 'Claude Code',
  icon: 'sparkle',
  settingKey: 'claudeCode',
  parserVersion: 'claude-code/3',
  /** `~/.claude`. */
  defaultFolder: (_env, home) => path.join(home, '.claude'),
  start: (options) =>
    startJsonlAgent(
      {
        id: claudeCode.id,
        parserVersion: claudeCode.parserVersion,
        locator: (folder, workspaceFolders) => claudeCodeLocator(folder, workspaceFolders),
        createParser: (file, state, workspaceFolders) => createClaudeCodeParser({ workspaceFolders, subagent: isClaudeSubagentFile(file) }, state),
      },
      options,
    ),
};
