// Codex: its update_plan plans from its rollouts, read-only. Its pure parser is parser.ts, its
// folders locations.ts and locator.ts, the files its apply_patch calls wrote fileWrites.ts; the
// shared follower (src/agents/follow/) reads the files.
import * as path from 'node:path';
import type { AgentDescriptor } from '../agent';
import { startJsonlAgent } from '../follow/jsonlAgent';
import { codexLocator } from './locator';
import { createCodexParser } from './parser';

export * from './parser';

export const codex: AgentDescriptor = {
  id: 'codex',
  name: 'Codex',
  icon: 'terminal',
  settingKey: 'codex',
  parserVersion: 'codex/3',
  /** `$CODEX_HOME`, or `~/.codex`. */
  defaultFolder: (env, home) => {
    const codexHome = env['CODEX_HOME'];
    return codexHome !== undefined && codexHome !== '' ? codexHome : path.join(home, '.codex');
  },
  start: (options) =>
    startJsonlAgent(
      {
        id: codex.id,
        parserVersion: codex.parserVersion,
        locator: (folder, workspaceFolders, own) => codexLocator(folder, workspaceFolders, { decisionsFile: path.join(own, 'rollouts.json') }),
        createParser: (_file, state) => createCodexParser(state),
      },
      options,
    ),
};
