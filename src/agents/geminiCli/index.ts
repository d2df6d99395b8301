// Gemini CLI: its write_todos plans from its chat logs, read-only. Its pure parser is parser.ts,
// its folders locations.ts and locator.ts, the files its tools wrote fileWrites.ts, what each
// model response used usage.ts; the shared follower (src/agents/follow/) reads the files.
import * as path from 'node:path';
import type { AgentDescriptor } from '../agent';
import { startJsonlAgent } from '../follow/jsonlAgent';
import { geminiCliLocator } from './locator';
import { createGeminiCliParser } from './parser';

export * from './parser';

export const geminiCli: AgentDescriptor = {
  id: 'gemini-cli',
  name: 'Gemini CLI',
  icon: 'star-full',
  settingKey: 'geminiCli',
  parserVersion: 'gemini-cli/3',
  /** `~/.gemini`. */
  defaultFolder: (_env, home) => path.join(home, '.gemini'),
  start: (options) =>
    startJsonlAgent(
      {
        id: geminiCli.id,
        parserVersion: geminiCli.parserVersion,
        locator: (folder, workspaceFolders) => geminiCliLocator(folder, workspaceFolders),
        createParser: (_file, state, workspaceFolders) => createGeminiCliParser({ workspaceFolders }, state),
      },
      options,
    ),
};
