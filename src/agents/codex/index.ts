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
  about: {
    docsName: 'Codex CLI',
    tested: '0.171.0',
    planTools: '`update_plan`',
    switchOn: '`[tools.update_plan] enabled = true` in `$CODEX_HOME/config.toml` (`~/.codex`): without it `codex exec` offered no `update_plan`.',
    reads: {
      source: 'Codex CLI (`update_plan`)',
      files: '`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl` (default `~/.codex`)',
      sessions: 'rollouts whose `session_meta.payload.cwd` is a workspace folder (only the first line is read to decide, once)',
      session: 'one thread',
    },
    readme: { agent: 'Codex CLI (0.171.0)', reads: '`update_plan` and `apply_patch`, from `~/.codex/sessions/…/rollout-*.jsonl`', switchOn: '`[tools.update_plan] enabled = true` in `~/.codex/config.toml`' },
    settings: {
      enabled: { planTools: ['update_plan'] },
      folder: { empty: ['`$CODEX_HOME`', '`~/.codex`'] },
      meaning: "Codex's plans, and the folder to read.",
    },
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
